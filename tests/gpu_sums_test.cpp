// The summed-levels kernel (Kernel::SummedLevels) against the CPU reference: plain prefixes of 2 to
// 6 levels with odd and even later levels, strips whose block touches one, two or four blocks'
// texels, thin images, layers, sRGB and 16-bit UNORM, the sums at their extremes, Min, Max and
// MinMax bit for bit (NaN and infinities included, a depth source), repeated dispatches (every
// record back at zero), and the requests it refuses.
#include "vulkan_harness.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>

using namespace vkspd_test;

namespace {

struct SumsCase {
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    uint32_t w = 0, h = 0, layers = 1;
    bool fp16 = true;
    uint32_t tilesPerGroup = 0;
    vkspd::Fetch fetch = vkspd::Fetch::Auto;
    vkspd::Reduction reduction = vkspd::Reduction::Average;
    uint32_t tailTiles = 0, tailTilesPerGroup = 0;  // Tuning's, which plain chains take
};

std::string nameOf(const SumsCase& c) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(c.format, &fi);
    return std::string(fi.name) + " " + std::to_string(c.w) + "x" + std::to_string(c.h) + " x" +
           std::to_string(c.layers) + (c.fp16 ? " fp16" : " fp32") + " tiles " + std::to_string(c.tilesPerGroup) +
           " reduction " + std::to_string(int(c.reduction)) +
           (c.tailTiles ? " tail " + std::to_string(c.tailTiles) + "/" + std::to_string(c.tailTilesPerGroup) : "");
}

// Generates every level of every layer with the summed-levels kernel, `calls` times over the same
// base (each call must find its records at zero), and compares each level with the CPU reference.
// Level 0 is random texels, or what `fill` makes.
void expectSummedChain(Harness* h, const SumsCase& c, uint32_t calls = 1,
                       const std::function<void(std::vector<uint8_t>*)>& fill = {}) {
    const std::string what = nameOf(c);
    TestImage img = h->createImage(c.format, c.w, c.h, vkspd::fullMipCount(c.w, c.h), kChainUsage, c.layers,
                                   singlePassFlags(c.format));
    auto level0 = randomTexels(c.format, c.w, c.h * c.layers, c.w * 13 + c.h);
    if (fill) fill(&level0);
    vkspd::MipGenInfo info = chainInfo(img);
    info.precision = c.fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
    info.fetch = c.fetch;
    info.reduction = c.reduction;
    vkspd::Tuning tuning;
    tuning.kernel = vkspd::Kernel::SummedLevels;
    tuning.tilesPerGroup = c.tilesPerGroup;
    tuning.tailTiles = c.tailTiles;
    tuning.tailTilesPerGroup = c.tailTilesPerGroup;
    info.tuning = &tuning;
    Described d;
    vkspd::Result r = describe(h->context, info, &d);
    ASSERT_TRUE(r.ok()) << what << ": " << r.message;
    EXPECT_TRUE(d.summedLevels) << what;
    EXPECT_FALSE(d.haloStages || d.plainChain) << what;
    ASSERT_EQ(d.stages, 1u) << what;
    EXPECT_GE(d.levelsPerStage[0], 2u) << what;
    EXPECT_LT(d.levelsPerStage[0], img.levels - 1) << what;
    if (c.tilesPerGroup) {
        EXPECT_LE(d.tilesPerGroup, c.tilesPerGroup) << what;
    }
    if (c.tailTiles) {
        EXPECT_EQ(d.tailTilesPerGroup, c.tailTilesPerGroup) << what;
        EXPECT_LT(d.tailRow, (c.h + 63) / 64) << what;
    }
    for (uint32_t call = 0; call < calls; ++call) {
        h->upload(img, level0.data());
        h->submit([&](VkCommandBuffer cmd) {
            vkspd::Result g = vkspd::generateMips(h->context, cmd, info);
            EXPECT_TRUE(g.ok()) << g.message;
        });
        const auto gpu = h->readLevels(img);
        const bool average = c.reduction == vkspd::Reduction::Average;
        const double tol = average ? vkspd::toleranceFor(c.format, c.fp16) : 0.0;
        vkspd::ReferenceOptions o;
        o.reduction = c.reduction;
        const double worst = expectChainMatches(img, gpu, 0, img.levels, 0, c.layers, tol,
                                                what + " call " + std::to_string(call), o);
        if (call == 0) std::printf("[ worst    ] %s: %g (tolerance %g)\n", what.c_str(), worst, tol);
    }
    h->destroyImage(img);
    vkspd::forgetImage(h->context, img.image);
}

}  // namespace

