#include "gpu_chain.hpp"

#include "options.hpp"

#include <vkspd/reference.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>

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

}  // namespace

bool runChain(const Gpu& g, vkspd::Context context, const ChainRequest& req, ChainResult* out,
              std::string* reason, int* exitCode) {
    *exitCode = kExitVulkan;
    vkspd::FormatInfo fi;
    if (!vkspd::getFormatInfo(req.format, &fi)) {
        *reason = "format " + std::to_string(int(req.format)) + " is not one this build of the library supports";
        return false;
    }
    const uint32_t width = req.width, height = req.height;
    const uint32_t levels = vkspd::fullMipCount(width, height);

    // Usage and flags for the fastest path the format allows on this device: STORAGE for the
    // single pass (through the UNORM twin of an sRGB format: MUTABLE_FORMAT, and EXTENDED_USAGE
    // where the sRGB format itself cannot be a storage image), else COLOR_ATTACHMENT for the
    // library's render-pass fallback, else the blit chain.
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
    if (width > ifp.maxExtent.width || height > ifp.maxExtent.height || levels > ifp.maxMipLevels) {
        *reason = std::to_string(width) + "x" + std::to_string(height) + " exceeds the largest " + fi.name +
                  " image on this device (" + std::to_string(ifp.maxExtent.width) + "x" +
                  std::to_string(ifp.maxExtent.height) + ")";
        *exitCode = kExitBadInput;
        return false;
    }

    Resources res(g, context);
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.flags = flags;
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = req.format;
    ii.extent = {width, height, 1};
    ii.mipLevels = levels;
    ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.tiling = VK_IMAGE_TILING_OPTIMAL;
    ii.usage = usage;
    if ((vr = vkCreateImage(g.device, &ii, nullptr, &res.image)) != VK_SUCCESS) {
        *reason = vkError("vkCreateImage", vr);
        return false;
    }
    VkMemoryRequirements mr;
    vkGetImageMemoryRequirements(g.device, res.image, &mr);
    if ((vr = vkspd_tools::tryAllocate(g, mr, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &res.imageMemory)) != VK_SUCCESS ||
        (vr = vkBindImageMemory(g.device, res.image, res.imageMemory, 0)) != VK_SUCCESS) {
        *reason = vkError("allocating the image", vr);
        return false;
    }

    out->levels = levels;
    out->offsets.clear();
    size_t total = 0;
    for (uint32_t l = 0; l < levels; ++l) {
        out->offsets.push_back(total);
        total += size_t(vkspd::mipExtent(width, l)) * vkspd::mipExtent(height, l) * fi.bytesPerTexel;
    }
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = total;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if ((vr = vkCreateBuffer(g.device, &bi, nullptr, &res.staging)) != VK_SUCCESS) {
        *reason = vkError("vkCreateBuffer", vr);
        return false;
    }
    vkGetBufferMemoryRequirements(g.device, res.staging, &mr);
    void* mapped = nullptr;
    if ((vr = vkspd_tools::tryAllocate(g, mr, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                       &res.stagingMemory)) != VK_SUCCESS ||
        (vr = vkBindBufferMemory(g.device, res.staging, res.stagingMemory, 0)) != VK_SUCCESS ||
        (vr = vkMapMemory(g.device, res.stagingMemory, 0, VK_WHOLE_SIZE, 0, &mapped)) != VK_SUCCESS) {
        *reason = vkError("allocating the staging buffer", vr);
        return false;
    }
    std::memcpy(mapped, req.level0->data(), out->offsets.size() > 1 ? out->offsets[1] : total);

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = g.family;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandBufferCount = 1;
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if ((vr = vkCreateCommandPool(g.device, &pci, nullptr, &res.pool)) != VK_SUCCESS ||
        (cai.commandPool = res.pool, vr = vkAllocateCommandBuffers(g.device, &cai, &cmd)) != VK_SUCCESS ||
        (vr = vkBeginCommandBuffer(cmd, &begin)) != VK_SUCCESS) {
        *reason = vkError("creating a command buffer", vr);
        return false;
    }

    vkspd_tools::imageBarrier(cmd, res.image, levels, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                              VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
                              VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy up{};
    up.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    up.imageExtent = {width, height, 1};
    vkCmdCopyBufferToImage(cmd, res.staging, res.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &up);
    // The readback below overwrites the staging bytes the upload reads (write after read).
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 0, nullptr);

    vkspd::MipGenInfo info;
    info.image = res.image;
    info.format = req.format;
    info.usage = usage;
    info.createFlags = flags;
    info.extent = {width, height};
    info.imageMipLevels = levels;
    info.before = {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT};
    info.after = {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT};
    info.reduction = req.reduction;
    info.precision = req.precision;
    info.subgroupPath = req.subgroupPath;
    info.fetch = req.fetch;
    info.groupColumns = req.groupColumns;
    info.kernel = req.kernel;
    info.tilesPerGroup = req.tilesPerGroup;
    info.tailTiles = req.tailTiles;
    info.tailTilesPerGroup = req.tailTilesPerGroup;
    if (vkspd::Result r = vkspd::describeDispatch(context, info, &out->dispatch); !r.ok()) {
        *reason = r.message;
        return false;
    }
    if (vkspd::Result r = vkspd::generateMips(context, cmd, info); !r.ok()) {
        *reason = r.message;
        return false;
    }
    for (uint32_t l = 0; l < levels; ++l) {
        VkBufferImageCopy down{};
        down.bufferOffset = out->offsets[l];
        down.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
        down.imageExtent = {vkspd::mipExtent(width, l), vkspd::mipExtent(height, l), 1};
        vkCmdCopyImageToBuffer(cmd, res.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, res.staging, 1, &down);
    }
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr,
                         0, nullptr);
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
    out->benchNote.clear();
    if (req.benchRuns == 0) return true;
    if (g.timestampValidBits == 0) {
        out->benchNote = "the queue has no timestamps";
        return true;
    }
    const uint32_t runs = kBenchWarmup + req.benchRuns;
    VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpi.queryCount = 2 * runs;
    if ((vr = vkCreateQueryPool(g.device, &qpi, nullptr, &res.queries)) != VK_SUCCESS ||
        (vr = vkResetCommandPool(g.device, res.pool, 0)) != VK_SUCCESS ||
        (vr = vkBeginCommandBuffer(cmd, &begin)) != VK_SUCCESS) {
        *reason = vkError("preparing --bench", vr);
        return false;
    }
    vkCmdResetQueryPool(cmd, res.queries, 0, 2 * runs);
    // Time the dispatch, not layout transitions: the image stays in GENERAL between runs.
    vkspd_tools::imageBarrier(cmd, res.image, levels, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                              VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    vkspd::MipGenInfo again = info;
    again.before = again.after = {VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                  VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    for (uint32_t r = 0; r < runs; ++r) {
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, res.queries, 2 * r);
        if (vkspd::Result gr = vkspd::generateMips(context, cmd, again); !gr.ok()) {
            *reason = gr.message;
            return false;
        }
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, res.queries, 2 * r + 1);
    }
    if ((vr = submitAndWait(g, cmd)) != VK_SUCCESS) {
        *reason = vkError("running --bench", vr);
        return false;
    }
    std::vector<uint64_t> stamps(2 * runs);
    if ((vr = vkGetQueryPoolResults(g.device, res.queries, 0, 2 * runs, stamps.size() * 8, stamps.data(), 8,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)) != VK_SUCCESS) {
        *reason = vkError("vkGetQueryPoolResults", vr);
        return false;
    }
    const uint64_t mask = g.timestampValidBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << g.timestampValidBits) - 1;
    std::vector<double> us;
    for (uint32_t r = kBenchWarmup; r < runs; ++r)
        us.push_back(double((stamps[2 * r + 1] - stamps[2 * r]) & mask) * g.properties.limits.timestampPeriod * 1e-3);
    std::sort(us.begin(), us.end());
    out->bench.runs = req.benchRuns;
    out->bench.medianUs = us.size() % 2 ? us[us.size() / 2] : 0.5 * (us[us.size() / 2 - 1] + us[us.size() / 2]);
    out->bench.minUs = us.front();
    const double chainBytes = double(total);  // level 0 read + levels 1.. written
    out->bench.gbPerSecond = out->bench.medianUs > 0 ? chainBytes / (out->bench.medianUs * 1e-6) * 1e-9 : 0;
    return true;
}

}  // namespace vkspd_cli
