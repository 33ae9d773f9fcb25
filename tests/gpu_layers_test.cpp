// Sizes past 4096 (the cascaded election), arrays, cube maps and partial mip/layer ranges, all in
// one dispatch and all against the CPU reference.
#include "vulkan_harness.hpp"

#include <cstring>

using namespace vkspd_test;

namespace {

// Generates the full chain of every layer of a fresh image; checks it; returns the description.
Described fullChain(Harness* h, VkFormat format, uint32_t w, uint32_t ht,
                                     uint32_t layers, VkImageCreateFlags flags,
                                     vkspd::Precision precision, const std::string& what,
                                     vkspd::Kernel kernel = vkspd::Kernel::Auto) {
    const uint32_t levels = vkspd::fullMipCount(w, ht);
    TestImage img = h->createImage(format, w, ht, levels, kChainUsage, layers, flags);
    std::vector<uint8_t> level0;
    for (uint32_t layer = 0; layer < layers; ++layer) {
        auto l = randomTexels(format, w, ht, w * 31 + ht * 17 + layer);
        level0.insert(level0.end(), l.begin(), l.end());
    }
    h->upload(img, level0.data());
    vkspd::MipGenInfo info = chainInfo(img);
    info.precision = precision;
    vkspd::Tuning tuning;
    tuning.kernel = kernel;
    info.tuning = &tuning;
    Described d;
    EXPECT_TRUE(describe(h->context, info, &d).ok());
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(r.ok()) << r.message;
    });
    auto gpu = h->readLevels(img);
    const double tol = vkspd::toleranceFor(format, d.fp16);
    double worst = expectChainMatches(img, gpu, 0, levels, 0, layers, tol, what);
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    std::printf("[ worst    ] %s %ux%u x%u layers, %u stages (%s), %s: %g (tolerance %g)\n", fi.name, w, ht,
                layers, d.stages, d.plainChain ? "plain" : d.haloStages ? "halo" : "general",
                d.fp16 ? "fp16" : "fp32", worst, tol);
    h->destroyImage(img);
    return d;
}

}  // namespace

// --- Past 4096: every stage of the cascade, cheaply, with long thin images ---------------------
// The general kernel's stages (six levels each), then whatever Kernel::Auto takes (the plain-chain
// or halo-stage kernel where they take the chain).

struct Thin {
    uint32_t w, h;
    VkFormat format;
    uint32_t stages;
};

class CascadeTest : public GpuTest, public ::testing::WithParamInterface<Thin> {};

TEST_P(CascadeTest, LongThinImagesInOneDispatch) {
    const Thin t = GetParam();
    if (t.w > h->properties.limits.maxImageDimension2D || t.h > h->properties.limits.maxImageDimension2D)
        GTEST_SKIP() << "beyond this device's maxImageDimension2D";
    for (vkspd::Precision p : {vkspd::Precision::Auto, vkspd::Precision::FP32}) {
        Described d = fullChain(h, t.format, t.w, t.h, 1, 0, p, "cascade", vkspd::Kernel::General);
        EXPECT_EQ(d.stages, t.stages);
        EXPECT_EQ(d.groupsZ, 1u);
        d = fullChain(h, t.format, t.w, t.h, 1, 0, p, "cascade, Auto");
        EXPECT_EQ(d.groupsZ, 1u);
    }
}

INSTANTIATE_TEST_SUITE_P(
    BeyondOneTile, CascadeTest,
    ::testing::Values(Thin{16384, 64, VK_FORMAT_R8_UNORM, 3}, Thin{64, 16384, VK_FORMAT_R8_UNORM, 3},
                      Thin{16384, 3, VK_FORMAT_R8G8B8A8_UNORM, 3}, Thin{12289, 65, VK_FORMAT_R8_UNORM, 3},
                      Thin{16383, 5, VK_FORMAT_R16G16B16A16_SFLOAT, 3},
                      Thin{8191, 127, VK_FORMAT_R32_SFLOAT, 2}, Thin{4097, 4, VK_FORMAT_R8_UNORM, 2},
                      Thin{8192, 192, VK_FORMAT_R16_SFLOAT, 3}),
    [](const ::testing::TestParamInfo<Thin>& p) {
        return std::to_string(p.param.w) + "x" + std::to_string(p.param.h);
    });

