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

Decision decide(Context c, VkFormat format, VkImageUsageFlags usage, VkImageCreateFlags flags,
                Reduction reduction, VkFormat sourceFormat, bool customAvailable) {
    Decision d;
    Capability& cap = d.capability;
    d.reduction = reductionIndex(reduction);
    if (d.reduction == VKSPD_REDUCTION_COUNT) {
        cap.reason = "reduction " + std::to_string(int(reduction)) + " is not a vkspd::Reduction";
        return d;
    }
    if (!getFormatInfo(format, &d.format)) {
        cap.reason = "format " + std::to_string(int(format)) + " is not one vkspd supports (docs/FILTER.md lists them)";
        return d;
    }
    const std::string name = d.format.name;
    if (d.format.depth) {
        cap.reason = name + " is a depth format: it cannot be written; read it as a SourceImage into a "
                            "colour image (for example R32_SFLOAT, or R32G32_SFLOAT for MinMax)";
        return d;
    }
    if (reduction == Reduction::MinMax && d.format.channels != 2) {
        cap.reason = "Reduction::MinMax writes two channels (R = min, G = max): " + name +
                     " has " + std::to_string(d.format.channels);
        return d;
    }
    const bool hasSource = sourceFormat != VK_FORMAT_UNDEFINED;
    if (hasSource) {
        if (!getFormatInfo(sourceFormat, &d.sourceFormat)) {
            cap.reason = "source format " + std::to_string(int(sourceFormat)) + " is not one vkspd supports";
            return d;
        }
        if (const std::string m = missingFeatures(c, sourceFormat, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT); !m.empty()) {
            cap.reason = std::string("source format ") + d.sourceFormat.name + " lacks " + m + " on this device";
            return d;
        }
        // The source has the image's channels; MinMax may also start from one channel (v, v).
        const bool fits = d.sourceFormat.channels == d.format.channels ||
                          (reduction == Reduction::MinMax && d.sourceFormat.channels == 1);
        if (!fits) {
            cap.reason = std::string("source format ") + d.sourceFormat.name + " has " +
                         std::to_string(d.sourceFormat.channels) + " channels; " + name + " needs " +
                         (reduction == Reduction::MinMax ? "1 (or 2) for MinMax" : std::to_string(d.format.channels));
            return d;
        }
    }
    if (reduction == Reduction::Custom && !customAvailable) {
        cap.reason = "Reduction::Custom needs MipGenInfo::customReduction (createCustomReduction)";
        return d;
    }

    // The single pass: storage writes (through the UNORM twin for sRGB) and a sampled base level.
    const bool srgb = d.format.encoding == ChannelEncoding::Srgb8;
    std::string whyNotSingle;
    {
        const VkImageUsageFlags need = VK_IMAGE_USAGE_STORAGE_BIT | (hasSource ? 0 : VK_IMAGE_USAGE_SAMPLED_BIT);
        const std::string mu = missingUsage(usage, need);
        const std::string mfStorage = missingFeatures(c, d.format.storageFormat, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
        const std::string mfSampled = hasSource ? "" : missingFeatures(c, format, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
        if (!mu.empty()) {
            whyNotSingle = "the single pass needs " + mu;
        } else if (srgb && !(flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT)) {
            whyNotSingle = "the single pass writes sRGB images through a UNORM view, which needs "
                           "VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT";
        } else if (!mfStorage.empty()) {
            FormatInfo sf;
            getFormatInfo(d.format.storageFormat, &sf);
            whyNotSingle = std::string("the single pass needs ") + sf.name + " with " + mfStorage + " on this device";
        } else if (!mfSampled.empty()) {
            whyNotSingle = "the single pass needs " + name + " with " + mfSampled + " on this device";
        }
    }
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

    // A render pass per level: colour attachment writes (sRGB encoded by the hardware).
    std::string whyNotRender;
    {
        const std::string mu = missingUsage(usage, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
        const std::string mf = missingFeatures(c, format, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                                                              VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
        if (reduction == Reduction::Custom) whyNotRender = "custom reductions run only in the single pass";
        else if (!mu.empty()) whyNotRender = "the render-pass fallback needs " + mu;
        else if (!mf.empty()) whyNotRender = "the render-pass fallback needs " + name + " with " + mf + " on this device";
    }
    if (whyNotRender.empty()) {
        cap.path = Path::RenderPass;
        cap.reason = "render pass per level and layer (" + whyNotSingle +
                     "): the exact filter, each level made from the stored level above";
        return d;
    }

    // The blit chain: average only, approximate at odd sizes.
    std::string whyNotBlit;
    {
        const std::string mu = missingUsage(usage, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        const std::string mf = missingFeatures(c, format, VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                                              VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
        if (reduction != Reduction::Average) whyNotBlit = "a blit can only average";
        else if (hasSource) whyNotBlit = "a blit cannot read a separate source image";
        else if (!mu.empty()) whyNotBlit = "the blit chain needs " + mu;
        else if (!mf.empty()) whyNotBlit = "the blit chain needs " + name + " with " + mf + " on this device";
    }
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
