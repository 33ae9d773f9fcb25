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

// `bad` is refused with `code` and a message naming `rule`, by describeDispatch and by
// generateMips, which records nothing.
void expectRefused(Harness* h, const vkspd::MipGenInfo& bad, VkResult code, const char* rule) {
    vkspd::DispatchDescription d;
    vkspd::Result r = vkspd::describeDispatch(h->context, bad, &d);
    EXPECT_EQ(r.vkResult, code) << r.message;
    EXPECT_NE(r.message.find(rule), std::string::npos) << r.message;
    h->submit([&](VkCommandBuffer cmd) { EXPECT_FALSE(vkspd::generateMips(h->context, cmd, bad).ok()); });
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

// The plain-chain kernel's default strips leave at least 512 workgroups where the FP16 path reads
// texels of at most 4 bytes through the linear sampler, 256 otherwise (planner's plainMinGroups):
// 2048x2048 RGBA8 in strips of 2 with the sampler, of 4 with loads, on the FP32 path or at 8 bytes;
// 4096x2048 in strips of 4 against 8; the summed-levels kernel on a plain chain likewise. The
// output of the shorter strips matches the reference.
TEST_F(GpuTest, SampledNarrowTexelsTakeShorterPlainStrips) {
    if (!h->quad) GTEST_SKIP() << "Fetch::LinearSampler needs the quad path";
    auto tilesOf = [&](VkFormat format, uint32_t w, uint32_t ht, vkspd::Fetch fetch, vkspd::Precision precision,
                       vkspd::Kernel kernel = vkspd::Kernel::Auto) {
        TestImage img = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, 1, singlePassFlags(format));
        vkspd::MipGenInfo info = chainInfo(img);
        info.createFlags = singlePassFlags(format);
        info.fetch = fetch;
        info.precision = precision;
        vkspd::Tuning tuning;
        tuning.kernel = kernel;
        info.tuning = &tuning;
        Described d;
        vkspd::Result r = describe(h->context, info, &d);
        EXPECT_TRUE(r.ok()) << r.message;
        EXPECT_EQ(d.plainChain, kernel == vkspd::Kernel::Auto);
        EXPECT_EQ(d.summedLevels, kernel == vkspd::Kernel::SummedLevels);
        EXPECT_EQ(d.fp16, precision == vkspd::Precision::FP16);
        h->destroyImage(img);
        vkspd::forgetImage(h->context, img.image);
        return d.tilesPerGroup;
    };
    const auto linear = vkspd::Fetch::LinearSampler, load = vkspd::Fetch::Load;
    const auto fp32 = vkspd::Precision::FP32;
    EXPECT_EQ(tilesOf(VK_FORMAT_R8G8B8A8_UNORM, 2048, 2048, linear, fp32), 4u);
    EXPECT_EQ(tilesOf(VK_FORMAT_R8G8B8A8_UNORM, 2048, 2048, load, fp32), 4u);
    if (h->fp16) {
        const auto fp16 = vkspd::Precision::FP16;
        EXPECT_EQ(tilesOf(VK_FORMAT_R8G8B8A8_UNORM, 2048, 2048, linear, fp16), 2u);
        EXPECT_EQ(tilesOf(VK_FORMAT_R8_UNORM, 2048, 2048, linear, fp16), 2u);
        EXPECT_EQ(tilesOf(VK_FORMAT_R8G8B8A8_UNORM, 4096, 2048, linear, fp16), 4u);
        EXPECT_EQ(tilesOf(VK_FORMAT_R8G8B8A8_UNORM, 4096, 2048, load, fp16), 8u);
        EXPECT_EQ(tilesOf(VK_FORMAT_R8G8B8A8_UNORM, 2048, 2048, load, fp16), 4u);
        EXPECT_EQ(tilesOf(VK_FORMAT_R16G16B16A16_SFLOAT, 2048, 2048, linear, fp16), 4u);
        // The summed-levels kernel on a plain chain takes the plain-chain kernel's strips.
        EXPECT_EQ(tilesOf(VK_FORMAT_R8G8B8A8_UNORM, 2048, 2048, linear, fp16, vkspd::Kernel::SummedLevels), 2u);
        EXPECT_EQ(tilesOf(VK_FORMAT_R8G8B8A8_UNORM, 2048, 2048, load, fp16, vkspd::Kernel::SummedLevels), 4u);
    }
    expectTunedChainMatches(h, VK_FORMAT_R8G8B8A8_UNORM, 2048, 2048, {vkspd::Fetch::LinearSampler, 0});
}

