// The plain-chain kernel (Kernel::PlainChain, shaders/vkspd_plain.comp) against the CPU reference:
// plain sizes from one tile to three stages, square and thin, every tiles-per-group choice, FP16
// and FP32, texel loads and the linear sampler, sRGB and UNORM on one context, the reductions and
// layers (partial ranges: gpu_layers_test.cpp; repeated and concurrent dispatches:
// gpu_stress_test.cpp's mixed jobs); which requests Auto gives it, and the errors for those it
// cannot run.
#include "vulkan_harness.hpp"

#include <vkspd/debug.hpp>

#include <cstdio>
#include <cstring>

using namespace vkspd_test;

namespace {

struct PlainRun {
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    uint32_t width = 0, height = 0, layers = 1;
    vkspd::Precision precision = vkspd::Precision::FP16;  // FP32 where the format or device cannot
    vkspd::Fetch fetch = vkspd::Fetch::Load;
    vkspd::Reduction reduction = vkspd::Reduction::Average;
    uint32_t tilesPerGroup = 0;
    uint32_t tailTiles = 0, tailTilesPerGroup = 0;  // Tuning's; 0, 0 = the library's rule
    uint32_t levels = 0;                            // levels below the base (the image's); 0 = all
};

std::string nameOf(const PlainRun& r) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(r.format, &fi);
    return std::string(fi.name) + " " + std::to_string(r.width) + "x" + std::to_string(r.height) +
           (r.layers > 1 ? "x" + std::to_string(r.layers) + " layers" : "") +
           (r.precision == vkspd::Precision::FP16 ? " fp16" : " fp32") +
           (r.fetch == vkspd::Fetch::LinearSampler ? " linear" : " load") + " tiles " + std::to_string(r.tilesPerGroup) +
           (r.tailTilesPerGroup ? " tail " + std::to_string(r.tailTiles) + "/" + std::to_string(r.tailTilesPerGroup) : "") +
           (r.levels ? " levels " + std::to_string(r.levels) : "");
}

vkspd::ReferenceOptions optionsFor(vkspd::Reduction reduction) {
    vkspd::ReferenceOptions o;
    o.reduction = reduction;
    return o;
}

// One full chain with the plain-chain kernel named explicitly; checks that describeDispatch
// reports it (with the resolved tiles per group and the strips' group count) and compares every
// level of every layer with the reference. Returns the worst error.
double expectPlainChainMatches(Harness* h, PlainRun run) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(run.format, &fi);
    if (run.precision == vkspd::Precision::FP16 && !(h->fp16 && fi.fp16Capable)) run.precision = vkspd::Precision::FP32;
    const std::string what = nameOf(run);
    TestImage img = h->createImage(run.format, run.width, run.height,
                                   run.levels ? run.levels + 1 : vkspd::fullMipCount(run.width, run.height),
                                   kChainUsage, run.layers, singlePassFlags(run.format));
    std::vector<uint8_t> level0;
    for (uint32_t l = 0; l < run.layers; ++l) {
        auto layer = randomTexels(run.format, run.width, run.height, run.width * 7 + run.height * 13 + l);
        level0.insert(level0.end(), layer.begin(), layer.end());
    }
    h->upload(img, level0.data());
    vkspd::MipGenInfo info = chainInfo(img);
    info.createFlags = singlePassFlags(run.format);
    info.precision = run.precision;
    info.subgroupPath = vkspd::SubgroupPath::Quad;
    info.fetch = run.fetch;
    info.reduction = run.reduction;
    vkspd::Tuning tuning;
    tuning.kernel = vkspd::Kernel::PlainChain;
    tuning.tilesPerGroup = run.tilesPerGroup;
    tuning.tailTiles = run.tailTiles;
    tuning.tailTilesPerGroup = run.tailTilesPerGroup;
    info.tuning = &tuning;
    Described d;
    vkspd::Result r = describe(h->context, info, &d);
    EXPECT_TRUE(r.ok()) << what << ": " << r.message;
    if (!r.ok()) {
        h->destroyImage(img);
        return 0;
    }
    EXPECT_TRUE(d.plainChain) << what;
    const uint32_t tilesX = (run.width + 63) / 64;
    if (run.tilesPerGroup) {
        uint32_t cover = 1;
        while (cover < tilesX) cover *= 2;
        EXPECT_EQ(d.tilesPerGroup, std::min(run.tilesPerGroup, cover)) << what;
    }
    EXPECT_EQ(d.groupsX, (tilesX + d.tilesPerGroup - 1) / d.tilesPerGroup) << what;
    // The tail: whole rows from the bottom holding at least tailTiles tiles, each taking
    // tilesPerGroup / tailTilesPerGroup rows of workgroups (none at the library's rule here: these
    // bases have fewer than 128x128 tiles).
    const uint32_t tilesY = (run.height + 63) / 64;
    uint32_t tailRow = tilesY, tailPer = d.tilesPerGroup;
    if (run.tailTilesPerGroup && run.tailTilesPerGroup < d.tilesPerGroup && run.tailTiles) {
        tailRow = tilesY - std::min(tilesY, (run.tailTiles + tilesX - 1) / tilesX);
        tailPer = run.tailTilesPerGroup;
    }
    EXPECT_EQ(d.tailRow, tailRow) << what;
    EXPECT_EQ(d.tailTilesPerGroup, tailPer) << what;
    EXPECT_EQ(d.groupsY, tailRow + (tilesY - tailRow) * (d.tilesPerGroup / tailPer)) << what;
    EXPECT_EQ(d.groupsZ, run.layers) << what;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result g = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(g.ok()) << what << ": " << g.message;
    });
    auto gpu = h->readLevels(img);
    EXPECT_EQ(std::memcmp(gpu[0].data(), level0.data(), level0.size()), 0) << what << ": level 0 was modified";
    const double tol = run.reduction == vkspd::Reduction::Average
                           ? vkspd::toleranceFor(run.format, run.precision == vkspd::Precision::FP16)
                           : 0.0;
    const double worst =
        expectChainMatches(img, gpu, 0, img.levels, 0, run.layers, tol, what, optionsFor(run.reduction));
    std::printf("[ worst    ] %s: %g (tolerance %g)\n", what.c_str(), worst, tol);
    h->destroyImage(img);
    return worst;
}

}  // namespace

