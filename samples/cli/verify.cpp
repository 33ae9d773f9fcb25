#include "verify.hpp"

namespace vkspd_cli {

Verification verifyChain(VkFormat format, vkspd::Reduction reduction, vkspd::Path path, bool fp16, uint32_t width,
                         uint32_t height, const std::vector<uint8_t>& bytes, const std::vector<size_t>& offsets) {
    Verification v;
    vkspd::FormatInfo fi;
    if (!vkspd::getFormatInfo(format, &fi)) {
        v.problem = "the library does not know format " + std::to_string(int(format));
        return v;
    }
    if (path == vkspd::Path::BlitChain) {
        v.problem = "the device took the blit-chain fallback, which is approximate at odd sizes";
        return v;
    }
    const uint32_t levels = uint32_t(offsets.size());
    const size_t texels = size_t(width) * height;
    std::vector<float> level0(texels * fi.channels);
    if (!vkspd::decodeTexels(format, bytes.data(), texels, level0.data())) {
        v.problem = std::string("this build of the library cannot decode ") + fi.name;
        return v;
    }
    uint32_t channels = fi.channels;
    if (reduction == vkspd::Reduction::MinMax) {
        // The reference takes the one-channel source; level 0 holds (v, v).
        for (size_t t = 0; t < texels; ++t) level0[t] = level0[t * fi.channels];
        level0.resize(texels);
        channels = 1;
    }
    vkspd::ReferenceOptions options;
    options.reduction = reduction;
    if (path == vkspd::Path::RenderPass) options.roundEachLevelTo = format;
    const std::vector<vkspd::ReferenceLevel> ref =
        vkspd::referenceChain(level0.data(), width, height, channels, levels, options);
    if (ref.size() != levels) {
        v.problem = std::string("this build of the library has no CPU reference for --reduction ") +
                    (reduction == vkspd::Reduction::Average ? "avg" : "min/max");
        return v;
    }
    const bool exactReduction = reduction != vkspd::Reduction::Average;
    v.tolerance = exactReduction ? 0.0 : vkspd::toleranceFor(format, fp16);
    v.unit = fi.encoding == vkspd::ChannelEncoding::Float32 ? "relative" : "ulp";
    v.ok = true;
    for (uint32_t l = 1; l < levels; ++l) {
        LevelCheck c;
        c.level = l;
        c.width = ref[l].width;
        c.height = ref[l].height;
        c.tolerance = v.tolerance;
        c.error = vkspd::compareLevel(format, bytes.data() + offsets[l], ref[l], v.tolerance);
        v.ok = v.ok && c.error.overTolerance == 0 && !c.error.nanMismatch;
        v.levels.push_back(c);
    }
    return v;
}

}  // namespace vkspd_cli