// Prefixes of 2 to 6 levels, odd later levels along x, y or both, a block that is the whole level
// P, thin images (one tile row or column, an axis of one texel), and strips of 1 to 32 tiles (a
// request past what the shared memory holds capped).
TEST_F(GpuTest, SummedLevelsMatchReferenceAtScreenAndThinSizes) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    const bool f = h->fp16;
    const SumsCase cases[] = {
        {VK_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 1, f},  // P = 3: 135 rows, then 67, 33
        {VK_FORMAT_R8G8B8A8_UNORM, 1280, 720, 1, false, 2},  // P = 4: 45 rows
        {VK_FORMAT_R8G8B8A8_UNORM, 640, 360, 1, f, 4},   // P = 3: 45 rows
        {VK_FORMAT_R8G8B8A8_UNORM, 1000, 600, 1, f, 32},  // P = 3: 125x75, both odd; 32 capped to 4
        {VK_FORMAT_R8G8B8A8_UNORM, 100, 60, 1, false},   // P = 2: 25x15, one strip of two tiles
        {VK_FORMAT_R8G8B8A8_UNORM, 12, 20, 1, f},        // P = 2: 3x5, one tile
        {VK_FORMAT_R8G8B8A8_UNORM, 2560, 1440, 1, f, 32},  // P = 5: 80x45, strips of 32 tiles
        {VK_FORMAT_R8G8B8A8_UNORM, 4, 1080, 1, false},   // an axis reaching 1 in the prefix
        {VK_FORMAT_R8G8B8A8_UNORM, 1080, 4, 1, f},
        {VK_FORMAT_R8G8B8A8_UNORM, 1, 1080, 1, f},
        {VK_FORMAT_R8G8B8A8_UNORM, 1080, 1, 1, false},
        {VK_FORMAT_R8G8B8A8_UNORM, 2048, 2048, 1, f},    // plain: levels 7-11 summed from level 6
        {VK_FORMAT_R8G8B8A8_UNORM, 4096, 64, 1, f},      // plain: level 6 is one row
        {VK_FORMAT_R8G8B8A8_UNORM, 64, 4096, 1, false},
        {VK_FORMAT_R8G8B8A8_UNORM, 264, 132, 3, f},      // three layers: records per layer
    };
    for (const SumsCase& c : cases) expectSummedChain(h, c);
}

// Plain chains (a prefix of six levels, every later level a plain 2x2 reduction of the one above),
// whose later levels are made in one pass: layers, strips of 1 to 32 tiles (capped at the tile
// columns), a tail of shorter strips, an axis that reaches one texel before or after level 6 (128x1,
// 8192x64, 64x4096), sRGB, 16-bit UNORM, and Min, Max and MinMax bit for bit.
TEST_F(GpuTest, SummedLevelsOfPlainChainsInOnePass) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    const bool f = h->fp16;
    using R = vkspd::Reduction;
    const vkspd::Fetch a = vkspd::Fetch::Auto, l = vkspd::Fetch::Load;
    const SumsCase cases[] = {
        {VK_FORMAT_R8G8B8A8_UNORM, 512, 512, 3, f},                 // levels 7-9 of three layers
        {VK_FORMAT_R8G8B8A8_UNORM, 1024, 256, 1, false, 32},        // 32 capped at 16 tile columns
        {VK_FORMAT_R8G8B8A8_UNORM, 2048, 512, 1, f, 8, a, R::Average, 64, 1},  // the last 2 rows in strips of 1
        {VK_FORMAT_R8G8B8A8_UNORM, 1024, 1024, 1, f, 2, l, R::Average, 256, 1},
        {VK_FORMAT_R8G8B8A8_UNORM, 128, 1, 1, f},                   // level 7 of two strips' texels
        {VK_FORMAT_R8_UNORM, 8192, 64, 1, false, 4},                // level 6 is one row
        {VK_FORMAT_R8G8B8A8_SRGB, 64, 4096, 1, f},                  // level 6 is one column
        {VK_FORMAT_B8G8R8A8_SRGB, 256, 1024, 1, false, 1},
        {VK_FORMAT_R16G16B16A16_UNORM, 1024, 1024, 1, false, 0, l},
        {VK_FORMAT_R32_SFLOAT, 1024, 512, 2, false, 0, a, R::Min},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 512, 512, 1, f, 4, l, R::Max},
        {VK_FORMAT_R32G32_SFLOAT, 256, 1024, 1, false, 16, a, R::MinMax},
    };
    for (const SumsCase& c : cases) expectSummedChain(h, c);
    // Every record the last arrival read is left at zero for the next call.
    expectSummedChain(h, {VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 1, f}, 40);
}