TEST_F(GpuTest, LinearSamplerFetchWhereNotAllowedIsAnError) {
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 7, kChainUsage);
    vkspd::MipGenInfo info = chainInfo(img);
    info.fetch = vkspd::Fetch::LinearSampler;
    vkspd::DispatchDescription d;
    vkspd::MipGenInfo bad = info;
    bad.reduction = vkspd::Reduction::Max;
    expectRefused(h, bad, VK_ERROR_FEATURE_NOT_PRESENT, "needs Reduction::Average");
    bad = info;
    bad.subgroupPath = vkspd::SubgroupPath::LdsOnly;
    expectRefused(h, bad, VK_ERROR_FEATURE_NOT_PRESENT, "needs the quad path");
    bad = info;
    bad.fetch = static_cast<vkspd::Fetch>(7);
    expectRefused(h, bad, VK_ERROR_UNKNOWN, "is not a vkspd::Fetch");
    TestImage wide = h->createImage(VK_FORMAT_R32G32B32A32_SFLOAT, 64, 64, 7, kChainUsage);
    bad = chainInfo(wide);
    bad.fetch = vkspd::Fetch::LinearSampler;
    expectRefused(h, bad, VK_ERROR_FORMAT_NOT_SUPPORTED, "needs more precision than a bilinear sample keeps");
    h->destroyImage(wide);
    TestImage srgb = h->createImage(VK_FORMAT_R8G8B8A8_SRGB, 64, 64, 7, kChainUsage, 1,
                                    singlePassFlags(VK_FORMAT_R8G8B8A8_SRGB));
    bad = chainInfo(srgb);
    bad.fetch = vkspd::Fetch::LinearSampler;
    expectRefused(h, bad, VK_ERROR_FORMAT_NOT_SUPPORTED, "is sRGB");
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
    expectRefused(h, bad, VK_ERROR_FEATURE_NOT_PRESENT, "needs one layer");
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

namespace {

// One full chain of a one-channel `format` at `w` x `ht` through Fetch::Gather on `kernel`,
// reduced by `reduction`, against the CPU reference (Min and Max bit-exact); describeDispatch must
// report the gather.
void expectGatheredChainMatches(Harness* h, VkFormat format, uint32_t w, uint32_t ht, vkspd::Reduction reduction,
                                vkspd::Kernel kernel) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const bool fp16 = h->fp16 && fi.fp16Capable;
    const char* kernelName = kernel == vkspd::Kernel::PlainChain    ? "plain"
                             : kernel == vkspd::Kernel::HaloStages  ? "halo"
                             : kernel == vkspd::Kernel::SummedLevels ? "summed"
                                                                     : "auto";
    const char* reductionName = reduction == vkspd::Reduction::Average ? "avg"
                                : reduction == vkspd::Reduction::Min   ? "min"
                                                                       : "max";
    const std::string what = std::string(fi.name) + " " + std::to_string(w) + "x" + std::to_string(ht) + " gather " +
                             kernelName + " " + reductionName + (fp16 ? " fp16" : " fp32");
    TestImage img = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage);
    const std::vector<uint8_t> level0 = randomTexels(format, w, ht, w * 17 + ht);
    h->upload(img, level0.data());
    vkspd::MipGenInfo info = chainInfo(img);
    info.precision = fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
    info.subgroupPath = vkspd::SubgroupPath::Quad;
    info.fetch = vkspd::Fetch::Gather;
    info.reduction = reduction;
    vkspd::Tuning tuning;
    tuning.kernel = kernel;
    info.tuning = &tuning;
    Described d;
    vkspd::Result r = describe(h->context, info, &d);
    ASSERT_TRUE(r.ok()) << what << ": " << r.message;
    EXPECT_TRUE(d.gatherFetch) << what;
    EXPECT_FALSE(d.linearFetch) << what;
    EXPECT_EQ(d.plainChain, kernel == vkspd::Kernel::PlainChain) << what;
    EXPECT_EQ(d.haloStages && !d.oddBaseStage, kernel == vkspd::Kernel::HaloStages) << what;
    EXPECT_EQ(d.summedLevels, kernel == vkspd::Kernel::SummedLevels) << what;
    expectGeneratedChainMatches(h, img, info, fp16, what);
    h->destroyImage(img);
    vkspd::forgetImage(h->context, img.image);
}

}  // namespace