// --- Layers: arrays, cubes, cube arrays ---------------------------------------------------------

TEST_F(GpuTest, ArraysOf1_6_7And64Layers) {
    fullChain(h, VK_FORMAT_R8G8B8A8_UNORM, 129, 65, 1, 0, vkspd::Precision::Auto, "array 1");
    fullChain(h, VK_FORMAT_R8G8B8A8_UNORM, 129, 65, 6, 0, vkspd::Precision::Auto, "array 6");
    Described d =
        fullChain(h, VK_FORMAT_R16G16B16A16_SFLOAT, 67, 130, 7, 0, vkspd::Precision::Auto, "array 7");
    EXPECT_EQ(d.groupsZ, 7u);
    fullChain(h, VK_FORMAT_R8_UNORM, 65, 63, 64, 0, vkspd::Precision::Auto, "array 64");
    // Layers and the second stage together: every layer has its own counters.
    fullChain(h, VK_FORMAT_R8_UNORM, 257, 129, 9, 0, vkspd::Precision::FP32, "array 9 two stages");
}

TEST_F(GpuTest, CubeAndCubeArray) {
    fullChain(h, VK_FORMAT_R8G8B8A8_UNORM, 127, 127, 6, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
              vkspd::Precision::Auto, "cube");
    fullChain(h, VK_FORMAT_R16G16B16A16_SFLOAT, 128, 128, 12, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT,
              vkspd::Precision::Auto, "cube array");
}

// --- Partial ranges: everything outside is untouched --------------------------------------------

namespace {

struct Range {
    uint32_t base, count, firstLayer, layerCount;
};
// Base 2 (a quarter of each axis) writing levels 3..5; layers 1..3. Then base 0 writing only
// level 1 of layer 4. Then everything from level 5 of layer 0.
const std::vector<Range> kRanges = {{2, 4, 1, 3}, {0, 2, 4, 1}, {5, 0, 0, 1}};

// Partial ranges (`ranges`, kRanges by default) of a w x ht image of 5 layers, with `tuning` where
// given: the levels and layers outside each range keep their uploaded content, and the range
// matches the reference. Returns whether the first range ran on the plain-chain kernel.
bool checkPartialRanges(Harness* h, uint32_t w, uint32_t ht, const std::vector<Range>& ranges = kRanges,
                        const vkspd::Tuning* tuning = nullptr) {
    const uint32_t levels = vkspd::fullMipCount(w, ht), layers = 5;
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    TestImage img = h->createImage(format, w, ht, levels, kChainUsage, layers);
    // Every level of every layer starts with its own random content.
    std::vector<std::vector<uint8_t>> before(levels);
    for (uint32_t l = 0; l < levels; ++l) {
        for (uint32_t layer = 0; layer < layers; ++layer) {
            auto bytes = randomTexels(format, vkspd::mipExtent(w, l), vkspd::mipExtent(ht, l), l * 10 + layer);
            before[l].insert(before[l].end(), bytes.begin(), bytes.end());
        }
    }
    bool plain = false;
    for (const Range& r : ranges) {
        h->uploadLevels(img, before, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        vkspd::MipGenInfo info = chainInfo(img);
        info.baseMipLevel = r.base;
        info.levelCount = r.count;
        info.baseArrayLayer = r.firstLayer;
        info.layerCount = r.layerCount;
        info.tuning = tuning;
        const uint32_t count = r.count ? r.count : levels - r.base;
        Described d;
        const vkspd::Result described = describe(h->context, info, &d);
        EXPECT_TRUE(described.ok()) << described.message;
        if (tuning && tuning->kernel == vkspd::Kernel::SummedLevels) {
            EXPECT_TRUE(d.summedLevels);
        }
        if (&r == &ranges[0]) plain = d.plainChain;
        auto inRange = [&](uint32_t l, uint32_t layer) {
            return l >= r.base && l < r.base + count && layer >= r.firstLayer &&
                   layer < r.firstLayer + r.layerCount;
        };
        h->submit([&](VkCommandBuffer cmd) {
            vkspd::Result res = vkspd::generateMips(h->context, cmd, info);
            EXPECT_TRUE(res.ok()) << res.message;
            // The subresources outside the range are still as uploaded: make them readable too.
            for (uint32_t l = 0; l < levels; ++l)
                for (uint32_t layer = 0; layer < layers; ++layer) {
                    if (inRange(l, layer)) continue;
                    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
                    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
                    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
                    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
                    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
                    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
                    b.image = img.image;
                    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, l, 1, layer, 1};
                    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                         0, 0, nullptr, 0, nullptr, 1, &b);
                }
        });
        auto after = h->readLevels(img);
        for (uint32_t l = 0; l < levels; ++l) {
            for (uint32_t layer = 0; layer < layers; ++layer) {
                const bool written = l > r.base && l < r.base + count && layer >= r.firstLayer &&
                                     layer < r.firstLayer + r.layerCount;
                if (written) continue;
                const size_t n = levelBytes(img, l), off = n * layer;
                EXPECT_EQ(std::memcmp(after[l].data() + off, before[l].data() + off, n), 0)
                    << "level " << l << " layer " << layer << " changed outside the range (base "
                    << r.base << ", " << count << " levels, layers " << r.firstLayer << "+"
                    << r.layerCount << ")";
            }
        }
        expectChainMatches(img, after, r.base, count, r.firstLayer, r.layerCount,
                           vkspd::toleranceFor(format, true), "partial range");
    }
    h->destroyImage(img);
    return plain;
}

}  // namespace

