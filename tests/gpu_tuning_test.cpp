// Tuning options on the GPU: group-ID tiling (Tuning::groupColumns) and the
// linear-sampler fetch (Fetch::LinearSampler) must not change the output; disallowed combinations
// are refused with an error that names the rule.
#include "vulkan_harness.hpp"

#include <cstdio>

using namespace vkspd_test;

namespace {

const uint32_t kSizes[][2] = {{1, 1}, {3, 5}, {65, 63}, {130, 66}, {256, 256}, {4095, 3}};

struct Options {
    vkspd::Fetch fetch = vkspd::Fetch::Auto;
    uint32_t groupColumns = 0;
    bool fp16 = true;  // where the device and the format allow it
    vkspd::Kernel kernel = vkspd::Kernel::Auto;
    double levelOneTolerance = 0;  // > 0: level 1 alone against the reference, within this
};

std::string nameOf(const Options& t) {
    return std::string(t.fetch == vkspd::Fetch::LinearSampler ? "linear" : t.fetch == vkspd::Fetch::Load ? "load" : "auto") +
           " cols " +
           std::to_string(t.groupColumns) + (t.fp16 ? " fp16" : " fp32") +
           (t.kernel == vkspd::Kernel::General ? " general" : t.kernel == vkspd::Kernel::HaloStages ? " halo" : "");
}

// One full chain of `format` at `w` x `ht` with `t` (quad path where the device has it) against
// the CPU reference (level 1 alone with t.levelOneTolerance); also checks that describeDispatch
// reports the options.
void expectTunedChainMatches(Harness* h, VkFormat format, uint32_t w, uint32_t ht, const Options& t) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const bool fp16 = t.fp16 && h->fp16 && fi.fp16Capable;
    TestImage img = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, 1, singlePassFlags(format));
    h->upload(img, randomTexels(format, w, ht, w * 31 + ht + t.groupColumns).data());
    vkspd::MipGenInfo info = chainInfo(img);
    info.createFlags = singlePassFlags(format);
    info.precision = fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
    info.subgroupPath = h->quad ? vkspd::SubgroupPath::Quad : vkspd::SubgroupPath::LdsOnly;
    info.fetch = t.fetch;
    vkspd::Tuning tuning;
    tuning.groupColumns = t.groupColumns;
    tuning.kernel = t.kernel;
    info.tuning = &tuning;
    Described d;
    vkspd::Result r = describe(h->context, info, &d);
    ASSERT_TRUE(r.ok()) << r.message;
    // Auto is the vendor's pick (LinearSampler on NVIDIA where allowed): either is right here.
    if (t.fetch != vkspd::Fetch::Auto) {
        EXPECT_EQ(d.linearFetch, t.fetch == vkspd::Fetch::LinearSampler);
    }
    EXPECT_EQ(d.groupColumns, std::min(t.groupColumns, d.groupsX));
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result g = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(g.ok()) << g.message;
    });
    auto gpu = h->readLevels(img);
    const bool levelOne = t.levelOneTolerance > 0;
    const double tol = levelOne ? t.levelOneTolerance : vkspd::toleranceFor(format, fp16);
    const std::string what = std::string(fi.name) + " " + std::to_string(w) + "x" + std::to_string(ht) + " " +
                             nameOf(t) + (levelOne ? " level 1" : "");
    const double worst = expectChainMatches(img, gpu, 0, levelOne ? 2 : img.levels, 0, 1, tol, what);
    std::printf("[ worst    ] %s: %g (tolerance %g)\n", what.c_str(), worst, tol);
    h->destroyImage(img);
    vkspd::forgetImage(h->context, img.image);
}

}  // namespace

// Tiling remaps which group runs which tile; the odd-size edge exchange and the election must not
// care (strips of 1, 3 and 7 tiles: narrower than, dividing and not dividing the tile columns).
TEST_F(GpuTest, GroupColumnsKeepTheOutput) {
    for (const auto& s : kSizes)
        for (uint32_t columns : {1u, 3u, 7u}) expectTunedChainMatches(h, VK_FORMAT_R8G8B8A8_UNORM, s[0], s[1], {vkspd::Fetch::Auto, columns});
}

// Five and a half strips of tiles in two stages (cascade), FP32: every remapped tile still elects.
TEST_F(GpuTest, GroupColumnsAcrossTwoStages) {
    expectTunedChainMatches(h, VK_FORMAT_R32G32B32A32_SFLOAT, 4100, 70, {vkspd::Fetch::Load, 2, false});
}

// The bilinear sample at the corner of four texels is their mean: the same chain as the loads,
// for UNORM and half float (sRGB is refused: see LinearSamplerFetchWhereNotAllowedIsAnError).
TEST_F(GpuTest, LinearSamplerFetchMatchesTheReference) {
    if (!h->quad) GTEST_SKIP() << "Fetch::LinearSampler needs the quad path";
    for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT}) {
        for (const auto& s : kSizes) expectTunedChainMatches(h, format, s[0], s[1], {vkspd::Fetch::LinearSampler, 0});
        // Even levels 0 and 1 that are not powers of two: the corner coordinate is rounded.
        expectTunedChainMatches(h, format, 1100, 1000, {vkspd::Fetch::LinearSampler, 0});
    }
    // With FP32 and with tiling too.
    expectTunedChainMatches(h, VK_FORMAT_R16G16B16A16_SFLOAT, 256, 256, {vkspd::Fetch::LinearSampler, 3, false});
    expectTunedChainMatches(h, VK_FORMAT_R8G8B8A8_UNORM, 130, 66, {vkspd::Fetch::LinearSampler, 1, false});
}