// Every format it takes (UNORM and sRGB of 1 to 4 channels, 16-bit UNORM, A2B10G10R10) on both
// precisions where the format allows FP16, through loads and, where Auto takes it, the sampler.
TEST_F(GpuTest, SummedLevelsOfEveryUnitFormat) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    const VkFormat formats[] = {VK_FORMAT_R8_UNORM,          VK_FORMAT_R8G8_UNORM,       VK_FORMAT_B8G8R8A8_UNORM,
                                VK_FORMAT_R8G8B8A8_SRGB,     VK_FORMAT_B8G8R8A8_SRGB,    VK_FORMAT_R16_UNORM,
                                VK_FORMAT_R16G16_UNORM,      VK_FORMAT_R16G16B16A16_UNORM,
                                VK_FORMAT_A2B10G10R10_UNORM_PACK32};
    for (VkFormat format : formats) {
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(format, &fi);
        expectSummedChain(h, {format, 520, 300, 1, fi.fp16Capable && h->fp16});
        expectSummedChain(h, {format, 300, 520, 1, false, 0, vkspd::Fetch::Load});
    }
}

// Hundreds of dispatches of one chain, each checked: every record the last arrival read is left at
// zero for the next (a sum left behind would add to the next call's texels).
TEST_F(GpuTest, SummedLevelsLeaveTheirRecordsAtZero) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    expectSummedChain(h, {VK_FORMAT_R8G8B8A8_UNORM, 200, 120, 1, h->fp16}, 40);
}

// The largest sums: every texel 1 (each share near 2^31 in total), and alternating 0 and 1 (the
// rounding of many small shares), at a chain whose top texels sum a whole level P.
TEST_F(GpuTest, SummedLevelsHoldAtTheExtremes) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    auto ones = [](std::vector<uint8_t>* t) { std::memset(t->data(), 0xFF, t->size()); };
    auto stripes = [](std::vector<uint8_t>* t) {
        for (size_t i = 0; i < t->size(); ++i) (*t)[i] = ((i / 4) % 2) ? 0xFF : 0x00;
    };
    expectSummedChain(h, {VK_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 1, h->fp16}, 1, ones);
    expectSummedChain(h, {VK_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 1, false}, 1, stripes);
    expectSummedChain(h, {VK_FORMAT_R16G16B16A16_UNORM, 2048, 2048, 1, false}, 1, ones);
    // A plain chain's top texels combine the shares of 512 strips (levels 7-14 of 16384x1024).
    expectSummedChain(h, {VK_FORMAT_R8G8B8A8_UNORM, 16384, 1024, 1, h->fp16}, 1, ones);
    expectSummedChain(h, {VK_FORMAT_R8G8B8A8_UNORM, 16384, 1024, 1, false}, 1, stripes);
}

