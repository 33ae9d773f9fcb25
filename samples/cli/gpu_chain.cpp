#include "gpu_chain.hpp"

#include "options.hpp"

#include <vkspd/reference.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace vkspd_cli {

namespace {

using vkspd_tools::Gpu;

std::string vkError(const char* what, VkResult r) {
    return std::string(what) + " failed (VkResult " + std::to_string(int(r)) + ")";
}

// Everything one chain creates, destroyed in reverse on every path out.
struct Resources {
    const Gpu& g;
    vkspd::Context context;
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory imageMemory = VK_NULL_HANDLE;
    VkBuffer staging = VK_NULL_HANDLE;
    VkDeviceMemory stagingMemory = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    VkBuffer map = VK_NULL_HANDLE;
    VkDeviceMemory mapMemory = VK_NULL_HANDLE;

    Resources(const Gpu& gpu, vkspd::Context c) : g(gpu), context(c) {}
    ~Resources() {
        if (queries) vkDestroyQueryPool(g.device, queries, nullptr);
        if (map) vkDestroyBuffer(g.device, map, nullptr);
        if (mapMemory) vkFreeMemory(g.device, mapMemory, nullptr);
        if (pool) vkDestroyCommandPool(g.device, pool, nullptr);
        if (staging) vkDestroyBuffer(g.device, staging, nullptr);
        if (stagingMemory) vkFreeMemory(g.device, stagingMemory, nullptr);
        if (image) {
            vkspd::forgetImage(context, image);
            vkDestroyImage(g.device, image, nullptr);
        }
        if (imageMemory) vkFreeMemory(g.device, imageMemory, nullptr);
    }
};

VkResult submitAndWait(const Gpu& g, VkCommandBuffer cmd) {
    VkResult r = vkEndCommandBuffer(cmd);
    if (r != VK_SUCCESS) return r;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    r = vkQueueSubmit(g.queue, 1, &si, VK_NULL_HANDLE);
    if (r != VK_SUCCESS) return r;
    return vkQueueWaitIdle(g.queue);
}

// The debug variant once more on the finished chain (from TRANSFER_SRC back to it: level 0 is
// unchanged, so the levels come out the same), its map read back into out->map.
bool runDebugMap(const Gpu& g, vkspd::Context context, const vkspd::MipGenInfo& chain, bool smBuiltins,
                 Resources* res, VkCommandBuffer cmd, const VkCommandBufferBeginInfo& begin, ChainResult* out,
                 std::string* reason) {
    vkspd::MipGenInfo info = chain;
    info.before = info.after;
    if (info.precision == vkspd::Precision::Auto) info.precision = out->dispatch.fp16 ? vkspd::Precision::FP16
                                                                                      : vkspd::Precision::FP32;
    const VkDeviceSize bytes = vkspd::debugMapSize(context, info);
    if (!bytes) {
        *reason = "the debug map needs the single pass with the average reduction and a level to write";
        return false;
    }
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = bytes;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkResult vr = vkCreateBuffer(g.device, &bi, nullptr, &res->map);
    VkMemoryRequirements mr{};
    void* mapped = nullptr;
    if (vr == VK_SUCCESS) vkGetBufferMemoryRequirements(g.device, res->map, &mr);
    if (vr != VK_SUCCESS ||
        (vr = vkspd_tools::tryAllocate(
             g, mr, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &res->mapMemory)) !=
            VK_SUCCESS ||
        (vr = vkBindBufferMemory(g.device, res->map, res->mapMemory, 0)) != VK_SUCCESS ||
        (vr = vkMapMemory(g.device, res->mapMemory, 0, VK_WHOLE_SIZE, 0, &mapped)) != VK_SUCCESS) {
        *reason = vkError("allocating the debug map", vr);
        return false;
    }
    if ((vr = vkResetCommandPool(g.device, res->pool, 0)) != VK_SUCCESS ||
        (vr = vkBeginCommandBuffer(cmd, &begin)) != VK_SUCCESS) {
        *reason = vkError("preparing the debug map", vr);
        return false;
    }
    vkspd::DebugMapInfo map;
    map.buffer = res->map;
    map.smBuiltinsEnabled = smBuiltins;
    if (vkspd::Result r = vkspd::generateMipsDebugMap(context, cmd, info, map); !r.ok()) {
        *reason = r.message;
        return false;
    }
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                         nullptr, 0, nullptr);
    if ((vr = submitAndWait(g, cmd)) != VK_SUCCESS) {
        *reason = vkError("running the debug map", vr);
        return false;
    }
    const size_t tiles = size_t(out->dispatch.groupsX) * out->dispatch.groupsY;
    const auto* first = reinterpret_cast<const vkspd::DebugMapTile*>(static_cast<const uint8_t*>(mapped) +
                                                                     vkspd::kDebugMapHeaderBytes);
    out->map.assign(first, first + tiles);
    return true;
}