TEST_F(GpuTest, LinearSamplerFetchWhereNotAllowedIsAnError) {
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 7, kChainUsage);
    vkspd::MipGenInfo info = chainInfo(img);
    info.fetch = vkspd::Fetch::LinearSampler;
    vkspd::DispatchDescription d;
    auto expectError = [&](const vkspd::MipGenInfo& bad, VkResult code, const char* rule) {
        vkspd::Result r = vkspd::describeDispatch(h->context, bad, &d);
        EXPECT_EQ(r.vkResult, code) << r.message;
        EXPECT_NE(r.message.find(rule), std::string::npos) << r.message;
        h->submit([&](VkCommandBuffer cmd) { EXPECT_FALSE(vkspd::generateMips(h->context, cmd, bad).ok()); });
    };
    vkspd::MipGenInfo bad = info;
    bad.reduction = vkspd::Reduction::Max;
    expectError(bad, VK_ERROR_FEATURE_NOT_PRESENT, "needs Reduction::Average");
    bad = info;
    bad.subgroupPath = vkspd::SubgroupPath::LdsOnly;
    expectError(bad, VK_ERROR_FEATURE_NOT_PRESENT, "needs the quad path");
    bad = info;
    bad.fetch = static_cast<vkspd::Fetch>(7);
    expectError(bad, VK_ERROR_UNKNOWN, "is not a vkspd::Fetch");
    TestImage wide = h->createImage(VK_FORMAT_R32G32B32A32_SFLOAT, 64, 64, 7, kChainUsage);
    bad = chainInfo(wide);
    bad.fetch = vkspd::Fetch::LinearSampler;
    expectError(bad, VK_ERROR_FORMAT_NOT_SUPPORTED, "needs more precision than a bilinear sample keeps");
    h->destroyImage(wide);
    TestImage srgb = h->createImage(VK_FORMAT_R8G8B8A8_SRGB, 64, 64, 7, kChainUsage, 1,
                                    singlePassFlags(VK_FORMAT_R8G8B8A8_SRGB));
    bad = chainInfo(srgb);
    bad.fetch = vkspd::Fetch::LinearSampler;
    expectError(bad, VK_ERROR_FORMAT_NOT_SUPPORTED, "is sRGB");
    h->destroyImage(srgb);
    // Load and Auto are always allowed, with any reduction and path.
    bad = info;
    bad.fetch = vkspd::Fetch::Load;
    bad.reduction = vkspd::Reduction::Min;
    bad.subgroupPath = vkspd::SubgroupPath::LdsOnly;
    EXPECT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_FALSE(d.linearFetch);
    // Auto: the linear sampler on NVIDIA where it is allowed (measured faster there), Load
    // elsewhere, and Load without an error where the rules refuse it.
    bad = info;
    bad.fetch = vkspd::Fetch::Auto;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    const bool quad = d.quad;
    EXPECT_EQ(d.linearFetch, quad && h->properties.vendorID == 0x10DE);
    bad.reduction = vkspd::Reduction::Max;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_FALSE(d.linearFetch);
    h->destroyImage(img);
    // The sampler reads a 2D view in texel coordinates: one layer.
    TestImage layers = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 7, kChainUsage, 2);
    bad = chainInfo(layers);
    bad.fetch = vkspd::Fetch::LinearSampler;
    expectError(bad, VK_ERROR_FEATURE_NOT_PRESENT, "needs one layer");
    bad.fetch = vkspd::Fetch::Auto;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_FALSE(d.linearFetch);
    bad.fetch = vkspd::Fetch::LinearSampler;
    bad.layerCount = 1;
    EXPECT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_EQ(d.linearFetch, d.quad);
    h->destroyImage(layers);
}

// The corner of a 2x2 block must be exact for the filter's weights to be 1/2: at 7680 texels a
// normalized corner, rounded, moved them by a step of the sampler's sub-texel precision (lavapipe:
// level 1 of RGBA16F 4 units in the last place off; an NVIDIA H200: 19); the texel-coordinate
// corner is exact. Level 1 through the
// sampler is then as exact as through loads: within one unit of the reference, on each kernel
// that fetches it (the halo-stage kernel's prefix, the general kernel).
TEST_F(GpuTest, LinearSamplerFetchIsExactAtWideSizes) {
    if (!h->quad) GTEST_SKIP() << "Fetch::LinearSampler needs the quad path";
    const VkFormat format = VK_FORMAT_R16G16B16A16_SFLOAT;
    const auto linear = vkspd::Fetch::LinearSampler;
    expectTunedChainMatches(h, format, 7680, 8, {linear, 0, true, vkspd::Kernel::HaloStages, 1.0});
    expectTunedChainMatches(h, format, 8, 7680, {linear, 0, true, vkspd::Kernel::General, 1.0});
}
