// GPU chains against the CPU reference (docs/FILTER.md) at awkward sizes, every format, FP16 and
// FP32, quad and shared-memory-only paths.
#include "vulkan_harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

using namespace vkspd_test;

namespace {

struct Variant {
    vkspd::Precision precision;
    vkspd::SubgroupPath path;
    vkspd::Kernel kernel = vkspd::Kernel::Auto;  // Auto: the plain-chain kernel where it applies
};

std::string name(const Variant& v) {
    bool fp16 = v.precision == vkspd::Precision::FP16;
    bool quad = v.path == vkspd::SubgroupPath::Quad;
    return std::string(fp16 ? (quad ? "fp16/quad" : "fp16/lds") : (quad ? "fp32/quad" : "fp32/lds")) +
           (v.kernel == vkspd::Kernel::General ? "/general" : "");
}

// Whether the harness device can run the variant for the format.
bool runnable(Harness* h, const Variant& v, VkFormat format) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    if (v.precision == vkspd::Precision::FP16 && (!h->fp16 || !fi.fp16Capable)) return false;
    if (v.path == vkspd::SubgroupPath::Quad && !h->quad) return false;
    return true;
}

// Runs one chain on the GPU; returns every level (level 0 included) as stored bytes.
std::vector<std::vector<uint8_t>> gpuChain(Harness* h, VkFormat format, uint32_t w, uint32_t ht,
                                           const std::vector<uint8_t>& level0, const Variant& v,
                                           TestImage* keep = nullptr) {
    TestImage img = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, 1,
                                   singlePassFlags(format));
    h->upload(img, level0.data());
    vkspd::MipGenInfo info = chainInfo(img);
    info.createFlags = singlePassFlags(format);
    info.precision = v.precision;
    info.subgroupPath = v.path;
    vkspd::Tuning tuning;
    tuning.kernel = v.kernel;
    info.tuning = &tuning;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(r.ok()) << r.message;
    });
    auto out = h->readLevels(img);
    if (keep) *keep = img;
    else h->destroyImage(img);
    return out;
}

// Compares a GPU chain with the reference; returns the worst error over levels 1.. .
double expectMatchesReference(VkFormat format, uint32_t w, uint32_t ht,
                              const std::vector<uint8_t>& level0, const Variant& v, Harness* h) {
    TestImage img;
    auto gpu = gpuChain(h, format, w, ht, level0, v, &img);
    const double tol = vkspd::toleranceFor(format, v.precision == vkspd::Precision::FP16);
    EXPECT_EQ(std::memcmp(gpu[0].data(), level0.data(), level0.size()), 0)
        << "level 0 was modified";
    const double worst = expectChainMatches(img, gpu, 0, img.levels, 0, 1, tol, name(v));
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    std::printf("[ worst    ] %s %ux%u %s: %g (tolerance %g)\n", fi.name, w, ht, name(v).c_str(), worst, tol);
    h->destroyImage(img);
    return worst;
}

const Variant kVariants[] = {
    {vkspd::Precision::FP32, vkspd::SubgroupPath::LdsOnly},
    {vkspd::Precision::FP32, vkspd::SubgroupPath::Quad},
    {vkspd::Precision::FP16, vkspd::SubgroupPath::LdsOnly},
    {vkspd::Precision::FP16, vkspd::SubgroupPath::Quad},
};

struct Size {
    uint32_t w, h;
};

std::string sizeName(const ::testing::TestParamInfo<Size>& info) {
    return std::to_string(info.param.w) + "x" + std::to_string(info.param.h);
}

}  // namespace

// --- Every size of the core issue, RGBA8, all four variants ----------------------------------

class SizeTest : public GpuTest, public ::testing::WithParamInterface<Size> {};

// Kernel::Auto runs the plain-chain, halo-stage or summed-levels kernel on both paths (the LDS
// path's modules compiled at run time); the general kernel's variants run too, named explicitly:
// its LDS variants at every size up to 256x256 texels, its quad variants where the chain is plain.
const Variant kGeneralQuadVariants[] = {
    {vkspd::Precision::FP32, vkspd::SubgroupPath::Quad, vkspd::Kernel::General},
    {vkspd::Precision::FP16, vkspd::SubgroupPath::Quad, vkspd::Kernel::General},
};
const Variant kGeneralLdsVariants[] = {
    {vkspd::Precision::FP32, vkspd::SubgroupPath::LdsOnly, vkspd::Kernel::General},
    {vkspd::Precision::FP16, vkspd::SubgroupPath::LdsOnly, vkspd::Kernel::General},
};