// Every plain shape: one tile that stops after levels 1-5, a tile of 64x64 (levels 1-6 and the
// deferred level 6), several tiles in one stage, two stages, three stages (16384x4: four stage-1
// groups elected, one stage 2), and axes of one texel (the 2x2 footprint takes that texel twice).
TEST_F(GpuTest, PlainChainSizesMatchTheReference) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    const uint32_t sizes[][2] = {{2, 2},    {4, 4},   {8, 8},     {32, 32},   {64, 64},    {128, 64},
                                 {64, 128}, {256, 256}, {1, 512}, {512, 1},   {2048, 2},   {2, 2048},
                                 {1, 2},    {4096, 1}, {16384, 4}};
    for (const auto& s : sizes) {
        const VkFormat rgba8 = VK_FORMAT_R8G8B8A8_UNORM;
        expectPlainChainMatches(h, {rgba8, s[0], s[1], 1, vkspd::Precision::FP16, vkspd::Fetch::Load});
        expectPlainChainMatches(h, {rgba8, s[0], s[1], 1, vkspd::Precision::FP32, vkspd::Fetch::Load});
        expectPlainChainMatches(h, {VK_FORMAT_R8G8B8A8_UNORM, s[0], s[1], 1, vkspd::Precision::FP16,
                                    vkspd::Fetch::LinearSampler});
    }
    // Half floats through the linear sampler, and FP32 of a float format.
    expectPlainChainMatches(h, {VK_FORMAT_R16G16B16A16_SFLOAT, 256, 128, 1, vkspd::Precision::FP16,
                                vkspd::Fetch::LinearSampler});
    expectPlainChainMatches(h, {VK_FORMAT_R32G32B32A32_SFLOAT, 128, 256, 1, vkspd::Precision::FP32,
                                vkspd::Fetch::Load});
}

// The sRGB encoding is a specialization constant of the plain-chain kernel, so a context holds a
// pipeline per encoding: UNORM and sRGB chains in turn on one context, both orders, FP16 and FP32,
// over two stages; each must match the reference (an 8-bit UNORM chain run through the encoding
// pipeline, or the reverse, would be off by far more than the tolerance).
TEST_F(GpuTest, PlainChainEncodesSrgbOnlyForSrgbFormats) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    for (vkspd::Precision p : {vkspd::Precision::FP16, vkspd::Precision::FP32})
        for (VkFormat f : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB,
                           VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB})
            expectPlainChainMatches(h, {f, 256, 128, 1, p, vkspd::Fetch::Load});
}

