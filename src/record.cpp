// generateMips: checks the request, then records the barrier from the caller's state, the one
// dispatch, and the barrier to the caller's final state.
#include "context.hpp"

#include <vkspd/reference.hpp>

namespace vkspd {
namespace {

Result fail(VkResult code, std::string message) {
    Result r;
    r.vkResult = code;
    r.message = std::move(message);
    return r;
}

std::string levelRange(uint32_t base, uint32_t count) {
    return std::to_string(base) + ".." + std::to_string(base + count - 1);
}

// The one rule for mip and layer ranges: `base` inside the image's `total`, `count` (0 = the
// rest) not past it. Sets *resolved to the count the range really has.
Result checkRange(const char* baseName, const char* rangeName, const char* unit, uint32_t base,
                  uint32_t count, uint32_t total, uint32_t* resolved) {
    if (base >= total)
        return fail(VK_ERROR_UNKNOWN, std::string("MipGenInfo::") + baseName + " " +
                                          std::to_string(base) + " is past the image's " +
                                          std::to_string(total) + " " + unit);
    *resolved = count ? count : total - base;
    if (base + *resolved > total)
        return fail(VK_ERROR_UNKNOWN, std::string(rangeName) + " range " + levelRange(base, *resolved) +
                                          " exceeds the image's " + std::to_string(total) + " " + unit);
    return {};
}

// Everything generateMips decides before recording.
struct Request {
    Plan plan;
    FormatInfo format;
    uint32_t levelCount = 0;  // levels in the range including the base
    uint32_t layerCount = 0;  // layers in the range
    bool fp16 = false;
    bool quad = false;
};

Result checkRequest(Context c, const MipGenInfo& info, Request* req) {
    if (!c) return fail(VK_ERROR_UNKNOWN, "the context is null");
    if (!info.image) return fail(VK_ERROR_UNKNOWN, "MipGenInfo::image is null");
    std::string reason;
    if (!isFormatSupported(c, info.format, &reason))
        return fail(VK_ERROR_FORMAT_NOT_SUPPORTED, "MipGenInfo::format: " + reason);
    getFormatInfo(info.format, &req->format);
    if (info.extent.width == 0 || info.extent.height == 0)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::extent " + std::to_string(info.extent.width) +
                                          "x" + std::to_string(info.extent.height) +
                                          " is empty: both sides must be at least 1");
    const uint32_t limit = c->properties.limits.maxImageDimension2D;
    if (info.extent.width > limit || info.extent.height > limit)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::extent " + std::to_string(info.extent.width) +
                                          "x" + std::to_string(info.extent.height) +
                                          " exceeds the device's maxImageDimension2D " +
                                          std::to_string(limit));
    const uint32_t full = fullMipCount(info.extent.width, info.extent.height);
    if (info.imageMipLevels == 0 || info.imageMipLevels > full)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::imageMipLevels " +
                                          std::to_string(info.imageMipLevels) +
                                          " must be from 1 to " + std::to_string(full) + " for a " +
                                          std::to_string(info.extent.width) + "x" +
                                          std::to_string(info.extent.height) + " image");
    Result ranges = checkRange("baseMipLevel", "mip", "levels", info.baseMipLevel, info.levelCount,
                              info.imageMipLevels, &req->levelCount);
    if (!ranges.ok()) return ranges;
    if (info.imageArrayLayers == 0)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::imageArrayLayers must be at least 1");
    ranges = checkRange("baseArrayLayer", "layer", "layers", info.baseArrayLayer, info.layerCount,
                       info.imageArrayLayers, &req->layerCount);
    if (!ranges.ok()) return ranges;
    if (req->layerCount > c->properties.limits.maxComputeWorkGroupCount[2])
        return fail(VK_ERROR_UNKNOWN, std::to_string(req->layerCount) +
                                          " layers exceed the device's maxComputeWorkGroupCount[2] " +
                                          std::to_string(c->properties.limits.maxComputeWorkGroupCount[2]));
    if (info.before.layout == VK_IMAGE_LAYOUT_UNDEFINED ||
        info.before.layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
        return fail(VK_ERROR_UNKNOWN,
                    "MipGenInfo::before.layout is UNDEFINED or PREINITIALIZED: a transition from it "
                    "would discard the base level the mips are made from");
    if (info.after.layout == VK_IMAGE_LAYOUT_UNDEFINED ||
        info.after.layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
        return fail(VK_ERROR_UNKNOWN,
                    "MipGenInfo::after.layout cannot be UNDEFINED or PREINITIALIZED");

    const uint32_t baseWidth = mipExtent(info.extent.width, info.baseMipLevel);
    const uint32_t baseHeight = mipExtent(info.extent.height, info.baseMipLevel);
    std::string error;
    if (!makePlan(baseWidth, baseHeight, req->levelCount - 1, req->layerCount, req->format.channels,
                  &req->plan, &error))
        return fail(VK_ERROR_UNKNOWN, "mip range " + levelRange(info.baseMipLevel, req->levelCount) +
                                          ": " + error);

    const uint64_t range = c->properties.limits.maxStorageBufferRange;
    if (req->plan.dataBytes > range || req->plan.counterBytes > range)
        return fail(VK_ERROR_UNKNOWN,
                    "this request needs " + std::to_string(req->plan.dataBytes) +
                        " bytes of scratch data, more than the device's maxStorageBufferRange " +
                        std::to_string(range) + "; generate fewer layers per call");

    switch (info.precision) {
    case Precision::FP16:
        if (!req->format.fp16Capable)
            return fail(VK_ERROR_FORMAT_NOT_SUPPORTED,
                        std::string("Precision::FP16 cannot hold the precision of ") +
                            req->format.name + "; use FP32 or Auto");
        if (!c->info.shaderFloat16Enabled)
            return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                        "Precision::FP16 needs shaderFloat16 enabled on the device "
                        "(ContextCreateInfo::shaderFloat16Enabled)");
        req->fp16 = true;
        break;
    case Precision::FP32: req->fp16 = false; break;
    case Precision::Auto: req->fp16 = req->format.fp16Capable && c->info.shaderFloat16Enabled; break;
    }
    switch (info.subgroupPath) {
    case SubgroupPath::Quad:
        if (!c->quadSupported)
            return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                        "SubgroupPath::Quad: this device lacks VK_SUBGROUP_FEATURE_QUAD_BIT in compute");
        req->quad = true;
        break;
    case SubgroupPath::LdsOnly: req->quad = false; break;
    case SubgroupPath::Auto: req->quad = c->quadSupported; break;
    }
    if (info.scratchBuffer) {
        const VkDeviceSize align = c->properties.limits.minStorageBufferOffsetAlignment;
        if (align && info.scratchOffset % align != 0)
            return fail(VK_ERROR_UNKNOWN, "MipGenInfo::scratchOffset " +
                                              std::to_string(info.scratchOffset) +
                                              " is not a multiple of minStorageBufferOffsetAlignment " +
                                              std::to_string(align));
    }
    return {};
}

