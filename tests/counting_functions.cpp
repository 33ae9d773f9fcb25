#include "counting_functions.hpp"

#include <cstring>
#include <mutex>
#include <tuple>
#include <type_traits>

namespace vkspd_test {
namespace {

PFN_vkGetInstanceProcAddr gRealInstance = nullptr;
PFN_vkGetDeviceProcAddr gRealDevice = nullptr;

enum class Kind { Command, Create, CreateMany, Destroy, Other };

std::atomic<VkSubgroupFeatureFlags> gHiddenSubgroupOperations{0};

// Counts (CallCounts::hiddenSubgroupModules) a module that declares the SPIR-V capability of a
// subgroup operation hideSubgroupOperations hides: GroupNonUniform (61) for the basic bit, then
// one capability per bit in VkSubgroupFeatureFlagBits' order, up to GroupNonUniformQuad (68).
void noteHiddenCapabilities(const VkShaderModuleCreateInfo* info) {
    const VkSubgroupFeatureFlags hidden = gHiddenSubgroupOperations;
    if (!hidden || !info || !info->pCode) return;
    constexpr uint32_t kOpCapability = 17, kFirst = 61, kLast = 68;
    const uint32_t* w = info->pCode;
    for (size_t i = 5, n = info->codeSize / 4; i < n;) {
        const uint32_t count = w[i] >> 16;
        if (count == 0) return;
        if ((w[i] & 0xffffu) == kOpCapability && count == 2 && w[i + 1] >= kFirst && w[i + 1] <= kLast &&
            (hidden & (1u << (w[i + 1] - kFirst))) != 0) {
            callCounts().hiddenSubgroupModules++;
            return;
        }
        i += count;
    }
}

// One wrapper per (function type, name): counts, then forwards to the real pointer.
template <typename Pfn, Kind K, int Id>
struct Wrap;

template <typename R, typename... Args, Kind K, int Id>
struct Wrap<R(VKAPI_PTR*)(Args...), K, Id> {
    using Pfn = R(VKAPI_PTR*)(Args...);
    static inline Pfn real = nullptr;