TEST_P(SizeTest, Rgba8MatchesReferenceInEveryVariant) {
    const Size s = GetParam();
    auto level0 = randomTexels(VK_FORMAT_R8G8B8A8_UNORM, s.w, s.h, s.w * 131 + s.h);
    bool plain = false;
    for (const Variant& v : kVariants) {
        if (!runnable(h, v, VK_FORMAT_R8G8B8A8_UNORM)) continue;
        expectMatchesReference(VK_FORMAT_R8G8B8A8_UNORM, s.w, s.h, level0, v, h);
        if (v.path == vkspd::SubgroupPath::Quad) {
            TestImage probe = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, s.w, s.h, vkspd::fullMipCount(s.w, s.h), kChainUsage);
            vkspd::MipGenInfo info = chainInfo(probe);
            info.precision = v.precision;
            info.subgroupPath = v.path;
            Described d;
            plain = plain || (describe(h->context, info, &d).ok() && d.plainChain);
            h->destroyImage(probe);
        }
    }
    if (uint64_t(s.w) * s.h > 256 * 256) return;  // CI time: the general kernel is checked up to 256^2 here
    for (const Variant& v : kGeneralLdsVariants)
        if (runnable(h, v, VK_FORMAT_R8G8B8A8_UNORM)) expectMatchesReference(VK_FORMAT_R8G8B8A8_UNORM, s.w, s.h, level0, v, h);
    if (!plain) return;
    for (const Variant& v : kGeneralQuadVariants)
        if (runnable(h, v, VK_FORMAT_R8G8B8A8_UNORM)) expectMatchesReference(VK_FORMAT_R8G8B8A8_UNORM, s.w, s.h, level0, v, h);
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, SizeTest,
                         ::testing::Values(Size{1, 1}, Size{1, 7}, Size{7, 1}, Size{2, 2}, Size{3, 5},
                                           Size{63, 65}, Size{64, 64}, Size{65, 63}, Size{127, 129},
                                           Size{256, 256}, Size{1000, 600}, Size{1920, 1080},
                                           Size{4095, 3}, Size{3, 4095}, Size{1024, 1024},
                                           Size{130, 4}, Size{4, 130}, Size{191, 193},
                                           // The quad path's plain tail (levels 3-6 without the
                                           // per-level loop) stopping after level 3, 4 and 5, and
                                           // over two tiles whose election starts a second stage.
                                           Size{8, 8}, Size{16, 16}, Size{32, 32}, Size{128, 64}),
                         sizeName);

// --- Every format at odd, even and thin sizes ------------------------------------------------

class FormatTest : public GpuTest, public ::testing::WithParamInterface<VkFormat> {};