VkDeviceSize userScratchBytes(Context c, const Plan& plan) {
    const VkDeviceSize align = c->properties.limits.minStorageBufferOffsetAlignment;
    return alignUp(plan.counterBytes, align > 256 ? align : 256) + plan.dataBytes;
}

// Legacy stage/access masks for devices without synchronization2: every legacy bit has the same
// value in the 2 enums; the 2-only bits map to the legacy bit that contains them.
VkPipelineStageFlags legacyStages(VkPipelineStageFlags2 s, bool source) {
    VkPipelineStageFlags out = VkPipelineStageFlags(s & 0x7FFFFFFFull);
    if (s & (VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT |
             VK_PIPELINE_STAGE_2_RESOLVE_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT))
        out |= VK_PIPELINE_STAGE_TRANSFER_BIT;
    if (s & (VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT))
        out |= VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
    if (!out) out = source ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    return out;
}

VkAccessFlags legacyAccess(VkAccessFlags2 a) {
    VkAccessFlags out = VkAccessFlags(a & 0x7FFFFFFFull);
    if (a & (VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT))
        out |= VK_ACCESS_SHADER_READ_BIT;
    if (a & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) out |= VK_ACCESS_SHADER_WRITE_BIT;
    return out;
}

struct Barrier {
    VkPipelineStageFlags2 srcStages, dstStages;
    VkAccessFlags2 srcAccess, dstAccess;
    VkImageLayout oldLayout, newLayout;
    bool scratch;  // also order the previous dispatch's scratch accesses before this one
};