// Requests it cannot run get an error naming the rule, and record nothing.
TEST_F(GpuTest, SummedLevelsRefuseWhatTheyCannotSum) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    struct Refused {
        VkFormat format;
        uint32_t w, h;
        vkspd::Reduction reduction;
        const char* rule;
    };
    const Refused refused[] = {
        {VK_FORMAT_R16G16B16A16_SFLOAT, 1920, 1080, vkspd::Reduction::Average, "values in [0, 1]"},
        {VK_FORMAT_R8G8B8A8_SNORM, 1920, 1080, vkspd::Reduction::Average, "values in [0, 1]"},
        {VK_FORMAT_R8G8B8A8_UNORM, 4095, 4095, vkspd::Reduction::Average, "plain prefix of at least two"},
        {VK_FORMAT_R8G8B8A8_UNORM, 1366, 768, vkspd::Reduction::Average, "plain prefix of at least two"},
        {VK_FORMAT_R8G8B8A8_UNORM, 64, 64, vkspd::Reduction::Average, "no later level to sum"},
    };
    for (const Refused& x : refused) {
        TestImage img = h->createImage(x.format, x.w, x.h, vkspd::fullMipCount(x.w, x.h), kChainUsage);
        vkspd::MipGenInfo info = chainInfo(img);
        info.reduction = x.reduction;
        vkspd::Tuning tuning;
        tuning.kernel = vkspd::Kernel::SummedLevels;
        info.tuning = &tuning;
        bool recorded = true;
        h->submit([&](VkCommandBuffer cmd) {
            vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
            EXPECT_FALSE(r.ok());
            EXPECT_NE(r.message.find("Kernel::SummedLevels"), std::string::npos) << r.message;
            EXPECT_NE(r.message.find(x.rule), std::string::npos) << r.message;
            recorded = r.ok();
        });
        EXPECT_FALSE(recorded);
        h->destroyImage(img);
        vkspd::forgetImage(h->context, img.image);
    }
}

// Min, Max and MinMax keep the extreme share by atomicMax of an order-preserving key: bit for bit
// at every level, over prefixes of 2, 3 and 6 levels, two layers, both precisions.
TEST_F(GpuTest, SummedLevelsMinMaxAreBitExact) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    const bool f = h->fp16;
    const SumsCase cases[] = {
        {VK_FORMAT_R32_SFLOAT, 640, 360, 1, false, 0, vkspd::Fetch::Auto, vkspd::Reduction::Min},
        {VK_FORMAT_R32_SFLOAT, 100, 60, 2, false, 0, vkspd::Fetch::Auto, vkspd::Reduction::Max},
        {VK_FORMAT_R32G32_SFLOAT, 1000, 600, 1, false, 4, vkspd::Fetch::Auto, vkspd::Reduction::MinMax},
        {VK_FORMAT_R16G16_SFLOAT, 640, 360, 2, f, 0, vkspd::Fetch::Auto, vkspd::Reduction::MinMax},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 2048, 64, 1, f, 0, vkspd::Fetch::Auto, vkspd::Reduction::Max},
        {VK_FORMAT_R8G8B8A8_UNORM, 1080, 4, 1, f, 0, vkspd::Fetch::Auto, vkspd::Reduction::Min},
    };
    for (const SumsCase& c : cases) expectSummedChain(h, c);
}

// NaN wins as in the reference (nanMin, nanMax), infinities of both signs, signed zeros and values
// of both signs at the half maximum, a texel in 40 special: every level bit for bit.
TEST_F(GpuTest, SummedLevelsMinMaxKeepNaNAndInfinities) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    auto hostile = [&](VkFormat format, uint32_t w, uint32_t ht) {
        return [=](std::vector<uint8_t>* bytes) {
            vkspd::FormatInfo fi;
            vkspd::getFormatInfo(format, &fi);
            std::mt19937 rng(w + ht);
            std::uniform_real_distribution<double> normal(-4.0, 4.0);
            const double specials[] = {nan, inf, -inf, 0.0, -0.0, 65504.0, -65504.0};
            std::vector<double> texels(size_t(w) * ht * fi.channels);
            for (double& t : texels) t = rng() % 40 == 0 ? specials[rng() % 7] : normal(rng);
            vkspd::encodeTexels(format, texels.data(), size_t(w) * ht, bytes->data());
        };
    };
    const bool f = h->fp16;
    const SumsCase cases[] = {
        {VK_FORMAT_R32G32_SFLOAT, 640, 360, 1, false, 0, vkspd::Fetch::Load, vkspd::Reduction::MinMax},
        {VK_FORMAT_R16G16_SFLOAT, 1000, 600, 1, f, 0, vkspd::Fetch::Load, vkspd::Reduction::MinMax},
        {VK_FORMAT_R32_SFLOAT, 264, 132, 1, false, 0, vkspd::Fetch::Load, vkspd::Reduction::Min},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 264, 132, 1, f, 0, vkspd::Fetch::Load, vkspd::Reduction::Max},
    };
    for (const SumsCase& c : cases) expectSummedChain(h, c, 2, hostile(c.format, c.w, c.h));
}