// The image's usage and create flags for the fastest path the format allows on this device:
// STORAGE for the single pass (through the UNORM twin of an sRGB format: MUTABLE_FORMAT, and
// EXTENDED_USAGE where the sRGB format itself cannot be a storage image), else COLOR_ATTACHMENT
// for the library's render-pass fallback, else the blit chain. Checks that such an image of the
// requested size can be made.
bool planImage(const Gpu& g, const ChainRequest& req, const vkspd::FormatInfo& fi, uint32_t levels, ChainResult* out,
               std::string* reason, int* exitCode) {
    const VkFormat storageFormat = fi.storageFormat != VK_FORMAT_UNDEFINED ? fi.storageFormat : req.format;
    VkFormatProperties own{}, twin{};
    vkGetPhysicalDeviceFormatProperties(g.physical, req.format, &own);
    vkGetPhysicalDeviceFormatProperties(g.physical, storageFormat, &twin);
    VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                              VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImageCreateFlags flags = 0;
    if (twin.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) {
        usage |= VK_IMAGE_USAGE_STORAGE_BIT;
        if (storageFormat != req.format) {
            flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
            if (!(own.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
                flags |= VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
        }
    } else if (own.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) {
        usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    }
    out->usage = usage;
    out->createFlags = flags;

    VkImageFormatProperties ifp{};
    VkResult vr = vkGetPhysicalDeviceImageFormatProperties(g.physical, req.format, VK_IMAGE_TYPE_2D,
                                                           VK_IMAGE_TILING_OPTIMAL, usage, flags, &ifp);
    if (vr != VK_SUCCESS) {
        *reason = std::string(fi.name) + " images with the usage vkspd needs are not supported on " +
                  g.properties.deviceName;
        return false;
    }
    if (req.width > ifp.maxExtent.width || req.height > ifp.maxExtent.height || levels > ifp.maxMipLevels) {
        *reason = std::to_string(req.width) + "x" + std::to_string(req.height) + " exceeds the largest " + fi.name +
                  " image on this device (" + std::to_string(ifp.maxExtent.width) + "x" +
                  std::to_string(ifp.maxExtent.height) + ")";
        *exitCode = kExitBadInput;
        return false;
    }
    return true;
}

// The device-local image with every level.
bool createImage(const Gpu& g, const ChainRequest& req, uint32_t levels, const ChainResult& out, Resources* res,
                 std::string* reason) {
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.flags = out.createFlags;
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = req.format;
    ii.extent = {req.width, req.height, 1};
    ii.mipLevels = levels;
    ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.tiling = VK_IMAGE_TILING_OPTIMAL;
    ii.usage = out.usage;
    VkResult vr;
    if ((vr = vkCreateImage(g.device, &ii, nullptr, &res->image)) != VK_SUCCESS) {
        *reason = vkError("vkCreateImage", vr);
        return false;
    }
    VkMemoryRequirements mr;
    vkGetImageMemoryRequirements(g.device, res->image, &mr);
    if ((vr = vkspd_tools::tryAllocate(g, mr, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &res->imageMemory)) != VK_SUCCESS ||
        (vr = vkBindImageMemory(g.device, res->image, res->imageMemory, 0)) != VK_SUCCESS) {
        *reason = vkError("allocating the image", vr);
        return false;
    }
    return true;
}

// The host-visible buffer the chain goes through, level 0 copied in; out->offsets of each level.
bool createStaging(const Gpu& g, const ChainRequest& req, const vkspd::FormatInfo& fi, uint32_t levels,
                   Resources* res, ChainResult* out, void** mapped, size_t* total, std::string* reason) {
    out->levels = levels;
    out->offsets.clear();
    *total = 0;
    for (uint32_t l = 0; l < levels; ++l) {
        out->offsets.push_back(*total);
        *total += size_t(vkspd::mipExtent(req.width, l)) * vkspd::mipExtent(req.height, l) * fi.bytesPerTexel;
    }
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = *total;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkResult vr;
    if ((vr = vkCreateBuffer(g.device, &bi, nullptr, &res->staging)) != VK_SUCCESS) {
        *reason = vkError("vkCreateBuffer", vr);
        return false;
    }
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(g.device, res->staging, &mr);
    if ((vr = vkspd_tools::tryAllocate(g, mr, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                       &res->stagingMemory)) != VK_SUCCESS ||
        (vr = vkBindBufferMemory(g.device, res->staging, res->stagingMemory, 0)) != VK_SUCCESS ||
        (vr = vkMapMemory(g.device, res->stagingMemory, 0, VK_WHOLE_SIZE, 0, mapped)) != VK_SUCCESS) {
        *reason = vkError("allocating the staging buffer", vr);
        return false;
    }
    std::memcpy(*mapped, req.level0->data(), out->offsets.size() > 1 ? out->offsets[1] : *total);
    return true;
}

// The whole chain of the request, from TRANSFER_DST (level 0 uploaded) to TRANSFER_SRC.
vkspd::MipGenInfo chainInfo(const ChainRequest& req, const ChainResult& out, VkImage image, uint32_t levels) {
    vkspd::MipGenInfo info;
    info.image = image;
    info.format = req.format;
    info.usage = out.usage;
    info.createFlags = out.createFlags;
    info.extent = {req.width, req.height};
    info.imageMipLevels = levels;
    info.before = {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT};
    info.after = {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT};
    info.reduction = req.reduction;
    info.precision = req.precision;
    info.subgroupPath = req.subgroupPath;
    info.fetch = req.fetch;
    info.tuning = &req.tuning;  // req outlives every use of the returned info
    return info;
}

// Records into `cmd` (begun): level 0 uploaded, the chain generated, every level read back into
// the staging buffer.
bool recordChain(vkspd::Context context, VkCommandBuffer cmd, const ChainRequest& req, const Resources& res,
                 const vkspd::MipGenInfo& info, ChainResult* out, std::string* reason) {
    const uint32_t levels = info.imageMipLevels;
    vkspd_tools::imageBarrier(cmd, res.image, levels, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
                              VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy up{};
    up.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    up.imageExtent = {req.width, req.height, 1};
    vkCmdCopyBufferToImage(cmd, res.staging, res.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &up);
    // The readback below overwrites the staging bytes the upload reads (write after read).
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 0, nullptr);
    if (vkspd::Result r = vkspd::describeDispatch(context, info, &out->dispatch); !r.ok()) {
        *reason = r.message;
        return false;
    }
    out->schedule = {};
    if (out->dispatch.path == vkspd::Path::SinglePass) {
        if (vkspd::Result r = vkspd::describeSchedule(context, info, &out->schedule); !r.ok()) {
            *reason = r.message;
            return false;
        }
    }
    if (vkspd::Result r = vkspd::generateMips(context, cmd, info); !r.ok()) {
        *reason = r.message;
        return false;
    }
    for (uint32_t l = 0; l < levels; ++l) {
        VkBufferImageCopy down{};
        down.bufferOffset = out->offsets[l];
        down.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
        down.imageExtent = {vkspd::mipExtent(req.width, l), vkspd::mipExtent(req.height, l), 1};
        vkCmdCopyImageToBuffer(cmd, res.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, res.staging, 1, &down);
    }
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr,
                         0, nullptr);
    return true;
}

// The SM clock of the process's device, opened on first use (the CLI runs on one device).
const vkspd_tools::SmClock& smClockOf(const Gpu& g) {
    static vkspd_tools::SmClock clock;
    static bool opened = false;
    if (!opened) {
        opened = true;
        vkspd_tools::openSmClock(g, &clock);
    }
    return clock;
}

// What --bench and --bench-cold share: the finished chain, its dispatch repeated with the image in
// GENERAL (timing the dispatch, not layout transitions), timestamps around each.
struct BenchSetup {
    const Gpu& g;
    vkspd::Context context;
    Resources& res;
    VkCommandBuffer cmd;
    const VkCommandBufferBeginInfo& begin;
    vkspd::MipGenInfo again;  // The chain, GENERAL before and after.
    double chainBytes;        // Level 0 read + levels 1.. written.
    const vkspd_tools::SmClock* clock;  // Null where the SM clock cannot be read.

    double gbPerSecond(double us) const { return us > 0 ? chainBytes / (us * 1e-6) * 1e-9 : 0; }

    // Records `calls` timed dispatches into `cmd` (reset and begun here, ended).
    bool recordTimed(uint32_t calls, VkCommandBufferUsageFlags usage, std::string* reason) const {
        VkCommandBufferBeginInfo b = begin;
        b.flags = usage;
        VkResult vr;
        if ((vr = vkResetCommandPool(g.device, res.pool, 0)) != VK_SUCCESS ||
            (vr = vkBeginCommandBuffer(cmd, &b)) != VK_SUCCESS) {
            *reason = vkError("preparing --bench", vr);
            return false;
        }
        vkCmdResetQueryPool(cmd, res.queries, 0, 2 * calls);
        for (uint32_t r = 0; r < calls; ++r) {
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, res.queries, 2 * r);
            if (vkspd::Result gr = vkspd::generateMips(context, cmd, again); !gr.ok()) {
                *reason = gr.message;
                return false;
            }
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, res.queries, 2 * r + 1);
        }
        if ((vr = vkEndCommandBuffer(cmd)) != VK_SUCCESS) {
            *reason = vkError("preparing --bench", vr);
            return false;
        }
        return true;
    }

    // Submits `cmd` (recorded), waits, and returns each call's GPU time.
    bool runTimed(uint32_t calls, std::vector<double>* us, std::string* reason) const {
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        VkResult vr = vkQueueSubmit(g.queue, 1, &si, VK_NULL_HANDLE);
        if (vr == VK_SUCCESS) vr = vkQueueWaitIdle(g.queue);
        if (vr != VK_SUCCESS) {
            *reason = vkError("running --bench", vr);
            return false;
        }
        std::vector<uint64_t> stamps(2 * size_t(calls));
        if ((vr = vkGetQueryPoolResults(g.device, res.queries, 0, 2 * calls, stamps.size() * 8, stamps.data(), 8,
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)) != VK_SUCCESS) {
            *reason = vkError("vkGetQueryPoolResults", vr);
            return false;
        }
        *us = vkspd_tools::callTimesUs(g, stamps, calls);
        return true;
    }
};

