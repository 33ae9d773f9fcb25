// Scratch memory: a caller-owned scratch buffer shared by requests of different layouts, and the
// slots of the internal ring.
#include "vulkan_harness.hpp"

#include <cstring>

using namespace vkspd_test;

namespace {

struct Image {
    TestImage image;
    std::vector<uint8_t> level0;  // every layer, layer after layer
    vkspd::MipGenInfo info;
};

Image makeImage(Harness* h, VkFormat format, uint32_t w, uint32_t ht, uint32_t layers,
                vkspd::Precision precision, uint32_t seed) {
    Image m;
    m.image = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, layers, singlePassFlags(format));
    for (uint32_t layer = 0; layer < layers; ++layer) {
        auto l = randomTexels(format, w, ht, seed * 7 + layer);
        m.level0.insert(m.level0.end(), l.begin(), l.end());
    }
    h->upload(m.image, m.level0.data());
    m.info = chainInfo(m.image);
    m.info.precision = precision;
    return m;
}

// Generates `m` with `scratch` in one submission and checks every level of every layer against
// the CPU reference of its uploaded level 0.
void generateAndCheck(Harness* h, Image& m, VkBuffer scratch, const std::string& what) {
    vkspd::MipGenInfo info = m.info;
    info.scratchBuffer = scratch;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(r.ok()) << what << ": " << r.message;
    });
    m.info.before = m.info.after;
    auto gpu = h->readLevels(m.image);
    EXPECT_EQ(gpu[0], m.level0) << what << ": level 0 changed";
    vkspd::DispatchDescription d;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, m.info, &d).ok());
    expectChainMatches(m.image, gpu, 0, m.image.levels, 0, m.image.layers, vkspd::toleranceFor(m.image.format, d.fp16),
                       what);
}

std::string nameOf(const Image& m) {
    return std::to_string(m.image.width) + "x" + std::to_string(m.image.height) + " x" +
           std::to_string(m.image.layers) + (m.info.precision == vkspd::Precision::FP16 ? " fp16" : " fp32");
}

}  // namespace