// The later stages read the kept texels with one load per float where a texel has fewer than four
// (loadKeptNarrow): one channel (R8), three (B10G11R11, FP16 and FP32) and two (MinMax in
// PlainChainReductionsAreBitExact), over two stages whose stage 1 has a tail (512x256: level 7 is
// 4x2, three of its four steps skipped).
TEST_F(GpuTest, PlainChainKeepsTexelsOfOneToThreeChannels) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    for (vkspd::Precision p : {vkspd::Precision::FP16, vkspd::Precision::FP32})
        for (VkFormat f : {VK_FORMAT_R8_UNORM, VK_FORMAT_B10G11R11_UFLOAT_PACK32})
            expectPlainChainMatches(h, {f, 512, 256, 1, p, vkspd::Fetch::Load});
}

// A group reduces a strip of tiles, fetching each one while it reduces the one before: strips of
// 1 to 8 tiles over 8 tile columns, 32 (capped at 8), 16 and 4 over a row of 16 tiles whose
// level 6 starts a second stage, and 32 over 64 tile columns; the output must not change.
TEST_F(GpuTest, PlainChainTilesPerGroupKeepTheOutput) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    for (uint32_t tiles : {1u, 2u, 4u, 8u, 32u})
        expectPlainChainMatches(h, {VK_FORMAT_R8G8B8A8_UNORM, 512, 256, 1, vkspd::Precision::FP16,
                                    vkspd::Fetch::LinearSampler, vkspd::Reduction::Average, tiles});
    for (uint32_t tiles : {16u, 4u})
        expectPlainChainMatches(h, {VK_FORMAT_R16G16B16A16_SFLOAT, 1024, 64, 1, vkspd::Precision::FP32,
                                    vkspd::Fetch::Load, vkspd::Reduction::Average, tiles});
    // The most a group takes: strips of 32 over 64 tile columns, each a whole quadrant's row of the
    // stage-1 tile (two quadrants, two rows of strips each).
    expectPlainChainMatches(h, {VK_FORMAT_R8G8B8A8_UNORM, 4096, 128, 1, vkspd::Precision::FP16,
                                vkspd::Fetch::LinearSampler, vkspd::Reduction::Average, 32u});
}

// Min, Max and MinMax take every texel of each 2x2 footprint: bit-exact, FP16 and FP32, over two
// stages and strips of tiles.
TEST_F(GpuTest, PlainChainReductionsAreBitExact) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    for (vkspd::Precision p : {vkspd::Precision::FP16, vkspd::Precision::FP32}) {
        expectPlainChainMatches(h, {VK_FORMAT_R16G16B16A16_SFLOAT, 512, 128, 1, p, vkspd::Fetch::Load,
                                    vkspd::Reduction::Min, 2});
        expectPlainChainMatches(h, {VK_FORMAT_R16G16B16A16_SFLOAT, 128, 512, 1, p, vkspd::Fetch::Load,
                                    vkspd::Reduction::Max});
        expectPlainChainMatches(h, {VK_FORMAT_R32G32_SFLOAT, 4096, 2, 1, p, vkspd::Fetch::Load,
                                    vkspd::Reduction::MinMax, 8});
    }
}

// Layers are the dispatch's z, each with its own counters and kept texels: 6 layers of two stages
// in strips of 2 tiles.
TEST_F(GpuTest, PlainChainLayersMatchTheReference) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    expectPlainChainMatches(h, {VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 6, vkspd::Precision::FP16, vkspd::Fetch::Load,
                                vkspd::Reduction::Average, 2});
}