// The image from TRANSFER_SRC (the finished chain) to GENERAL, and the query pool for `calls`.
bool prepareBench(const BenchSetup& b, uint32_t calls, std::string* reason) {
    VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpi.queryCount = 2 * calls;
    VkResult vr;
    if ((vr = vkCreateQueryPool(b.g.device, &qpi, nullptr, &b.res.queries)) != VK_SUCCESS ||
        (vr = vkResetCommandPool(b.g.device, b.res.pool, 0)) != VK_SUCCESS ||
        (vr = vkBeginCommandBuffer(b.cmd, &b.begin)) != VK_SUCCESS) {
        *reason = vkError("preparing --bench", vr);
        return false;
    }
    vkspd_tools::imageBarrier(b.cmd, b.res.image, b.again.imageMipLevels, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                              VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if ((vr = submitAndWait(b.g, b.cmd)) != VK_SUCCESS) {
        *reason = vkError("running --bench", vr);
        return false;
    }
    return true;
}

// --bench-cold: each dispatch alone, after kColdIdleMs with nothing on the GPU.
bool runBenchCold(const BenchSetup& b, uint32_t runs, ColdBenchResult* cold, std::string* reason) {
    if (!b.recordTimed(1, 0, reason)) return false;  // submitted again for every run
    std::vector<double> us;
    for (uint32_t r = 0; r < runs; ++r) {
        std::this_thread::sleep_for(std::chrono::milliseconds(kColdIdleMs));
        if (b.clock) cold->clockMhz.push_back(b.clock->readMhz());
        std::vector<double> one;
        if (!b.runTimed(1, &one, reason)) return false;
        us.push_back(one[0]);
    }
    cold->runs = runs;
    cold->medianUs = vkspd_tools::medianOf(us);
    cold->minUs = *std::min_element(us.begin(), us.end());
    cold->maxUs = *std::max_element(us.begin(), us.end());
    cold->gbPerSecond = b.gbPerSecond(cold->medianUs);
    return true;
}

// --bench: the warm-up until steady, then `runs` dispatches timed back to back (recorded before
// the warm-up, so they follow it without a pause).
bool runBenchWarm(const BenchSetup& b, uint32_t runs, BenchResult* bench, std::string* reason) {
    if (!b.recordTimed(runs, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, reason)) return false;
    const vkspd::Context context = b.context;
    const vkspd::MipGenInfo& again = b.again;
    auto call = [context, &again](VkCommandBuffer c, std::string* why) {
        vkspd::Result r = vkspd::generateMips(context, c, again);
        if (!r.ok()) *why = r.message;
        return r.ok();
    };
    if (!vkspd_tools::warmUp(b.g, call, benchWarmupRule(), b.clock, &bench->warmup, reason)) return false;
    std::vector<double> us;
    if (!b.runTimed(runs, &us, reason)) return false;
    bench->clockAfterTimingMhz = b.clock ? b.clock->readMhz() : 0;
    bench->runs = runs;
    bench->medianUs = vkspd_tools::medianOf(us);
    bench->minUs = *std::min_element(us.begin(), us.end());
    bench->gbPerSecond = b.gbPerSecond(bench->medianUs);
    return true;
}

}  // namespace

