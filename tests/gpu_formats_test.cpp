// Every format of docs/FILTER.md on the GPU, against the CPU reference, sRGB filtered in
// linear space, Min / Max / MinMax (bit-exact) with depth sources, custom reductions, and the
// capability query with its render-pass and blit fallbacks.
#include "vulkan_harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>

using namespace vkspd_test;

namespace {

// lavapipe compiles a kernel variant once per image format and also once per kind of image: width
// a power of two or not, height a power of two or not (Mesa 22.3's llvmpipe keys its shaders on
// the images' static state, which holds both). kSizes has all four kinds (1 and 64 are powers of
// two); kOddSizes only the one with neither, so a case on it is one compile (the general kernel:
// about 5-10 s on one core with a cold shader cache, as in CI).
const uint32_t kSizes[][2] = {{1, 1}, {1, 5}, {7, 1}, {5, 3}, {63, 65}, {64, 64}, {130, 67}};
const uint32_t kOddSizes[][2] = {{5, 3}, {63, 65}, {130, 67}};

// Uploads random level-0 texels, runs `info` and returns the levels read back.
std::vector<std::vector<uint8_t>> runChain(Harness* h, const TestImage& img, vkspd::MipGenInfo info,
                                           uint32_t seed, vkspd::DispatchDescription* d = nullptr) {
    const std::vector<uint8_t> texels = randomTexels(img.format, img.width, img.height * img.layers, seed);
    h->upload(img, texels.data());
    vkspd::DispatchDescription local;
    vkspd::Result dr = vkspd::describeDispatch(h->context, info, d ? d : &local);
    EXPECT_TRUE(dr.ok()) << dr.message;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(r.ok()) << r.message;
    });
    return h->readLevels(img);
}

}  // namespace

// Every colour format takes the single pass here (lavapipe and NVIDIA have storage support for
// all of them; sRGB through its UNORM twin). The chains themselves are checked against the
// reference by CoreFormats/FormatTest in gpu_chain_test.cpp, at odd, even and thin sizes.
TEST_F(GpuTest, EveryColourFormatTakesTheSinglePass) {
    for (VkFormat format : colourFormats()) {
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(format, &fi);
        vkspd::CapabilityQuery q;
        q.format = format;
        q.usage = kChainUsage;
        q.createFlags = singlePassFlags(format);
        vkspd::Capability cap;
        ASSERT_TRUE(vkspd::queryCapability(h->context, q, &cap).ok());
        EXPECT_EQ(cap.path, vkspd::Path::SinglePass) << fi.name << ": " << cap.reason;
        EXPECT_TRUE(cap.exact);
        EXPECT_EQ(cap.storageFormat, fi.storageFormat);
        EXPECT_EQ(cap.fp16, fi.fp16Capable && h->fp16) << fi.name;
        std::string reason;
        EXPECT_TRUE(vkspd::isFormatSupported(h->context, format, &reason)) << reason;
    }
}

// Filtering must happen in linear space: black and white average to linear 0.5, which is sRGB 188
// (0.7354 * 255 = 187.5), not 128. Alpha is linear: 0 and 255 give 127.5, a tie that a GPU may
// round either way (lavapipe gives 128, NVIDIA GPUs 127).
TEST_F(GpuTest, SrgbCheckerboardAveragesInLinearSpace) {
    for (VkFormat format : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB}) {
        for (int fp16 = 0; fp16 < (h->fp16 ? 2 : 1); ++fp16) {
            const uint32_t n = 66;  // tiles of 64 and an even edge beyond
            TestImage img = h->createImage(format, n, n, 3, kChainUsage, 1, singlePassFlags(format));
            std::vector<uint8_t> texels(size_t(n) * n * 4);
            for (uint32_t y = 0; y < n; ++y)
                for (uint32_t x = 0; x < n; ++x) {
                    const uint8_t v = ((x + y) & 1) ? 255 : 0;
                    uint8_t* t = &texels[(size_t(y) * n + x) * 4];
                    t[0] = t[1] = t[2] = v;
                    t[3] = v;
                }
            h->upload(img, texels.data());
            vkspd::MipGenInfo info = chainInfo(img);
            info.createFlags = singlePassFlags(format);
            info.usage = kChainUsage;
            info.precision = fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
            h->submit([&](VkCommandBuffer cmd) { ASSERT_TRUE(vkspd::generateMips(h->context, cmd, info).ok()); });
            auto gpu = h->readLevels(img);
            for (uint32_t l = 1; l < 3; ++l)
                for (size_t i = 0; i < gpu[l].size(); i += 4) {
                    ASSERT_EQ(gpu[l][i], 188) << "level " << l << " texel " << i / 4;
                    ASSERT_EQ(gpu[l][i + 1], 188);
                    ASSERT_EQ(gpu[l][i + 2], 188);
                    ASSERT_TRUE(gpu[l][i + 3] == 127 || gpu[l][i + 3] == 128)
                        << "alpha is linear: " << int(gpu[l][i + 3]);
                }
            h->destroyImage(img);
            vkspd::forgetImage(h->context, img.image);
        }
    }
}

