// A counting layer between vkspd and the Vulkan loader, passed to the library through
// VulkanFunctions: it forwards every call the library makes and counts recorded commands
// (vkCmd*) and object lifetimes (create/allocate against destroy/free), and can make the Nth
// create or allocate fail, so tests can prove that a failing call records nothing and leaks
// nothing.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace vkspd_test {

struct CallCounts {
    std::atomic<uint64_t> commands{0};   // vkCmd* calls
    std::atomic<uint64_t> creates{0};    // successful vkCreate* / vkAllocate* (objects made)
    std::atomic<uint64_t> destroys{0};   // vkDestroy* / vkFree* on a non-null handle
    std::atomic<uint64_t> attempts{0};   // vkCreate* / vkAllocate* calls, failed ones included
    // vkCreateShaderModule calls whose module declares the capability of a subgroup operation
    // hideSubgroupOperations hides: a module the device it describes could not run.
    std::atomic<uint64_t> hiddenSubgroupModules{0};
    // When non-zero, the create or allocate call with this 1-based attempt number returns
    // VK_ERROR_OUT_OF_DEVICE_MEMORY without reaching the driver.
    std::atomic<uint64_t> failAt{0};
    void reset() {
        commands = 0;
        creates = 0;
        destroys = 0;
        attempts = 0;
        hiddenSubgroupModules = 0;
        failAt = 0;
    }
    int64_t live() const { return int64_t(creates.load()) - int64_t(destroys.load()); }
};

// The process-wide counters of countingGetInstanceProcAddr.
CallCounts& callCounts();

// Subgroup operations the layer's vkGetPhysicalDeviceProperties2 leaves out of
// VkPhysicalDeviceSubgroupProperties::supportedOperations from now on (0: none), so a test can
// see the library on a device without them; shader modules that declare one of them are counted
// (CallCounts::hiddenSubgroupModules). Process-wide: reset it to 0 when done.
void hideSubgroupOperations(VkSubgroupFeatureFlags operations);

// The buffers vkCmdPushDescriptorSetKHR bound as the counters (binding 2, VKSPD_BINDING_COUNTERS)
// since the last call, in recording order: which scratch slot each dispatch took.
std::vector<VkBuffer> takePushedCounterBuffers();

// Forwards to `real` (the loader's vkGetInstanceProcAddr), returning counting wrappers for every
// function vkspd loads. Set `real` once before use.
void setRealGetInstanceProcAddr(PFN_vkGetInstanceProcAddr real);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetInstanceProcAddr(VkInstance instance, const char* name);

}  // namespace vkspd_test