vkspd_tools::WarmupRule benchWarmupRule() { return vkspd_tools::WarmupRule{}; }

namespace {

// planImage, then the library's own check of the request (describeDispatch checks a MipGenInfo
// and makes nothing, so the image handle is a placeholder that is never used). A request the
// library refuses only for its size on this device (the single pass's scratch past
// maxStorageBufferRange) is an input too large for the device: kExitBadInput.
bool checkRequest(const Gpu& g, vkspd::Context context, const ChainRequest& req, ChainResult* out,
                  std::string* reason, int* exitCode) {
    *exitCode = kExitVulkan;
    vkspd::FormatInfo fi;
    if (!vkspd::getFormatInfo(req.format, &fi)) {
        *reason = "format " + std::to_string(int(req.format)) + " is not one this build of the library supports";
        return false;
    }
    const uint32_t levels = vkspd::fullMipCount(req.width, req.height);
    if (!planImage(g, req, fi, levels, out, reason, exitCode)) return false;
    VkImage placeholder = VK_NULL_HANDLE;
    std::memset(&placeholder, 0xFF, sizeof placeholder);
    vkspd::DispatchDescription d;
    if (vkspd::Result r = vkspd::describeDispatch(context, chainInfo(req, *out, placeholder, levels), &d); !r.ok()) {
        *reason = r.message;
        if (r.message.find("maxStorageBufferRange") != std::string::npos) *exitCode = kExitBadInput;
        return false;
    }
    return true;
}

}  // namespace