TEST_F(GpuTest, MinMaxAndMinMaxAreBitExactAtOddSizes) {
    // One variant per case, together covering FP32 and FP16, quad and shared-memory-only, every
    // reduction (lavapipe compiles each variant per format: see FormatTest). The general kernel
    // at every size, 64x64 included: the plain-chain kernel's Min, Max and MinMax are checked
    // bit-exact in GpuTest.PlainChainReductionsAreBitExact, and each (kernel, format) here would
    // be one more cold compile in CI.
    struct Case {
        VkFormat format;
        vkspd::Reduction reduction;
        bool fp16, quad;
    };
    // Where a case could share its variant with another test's, it does (each variant and format
    // is a lavapipe compile of 15-60 s in a CI without a shader cache): R32_SFLOAT Min on both
    // paths is what bench.smoke runs for r32f, R16G16_SFLOAT MinMax FP16 quad what
    // HostileMinMaxPyramids runs. Max is the same operation at both precisions (the RGBA8 case).
    const Case cases[] = {
        {VK_FORMAT_R32_SFLOAT, vkspd::Reduction::Min, false, false},
        {VK_FORMAT_R32_SFLOAT, vkspd::Reduction::Min, false, true},
        {VK_FORMAT_R16_SFLOAT, vkspd::Reduction::Min, true, true},
        {VK_FORMAT_R8G8B8A8_UNORM, vkspd::Reduction::Max, true, false},
        {VK_FORMAT_R32G32_SFLOAT, vkspd::Reduction::MinMax, false, true},
        {VK_FORMAT_R16G16_SFLOAT, vkspd::Reduction::MinMax, true, true},
    };
    for (const Case& c : cases) {
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(c.format, &fi);
        // The one-texel axes and the whole tile (1x5, 7x1, 64x64) on R32_SFLOAT Min, both paths;
        // the other cases at kOddSizes (one lavapipe compile each instead of four: the axes of one
        // texel are the same code for every reduction and format).
        const bool allKinds = c.format == VK_FORMAT_R32_SFLOAT;
        const uint32_t(*sizes)[2] = allKinds ? kSizes : kOddSizes;
        const size_t count = allKinds ? std::size(kSizes) : std::size(kOddSizes);
        for (size_t i = 0; i < count; ++i) {
            const uint32_t* s = sizes[i];
            TestImage img = h->createImage(c.format, s[0], s[1], vkspd::fullMipCount(s[0], s[1]), kChainUsage);
            {
                const bool fp16 = c.fp16 && h->fp16, quad = c.quad && h->quad;
                vkspd::MipGenInfo info = chainInfo(img);
                info.reduction = c.reduction;
                info.precision = fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
                info.subgroupPath = quad ? vkspd::SubgroupPath::Quad : vkspd::SubgroupPath::LdsOnly;
                vkspd::Tuning general;
                general.kernel = vkspd::Kernel::General;
                info.tuning = &general;
                auto gpu = runChain(h, img, info, s[0] * 7 + s[1]);
                vkspd::ReferenceOptions o;
                o.reduction = c.reduction;
                // MinMax on a two-channel image: R is already the minimum and G the maximum.
                expectChainMatches(img, gpu, 0, img.levels, 0, 1, 0.0,
                                   std::string(fi.name) + " reduction " + std::to_string(int(c.reduction)) +
                                       (fp16 ? " fp16" : " fp32") + (quad ? " quad" : " lds"),
                                   o);
            }
            h->destroyImage(img);
            vkspd::forgetImage(h->context, img.image);
        }
    }
}

// Two stages on the quad path: at 512x256 the first stage keeps 8x4 texels and the second stage
// (one group) reduces them with quad operations too, reading the kept texels from the data
// buffer at full precision. Min, Max and MinMax stay bit-exact there.
TEST_F(GpuTest, ReductionsStayExactOnTheQuadPathOfTheSecondStage) {
    struct Case {
        VkFormat format;
        vkspd::Reduction reduction;
        bool fp16;
    };
    const Case cases[] = {
        {VK_FORMAT_R32_SFLOAT, vkspd::Reduction::Max, false},
        {VK_FORMAT_R16_SFLOAT, vkspd::Reduction::Min, true},
        {VK_FORMAT_R32G32_SFLOAT, vkspd::Reduction::MinMax, false},
    };
    const uint32_t w = 512, hgt = 256;
    for (const Case& c : cases) {
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(c.format, &fi);
        TestImage img = h->createImage(c.format, w, hgt, vkspd::fullMipCount(w, hgt), kChainUsage);
        const bool fp16 = c.fp16 && h->fp16;
        vkspd::MipGenInfo info = chainInfo(img);
        info.reduction = c.reduction;
        info.precision = fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
        info.subgroupPath = h->quad ? vkspd::SubgroupPath::Quad : vkspd::SubgroupPath::LdsOnly;
        auto gpu = runChain(h, img, info, 4242);
        vkspd::ReferenceOptions o;
        o.reduction = c.reduction;
        expectChainMatches(img, gpu, 0, img.levels, 0, 1, 0.0,
                           std::string(fi.name) + " reduction " + std::to_string(int(c.reduction)) +
                               (fp16 ? " fp16" : " fp32") + " second stage",
                           o);
        h->destroyImage(img);
        vkspd::forgetImage(h->context, img.image);
    }
}