void recordBarrier(Context c, VkCommandBuffer cmd, const MipGenInfo& info, const Request& req,
                   const Barrier& b) {
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, info.baseMipLevel, req.levelCount,
                                        info.baseArrayLayer, req.layerCount};
    const VkPipelineStageFlags2 compute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    const VkAccessFlags2 scratchAccess = VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                                         VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    if (c->fn.vkCmdPipelineBarrier2) {
        VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        mb.srcStageMask = compute;
        mb.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
        mb.dstStageMask = compute;
        mb.dstAccessMask = scratchAccess;
        VkImageMemoryBarrier2 ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
        ib.srcStageMask = b.srcStages;
        ib.srcAccessMask = b.srcAccess;
        ib.dstStageMask = b.dstStages;
        ib.dstAccessMask = b.dstAccess;
        ib.oldLayout = b.oldLayout;
        ib.newLayout = b.newLayout;
        ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        ib.image = info.image;
        ib.subresourceRange = range;
        VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        di.memoryBarrierCount = b.scratch ? 1 : 0;
        di.pMemoryBarriers = &mb;
        di.imageMemoryBarrierCount = 1;
        di.pImageMemoryBarriers = &ib;
        c->fn.vkCmdPipelineBarrier2(cmd, &di);
        return;
    }
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    ib.srcAccessMask = legacyAccess(b.srcAccess);
    ib.dstAccessMask = legacyAccess(b.dstAccess);
    ib.oldLayout = b.oldLayout;
    ib.newLayout = b.newLayout;
    ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = info.image;
    ib.subresourceRange = range;
    VkPipelineStageFlags src = legacyStages(b.srcStages, true);
    VkPipelineStageFlags dst = legacyStages(b.dstStages, false);
    if (b.scratch) {
        src |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        dst |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    }
    c->fn.vkCmdPipelineBarrier(cmd, src, dst, 0, b.scratch ? 1 : 0, &mb, 0, nullptr, 1, &ib);
}

}  // namespace

Result describeDispatch(Context c, const MipGenInfo& info, DispatchDescription* d) noexcept {
    return guarded([&]() -> Result {
    Request req;
    Result r = checkRequest(c, info, &req);
    if (!r.ok()) return r;
    if (d) {
        *d = DispatchDescription{};
        d->groupsX = req.plan.levels ? req.plan.groupsX() : 0;
        d->groupsY = req.plan.levels ? req.plan.groupsY() : 0;
        d->groupsZ = req.plan.levels ? req.plan.layers : 0;
        d->stages = req.plan.stageCount;
        d->levelsWritten = req.plan.levels;
        d->fp16 = req.fp16;
        d->quad = req.quad;
        for (uint32_t st = 0; st < req.plan.stageCount; ++st)
            d->exactOddEdges = d->exactOddEdges || req.plan.stages[st].depMaskX || req.plan.stages[st].depMaskY;
        d->scratchBytes = userScratchBytes(c, req.plan);
    }
    return {};
    });
}

VkDeviceSize scratchSize(Context c, const MipGenInfo& info) noexcept {
    VkDeviceSize bytes = 0;
    guarded([&]() -> Result {
        Request req;
        Result r = checkRequest(c, info, &req);
        if (r.ok()) bytes = userScratchBytes(c, req.plan);
        return r;
    });
    return bytes;
}

namespace {
Result generateMipsImpl(Context c, VkCommandBuffer cmd, const MipGenInfo& info);
}

Result generateMips(Context c, VkCommandBuffer cmd, const MipGenInfo& info) noexcept {
    // Everything that allocates happens before the first command is recorded, so an exception
    // leaves the command buffer untouched.
    return guarded([&] { return generateMipsImpl(c, cmd, info); });
}