// One caller-owned buffer of exactly scratchSize(B) bytes serves B, then every A whose scratch
// fits, then B again: requests of different layouts (counters and data at different offsets) in
// turn. Each generation is checked level by level against the CPU reference. Every other buffer
// starts full of non-zero bytes: its contents before a call must not matter.
TEST_F(GpuTest, CallerScratchSharedByRequestsOfDifferentLayouts) {
    const bool fp16 = h->fp16;
    const vkspd::Precision half = fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
    std::vector<Image> images;
    images.push_back(makeImage(h, VK_FORMAT_R8G8B8A8_UNORM, 63, 65, 1, vkspd::Precision::FP32, 1));
    images.push_back(makeImage(h, VK_FORMAT_R16G16B16A16_SFLOAT, 4095, 3, 2, half, 2));
    images.push_back(makeImage(h, VK_FORMAT_R32G32B32A32_SFLOAT, 127, 127, 3, vkspd::Precision::FP32, 3));
    images.push_back(makeImage(h, VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 2, half, 4));
    images.push_back(makeImage(h, VK_FORMAT_R8G8B8A8_UNORM, 1, 300, 1, half, 5));
    images.push_back(makeImage(h, VK_FORMAT_R16G16B16A16_SFLOAT, 300, 201, 1, vkspd::Precision::FP32, 6));
    images.push_back(makeImage(h, VK_FORMAT_R8G8B8A8_UNORM, 33, 4097, 1, half, 7));  // three stages
    for (Image& b : images) {
        const VkDeviceSize bytes = vkspd::scratchSize(h->context, b.info);
        ASSERT_GT(bytes, 0u) << nameOf(b);
        HostBuffer scratch =
            makeHostBuffer(h, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        std::memset(scratch.mapped, (&b - images.data()) % 2 ? 0 : 0xA5, size_t(bytes));
        generateAndCheck(h, b, scratch.buffer, "B " + nameOf(b) + " first");
        for (Image& a : images) {
            if (&a == &b || vkspd::scratchSize(h->context, a.info) > bytes) continue;
            generateAndCheck(h, a, scratch.buffer, "A " + nameOf(a) + " in B's scratch " + nameOf(b));
            generateAndCheck(h, b, scratch.buffer, "B " + nameOf(b) + " after A " + nameOf(a));
        }
        freeHostBuffer(h, scratch);
    }
    for (Image& m : images) h->destroyImage(m.image);
}

// Scratch data past one storage-buffer range is bound as several ranges of the data binding. The
// split is the same on every device; ContextTuning::maxDataRangeBytes (64 KiB here) makes it run
// on images small enough for lavapipe. Every level of every layer is checked against the CPU
// reference: a texel read from or written to the wrong range, or at the wrong index in it, shows
// up there. Four floats and two (MinMax) per data texel (one float takes the two-float code with
// another count); FP16 and FP32; the ring's scratch and a caller's buffer. Each case is a kernel
// compiled at run time (about 40 s on lavapipe), so the cases are few.
TEST_F(GpuTest, ScratchDataPastOneRangeIsBoundInRanges) {
    vkspd::ContextTuning tuning;
    tuning.maxDataRangeBytes = 65536;
    vkspd::ContextCreateInfo ci = h->contextInfo;
    ci.tuning = &tuning;
    vkspd::Context ranged = nullptr;
    vkspd::Result r = vkspd::createContext(ci, &ranged);
    ASSERT_TRUE(r.ok()) << r.message;

    struct Case {
        VkFormat format;
        uint32_t width, height, layers;
        vkspd::Reduction reduction;
        vkspd::Precision precision;
        bool callerScratch;
    };
    const Case cases[] = {
        {VK_FORMAT_R8G8B8A8_UNORM, 383, 255, 2, vkspd::Reduction::Average, vkspd::Precision::Auto, false},
        {VK_FORMAT_R32G32B32A32_SFLOAT, 300, 201, 1, vkspd::Reduction::Average, vkspd::Precision::FP32, true},
        {VK_FORMAT_R32G32_SFLOAT, 700, 131, 2, vkspd::Reduction::MinMax, vkspd::Precision::FP32, false},
    };
    for (const Case& c : cases) {
        const std::string what = std::to_string(c.width) + "x" + std::to_string(c.height) + " x" +
                                 std::to_string(c.layers) + " format " + std::to_string(int(c.format));
        TestImage img = h->createImage(c.format, c.width, c.height, vkspd::fullMipCount(c.width, c.height),
                                       kChainUsage, c.layers, singlePassFlags(c.format));
        std::vector<uint8_t> level0;
        for (uint32_t layer = 0; layer < c.layers; ++layer) {
            auto l = randomTexels(c.format, c.width, c.height, c.width + layer);
            level0.insert(level0.end(), l.begin(), l.end());
        }
        h->upload(img, level0.data());
        vkspd::MipGenInfo info = chainInfo(img);
        info.reduction = c.reduction;
        info.precision = c.precision;
        // The general kernel's split binding (Auto takes the halo-stage kernel at these odd sizes,
        // whose scratch is small and bound as one range).
        vkspd::Tuning general;
        general.kernel = vkspd::Kernel::General;
        info.tuning = &general;

        // The split is planned: more than one range, each at most 64 KiB; the default context
        // binds the same request as one.
        vkspd::DispatchDescription d, whole;
        ASSERT_TRUE(vkspd::describeDispatch(ranged, info, &d).ok()) << what;
        ASSERT_TRUE(vkspd::describeDispatch(h->context, info, &whole).ok()) << what;
        EXPECT_EQ(whole.scratchDataRanges, 1u) << what;
        EXPECT_EQ(d.scratchBytes, whole.scratchBytes) << what;
        EXPECT_GE(d.scratchDataRanges, 2u) << what;
        EXPECT_LE(d.scratchDataRanges, 4u) << what;

        HostBuffer scratch{};
        if (c.callerScratch) {
            scratch = makeHostBuffer(h, d.scratchBytes,
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
            std::memset(scratch.mapped, 0xA5, size_t(d.scratchBytes));
            info.scratchBuffer = scratch.buffer;
        }
        h->submit([&](VkCommandBuffer cmd) {
            vkspd::Result g = vkspd::generateMips(ranged, cmd, info);
            EXPECT_TRUE(g.ok()) << what << ": " << g.message;
        });
        auto gpu = h->readLevels(img);
        EXPECT_EQ(gpu[0], level0) << what << ": level 0 changed";
        vkspd::ReferenceOptions o;
        o.reduction = c.reduction;
        expectChainMatches(img, gpu, 0, img.levels, 0, c.layers, vkspd::toleranceFor(c.format, d.fp16),
                           what + " in " + std::to_string(d.scratchDataRanges) + " ranges", o);
        if (c.callerScratch) freeHostBuffer(h, scratch);
        vkspd::forgetImage(ranged, img.image);
        h->destroyImage(img);
    }

    // More than the ranges the binding has: refused, naming the bytes and the tuned limit.
    TestImage big = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 1023, 1023, 10, kChainUsage);
    vkspd::MipGenInfo info = chainInfo(big);
    vkspd::DispatchDescription d;
    r = vkspd::describeDispatch(ranged, info, &d);
    EXPECT_EQ(r.vkResult, VK_ERROR_FEATURE_NOT_PRESENT) << r.message;
    EXPECT_NE(r.message.find("ranges of at most ContextTuning::maxDataRangeBytes 65536"), std::string::npos)
        << r.message;
    EXPECT_EQ(vkspd::scratchSize(ranged, info), 0u);
    h->destroyImage(big);

    // A tuned range below 64 KiB is refused by createContext.
    tuning.maxDataRangeBytes = 4096;
    vkspd::Context tooSmall = nullptr;
    r = vkspd::createContext(ci, &tooSmall);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(tooSmall, nullptr);
    EXPECT_NE(r.message.find("maxDataRangeBytes 4096"), std::string::npos) << r.message;
    vkspd::destroyContext(ranged);
}