// The Hi-Z use case: a depth buffer read through a sampled view into a colour pyramid, whose
// level 0 is a copy of the depth and whose other levels are conservative.
TEST_F(GpuTest, DepthSourceBuildsAConservativePyramid) {
    struct Case {
        VkFormat depth, color;
        vkspd::Reduction reduction;
    };
    const Case cases[] = {{VK_FORMAT_D32_SFLOAT, VK_FORMAT_R32_SFLOAT, vkspd::Reduction::Max},
                          {VK_FORMAT_D32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, vkspd::Reduction::MinMax},
                          {VK_FORMAT_D16_UNORM, VK_FORMAT_R16_UNORM, vkspd::Reduction::Min},
                          {VK_FORMAT_D16_UNORM, VK_FORMAT_R32_SFLOAT, vkspd::Reduction::Min}};
    for (const Case& c : cases) {
        vkspd::FormatInfo dfi, cfi;
        vkspd::getFormatInfo(c.depth, &dfi);
        vkspd::getFormatInfo(c.color, &cfi);
        // Odd sizes (the general kernel) and one plain chain (the plain-chain kernel, which copies
        // the depth from the texels it loads for level 1).
        for (const auto& s : {std::array<uint32_t, 2>{65, 63}, std::array<uint32_t, 2>{3, 5},
                              std::array<uint32_t, 2>{130, 66}, std::array<uint32_t, 2>{128, 64}}) {
            const uint32_t w = s[0], hgt = s[1], layers = 2, levels = vkspd::fullMipCount(w, hgt);
            // A depth buffer as a renderer has it: an attachment that is also sampled.
            TestImage depth = h->createImage(c.depth, w, hgt, 1,
                                             VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                                 VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                             layers);
            TestImage pyramid = h->createImage(c.color, w, hgt, levels, kChainUsage, layers);
            const std::vector<uint8_t> texels = randomTexels(c.depth, w, hgt * layers, w + hgt);
            h->upload(depth, texels.data(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
            vkspd::MipGenInfo info = sourcedChainInfo(pyramid, depth);
            info.reduction = c.reduction;
            info.source.after = {VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                                 VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
            vkspd::DispatchDescription d;
            ASSERT_TRUE(vkspd::describeDispatch(h->context, info, &d).ok());
            EXPECT_EQ(d.path, vkspd::Path::SinglePass);
            EXPECT_EQ(d.levelsWritten, levels - 1);
            vkspd::ScheduleDescription schedule;
            ASSERT_TRUE(vkspd::describeSchedule(h->context, info, &schedule).ok());
            EXPECT_EQ(schedule.plainChain, h->quad && w == 128) << w << "x" << hgt;
            h->submit([&](VkCommandBuffer cmd) {
                vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
                EXPECT_TRUE(r.ok()) << r.message;
            });
            auto gpu = h->readLevels(pyramid);
            std::vector<float> values(size_t(w) * hgt * layers);
            vkspd::decodeTexels(c.depth, texels.data(), values.size(), values.data());
            vkspd::ReferenceOptions o;
            o.reduction = c.reduction;
            for (uint32_t layer = 0; layer < layers; ++layer) {
                // Level 0 is the depth as the GPU converts it (D16 to float may differ from the
                // CPU's division by 1 ulp); the levels above are bit-exact reductions of it.
                auto ref = vkspd::referenceChain(values.data() + size_t(w) * hgt * layer, w, hgt, 1, 1, o);
                ASSERT_EQ(ref.size(), 1u);
                const uint8_t* level0 = gpu[0].data() + levelBytes(pyramid, 0) * layer;
                vkspd::LevelError e0 = vkspd::compareLevel(c.color, level0, ref[0], vkspd::toleranceFor(c.color, false));
                EXPECT_EQ(e0.overTolerance, 0u) << dfi.name << " -> " << cfi.name << " level 0: worst " << e0.worst;
                std::vector<float> copied(size_t(w) * hgt * cfi.channels);
                vkspd::decodeTexels(c.color, level0, size_t(w) * hgt, copied.data());
                vkspd::ReferenceOptions fromCopy;
                fromCopy.reduction = c.reduction;
                ref = vkspd::referenceChain(copied.data(), w, hgt, cfi.channels, levels, fromCopy);
                ASSERT_EQ(ref.size(), levels);
                for (uint32_t l = 1; l < levels; ++l) {
                    vkspd::LevelError e = vkspd::compareLevel(
                        c.color, gpu[l].data() + levelBytes(pyramid, l) * layer, ref[l], 0.0);
                    EXPECT_EQ(e.overTolerance, 0u) << dfi.name << " -> " << cfi.name << " " << w << "x" << hgt
                                                   << " layer " << layer << " level " << l << ": worst " << e.worst;
                }
            }
            h->destroyImage(depth);
            h->destroyImage(pyramid);
            vkspd::forgetImage(h->context, depth.image);
            vkspd::forgetImage(h->context, pyramid.image);
        }
    }
}

TEST_F(GpuTest, SourceImageMisuseIsRejected) {
    TestImage depth = h->createImage(VK_FORMAT_D32_SFLOAT, 16, 16, 1,
                                     VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    TestImage pyramid = h->createImage(VK_FORMAT_R32_SFLOAT, 16, 16, 5, kChainUsage);
    vkspd::MipGenInfo info = chainInfo(pyramid);
    info.reduction = vkspd::Reduction::Max;
    info.source.image = depth.image;
    info.source.format = VK_FORMAT_D32_SFLOAT;
    info.source.extent = {16, 16};
    info.source.before = info.source.after = {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                              VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                              VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    auto expectError = [&](const vkspd::MipGenInfo& bad, const char* needle) {
        vkspd::DispatchDescription d;
        vkspd::Result r = vkspd::describeDispatch(h->context, bad, &d);
        EXPECT_FALSE(r.ok());
        EXPECT_NE(r.message.find(needle), std::string::npos) << r.message;
    };
    vkspd::MipGenInfo bad = info;
    bad.source.extent = {16, 8};
    expectError(bad, "source.extent 16x8");
    bad = info;
    bad.levelCount = 1;
    expectError(bad, "at least 2 levels");
    bad = info;
    bad.source.before.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    expectError(bad, "source.before.layout");
    bad = info;
    bad.reduction = vkspd::Reduction::MinMax;  // R32_SFLOAT has one channel
    expectError(bad, "two channels");
    bad = info;
    bad.source.format = VK_FORMAT_R8G8B8A8_UNORM;  // four channels into a one-channel pyramid
    expectError(bad, "channels");
    vkspd::DispatchDescription d;
    EXPECT_TRUE(vkspd::describeDispatch(h->context, info, &d).ok());
    h->destroyImage(depth);
    h->destroyImage(pyramid);
}

namespace {

// Average of R, G, B and the maximum of alpha: "premultiplied coverage" style.
const char* kMaxAlphaGlsl = R"(
vec4 vkspdIdentity() { return vec4(0.0, 0.0, 0.0, -1.0 / 0.0); }
vec4 vkspdAccumulate(vec4 acc, vec4 v, float w) { return vec4(acc.rgb + w * v.rgb, max(acc.a, v.a)); }
vec4 vkspdCombine(vec4 a, vec4 b) { return vec4(a.rgb + b.rgb, max(a.a, b.a)); }
)";

void cpuIdentity(double acc[4]) {
    acc[0] = acc[1] = acc[2] = 0.0;
    acc[3] = -INFINITY;
}
void cpuAccumulate(double acc[4], const double v[4], double w) {
    for (int k = 0; k < 3; ++k) acc[k] += w * v[k];
    acc[3] = std::max(acc[3], v[3]);
}

// The CPU reference's options for kMaxAlphaGlsl (its CPU twin).
struct MaxAlphaReference {
    vkspd::CpuReduction cpu;
    vkspd::ReferenceOptions options;
    MaxAlphaReference() {
        cpu.identity = cpuIdentity;
        cpu.accumulate = cpuAccumulate;
        options.reduction = vkspd::Reduction::Custom;
        options.custom = &cpu;
    }
    MaxAlphaReference(const MaxAlphaReference&) = delete;  // options points at cpu
    MaxAlphaReference& operator=(const MaxAlphaReference&) = delete;
};

}  // namespace

TEST_F(GpuTest, CustomReductionMatchesItsCpuTwin) {
    vkspd::CustomReduction custom = nullptr;
    vkspd::Result r = vkspd::createCustomReduction(h->context, kMaxAlphaGlsl, &custom);
    ASSERT_TRUE(r.ok()) << r.message;
    // The same text is compiled once: a second handle is the same reduction.
    vkspd::CustomReduction again = nullptr;
    ASSERT_TRUE(vkspd::createCustomReduction(h->context, kMaxAlphaGlsl, &again).ok());
    EXPECT_EQ(again, custom);
    vkspd::destroyCustomReduction(h->context, again);

    const MaxAlphaReference reference;
    const vkspd::ReferenceOptions& o = reference.options;
    for (VkFormat format : {VK_FORMAT_R32G32B32A32_SFLOAT}) {
        // kOddSizes: the three-tap weights, tile edges and corners, where a reduction's accumulate
        // and combine both run (the axes of one texel are the built-in reductions' code).
        for (const auto& s : kOddSizes) {
            TestImage img = h->createImage(format, s[0], s[1], vkspd::fullMipCount(s[0], s[1]), kChainUsage);
            // The device's default path only (quad on lavapipe and NVIDIA): a custom variant is a
            // 60 s lavapipe compile in CI; the shared-memory path's reduction steps are the built-in
            // reductions' (MinMaxAndMinMaxAreBitExactAtOddSizes runs them on it).
            {
                vkspd::MipGenInfo info = chainInfo(img);
                info.reduction = vkspd::Reduction::Custom;
                info.customReduction = custom;
                vkspd::DispatchDescription d;
                auto gpu = runChain(h, img, info, s[0] + 3 * s[1], &d);
                EXPECT_FALSE(d.fp16) << "custom reductions run in FP32";
                EXPECT_EQ(d.quad, h->quad);
                expectChainMatches(img, gpu, 0, img.levels, 0, 1, vkspd::toleranceFor(format, false),
                                   h->quad ? "custom quad" : "custom lds", o);
            }
            h->destroyImage(img);
            vkspd::forgetImage(h->context, img.image);
        }
    }
    vkspd::destroyCustomReduction(h->context, custom);
}

namespace {

// kMaxAlphaGlsl compiled for `h`'s context; null, with the failure reported, where it is not.
vkspd::CustomReduction maxAlphaReduction(Harness* h) {
    vkspd::CustomReduction custom = nullptr;
    vkspd::Result r = vkspd::createCustomReduction(h->context, kMaxAlphaGlsl, &custom);
    EXPECT_TRUE(r.ok()) << r.message;
    return custom;
}

// One chain of `format` (w x h, `layers`) with `custom` on `kernel` (Kernel::Auto: the library's
// choice), against its CPU twin `o`; returns how it was scheduled.
Described customChain(Harness* h, vkspd::CustomReduction custom, const vkspd::ReferenceOptions& o,
                      vkspd::Kernel kernel, VkFormat format, uint32_t w, uint32_t ht, uint32_t layers = 1,
                      vkspd::Fetch fetch = vkspd::Fetch::Auto) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const std::string what = std::string(fi.name) + " " + std::to_string(w) + "x" + std::to_string(ht) + " x" +
                             std::to_string(layers) + " kernel " + std::to_string(int(kernel));
    TestImage img = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, layers);
    vkspd::MipGenInfo info = chainInfo(img);
    info.reduction = vkspd::Reduction::Custom;
    info.customReduction = custom;
    info.fetch = fetch;
    vkspd::Tuning tuning;
    tuning.kernel = kernel;
    info.tuning = &tuning;
    Described d;
    vkspd::Result dr = describe(h->context, info, &d);
    EXPECT_TRUE(dr.ok()) << what << ": " << dr.message;
    if (dr.ok()) {
        EXPECT_FALSE(d.fp16) << what << ": custom reductions run in FP32";
        auto gpu = runChain(h, img, info, w * 5 + ht);
        expectChainMatches(img, gpu, 0, img.levels, 0, layers, vkspd::toleranceFor(format, false), "custom " + what,
                           o);
    }
    h->destroyImage(img);
    vkspd::forgetImage(h->context, img.image);
    return d;
}

}  // namespace

// Kernel::HaloStages runs a custom reduction on its FP32 variant, compiled on first use: odd bases
// (stage 0 in tiles of the base with a halo), a plain prefix with odd levels after it (on a row of
// two texels too: axes of one texel in the prefix's quad steps), a thin chain; RGBA32F and RGBA8
// UNORM (whose values are normalized: the kernel's other flavour). Kernel::Auto takes it there too.
TEST_F(GpuTest, CustomReductionOnTheHaloStageKernel) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    vkspd::CustomReduction custom = maxAlphaReduction(h);
    ASSERT_NE(custom, nullptr);
    const MaxAlphaReference reference;
    struct Case {
        VkFormat format;
        uint32_t w, h;
        bool oddBase;
    };
    const Case cases[] = {{VK_FORMAT_R32G32B32A32_SFLOAT, 131, 67, true},
                          {VK_FORMAT_R32G32B32A32_SFLOAT, 320, 180, false},
                          {VK_FORMAT_R32G32B32A32_SFLOAT, 1023, 3, true},
                          {VK_FORMAT_R32G32B32A32_SFLOAT, 640, 2, false},
                          {VK_FORMAT_R8G8B8A8_UNORM, 255, 133, true}};
    for (const Case& c : cases) {
        const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h);
        const Described d = customChain(h, custom, reference.options, vkspd::Kernel::HaloStages, c.format, c.w, c.h);
        EXPECT_TRUE(d.haloStages) << what;
        EXPECT_EQ(d.oddBaseStage, c.oddBase) << what;
    }
    // Auto, where the halo-stage kernel takes the chain (a case of each module, already compiled;
    // RGBA32F at a prefix of two levels, as 320x180, stays on the general kernel).
    EXPECT_TRUE(customChain(h, custom, reference.options, vkspd::Kernel::Auto, VK_FORMAT_R32G32B32A32_SFLOAT, 131, 67)
                    .haloStages);
    EXPECT_TRUE(customChain(h, custom, reference.options, vkspd::Kernel::Auto, VK_FORMAT_R32G32B32A32_SFLOAT, 640, 360)
                    .haloStages);
    vkspd::destroyCustomReduction(h->context, custom);
}