// Auto takes the plain-chain kernel exactly where it applies; explicit requests it cannot run are
// errors naming the rule, and nothing is recorded for them.
// The default tiles per group follows the texel size from 128x128 tiles on (planner.hpp): what
// describeDispatch reports for the format the dispatch reads. Described only, not run (two
// levels of 8192^2: 512 MiB of RGBA16F at level 0).
TEST_F(GpuTest, PlainChainTilesPerGroupFollowTheTexelSize) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    struct Case {
        VkFormat format;
        uint32_t expected;
    };
    for (const Case& c : {Case{VK_FORMAT_R16G16B16A16_SFLOAT, 4u}, Case{VK_FORMAT_R8G8B8A8_UNORM, 8u},
                          Case{VK_FORMAT_R32G32B32A32_SFLOAT, 4u}}) {
        TestImage img = h->createImage(c.format, 8192, 8192, 2, kChainUsage);
        vkspd::MipGenInfo info = chainInfo(img);
        vkspd::Tuning tuning;
        info.tuning = &tuning;
        Described d;
        ASSERT_TRUE(describe(h->context, info, &d).ok());
        EXPECT_TRUE(d.plainChain);
        EXPECT_EQ(d.tilesPerGroup, c.expected) << c.format;
        EXPECT_EQ(d.groupsX, 128u / c.expected) << c.format;
        // The library's tail: the last 2048 tiles (16 rows) in strips of 2.
        EXPECT_EQ(d.tailRow, 112u) << c.format;
        EXPECT_EQ(d.tailTilesPerGroup, 2u) << c.format;
        EXPECT_EQ(d.groupsY, 112u + 16u * (c.expected / 2u)) << c.format;
        tuning.tilesPerGroup = 8;  // a request is kept
        ASSERT_TRUE(describe(h->context, info, &d).ok());
        EXPECT_EQ(d.tilesPerGroup, 8u) << c.format;
        tuning.tailTiles = 0;  // no tail
        tuning.tailTilesPerGroup = 1;
        ASSERT_TRUE(describe(h->context, info, &d).ok());
        EXPECT_EQ(d.tailRow, 128u) << c.format;
        EXPECT_EQ(d.groupsY, 128u) << c.format;
        h->destroyImage(img);
        vkspd::forgetImage(h->context, img.image);
    }
}

// Tail strips (Tuning::tailTiles): the last rows in shorter strips, up to every row, over one
// and two stages, layers, and a partial range whose tile row (30 tiles) leaves strips of 8 and a
// tail's strips of 2 past its end; each must match the reference.
TEST_F(GpuTest, PlainChainTailStripsKeepTheOutput) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    const VkFormat rgba8 = VK_FORMAT_R8G8B8A8_UNORM, rgba16f = VK_FORMAT_R16G16B16A16_SFLOAT;
    const auto fp16 = vkspd::Precision::FP16, fp32 = vkspd::Precision::FP32;
    const auto load = vkspd::Fetch::Load, linear = vkspd::Fetch::LinearSampler;
    const auto avg = vkspd::Reduction::Average;
    expectPlainChainMatches(h, {rgba8, 512, 256, 1, fp16, linear, avg, 8, 8, 1});        // the last row in 1s
    expectPlainChainMatches(h, {rgba8, 512, 256, 1, fp32, load, avg, 8, 20, 2});         // the last 3 rows in 2s
    expectPlainChainMatches(h, {rgba8, 512, 256, 1, fp16, load, avg, 4, 1000, 1});       // every row in 1s
    expectPlainChainMatches(h, {rgba16f, 256, 512, 1, fp16, linear, avg, 4, 4, 2});      // 4x8 tiles
    expectPlainChainMatches(h, {rgba8, 4096, 128, 1, fp16, linear, avg, 16, 64, 4});     // two stages
    expectPlainChainMatches(h, {rgba8, 256, 256, 3, fp16, load, avg, 4, 4, 1});          // layers
    expectPlainChainMatches(h, {rgba8, 1920, 1080, 1, fp16, linear, avg, 8, 60, 2, 3});  // 30x17 tiles
    expectPlainChainMatches(h, {rgba8, 1920, 1080, 1, fp32, load, vkspd::Reduction::Max, 8, 1, 1, 3});
}