TEST_P(FormatTest, MatchesReferenceInEveryVariant) {
    const VkFormat format = GetParam();
    // 2x2 and 32x16 are plain chains (the plain-chain kernel where the device has quad
    // operations, as Kernel::Auto picks), the rest odd (the general kernel).
    // (Every size here other than the plain ones has no axis a power of two: lavapipe also
    // compiles a variant once per image whose width, or height, is a power of two or not (see
    // gpu_formats_test.cpp's kSizes), and the one-texel axes run at every variant in SizeTest.)
    const Size sizes[] = {{63, 65}, {129, 127}, {3, 7}, {2, 2}, {300, 5}, {32, 16}};
    const auto plainSize = [](const Size& s) {  // powers of two: every level even or 1
        return (s.w & (s.w - 1)) == 0 && (s.h & (s.h - 1)) == 0;
    };
    // lavapipe compiles each kernel variant once per image format (the general kernel about 8 s,
    // the plain-chain kernel under 2 s on one core, with a cold cache, which CI has). Every
    // format runs the plain sizes, so every format's decoding, encoding and storage goes through
    // a full chain. The odd sizes (the general kernel's three-tap machinery, which does not
    // depend on the format: it works on decoded values) run on formats that cover the classes:
    // one, two and four channels, 8, 16 and 32 bits, UNORM, SNORM, sRGB, half and full floats, a
    // packed format (RGBA8 UNORM in SizeTest, the reductions' formats in gpu_formats_test.cpp).
    // RGBA16F and RGBA32F run all four variants (8-bit UNORM runs them as RGBA8 at every size in
    // SizeTest; one-channel data on the shared-memory path in the reductions' and depth tests);
    // the others the variant the library picks by default (FP16 where the format allows it,
    // quad).
    const VkFormat allVariants[] = {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT};
    const VkFormat oddSizeFormats[] = {VK_FORMAT_R8_UNORM,        VK_FORMAT_R16G16B16A16_SFLOAT,
                                       VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R8G8B8A8_SRGB,
                                       VK_FORMAT_R8G8_SNORM,      VK_FORMAT_R16_UNORM,
                                       VK_FORMAT_B10G11R11_UFLOAT_PACK32};
    const auto listed = [format](const auto& list) {
        return std::find(std::begin(list), std::end(list), format) != std::end(list);
    };
    const bool every = listed(allVariants), odd = listed(oddSizeFormats);
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    for (const Size& s : sizes) {
        if (!odd && !plainSize(s)) continue;
        auto level0 = randomTexels(format, s.w, s.h, s.w + 7 * s.h + uint32_t(format));
        for (const Variant& v : kVariants) {
            if (!runnable(h, v, format)) continue;
            const bool fp16 = v.precision == vkspd::Precision::FP16, quad = v.path == vkspd::SubgroupPath::Quad;
            const bool defaultVariant = quad == h->quad && fp16 == (fi.fp16Capable && h->fp16);
            if (!every && !defaultVariant) continue;
            expectMatchesReference(format, s.w, s.h, level0, v, h);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(CoreFormats, FormatTest, ::testing::ValuesIn(colourFormats()),
                         [](const ::testing::TestParamInfo<VkFormat>& param) {
                             vkspd::FormatInfo fi;
                             vkspd::getFormatInfo(param.param, &fi);
                             return std::string(fi.name);
                         });

// --- The largest size of this version, and the odd size below it -----------------------------

TEST_F(GpuTest, Largest4096x4096) {
    auto level0 = randomTexels(VK_FORMAT_R8G8B8A8_UNORM, 4096, 4096, 4096);
    expectMatchesReference(VK_FORMAT_R8G8B8A8_UNORM, 4096, 4096, level0,
                           {vkspd::Precision::Auto, vkspd::SubgroupPath::Auto}, h);
}

TEST_F(GpuTest, Odd4095x4095) {
    auto level0 = randomTexels(VK_FORMAT_R8_UNORM, 4095, 4095, 4095);
    expectMatchesReference(VK_FORMAT_R8_UNORM, 4095, 4095, level0,
                           {vkspd::Precision::FP32, vkspd::SubgroupPath::Auto}, h);
}

// --- Properties of the exact filter ------------------------------------------------------------

TEST_F(GpuTest, SolidColourStaysSolidAtEveryLevel) {
    const Size sizes[] = {{63, 65}, {127, 129}, {1920, 1080}, {4095, 3}, {3, 5}, {255, 257}};
    const uint8_t colour[4] = {200, 17, 255, 3};
    for (const Size& s : sizes) {
        std::vector<uint8_t> level0(size_t(s.w) * s.h * 4);
        for (size_t i = 0; i < level0.size(); ++i) level0[i] = colour[i % 4];
        for (const Variant& v : kVariants) {
            if (!runnable(h, v, VK_FORMAT_R8G8B8A8_UNORM)) continue;
            auto gpu = gpuChain(h, VK_FORMAT_R8G8B8A8_UNORM, s.w, s.h, level0, v);
            for (size_t l = 1; l < gpu.size(); ++l) {
                size_t bad = 0;
                for (size_t i = 0; i < gpu[l].size(); ++i) bad += gpu[l][i] != colour[i % 4];
                EXPECT_EQ(bad, 0u) << s.w << "x" << s.h << " " << name(v) << " level " << l;
            }
        }
    }
}

TEST_F(GpuTest, MeanOfEveryLevelEqualsMeanOfLevel0) {
    // Bright borders on a dark interior: dropping or double-counting an edge row or column of an
    // odd level moves the mean far more than rounding can.
    const Size sizes[] = {{63, 65}, {127, 129}, {1000, 601}, {4095, 5}, {65, 193}};
    for (const Size& s : sizes) {
        std::vector<float> values(size_t(s.w) * s.h);
        std::vector<double> encoded(values.size());
        for (uint32_t y = 0; y < s.h; ++y)
            for (uint32_t x = 0; x < s.w; ++x) {
                bool border = x == 0 || y == 0 || x + 1 == s.w || y + 1 == s.h || x % 64 == 63 || y % 64 == 0;
                encoded[size_t(y) * s.w + x] = border ? 1.0 : (x * 7 + y * 3) % 50 / 255.0;
            }
        std::vector<uint8_t> level0(values.size() * 4);
        vkspd::encodeTexels(VK_FORMAT_R32_SFLOAT, encoded.data(), encoded.size(), level0.data());
        double mean0 = 0;
        for (double v : encoded) mean0 += v;
        mean0 /= double(encoded.size());
        for (const Variant& v : kVariants) {
            if (!runnable(h, v, VK_FORMAT_R32_SFLOAT)) continue;
            auto gpu = gpuChain(h, VK_FORMAT_R32_SFLOAT, s.w, s.h, level0, v);
            for (size_t l = 1; l < gpu.size(); ++l) {
                const float* f = reinterpret_cast<const float*>(gpu[l].data());
                size_t n = gpu[l].size() / 4;
                double mean = 0;
                for (size_t i = 0; i < n; ++i) mean += f[i];
                mean /= double(n);
                EXPECT_NEAR(mean, mean0, 1e-5) << s.w << "x" << s.h << " " << name(v) << " level " << l;
            }
        }
    }
}

TEST_F(GpuTest, ExactOddKernelNotSpdTruncation) {
    // 3x1 -> 1x1 must be (a + b + c) / 3, not (a + b) / 2.
    const float level0[3] = {0.0f, 0.0f, 3.0f};
    std::vector<uint8_t> bytes(sizeof(level0));
    std::memcpy(bytes.data(), level0, sizeof(level0));
    auto gpu = gpuChain(h, VK_FORMAT_R32_SFLOAT, 3, 1, bytes,
                        {vkspd::Precision::FP32, vkspd::SubgroupPath::Auto});
    float v;
    std::memcpy(&v, gpu[1].data(), 4);
    EXPECT_NEAR(v, 1.0f, 1e-6f);
}

TEST_F(GpuTest, LargeOddSizeOnTheFp16Path) {
    // FP16 error grows with the number of odd levels; 1023x1025 has odd levels all the way down.
    auto level0 = randomTexels(VK_FORMAT_R16G16B16A16_SFLOAT, 1023, 1025, 1023);
    for (const Variant& v : kVariants) {
        if (!runnable(h, v, VK_FORMAT_R16G16B16A16_SFLOAT)) continue;
        expectMatchesReference(VK_FORMAT_R16G16B16A16_SFLOAT, 1023, 1025, level0, v, h);
    }
}

TEST_F(GpuTest, PseudoRandomSizesFormatsAndVariants) {
    // Sizes nobody picked by hand: a fixed-seed sample over 1..700 per axis, four formats in turn.
    std::mt19937 rng(20261122);
    std::uniform_int_distribution<uint32_t> side(1, 700);
    // Formats whose variants other tests compile anyway: lavapipe compiles once per variant and
    // image format (FormatTest covers every format).
    const std::vector<VkFormat> formats = {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8B8A8_UNORM,
                                           VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT};
    for (int i = 0; i < 18; ++i) {
        const uint32_t w = side(rng), ht = (i % 3 == 0) ? side(rng) % 9 + 1 : side(rng);
        const VkFormat format = formats[size_t(i) % formats.size()];
        const Variant& v = kVariants[size_t(i) % 4];
        if (!runnable(h, v, format)) continue;
        auto level0 = randomTexels(format, w, ht, uint32_t(i) * 7919u);
        expectMatchesReference(format, w, ht, level0, v, h);
    }
}
