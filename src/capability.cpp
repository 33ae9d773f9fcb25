// Which path a request takes: the single pass where the image can be written by
// a compute shader, else a render pass per level where it is a colour attachment, else the blit
// chain, else nothing — always with the reason, naming what is missing.
#include "context.hpp"

namespace vkspd {
namespace {

std::string usageName(VkImageUsageFlags bit) {
    switch (bit) {
        case VK_IMAGE_USAGE_SAMPLED_BIT: return "VK_IMAGE_USAGE_SAMPLED_BIT";
        case VK_IMAGE_USAGE_STORAGE_BIT: return "VK_IMAGE_USAGE_STORAGE_BIT";
        case VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT: return "VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT";
        case VK_IMAGE_USAGE_TRANSFER_SRC_BIT: return "VK_IMAGE_USAGE_TRANSFER_SRC_BIT";
        case VK_IMAGE_USAGE_TRANSFER_DST_BIT: return "VK_IMAGE_USAGE_TRANSFER_DST_BIT";
    }
    return "usage " + std::to_string(bit);
}

// The usage bits of `need` that `usage` lacks, by name ("" when none).
std::string missingUsage(VkImageUsageFlags usage, VkImageUsageFlags need) {
    std::string out;
    for (VkImageUsageFlags bit = 1; bit && bit <= need; bit <<= 1) {
        if ((need & bit) && !(usage & bit)) out += (out.empty() ? "" : " and ") + usageName(bit);
    }
    return out;
}

// The features of `need` that `format` lacks for optimal tiling, by name ("" when none).
std::string missingFeatures(ContextT* c, VkFormat format, VkFormatFeatureFlags need) {
    VkFormatProperties fp;
    c->fn.vkGetPhysicalDeviceFormatProperties(c->info.physicalDevice, format, &fp);
    static const std::pair<VkFormatFeatureFlags, const char*> names[] = {
        {VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, "SAMPLED_IMAGE"},
        {VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT, "STORAGE_IMAGE"},
        {VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT, "COLOR_ATTACHMENT"},
        {VK_FORMAT_FEATURE_BLIT_SRC_BIT, "BLIT_SRC"},
        {VK_FORMAT_FEATURE_BLIT_DST_BIT, "BLIT_DST"},
        {VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT, "SAMPLED_IMAGE_FILTER_LINEAR"},
    };
    std::string out;
    for (const auto& n : names) {
        if ((need & n.first) && !(fp.optimalTilingFeatures & n.first))
            out += (out.empty() ? "" : ", ") + std::string(n.second);
    }
    return out;
}

uint32_t reductionIndex(Reduction r) {
    switch (r) {
        case Reduction::Average: return VKSPD_REDUCTION_AVERAGE;
        case Reduction::Min: return VKSPD_REDUCTION_MIN;
        case Reduction::Max: return VKSPD_REDUCTION_MAX;
        case Reduction::MinMax: return VKSPD_REDUCTION_MINMAX;
        case Reduction::Custom: return VKSPD_REDUCTION_CUSTOM;
    }
    return VKSPD_REDUCTION_COUNT;
}

}  // namespace

namespace {

// Why no path can take the request whatever the image's flags (a bad enum, an unknown or depth
// format, a channel count the reduction or source cannot have); empty if none. Fills d->reduction,
// d->format and d->sourceFormat.
std::string requestRefusal(Context c, VkFormat format, Reduction reduction, VkFormat sourceFormat,
                           bool customAvailable, Decision* d) {
    d->reduction = reductionIndex(reduction);
    if (d->reduction == VKSPD_REDUCTION_COUNT)
        return "reduction " + std::to_string(int(reduction)) + " is not a vkspd::Reduction";
    if (!getFormatInfo(format, &d->format))
        return "format " + std::to_string(int(format)) + " is not one vkspd supports (docs/FILTER.md lists them)";
    const std::string name = d->format.name;
    if (d->format.depth)
        return name + " is a depth format: it cannot be written; read it as a SourceImage into a "
                      "colour image (for example R32_SFLOAT, or R32G32_SFLOAT for MinMax)";
    if (reduction == Reduction::MinMax && d->format.channels != 2)
        return "Reduction::MinMax writes two channels (R = min, G = max): " + name + " has " +
               std::to_string(d->format.channels);
    if (sourceFormat != VK_FORMAT_UNDEFINED) {
        if (!getFormatInfo(sourceFormat, &d->sourceFormat))
            return "source format " + std::to_string(int(sourceFormat)) + " is not one vkspd supports";
        if (const std::string m = missingFeatures(c, sourceFormat, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT); !m.empty())
            return std::string("source format ") + d->sourceFormat.name + " lacks " + m + " on this device";
        // The source has the image's channels; MinMax may also start from one channel (v, v).
        const bool fits = d->sourceFormat.channels == d->format.channels ||
                          (reduction == Reduction::MinMax && d->sourceFormat.channels == 1);
        if (!fits)
            return std::string("source format ") + d->sourceFormat.name + " has " +
                   std::to_string(d->sourceFormat.channels) + " channels; " + name + " needs " +
                   (reduction == Reduction::MinMax ? "1 (or 2) for MinMax" : std::to_string(d->format.channels));
    }
    if (reduction == Reduction::Custom && !customAvailable)
        return "Reduction::Custom needs MipGenInfo::customReduction (createCustomReduction)";
    return {};
}

// Why the single pass cannot write this image (storage writes, through the UNORM twin for sRGB,
// and a sampled base level); empty if it can.
std::string whyNotSinglePass(Context c, const Decision& d, VkFormat format, VkImageUsageFlags usage,
                             VkImageCreateFlags flags, bool hasSource) {
    const std::string name = d.format.name;
    const bool srgb = d.format.encoding == ChannelEncoding::Srgb8;
    const VkImageUsageFlags need = VK_IMAGE_USAGE_STORAGE_BIT | (hasSource ? 0 : VK_IMAGE_USAGE_SAMPLED_BIT);
    const std::string mu = missingUsage(usage, need);
    const std::string mfStorage = missingFeatures(c, d.format.storageFormat, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
    const std::string mfSampled = hasSource ? "" : missingFeatures(c, format, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
    if (!mu.empty()) return "the single pass needs " + mu;
    if (srgb && !(flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
        return "the single pass writes sRGB images through a UNORM view, which needs "
               "VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT";
    if (!mfStorage.empty()) {
        FormatInfo sf;
        getFormatInfo(d.format.storageFormat, &sf);
        return std::string("the single pass needs ") + sf.name + " with " + mfStorage + " on this device";
    }
    if (!mfSampled.empty()) return "the single pass needs " + name + " with " + mfSampled + " on this device";
    return {};
}

// Why the render-pass fallback (colour attachment writes, sRGB encoded by the hardware) cannot
// run; empty if it can.
std::string whyNotRenderPass(Context c, const Decision& d, VkFormat format, VkImageUsageFlags usage,
                             Reduction reduction) {
    const std::string name = d.format.name;
    const std::string mu = missingUsage(usage, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    const std::string mf = missingFeatures(c, format, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                                                          VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
    if (reduction == Reduction::Custom) return "custom reductions run only in the single pass";
    if (!mu.empty()) return "the render-pass fallback needs " + mu;
    if (!mf.empty()) return "the render-pass fallback needs " + name + " with " + mf + " on this device";
    return {};
}

// Why the blit chain (average only, approximate at odd sizes) cannot run; empty if it can.
std::string whyNotBlitChain(Context c, const Decision& d, VkFormat format, VkImageUsageFlags usage,
                            Reduction reduction, bool hasSource) {
    const std::string name = d.format.name;
    const std::string mu = missingUsage(usage, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    const std::string mf = missingFeatures(c, format, VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                                          VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
    if (reduction != Reduction::Average) return "a blit can only average";
    if (hasSource) return "a blit cannot read a separate source image";
    if (!mu.empty()) return "the blit chain needs " + mu;
    if (!mf.empty()) return "the blit chain needs " + name + " with " + mf + " on this device";
    return {};
}

}  // namespace

Decision decide(Context c, VkFormat format, VkImageUsageFlags usage, VkImageCreateFlags flags,
                Reduction reduction, VkFormat sourceFormat, bool customAvailable) {
    Decision d;
    Capability& cap = d.capability;
    cap.reason = requestRefusal(c, format, reduction, sourceFormat, customAvailable, &d);
    if (!cap.reason.empty()) return d;
    const std::string name = d.format.name;
    const bool hasSource = sourceFormat != VK_FORMAT_UNDEFINED;
    const bool srgb = d.format.encoding == ChannelEncoding::Srgb8;
    const std::string whyNotSingle = whyNotSinglePass(c, d, format, usage, flags, hasSource);
    if (whyNotSingle.empty()) {
        cap.path = Path::SinglePass;
        cap.exact = true;
        d.fp16Possible = d.format.fp16Capable && reduction != Reduction::Custom &&
                         (!hasSource || d.sourceFormat.fp16Capable);
        cap.fp16 = d.fp16Possible && c->info.shaderFloat16Enabled;
        cap.storageFormat = d.format.storageFormat;
        cap.reason = "single pass: one compute dispatch";
        if (srgb) {
            FormatInfo sf;
            getFormatInfo(d.format.storageFormat, &sf);
            cap.reason = std::string("single pass: one compute dispatch, writing through ") + sf.name +
                         " views of the MUTABLE_FORMAT image and encoding sRGB in the shader";
        }
        return d;
    }

    const std::string whyNotRender = whyNotRenderPass(c, d, format, usage, reduction);
    if (whyNotRender.empty()) {
        cap.path = Path::RenderPass;
        cap.reason = "render pass per level and layer (" + whyNotSingle +
                     "): the exact filter, each level made from the stored level above";
        return d;
    }

    const std::string whyNotBlit = whyNotBlitChain(c, d, format, usage, reduction, hasSource);
    if (whyNotBlit.empty()) {
        cap.path = Path::BlitChain;
        cap.reason = "blit chain (" + whyNotSingle + "; " + whyNotRender +
                     "): vkCmdBlitImage per level, approximate at odd sizes";
        return d;
    }
    cap.reason = "no path for " + name + ": " + whyNotSingle + "; " + whyNotRender + "; " + whyNotBlit;
    return d;
}

Result queryCapability(Context c, const CapabilityQuery& q, Capability* out) noexcept {
    return guarded([&]() -> Result {
        if (!c) return fail(VK_ERROR_UNKNOWN, "queryCapability: the context is null");
        if (!contextIsLive(c)) return fail(VK_ERROR_UNKNOWN, "queryCapability: " + deadContextMessage(c));
        if (!out) return fail(VK_ERROR_UNKNOWN, "queryCapability: the output pointer is null");
        // A custom reduction is assumed given: the question is about the image.
        *out = decide(c, q.format, q.usage, q.createFlags, q.reduction, q.sourceFormat, true).capability;
        return {};
    });
}

}  // namespace vkspd