// Kernel::PlainChain runs a custom reduction on its FP32 variant, compiled on first use: a chain
// with a later stage (its kept texels and quadrants), rows and columns of one texel, layers,
// RGBA8 UNORM, and R32F through Fetch::Gather. Kernel::Auto takes it for custom reductions of plain
// chains, as for the built-in ones.
TEST_F(GpuTest, CustomReductionOnThePlainChainKernel) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    vkspd::CustomReduction custom = maxAlphaReduction(h);
    ASSERT_NE(custom, nullptr);
    const MaxAlphaReference reference;
    struct Case {
        VkFormat format;
        uint32_t w, h, layers;
    };
    const Case cases[] = {{VK_FORMAT_R32G32B32A32_SFLOAT, 1024, 512, 1},  // levels 7-10 in a later stage
                          {VK_FORMAT_R32G32B32A32_SFLOAT, 512, 1, 1},
                          {VK_FORMAT_R32G32B32A32_SFLOAT, 1, 256, 1},
                          {VK_FORMAT_R32G32B32A32_SFLOAT, 128, 64, 2},
                          {VK_FORMAT_R8G8B8A8_UNORM, 256, 128, 1}};
    for (const Case& c : cases) {
        const Described d =
            customChain(h, custom, reference.options, vkspd::Kernel::PlainChain, c.format, c.w, c.h, c.layers);
        EXPECT_TRUE(d.plainChain) << c.w << "x" << c.h;
    }
    const Described automatic =
        customChain(h, custom, reference.options, vkspd::Kernel::Auto, VK_FORMAT_R32G32B32A32_SFLOAT, 128, 64);
    EXPECT_TRUE(automatic.plainChain) << "Auto takes the plain-chain kernel for custom reductions of plain chains";
    // A one-channel format through Fetch::Gather: the caller's reduction sees the same four texels.
    const Described gathered = customChain(h, custom, reference.options, vkspd::Kernel::PlainChain,
                                           VK_FORMAT_R32_SFLOAT, 256, 128, 1, vkspd::Fetch::Gather);
    EXPECT_TRUE(gathered.plainChain && gathered.gatherFetch) << "a custom reduction gathers";
    vkspd::destroyCustomReduction(h->context, custom);
}