TEST_F(GpuTest, PlainChainIsChosenWhereItAppliesAndRefusedElsewhere) {
    TestImage plain = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 256, 128, 9, kChainUsage);
    TestImage odd = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 255, 128, 8, kChainUsage);
    Described d;
    vkspd::MipGenInfo info = chainInfo(plain);
    vkspd::Tuning tuning;
    info.tuning = &tuning;
    ASSERT_TRUE(describe(h->context, info, &d).ok());
    EXPECT_TRUE(d.plainChain);
    EXPECT_EQ(d.tilesPerGroup, 1u);  // 8 tiles: too few for strips under the default rule
    tuning.kernel = vkspd::Kernel::General;
    ASSERT_TRUE(describe(h->context, info, &d).ok());
    EXPECT_FALSE(d.plainChain);
    EXPECT_EQ(d.groupsX, 4u);
    EXPECT_EQ(d.tilesPerGroup, 1u);
    tuning.tilesPerGroup = 4;  // ignored by the general kernel
    ASSERT_TRUE(describe(h->context, info, &d).ok());
    EXPECT_EQ(d.groupsX, 4u);
    // Auto falls back to the general kernel without an error where the plain one cannot run.
    vkspd::MipGenInfo autoOdd = chainInfo(odd);
    ASSERT_TRUE(describe(h->context, autoOdd, &d).ok());
    EXPECT_FALSE(d.plainChain);
    // The LDS-only path takes it (its module compiled at run time).
    vkspd::MipGenInfo autoLds = chainInfo(plain);
    autoLds.subgroupPath = vkspd::SubgroupPath::LdsOnly;
    ASSERT_TRUE(describe(h->context, autoLds, &d).ok());
    EXPECT_TRUE(d.plainChain);
    EXPECT_FALSE(d.quad);
    vkspd::MipGenInfo autoCols = chainInfo(plain);
    vkspd::Tuning cols;
    cols.groupColumns = 2;
    autoCols.tuning = &cols;
    ASSERT_TRUE(describe(h->context, autoCols, &d).ok());
    EXPECT_FALSE(d.plainChain);
    // A partial range that reads only even levels of an odd-later chain is plain.
    TestImage hd = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 4, kChainUsage);
    vkspd::MipGenInfo part = chainInfo(hd);
    ASSERT_TRUE(describe(h->context, part, &d).ok());
    EXPECT_TRUE(d.plainChain);  // 1920x1080 to 240x135: every level read is even

    auto expectError = [&](const vkspd::MipGenInfo& bad, VkResult code, const std::string& rule) {
        vkspd::Result r = vkspd::describeDispatch(h->context, bad, &d);
        EXPECT_EQ(r.vkResult, code) << r.message;
        EXPECT_NE(r.message.find(rule), std::string::npos) << r.message;
        h->submit([&](VkCommandBuffer cmd) { EXPECT_FALSE(vkspd::generateMips(h->context, cmd, bad).ok()); });
    };
    vkspd::Tuning badTuning;
    // A request on `image` with badTuning, reset to the defaults.
    auto badInfo = [&](const TestImage& image) {
        badTuning = vkspd::Tuning{};
        vkspd::MipGenInfo i = chainInfo(image);
        i.tuning = &badTuning;
        return i;
    };
    vkspd::MipGenInfo bad = badInfo(odd);
    badTuning.kernel = vkspd::Kernel::PlainChain;
    expectError(bad, VK_ERROR_FEATURE_NOT_PRESENT, "is not a plain chain");
    bad = badInfo(plain);
    badTuning.kernel = vkspd::Kernel::PlainChain;
    badTuning.groupColumns = 2;
    expectError(bad, VK_ERROR_FEATURE_NOT_PRESENT, "group-ID tiling");
    bad = badInfo(plain);
    badTuning.kernel = static_cast<vkspd::Kernel>(9);
    expectError(bad, VK_ERROR_UNKNOWN, "is not a vkspd::Kernel");
    for (uint32_t tiles : {3u, 64u, 12u}) {
        bad = badInfo(plain);
        badTuning.tilesPerGroup = tiles;
        expectError(bad, VK_ERROR_UNKNOWN, "must be 0 (the library's choice) or a power of two from 1 to 32");
        bad = badInfo(plain);
        badTuning.tailTilesPerGroup = tiles;
        expectError(bad, VK_ERROR_UNKNOWN, "Tuning::tailTilesPerGroup " + std::to_string(tiles) + " must be 0");
    }
    // The debug map is a variant of the general kernel.
    bad = badInfo(plain);
    badTuning.kernel = vkspd::Kernel::PlainChain;
    EXPECT_EQ(vkspd::debugMapSize(h->context, bad), 0u);
    h->destroyImage(plain);
    h->destroyImage(odd);
    h->destroyImage(hd);
}