// Odd sizes: the general kernel.
TEST_F(GpuTest, PartialMipAndLayerRangesLeaveTheRestUntouched) { EXPECT_FALSE(checkPartialRanges(h, 301, 157)); }

// A plain chain (512x256, base 2 is 128x64): the plain-chain kernel where the device has quads.
TEST_F(GpuTest, PartialRangesOfAPlainChainLeaveTheRestUntouched) { EXPECT_EQ(checkPartialRanges(h, 512, 256), h->quad); }

// The summed-levels kernel (its records per layer of the range): base 1 of 1280x720 (640x360, a
// prefix of 3) writing levels 2..7 of layers 1..3, base 2 (320x180, a prefix of 2) writing every
// level below of layer 0, and base 0 writing levels 1..6 (a prefix of 4, two levels summed) of
// layer 4.
TEST_F(GpuTest, PartialRangesOfSummedLevelsLeaveTheRestUntouched) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    const vkspd::Tuning summed = {vkspd::Kernel::SummedLevels, 0, 0, 0, 0};
    checkPartialRanges(h, 1280, 720, {{1, 7, 1, 3}, {2, 0, 0, 1}, {0, 7, 4, 1}}, &summed);
}

TEST_F(GpuTest, LayerRangeErrorsNameTheRule) {
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 7, kChainUsage, 6);
    vkspd::MipGenInfo info = chainInfo(img);
    info.baseArrayLayer = 4;
    info.layerCount = 3;
    vkspd::DispatchDescription d;
    vkspd::Result r = vkspd::describeDispatch(h->context, info, &d);
    EXPECT_NE(r.message.find("layer range 4..6 exceeds the image's 6 layers"), std::string::npos)
        << r.message;
    info.baseArrayLayer = 6;
    info.layerCount = 0;
    r = vkspd::describeDispatch(h->context, info, &d);
    EXPECT_NE(r.message.find("baseArrayLayer 6"), std::string::npos) << r.message;
    h->destroyImage(img);
}