namespace {

// A reduction that is not linear in its weights: each tap counts with its weight squared, so a
// lone texel of weight 1 and the same texel taken twice with 1/2 differ (1 against 1/2).
const char* kSquaredWeightsGlsl = R"(
vec4 vkspdIdentity() { return vec4(0.0); }
vec4 vkspdAccumulate(vec4 acc, vec4 v, float w) { return acc + (w * w) * v; }
vec4 vkspdCombine(vec4 a, vec4 b) { return a + b; }
)";

void cpuZero(double acc[4]) { acc[0] = acc[1] = acc[2] = acc[3] = 0.0; }
void cpuSquaredWeights(double acc[4], const double v[4], double w) {
    for (int k = 0; k < 4; ++k) acc[k] += w * w * v[k];
}

}  // namespace

// Every kernel gives each tap the weight of docs/FILTER.md, an axis of one texel its only texel
// with weight 1, as the reference does: chains with rows or columns of one texel at level 0, in
// the plain prefix and after it, plain (the general and plain-chain kernels) and not (the general
// and halo-stage kernels).
TEST_F(GpuTest, CustomReductionWeightsMatchTheFilterOnEveryKernel) {
    vkspd::CustomReduction custom = nullptr;
    vkspd::Result r = vkspd::createCustomReduction(h->context, kSquaredWeightsGlsl, &custom);
    ASSERT_TRUE(r.ok()) << r.message;
    vkspd::CpuReduction cpu;
    cpu.identity = cpuZero;
    cpu.accumulate = cpuSquaredWeights;
    vkspd::ReferenceOptions o;
    o.reduction = vkspd::Reduction::Custom;
    o.custom = &cpu;
    const VkFormat f = VK_FORMAT_R32G32B32A32_SFLOAT;
    struct Case {
        uint32_t w, h;
        bool plain;
    };
    const Case cases[] = {{256, 2, true}, {1, 128, true}, {64, 16, true}, {640, 2, false}, {131, 1, false}, {2, 67, false}};
    for (const Case& c : cases) {
        int kernels = 0;
        if (customChain(h, custom, o, vkspd::Kernel::General, f, c.w, c.h).stages > 0) ++kernels;
        if (h->quad) {
            const vkspd::Kernel other = c.plain ? vkspd::Kernel::PlainChain : vkspd::Kernel::HaloStages;
            const Described d = customChain(h, custom, o, other, f, c.w, c.h);
            EXPECT_TRUE(c.plain ? d.plainChain : d.haloStages) << c.w << "x" << c.h;
            ++kernels;
        }
        EXPECT_EQ(kernels, h->quad ? 2 : 1) << c.w << "x" << c.h;
    }
    vkspd::destroyCustomReduction(h->context, custom);
}