// The LDS-only path (SubgroupPath::LdsOnly, or Auto on a device without quad operations) runs the
// plain-chain, halo-stage and summed-levels kernels from modules compiled at run time
// (VKSPD_QUAD 0: a quad's texels through shared memory), exact as on the quad path: a plain chain
// with a later stage and layers, the halo stages after a plain prefix and from an odd base, the
// summed levels, Min, MinMax, and the explicit kernels.
TEST_F(GpuTest, LdsOnlyPathRunsThePlainHaloAndSummedKernels) {
    struct Case {
        VkFormat format;
        uint32_t w, h, layers;
        vkspd::Reduction reduction;
        vkspd::Kernel kernel;
        bool Described::*taken;
        const char* what;
    };
    const Case cases[] = {
        {VK_FORMAT_R8G8B8A8_UNORM, 512, 512, 1, vkspd::Reduction::Average, vkspd::Kernel::Auto,
         &Described::plainChain, "RGBA8 512x512 (a later stage)"},
        {VK_FORMAT_R8G8B8A8_UNORM, 4096, 128, 1, vkspd::Reduction::Average, vkspd::Kernel::Auto,
         &Described::plainChain, "RGBA8 4096x128 (a later stage of two quadrants)"},
        {VK_FORMAT_R8G8B8A8_UNORM, 2048, 64, 1, vkspd::Reduction::Average, vkspd::Kernel::Auto,
         &Described::plainChain, "RGBA8 2048x64 (a later stage of five levels)"},
        {VK_FORMAT_R8G8B8A8_UNORM, 256, 128, 3, vkspd::Reduction::Average, vkspd::Kernel::PlainChain,
         &Described::plainChain, "RGBA8 256x128 x3, PlainChain"},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 260, 132, 1, vkspd::Reduction::Average, vkspd::Kernel::Auto,
         &Described::haloStages, "RGBA16F 260x132 (a prefix of 2)"},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 255, 131, 1, vkspd::Reduction::Average, vkspd::Kernel::Auto,
         &Described::oddBaseStage, "RGBA16F 255x131 (an odd base)"},
        {VK_FORMAT_R32_SFLOAT, 1000, 600, 1, vkspd::Reduction::Max, vkspd::Kernel::HaloStages,
         &Described::haloStages, "R32F Max 1000x600, HaloStages"},
        {VK_FORMAT_R8G8B8A8_UNORM, 640, 360, 1, vkspd::Reduction::Average, vkspd::Kernel::Auto,
         &Described::summedLevels, "RGBA8 640x360 (summed)"},
        {VK_FORMAT_R32_SFLOAT, 640, 360, 1, vkspd::Reduction::Min, vkspd::Kernel::SummedLevels,
         &Described::summedLevels, "R32F Min 640x360, SummedLevels"},
        {VK_FORMAT_R16G16_SFLOAT, 520, 264, 1, vkspd::Reduction::MinMax, vkspd::Kernel::Auto,
         &Described::summedLevels, "RG16F MinMax 520x264 (summed)"},
    };
    for (const Case& c : cases) {
        for (vkspd::Precision precision : {vkspd::Precision::FP32, vkspd::Precision::FP16}) {
            vkspd::FormatInfo fi;
            vkspd::getFormatInfo(c.format, &fi);
            if (precision == vkspd::Precision::FP16 && (!h->fp16 || !fi.fp16Capable)) continue;
            const std::string what = std::string(c.what) + (precision == vkspd::Precision::FP16 ? ", FP16" : ", FP32");
            TestImage img = h->createImage(c.format, c.w, c.h, vkspd::fullMipCount(c.w, c.h), kChainUsage, c.layers,
                                           singlePassFlags(c.format));
            std::vector<uint8_t> texels;
            for (uint32_t layer = 0; layer < c.layers; ++layer) {
                const auto one = randomTexels(c.format, c.w, c.h, 7 + layer);
                texels.insert(texels.end(), one.begin(), one.end());
            }
            if (c.format == VK_FORMAT_R8G8B8A8_UNORM) {
                // Four bands of brightness across the width, so that the top levels of a long chain
                // still tell their texels apart (random texels all average to the middle).
                for (size_t i = 0; i < texels.size(); ++i) {
                    const uint32_t x = uint32_t(i / 4 % c.w);
                    texels[i] = uint8_t((texels[i] & 63u) + 64u * (4u * x / c.w));
                }
            }
            if (c.reduction == vkspd::Reduction::MinMax) {
                // MinMax's images hold (v, v) at level 0.
                const size_t n = size_t(c.w) * c.h * c.layers;
                for (size_t i = 0; i < n; ++i) std::memcpy(&texels[4 * i + 2], &texels[4 * i], 2);
            }
            h->upload(img, texels.data());
            vkspd::MipGenInfo info = chainInfo(img);
            info.subgroupPath = vkspd::SubgroupPath::LdsOnly;
            info.precision = precision;
            info.reduction = c.reduction;
            vkspd::Tuning tuning;
            tuning.kernel = c.kernel;
            info.tuning = &tuning;
            Described d;
            const vkspd::Result r = describe(h->context, info, &d);
            ASSERT_TRUE(r.ok()) << what << ": " << r.message;
            EXPECT_TRUE(d.*c.taken) << what;
            EXPECT_FALSE(d.quad) << what;
            expectGeneratedChainMatches(h, img, info, d.fp16, what);
            vkspd::forgetImage(h->context, img.image);
            h->destroyImage(img);
        }
    }
}