namespace {
Result generateMipsImpl(Context c, VkCommandBuffer cmd, const MipGenInfo& info) {
    if (!cmd) return fail(VK_ERROR_UNKNOWN, "generateMips: the command buffer is null");
    Request req;
    Result r = checkRequest(c, info, &req);
    if (!r.ok()) {
        r.message = "generateMips: " + r.message;
        return r;
    }
    const Plan& plan = req.plan;
    const VkPipelineStageFlags2 compute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    const VkAccessFlags2 shaderAccess =
        VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

    if (plan.levels == 0) {
        // Nothing to compute: only the state change the caller asked for.
        if (info.before.layout != info.after.layout || info.before.stages != info.after.stages ||
            info.before.access != info.after.access)
            recordBarrier(c, cmd, info, req,
                          {info.before.stages, info.after.stages, info.before.access,
                           info.after.access, info.before.layout, info.after.layout, false});
        return {};
    }

    // Everything that can fail happens before the first command is recorded.
    ImageViews views;
    r = getImageViews(c, info, plan.levels, req.layerCount, &views);
    if (!r.ok()) return r;
    VkPipeline pipeline = c->pipelines[req.fp16][req.quad];
    if (!pipeline)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "generateMips: no pipeline for this variant");
    // Nothing below can fail: a scratch slot, once taken, is always used.
    ScratchRange scratch;
    VkDeviceSize countersRange = plan.counterBytes, dataRange = plan.dataBytes;
    if (info.scratchBuffer) {
        const VkDeviceSize align = c->properties.limits.minStorageBufferOffsetAlignment;
        scratch.counters = scratch.data = info.scratchBuffer;
        scratch.countersOffset = info.scratchOffset;
        scratch.dataOffset = info.scratchOffset + alignUp(plan.counterBytes, align > 256 ? align : 256);
    } else {
        r = acquireScratch(c, plan, &scratch);
        if (!r.ok()) return r;
    }
    recordBarrier(c, cmd, info, req,
                  {info.before.stages, compute, info.before.access, shaderAccess,
                   info.before.layout, VK_IMAGE_LAYOUT_GENERAL, true});

    VkDescriptorImageInfo source{VK_NULL_HANDLE, views.source, VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorImageInfo levels[VKSPD_MAX_LEVELS];
    for (uint32_t i = 0; i < VKSPD_MAX_LEVELS; ++i) {
        // Unused array elements repeat the first level: the shader never writes them, but every
        // element of a statically used array must be a valid descriptor.
        levels[i] = {VK_NULL_HANDLE, views.levels[i < plan.levels ? i : 0], VK_IMAGE_LAYOUT_GENERAL};
    }
    VkDescriptorBufferInfo counters{scratch.counters, scratch.countersOffset, countersRange};
    VkDescriptorBufferInfo data{scratch.data, scratch.dataOffset, dataRange};
    VkWriteDescriptorSet writes[4] = {};
    for (auto& w : writes) w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[0].dstBinding = VKSPD_BINDING_SOURCE;
    writes[0].descriptorCount = 1;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[0].pImageInfo = &source;
    writes[1].dstBinding = VKSPD_BINDING_DEST;
    writes[1].descriptorCount = VKSPD_MAX_LEVELS;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    writes[1].pImageInfo = levels;
    writes[2].dstBinding = VKSPD_BINDING_COUNTERS;
    writes[2].descriptorCount = 1;
    writes[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[2].pBufferInfo = &counters;
    writes[3].dstBinding = VKSPD_BINDING_DATA;
    writes[3].descriptorCount = 1;
    writes[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[3].pBufferInfo = &data;

    const shader::PushConstants pc = pushConstantsFor(plan);
    c->fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    c->fn.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipelineLayout, 0, 4,
                                    writes);
    c->fn.vkCmdPushConstants(cmd, c->pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
    c->fn.vkCmdDispatch(cmd, plan.groupsX(), plan.groupsY(), plan.layers);

    recordBarrier(c, cmd, info, req,
                  {compute, info.after.stages, shaderAccess, info.after.access,
                   VK_IMAGE_LAYOUT_GENERAL, info.after.layout, false});
    return {};
}

}  // namespace

}  // namespace vkspd