// Fetch::Gather returns the 2x2 block's texels themselves: the same texels as the loads on every
// kernel that gathers (the plain-chain kernel, the halo-stage and summed-levels kernels' plain
// prefix), every one-channel kind of format (8- and 16-bit UNORM, half and single float), square,
// thin (axes of one texel: the sampler's clamp reads that texel twice) and several tiles and
// stages.
TEST_F(GpuTest, GatherFetchMatchesTheReference) {
    if (!h->quad) GTEST_SKIP() << "Fetch::Gather needs the quad path";
    using vkspd::Kernel;
    using vkspd::Reduction;
    const uint32_t plainSizes[][2] = {{2, 2}, {1, 64}, {64, 1}, {256, 128}, {4096, 4}};
    for (Reduction reduction : {Reduction::Average, Reduction::Min, Reduction::Max})
        for (const auto& s : plainSizes)
            expectGatheredChainMatches(h, VK_FORMAT_R32_SFLOAT, s[0], s[1], reduction, Kernel::PlainChain);
    for (VkFormat f : {VK_FORMAT_R8_UNORM, VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SFLOAT}) {
        expectGatheredChainMatches(h, f, 128, 128, Reduction::Average, Kernel::PlainChain);
        expectGatheredChainMatches(h, f, 128, 64, Reduction::Max, Kernel::PlainChain);
    }
    // A plain prefix of 2 (260x132: level 2 is 65x33) and of 3 (1000x600) before the halo stages,
    // and before the summed levels.
    for (Reduction reduction : {Reduction::Average, Reduction::Min}) {
        expectGatheredChainMatches(h, VK_FORMAT_R32_SFLOAT, 260, 132, reduction, Kernel::HaloStages);
        expectGatheredChainMatches(h, VK_FORMAT_R32_SFLOAT, 1000, 600, reduction, Kernel::HaloStages);
    }
    expectGatheredChainMatches(h, VK_FORMAT_R32_SFLOAT, 1000, 600, Reduction::Min, Kernel::SummedLevels);
    expectGatheredChainMatches(h, VK_FORMAT_R8_UNORM, 1000, 600, Reduction::Average, Kernel::SummedLevels);
}

// Fetch::Gather's rules, each an error naming it with nothing recorded; Auto gathers on NVIDIA
// where they allow it (measured faster there) and loads elsewhere, never an error.
TEST_F(GpuTest, GatherFetchWhereNotAllowedIsAnError) {
    if (!h->quad) GTEST_SKIP() << "Fetch::Gather needs the quad path";
    vkspd::DispatchDescription d;
    TestImage one = h->createImage(VK_FORMAT_R32_SFLOAT, 64, 64, 7, kChainUsage);
    vkspd::MipGenInfo info = chainInfo(one);
    info.fetch = vkspd::Fetch::Gather;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, info, &d).ok());
    EXPECT_TRUE(d.gatherFetch);
    vkspd::MipGenInfo bad = info;
    bad.subgroupPath = vkspd::SubgroupPath::LdsOnly;
    expectRefused(h, bad, VK_ERROR_FEATURE_NOT_PRESENT, "needs the quad path");
    vkspd::Tuning general;
    general.kernel = vkspd::Kernel::General;
    bad = info;
    bad.tuning = &general;
    expectRefused(h, bad, VK_ERROR_FEATURE_NOT_PRESENT, "runs on the general kernel");
    // MinMax makes two channels (R the minimum, G the maximum) of a two-channel image.
    TestImage rg = h->createImage(VK_FORMAT_R32G32_SFLOAT, 64, 64, 7, kChainUsage);
    bad = chainInfo(rg);
    bad.fetch = vkspd::Fetch::Gather;
    bad.reduction = vkspd::Reduction::MinMax;
    expectRefused(h, bad, VK_ERROR_FORMAT_NOT_SUPPORTED, "has 2 channels");
    h->destroyImage(rg);
    // An odd base: its level-1 taps are read one by one.
    TestImage odd = h->createImage(VK_FORMAT_R32_SFLOAT, 65, 63, 7, kChainUsage);
    bad = chainInfo(odd);
    bad.fetch = vkspd::Fetch::Gather;
    expectRefused(h, bad, VK_ERROR_FEATURE_NOT_PRESENT, "has an odd side");
    h->destroyImage(odd);
    // Layers: the gather reads a 2D view in texel coordinates.
    TestImage layers = h->createImage(VK_FORMAT_R32_SFLOAT, 64, 64, 7, kChainUsage, 2);
    bad = chainInfo(layers);
    bad.fetch = vkspd::Fetch::Gather;
    expectRefused(h, bad, VK_ERROR_FEATURE_NOT_PRESENT, "needs one layer");
    bad.layerCount = 1;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_TRUE(d.gatherFetch);
    h->destroyImage(layers);
    // A depth source is read by loads (and copied into level 0 from them).
    TestImage depth = h->createImage(VK_FORMAT_D32_SFLOAT, 64, 64, 1,
                                     VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                         VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    bad = sourcedChainInfo(one, depth);
    bad.reduction = vkspd::Reduction::Min;
    bad.fetch = vkspd::Fetch::Gather;
    expectRefused(h, bad, VK_ERROR_FEATURE_NOT_PRESENT, "not a MipGenInfo::source");
    bad.fetch = vkspd::Fetch::Auto;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_FALSE(d.gatherFetch);
    h->destroyImage(depth);
    // Four channels: one gather per channel would take as many instructions as the loads.
    TestImage rgba = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 7, kChainUsage);
    bad = chainInfo(rgba);
    bad.fetch = vkspd::Fetch::Gather;
    expectRefused(h, bad, VK_ERROR_FORMAT_NOT_SUPPORTED, "gathers formats of one channel only");
    bad.fetch = vkspd::Fetch::Auto;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_FALSE(d.gatherFetch);
    h->destroyImage(rgba);
    // Auto: the gather on NVIDIA for a one-channel Min (the linear sampler takes averages only),
    // loads elsewhere.
    bad = info;
    bad.fetch = vkspd::Fetch::Auto;
    bad.reduction = vkspd::Reduction::Min;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_EQ(d.gatherFetch, h->properties.vendorID == 0x10DE);
    EXPECT_FALSE(d.linearFetch);
    bad.fetch = vkspd::Fetch::Load;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, bad, &d).ok());
    EXPECT_FALSE(d.gatherFetch);
    h->destroyImage(one);
}