// A Hi-Z pyramid: the depth copied into level 0 by the prefix from the texels it loads, every later
// level the exact minimum.
TEST_F(GpuTest, SummedLevelsBuildADepthPyramid) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    vkspd::Tuning tuning;
    tuning.kernel = vkspd::Kernel::SummedLevels;
    for (auto size : {std::pair<uint32_t, uint32_t>{512, 1080}, {640, 360}})
        expectDepthPyramid(h, size.first, size.second, 7, tuning, &vkspd::ScheduleDescription::summedLevels);
}

// Kernel::Auto takes the summed-levels kernel where its rules allow (a prefix of 2 to 5 levels,
// its own strips at most 4 tiles long and at most kSumMaxGroups groups over all layers, texels of
// at most 4 bytes, no group-ID tiling; the LDS-only path too), and the kernels it took before
// elsewhere; what it runs at 1920x1080 is exact.
TEST_F(GpuTest, AutoTakesSummedLevelsWhereItsRulesAllow) {
    auto schedule = [&](uint32_t w, uint32_t ht, uint32_t layers, VkFormat format, Described* d,
                        vkspd::SubgroupPath path = vkspd::SubgroupPath::Auto, uint32_t groupColumns = 0,
                        uint32_t tilesPerGroup = 0) {
        TestImage img = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, layers,
                                       singlePassFlags(format));
        vkspd::MipGenInfo info = chainInfo(img);
        info.subgroupPath = path;
        vkspd::Tuning tuning;
        tuning.groupColumns = groupColumns;
        tuning.tilesPerGroup = tilesPerGroup;
        info.tuning = &tuning;
        vkspd::Result r = describe(h->context, info, d);
        h->destroyImage(img);
        EXPECT_TRUE(r.ok()) << w << "x" << ht << ": " << r.message;
    };
    Described d;
    struct Taken {
        uint32_t w, h, layers;
        VkFormat format;
        uint32_t prefix, tiles;
    };
    const Taken taken[] = {
        {1920, 1080, 1, VK_FORMAT_R8G8B8A8_UNORM, 3, 2},  // 30x17 tiles: 255 groups
        {1000, 600, 1, VK_FORMAT_R8G8B8A8_UNORM, 3, 1},   // 160 groups in strips of 1
        {2560, 1440, 1, VK_FORMAT_R8_UNORM, 5, 4},        // 40x23 tiles: 230 groups
        {3440, 1440, 1, VK_FORMAT_R8G8B8A8_UNORM, 4, 4},  // 54x23 tiles: 322 groups
        {1600, 900, 1, VK_FORMAT_R8G8B8A8_SRGB, 2, 1},    // 25x15 tiles: 375 groups
        {1280, 720, 1, VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 1},
        {1000, 600, 4, VK_FORMAT_R8G8B8A8_UNORM, 3, 2},   // 640 tiles over the layers: 320 groups
        {12, 20, 1, VK_FORMAT_R8G8B8A8_UNORM, 2, 1},
    };
    for (const Taken& t : taken) {
        schedule(t.w, t.h, t.layers, t.format, &d);
        const std::string what = std::to_string(t.w) + "x" + std::to_string(t.h) + " x" + std::to_string(t.layers);
        EXPECT_TRUE(d.summedLevels) << what;
        EXPECT_EQ(d.levelsPerStage[0], t.prefix) << what;
        EXPECT_EQ(d.tilesPerGroup, t.tiles) << what;
    }
    schedule(1920, 1080, 1, VK_FORMAT_R8G8B8A8_UNORM, &d, vkspd::SubgroupPath::Auto, 0, 8);
    EXPECT_TRUE(d.summedLevels) << "Tuning::tilesPerGroup 8";
    EXPECT_EQ(d.tilesPerGroup, 4u) << "a block of 8x8 texels per tile: 256 in strips of 4";
    // Not taken: longer strips, a prefix of six, wider texels, float averages, odd bases.
    schedule(3840, 2160, 1, VK_FORMAT_R8G8B8A8_UNORM, &d);
    EXPECT_FALSE(d.summedLevels) << "2040 tiles: strips of 8";
    EXPECT_TRUE(d.haloStages);
    schedule(1920, 1080, 3, VK_FORMAT_R8G8B8A8_UNORM, &d);
    EXPECT_FALSE(d.summedLevels) << "1530 tiles over 3 layers: strips of 8";
    schedule(1024, 768, 1, VK_FORMAT_R8G8B8A8_UNORM, &d);
    EXPECT_FALSE(d.summedLevels) << "a prefix of 6";
    schedule(2048, 2048, 1, VK_FORMAT_R8G8B8A8_UNORM, &d);
    EXPECT_FALSE(d.summedLevels) << "a plain chain";
    EXPECT_TRUE(d.plainChain);
    schedule(1920, 1080, 1, VK_FORMAT_R16G16B16A16_UNORM, &d);
    EXPECT_FALSE(d.summedLevels) << "8-byte texels";
    schedule(1920, 1080, 1, VK_FORMAT_R16G16B16A16_SFLOAT, &d);
    EXPECT_FALSE(d.summedLevels) << "a float average";
    schedule(1023, 765, 1, VK_FORMAT_R8G8B8A8_UNORM, &d);
    EXPECT_FALSE(d.summedLevels) << "an odd base";
    schedule(1920, 1080, 1, VK_FORMAT_R8G8B8A8_UNORM, &d, vkspd::SubgroupPath::LdsOnly);
    EXPECT_TRUE(d.summedLevels) << "the LDS-only path (its module compiled at run time)";
    EXPECT_FALSE(d.quad);
    schedule(1920, 1080, 1, VK_FORMAT_R8G8B8A8_UNORM, &d, vkspd::SubgroupPath::Auto, 4);
    EXPECT_FALSE(d.summedLevels) << "group-ID tiling";

    // A Hi-Z pyramid (R32F Min from D32) at prefixes of 3 (1920x1080) and 2 (1600x900); not at
    // 3840x2160.
    for (VkExtent2D e : {VkExtent2D{1920, 1080}, VkExtent2D{1600, 900}, VkExtent2D{3840, 2160}}) {
        const uint32_t levels = vkspd::fullMipCount(e.width, e.height);
        TestImage depth = h->createImage(VK_FORMAT_D32_SFLOAT, e.width, e.height, 1, VK_IMAGE_USAGE_SAMPLED_BIT);
        TestImage pyramid = h->createImage(VK_FORMAT_R32_SFLOAT, e.width, e.height, levels, kChainUsage);
        vkspd::MipGenInfo info = sourcedChainInfo(pyramid, depth);
        info.reduction = vkspd::Reduction::Min;
        ASSERT_TRUE(describe(h->context, info, &d).ok());
        EXPECT_EQ(d.summedLevels, e.width < 3840) << "Hi-Z at " << e.width << "x" << e.height;
        EXPECT_EQ(d.haloStages, e.width == 3840) << "Hi-Z at " << e.width << "x" << e.height;
        for (TestImage* t : {&depth, &pyramid}) h->destroyImage(*t);
    }

    // What Auto runs at 1920x1080 is exact.
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 1920, 1080, vkspd::fullMipCount(1920, 1080), kChainUsage);
    const auto level0 = randomTexels(VK_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 1080);
    h->upload(img, level0.data());
    vkspd::MipGenInfo info = chainInfo(img);
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result g = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(g.ok()) << g.message;
    });
    const auto gpu = h->readLevels(img);
    expectChainMatches(img, gpu, 0, img.levels, 0, 1, vkspd::toleranceFor(VK_FORMAT_R8G8B8A8_UNORM, h->fp16),
                       "Auto 1920x1080");
    h->destroyImage(img);
    vkspd::forgetImage(h->context, img.image);
}