    static VKAPI_ATTR R VKAPI_CALL call(Args... args) {
        CallCounts& c = callCounts();
        if constexpr (K == Kind::Command) c.commands++;
        if constexpr (K == Kind::Create || K == Kind::CreateMany) {
            static_assert(std::is_same_v<R, VkResult>);
            const uint64_t n = ++c.attempts;
            if (c.failAt && n == c.failAt) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
            if constexpr (std::is_same_v<Pfn, PFN_vkCreateShaderModule>)
                noteHiddenCapabilities(std::get<1>(std::make_tuple(args...)));
            R r = real(args...);
            if (r == VK_SUCCESS) {
                if constexpr (K == Kind::CreateMany) {
                    c.creates += std::get<2>(std::make_tuple(args...));  // (device, cache, count, ...)
                } else {
                    c.creates++;
                }
            }
            return r;
        } else if constexpr (K == Kind::Destroy) {
            // (device, handle, allocator): destroying a null handle is a no-op.
            if (std::get<1>(std::make_tuple(args...)) != nullptr) c.destroys++;
            return real(args...);
        } else {
            return real(args...);
        }
    }
};

// Every function vkspd loads (src/functions.hpp), with how it is counted.
#define VKSPD_COUNTED(X)                                                  \
    X(vkCreateShaderModule, Create) X(vkDestroyShaderModule, Destroy)     \
    X(vkCreateDescriptorSetLayout, Create) X(vkDestroyDescriptorSetLayout, Destroy) \
    X(vkCreatePipelineLayout, Create) X(vkDestroyPipelineLayout, Destroy) \
    X(vkCreateComputePipelines, CreateMany) X(vkCreateGraphicsPipelines, CreateMany) \
    X(vkDestroyPipeline, Destroy)                                         \
    X(vkCreateSampler, Create) X(vkDestroySampler, Destroy)               \
    X(vkCreateImageView, Create) X(vkDestroyImageView, Destroy)           \
    X(vkCreateBuffer, Create) X(vkDestroyBuffer, Destroy)                 \
    X(vkAllocateMemory, Create) X(vkFreeMemory, Destroy)                  \
    X(vkCreateRenderPass, Create) X(vkDestroyRenderPass, Destroy)         \
    X(vkCreateFramebuffer, Create) X(vkDestroyFramebuffer, Destroy)       \
    X(vkCmdBindPipeline, Command) X(vkCmdPushConstants, Command)          \
    X(vkCmdDispatch, Command) X(vkCmdPipelineBarrier, Command)            \
    X(vkCmdBeginRenderPass, Command) X(vkCmdEndRenderPass, Command)       \
    X(vkCmdDraw, Command) X(vkCmdSetViewport, Command)                    \
    X(vkCmdSetScissor, Command) X(vkCmdBlitImage, Command)                \
    X(vkCmdPushDescriptorSetKHR, Command) X(vkCmdPipelineBarrier2, Command) \
    X(vkCmdFillBuffer, Command)


PFN_vkVoidFunction wrapDevice(VkDevice device, const char* name);

std::mutex gPushedMutex;
std::vector<VkBuffer> gPushedCounterBuffers;
PFN_vkCmdPushDescriptorSetKHR gRealPushDescriptorSet = nullptr;

// vkCmdPushDescriptorSetKHR: counted, and the counters buffer it binds remembered.
VKAPI_ATTR void VKAPI_CALL pushDescriptorSet(VkCommandBuffer cmd, VkPipelineBindPoint bindPoint,
                                             VkPipelineLayout layout, uint32_t set, uint32_t count,
                                             const VkWriteDescriptorSet* writes) {
    callCounts().commands++;
    for (uint32_t i = 0; i < count; ++i) {
        if (writes[i].dstBinding == 2 && writes[i].descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) {
            std::lock_guard<std::mutex> lock(gPushedMutex);
            gPushedCounterBuffers.push_back(writes[i].pBufferInfo[0].buffer);
        }
    }
    gRealPushDescriptorSet(cmd, bindPoint, layout, set, count, writes);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetDeviceProcAddr(VkDevice device, const char* name) {
    return wrapDevice(device, name);
}

template <typename W>
PFN_vkVoidFunction wrapped(PFN_vkVoidFunction real) {
    if (!real) return nullptr;
    W::real = reinterpret_cast<typename W::Pfn>(real);
    return reinterpret_cast<PFN_vkVoidFunction>(&W::call);
}

PFN_vkVoidFunction wrapDevice(VkDevice device, const char* name) {
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0)
        return reinterpret_cast<PFN_vkVoidFunction>(&countingGetDeviceProcAddr);
    PFN_vkVoidFunction real = gRealDevice(device, name);
    if (std::strcmp(name, "vkCmdPushDescriptorSetKHR") == 0) {
        gRealPushDescriptorSet = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(real);
        return real ? reinterpret_cast<PFN_vkVoidFunction>(&pushDescriptorSet) : nullptr;
    }
    // The KHR alias of vkCmdPipelineBarrier2 has the same signature.
    if (std::strcmp(name, "vkCmdPipelineBarrier2KHR") == 0)
        return wrapped<Wrap<PFN_vkCmdPipelineBarrier2, Kind::Command, -1>>(real);
#define VKSPD_MATCH(fn, kind) \
    if (std::strcmp(name, #fn) == 0) return wrapped<Wrap<PFN_##fn, Kind::kind, __COUNTER__>>(real);
    VKSPD_COUNTED(VKSPD_MATCH)
#undef VKSPD_MATCH
    return real;
}

}  // namespace

CallCounts& callCounts() {
    static CallCounts counts;
    return counts;
}

std::vector<VkBuffer> takePushedCounterBuffers() {
    std::lock_guard<std::mutex> lock(gPushedMutex);
    std::vector<VkBuffer> out;
    out.swap(gPushedCounterBuffers);
    return out;
}

void setRealGetInstanceProcAddr(PFN_vkGetInstanceProcAddr real) { gRealInstance = real; }

namespace {
PFN_vkGetPhysicalDeviceProperties2 gRealProperties2 = nullptr;

VKAPI_ATTR void VKAPI_CALL hidingGetPhysicalDeviceProperties2(VkPhysicalDevice device,
                                                               VkPhysicalDeviceProperties2* properties) {
    gRealProperties2(device, properties);
    for (auto* s = reinterpret_cast<VkBaseOutStructure*>(properties->pNext); s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES)
            reinterpret_cast<VkPhysicalDeviceSubgroupProperties*>(s)->supportedOperations &= ~gHiddenSubgroupOperations;
}
}  // namespace

void hideSubgroupOperations(VkSubgroupFeatureFlags operations) { gHiddenSubgroupOperations = operations; }

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL countingGetInstanceProcAddr(VkInstance instance, const char* name) {
    if (std::strcmp(name, "vkGetPhysicalDeviceProperties2") == 0) {
        gRealProperties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(gRealInstance(instance, name));
        return gRealProperties2 ? reinterpret_cast<PFN_vkVoidFunction>(&hidingGetPhysicalDeviceProperties2) : nullptr;
    }
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
        gRealDevice = reinterpret_cast<PFN_vkGetDeviceProcAddr>(gRealInstance(instance, name));
        return gRealDevice ? reinterpret_cast<PFN_vkVoidFunction>(&countingGetDeviceProcAddr) : nullptr;
    }
    return gRealInstance(instance, name);
}

}  // namespace vkspd_test