namespace {

// Precision::Auto: FP16 wherever the format and device allow it, but FP32 for Min and Max on
// NVIDIA where the plain-chain or summed-levels kernel runs the chain (measured faster there; not
// on the halo-stage kernel, nor for MinMax); every chain matches the reference bit for bit either
// way. On other devices every case takes FP16.
TEST_F(GpuTest, AutoPrecisionOfMinAndMaxFollowsTheVendorRule) {
    using vkspd::Reduction;
    const bool nvidia = h->properties.vendorID == 0x10DE;
    struct Case {
        VkFormat format;
        uint32_t w, ht;
        Reduction reduction;
        const char* kernel;  // the kernel Auto takes: plain, summed or halo
    };
    const Case cases[] = {
        {VK_FORMAT_R8_UNORM, 256, 256, Reduction::Min, "plain"},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 128, 32, Reduction::Max, "plain"},
        {VK_FORMAT_R8G8B8A8_UNORM, 1000, 600, Reduction::Min, "summed"},  // a plain prefix of 3
        {VK_FORMAT_R16G16B16A16_SFLOAT, 260, 132, Reduction::Max, "halo"},  // 8-byte texels: not summed
        {VK_FORMAT_R8G8B8A8_UNORM, 255, 255, Reduction::Min, "halo"},        // an odd base
        {VK_FORMAT_R16_SFLOAT, 130, 66, Reduction::Max, "halo"},             // level 1 is 65x33
        {VK_FORMAT_R16G16_SFLOAT, 128, 64, Reduction::MinMax, "plain"},
        {VK_FORMAT_R8G8B8A8_UNORM, 256, 256, Reduction::Average, "plain"},
    };
    for (const Case& c : cases) {
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(c.format, &fi);
        const std::string what = std::string(fi.name) + " " + std::to_string(c.w) + "x" + std::to_string(c.ht) +
                                 " reduction " + std::to_string(int(c.reduction));
        TestImage img = h->createImage(c.format, c.w, c.ht, vkspd::fullMipCount(c.w, c.ht), kChainUsage);
        const std::vector<uint8_t> level0 = randomTexels(c.format, c.w, c.ht, c.w * 3 + c.ht);
        h->upload(img, level0.data());
        vkspd::MipGenInfo info = chainInfo(img);
        info.reduction = c.reduction;
        Described d;
        vkspd::Result r = describe(h->context, info, &d);
        ASSERT_TRUE(r.ok()) << what << ": " << r.message;
        const std::string kernel = d.plainChain ? "plain" : d.summedLevels ? "summed" : d.haloStages ? "halo" : "general";
        if (h->quad) {
            EXPECT_EQ(kernel, c.kernel) << what;
        }
        const bool extremes = c.reduction == Reduction::Min || c.reduction == Reduction::Max;
        EXPECT_EQ(d.fp16, h->fp16 && fi.fp16Capable && !(extremes && nvidia && (d.plainChain || d.summedLevels)))
            << what;
        expectGeneratedChainMatches(h, img, info, d.fp16, what);
        h->destroyImage(img);
        vkspd::forgetImage(h->context, img.image);
    }
}

}  // namespace