bool checkChain(const Gpu& g, vkspd::Context context, const ChainRequest& req, std::string* reason, int* exitCode) {
    ChainResult scratch;
    return checkRequest(g, context, req, &scratch, reason, exitCode);
}

bool runChain(const Gpu& g, vkspd::Context context, const ChainRequest& req, ChainResult* out,
              std::string* reason, int* exitCode) {
    if (!checkRequest(g, context, req, out, reason, exitCode)) return false;
    const uint32_t levels = vkspd::fullMipCount(req.width, req.height);
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(req.format, &fi);

    Resources res(g, context);
    void* mapped = nullptr;
    size_t total = 0;
    if (!createImage(g, req, levels, *out, &res, reason) ||
        !createStaging(g, req, fi, levels, &res, out, &mapped, &total, reason))
        return false;

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = g.family;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandBufferCount = 1;
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VkResult vr;
    if ((vr = vkCreateCommandPool(g.device, &pci, nullptr, &res.pool)) != VK_SUCCESS ||
        (cai.commandPool = res.pool, vr = vkAllocateCommandBuffers(g.device, &cai, &cmd)) != VK_SUCCESS ||
        (vr = vkBeginCommandBuffer(cmd, &begin)) != VK_SUCCESS) {
        *reason = vkError("creating a command buffer", vr);
        return false;
    }

    const vkspd::MipGenInfo info = chainInfo(req, *out, res.image, levels);
    if (!recordChain(context, cmd, req, res, info, out, reason)) return false;
    const auto start = std::chrono::steady_clock::now();
    if ((vr = submitAndWait(g, cmd)) != VK_SUCCESS) {
        *reason = vkError("running the chain", vr);
        return false;
    }
    out->gpuMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const auto* bytes = static_cast<const uint8_t*>(mapped);
    out->bytes.assign(bytes, bytes + total);

    if (req.debugMap && !runDebugMap(g, context, info, req.smBuiltins, &res, cmd, begin, out, reason)) return false;

    out->bench = BenchResult{};
    out->benchCold = ColdBenchResult{};
    out->benchNote.clear();
    if (req.benchRuns == 0 && req.benchColdRuns == 0) return true;
    if (g.timestampValidBits == 0) {
        out->benchNote = "the queue has no timestamps";
        return true;
    }
    const vkspd_tools::SmClock& clock = smClockOf(g);
    out->smClock = clock.available();
    out->smClockNote = clock.note();
    vkspd::MipGenInfo again = info;
    again.before = again.after = {VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                  VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    const BenchSetup setup{g, context, res, cmd, begin, again, double(total), clock.available() ? &clock : nullptr};
    if (!prepareBench(setup, std::max({req.benchRuns, req.benchColdRuns, 1u}), reason)) return false;
    // Cold first: the GPU has only run the chain so far.
    if (req.benchColdRuns && !runBenchCold(setup, req.benchColdRuns, &out->benchCold, reason)) return false;
    if (req.benchRuns && !runBenchWarm(setup, req.benchRuns, &out->bench, reason)) return false;
    return true;
}

}  // namespace vkspd_cli