TEST_F(GpuTest, CustomReductionCompileErrorCarriesTheCompilerMessage) {
    vkspd::CustomReduction custom = nullptr;
    vkspd::Result r = vkspd::createCustomReduction(h->context, "vec4 vkspdIdentity() { return nope; }", &custom);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(custom, nullptr);
    EXPECT_NE(r.message.find("does not compile"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("nope"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("vkspd_custom_reduction.glsl"), std::string::npos) << r.message;
    // Custom without a reduction is refused before anything is recorded.
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 4, kChainUsage);
    vkspd::MipGenInfo info = chainInfo(img);
    info.reduction = vkspd::Reduction::Custom;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result g = vkspd::generateMips(h->context, cmd, info);
        EXPECT_FALSE(g.ok());
        EXPECT_NE(g.message.find("customReduction"), std::string::npos) << g.message;
    });
    h->destroyImage(img);
    vkspd::forgetImage(h->context, img.image);
}

// --- Capability query and fallbacks ------------------------------------------------------------

TEST_F(GpuTest, CapabilityQueryNamesThePathAndWhy) {
    auto ask = [&](VkFormat f, VkImageUsageFlags usage, VkImageCreateFlags flags,
                   vkspd::Reduction reduction = vkspd::Reduction::Average) {
        vkspd::CapabilityQuery q;
        q.format = f;
        q.usage = usage;
        q.createFlags = flags;
        q.reduction = reduction;
        vkspd::Capability cap;
        EXPECT_TRUE(vkspd::queryCapability(h->context, q, &cap).ok());
        return cap;
    };
    const VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT;
    const VkImageUsageFlags transfer = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    vkspd::Capability c = ask(VK_FORMAT_R8G8B8A8_UNORM, sampled | VK_IMAGE_USAGE_STORAGE_BIT, 0);
    EXPECT_EQ(c.path, vkspd::Path::SinglePass) << c.reason;
    c = ask(VK_FORMAT_R8G8B8A8_SRGB, sampled | VK_IMAGE_USAGE_STORAGE_BIT, VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT);
    EXPECT_EQ(c.path, vkspd::Path::SinglePass) << c.reason;
    EXPECT_EQ(c.storageFormat, VK_FORMAT_R8G8B8A8_UNORM);
    c = ask(VK_FORMAT_R8G8B8A8_SRGB, sampled | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0);
    EXPECT_EQ(c.path, vkspd::Path::RenderPass) << c.reason;
    EXPECT_NE(c.reason.find("MUTABLE_FORMAT"), std::string::npos) << c.reason;
    c = ask(VK_FORMAT_R8G8B8A8_UNORM, sampled | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0);
    EXPECT_EQ(c.path, vkspd::Path::RenderPass) << c.reason;
    EXPECT_NE(c.reason.find("VK_IMAGE_USAGE_STORAGE_BIT"), std::string::npos) << c.reason;
    EXPECT_FALSE(c.exact);
    c = ask(VK_FORMAT_R8G8B8A8_UNORM, transfer, 0);
    EXPECT_EQ(c.path, vkspd::Path::BlitChain) << c.reason;
    EXPECT_NE(c.reason.find("approximate"), std::string::npos) << c.reason;
    c = ask(VK_FORMAT_R32_SFLOAT, transfer, 0, vkspd::Reduction::Max);
    EXPECT_EQ(c.path, vkspd::Path::None) << c.reason;
    EXPECT_NE(c.reason.find("a blit can only average"), std::string::npos) << c.reason;
    c = ask(VK_FORMAT_R8G8B8A8_UNORM, sampled, 0);
    EXPECT_EQ(c.path, vkspd::Path::None);
    for (const char* flag : {"VK_IMAGE_USAGE_STORAGE_BIT", "VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT",
                             "VK_IMAGE_USAGE_TRANSFER_SRC_BIT"})
        EXPECT_NE(c.reason.find(flag), std::string::npos) << flag << " in: " << c.reason;
    c = ask(VK_FORMAT_R32_SFLOAT, sampled | VK_IMAGE_USAGE_STORAGE_BIT, 0, vkspd::Reduction::MinMax);
    EXPECT_EQ(c.path, vkspd::Path::None);
    EXPECT_NE(c.reason.find("two channels"), std::string::npos) << c.reason;
    c = ask(VK_FORMAT_D32_SFLOAT, sampled, 0);
    EXPECT_EQ(c.path, vkspd::Path::None);
    EXPECT_NE(c.reason.find("SourceImage"), std::string::npos) << c.reason;
    EXPECT_FALSE(vkspd::queryCapability(nullptr, vkspd::CapabilityQuery{}, &c).ok());

    // generateMips refuses an image with no path, naming the flags, and records nothing.
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 4, sampled | transfer);
    vkspd::MipGenInfo info = chainInfo(img);
    info.usage = sampled;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_FALSE(r.ok());
        EXPECT_NE(r.message.find("VK_IMAGE_USAGE_STORAGE_BIT"), std::string::npos) << r.message;
    });
    h->destroyImage(img);
    vkspd::forgetImage(h->context, img.image);
}

