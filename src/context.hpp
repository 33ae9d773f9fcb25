// The Context's internals, shared by context.cpp (lifetime, pipelines, scratch, views) and
// record.cpp (validation, barriers, the dispatch).
#pragma once

#include "functions.hpp"
#include "planner.hpp"

#include <vkspd/vkspd.hpp>

#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <new>
#include <tuple>
#include <vector>

namespace vkspd {

// SPIR-V of one shader variant, embedded at build time.
struct SpirvBlob {
    const uint32_t* words;
    size_t bytes;
};
SpirvBlob embeddedSpirv(bool fp16, bool quad);

struct OwnedBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
};

// The views of one image range: the sampled base level and one storage view per written level.
struct ImageViews {
    VkImageView source = VK_NULL_HANDLE;
    std::array<VkImageView, VKSPD_MAX_LEVELS> levels{};
};

// (image, format, base level, levels below it, first layer, layers)
using ViewKey = std::tuple<VkImage, VkFormat, uint32_t, uint32_t, uint32_t, uint32_t>;

// A scratch range for one dispatch.
struct ScratchRange {
    VkBuffer counters = VK_NULL_HANDLE;
    VkDeviceSize countersOffset = 0;
    VkBuffer data = VK_NULL_HANDLE;
    VkDeviceSize dataOffset = 0;
};

}  // namespace vkspd

struct vkspd::ContextT {
    ContextCreateInfo info;
    Functions fn;
    VkPhysicalDeviceProperties properties{};
    uint32_t subgroupSize = 0;
    bool quadSupported = false;

    VkSampler sampler = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
    VkPipeline pipelines[2][2] = {};  // [fp16][quad]; null where the device cannot run it

    // Internal scratch ring: per slot, a host-zeroed counter buffer and a device-local data
    // buffer, each growing to the largest dispatch seen (outgrown ones are kept until
    // destruction, since recorded work may still use them).
    uint32_t slotCount = 0;
    std::vector<OwnedBuffer> counterSlots;
    std::vector<OwnedBuffer> dataSlots;
    std::vector<OwnedBuffer> retiredBuffers;
    std::atomic<uint32_t> nextSlot{0};

    std::mutex mutex;  // guards views, dataSlots and retiredBuffers
    std::map<ViewKey, ImageViews> views;

    VkDevice device() const { return info.device; }
    const VkAllocationCallbacks* allocator() const { return info.allocationCallbacks; }
};

namespace vkspd {

// Runs `body` (returning Result) and turns any exception into an error Result: no exception
// leaves the API. The message is short enough not to allocate.
template <typename Body>
Result guarded(Body&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        Result r;
        r.vkResult = VK_ERROR_OUT_OF_HOST_MEMORY;
        r.message = "out of memory";
        return r;
    } catch (...) {
        Result r;
        r.vkResult = VK_ERROR_UNKNOWN;
        r.message = "internal error";
        return r;
    }
}

// createContext with extra flags for its pipelines (for developer tools: for example
// VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, with pipelineExecutableInfo enabled).
Result createContextWithPipelineFlags(const ContextCreateInfo& createInfo,
                                      VkPipelineCreateFlags pipelineFlags, Context* context) noexcept;

// Helpers in context.cpp used by record.cpp.
Result getImageViews(Context context, const MipGenInfo& info, uint32_t levelsBelowBase,
                     uint32_t layers, ImageViews* views);
Result acquireScratch(Context context, const Plan& plan, ScratchRange* range);
VkDeviceSize alignUp(VkDeviceSize value, VkDeviceSize alignment);

}  // namespace vkspd