TEST_F(GpuTest, RenderPassFallbackUsesTheExactFilter) {
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    struct Case {
        VkFormat format;
        vkspd::Reduction reduction;
    };
    const Case cases[] = {{VK_FORMAT_R8G8B8A8_UNORM, vkspd::Reduction::Average},
                          {VK_FORMAT_R8G8B8A8_SRGB, vkspd::Reduction::Average},
                          {VK_FORMAT_R16G16B16A16_SFLOAT, vkspd::Reduction::Average},
                          {VK_FORMAT_R32_SFLOAT, vkspd::Reduction::Min},
                          {VK_FORMAT_R32G32_SFLOAT, vkspd::Reduction::MinMax}};
    for (const Case& c : cases) {
        for (const auto& s : kSizes) {
            TestImage img = h->createImage(c.format, s[0], s[1], vkspd::fullMipCount(s[0], s[1]), usage, 2);
            vkspd::MipGenInfo info = chainInfo(img);
            info.usage = usage;
            info.reduction = c.reduction;
            vkspd::DispatchDescription d;
            auto gpu = runChain(h, img, info, s[0] * 5 + s[1], &d);
            EXPECT_EQ(d.path, vkspd::Path::RenderPass);
            // Each level is made from the stored level above: compare with a reference rounded the
            // same way. A GPU may round a value halfway between two codes (or convert sRGB) the
            // other way, and the next level starts from that, so the difference may grow by the
            // format's tolerance per level (the bench's rule for a dispatch per level). Min and
            // MinMax take no rounding: bit-exact.
            vkspd::ReferenceOptions o;
            o.reduction = c.reduction;
            o.roundEachLevelTo = c.format;
            const double tol = c.reduction == vkspd::Reduction::Average
                                   ? vkspd::toleranceFor(c.format, false) * double(std::max(1u, img.levels - 1))
                                   : 0.0;
            const double worst = expectChainMatches(img, gpu, 0, img.levels, 0, 2, tol, "render pass", o);
            std::printf("[ worst    ] render pass %u %ux%u: %g (tolerance %g)\n", unsigned(c.format), s[0], s[1],
                        worst, tol);
            h->destroyImage(img);
            vkspd::forgetImage(h->context, img.image);
        }
    }
}

TEST_F(GpuTest, BlitFallbackFollowsTheRoundedChainAndKeepsSolidColours) {
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    for (const auto& s : {std::array<uint32_t, 2>{64, 32}, std::array<uint32_t, 2>{16, 1}}) {
        TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, s[0], s[1], vkspd::fullMipCount(s[0], s[1]), usage);
        vkspd::MipGenInfo info = chainInfo(img);
        info.usage = usage;
        vkspd::DispatchDescription d;
        auto gpu = runChain(h, img, info, s[0], &d);
        EXPECT_EQ(d.path, vkspd::Path::BlitChain);
        vkspd::ReferenceOptions o;
        o.roundEachLevelTo = VK_FORMAT_R8G8B8A8_UNORM;
        const double worst = expectChainMatches(img, gpu, 0, img.levels, 0, 1, double(img.levels - 1), "blit", o);
        std::printf("[ worst    ] blit %ux%u: %g (tolerance %u)\n", s[0], s[1], worst, img.levels - 1);
        h->destroyImage(img);
        vkspd::forgetImage(h->context, img.image);
    }
    // Odd sizes are approximate (documented), but a solid colour stays solid.
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 63, 5, 6, usage);
    std::vector<uint8_t> solid(63 * 5 * 4);
    for (size_t i = 0; i < solid.size(); ++i) solid[i] = uint8_t(40 + 50 * (i % 4));
    h->upload(img, solid.data());
    vkspd::MipGenInfo info = chainInfo(img);
    info.usage = usage;
    h->submit([&](VkCommandBuffer cmd) { ASSERT_TRUE(vkspd::generateMips(h->context, cmd, info).ok()); });
    auto gpu = h->readLevels(img);
    for (uint32_t l = 1; l < 6; ++l)
        for (size_t i = 0; i < gpu[l].size(); ++i) ASSERT_EQ(gpu[l][i], uint8_t(40 + 50 * (i % 4))) << "level " << l;
    h->destroyImage(img);
    vkspd::forgetImage(h->context, img.image);
}
