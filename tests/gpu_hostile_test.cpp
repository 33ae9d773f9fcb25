// Hostile data: NaN, +-Inf, denormals, values at the half-float maximum, all-zero and all-max
// images, through the FP16 and FP32 paths and every built-in reduction. The GPU must match the
// CPU reference's IEEE behaviour: NaN and Inf propagate, and nothing finite overflows to Inf
// (docs/FILTER.md).
#include "vulkan_harness.hpp"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

using namespace vkspd_test;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const double kHalfMax = 65504.0;

enum class Pattern { HalfMax, NegHalfMax, Zero, FormatMax, NaNs, Infs, NegInfs, Denormals, Extremes, SignedExtremes };

const char* patternName(Pattern p) {
    switch (p) {
        case Pattern::HalfMax: return "all 65504";
        case Pattern::NegHalfMax: return "all -65504";
        case Pattern::Zero: return "all zero";
        case Pattern::FormatMax: return "all the format's maximum";
        case Pattern::NaNs: return "NaN texels";
        case Pattern::Infs: return "+Inf texels";
        case Pattern::NegInfs: return "-Inf texels";
        case Pattern::Denormals: return "denormals";
        case Pattern::Extremes: return "random extremes";
        case Pattern::SignedExtremes: return "random extremes of both signs";
    }
    return "?";
}

// Level 0 as doubles, channels per texel.
std::vector<double> makeTexels(Pattern p, VkFormat format, uint32_t w, uint32_t h, uint32_t channels) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const bool half = fi.encoding == vkspd::ChannelEncoding::Float16;
    const bool isFloat = half || fi.encoding == vkspd::ChannelEncoding::Float32;
    const double formatMax = half                                                 ? kHalfMax
                             : isFloat                                            ? double(std::numeric_limits<float>::max())
                             : fi.encoding == vkspd::ChannelEncoding::Ufloat11_10 ? 65024.0
                                                                                  : 1.0;
    // Smallest denormals of the format: 2^-24 (half), 2^-149 (float).
    const double denormal = half ? std::ldexp(1.0, -24) : std::ldexp(1.0, -149);
    std::mt19937 rng(w * 31 + h + uint32_t(p));
    std::uniform_real_distribution<double> normal(0.25, 4.0);
    std::vector<double> t(size_t(w) * h * channels);
    for (size_t i = 0; i < t.size(); ++i) {
        const bool sprinkle = rng() % 97 == 0;  // about 1% of channels
        switch (p) {
            case Pattern::HalfMax: t[i] = kHalfMax; break;
            case Pattern::NegHalfMax: t[i] = -kHalfMax; break;
            case Pattern::Zero: t[i] = 0.0; break;
            case Pattern::FormatMax: t[i] = formatMax; break;
            case Pattern::NaNs: t[i] = sprinkle ? kNaN : normal(rng); break;
            case Pattern::Infs: t[i] = sprinkle ? kInf : normal(rng); break;
            case Pattern::NegInfs: t[i] = sprinkle ? -kInf : normal(rng); break;
            case Pattern::Denormals: t[i] = denormal * double(1 + rng() % 1000); break;
            case Pattern::Extremes: {
                const double choices[] = {kHalfMax, kHalfMax, 0.0, -0.0, denormal, 1.0, 0.5, kHalfMax / 2};
                t[i] = choices[rng() % 8];
                break;
            }
            case Pattern::SignedExtremes: {
                // Only for Min and Max: averages of +-65504 cancel, and no float arithmetic keeps
                // the few bits left within ulps of the double reference.
                const double choices[] = {kHalfMax, -kHalfMax, 0.0, -0.0, denormal, -denormal, 1.0, -1.0};
                t[i] = choices[rng() % 8];
                break;
            }
        }
    }
    return t;
}

// Whether every level of the chain matches the reference made from `gpu`'s level 0, without
// reporting anything (expectChainMatches reports).
bool chainMatches(const TestImage& img, const std::vector<std::vector<uint8_t>>& gpu, double tolerance,
                  const vkspd::ReferenceOptions& options) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(img.format, &fi);
    std::vector<float> texels(size_t(img.width) * img.height * fi.channels);
    vkspd::decodeTexels(img.format, gpu[0].data(), size_t(img.width) * img.height, texels.data());
    auto ref = vkspd::referenceChain(texels.data(), img.width, img.height, fi.channels, img.levels, options);
    if (ref.size() != img.levels) return false;
    for (uint32_t l = 1; l < img.levels; ++l) {
        const vkspd::LevelError e = vkspd::compareLevel(img.format, gpu[l].data(), ref[l], tolerance);
        if (e.overTolerance || e.nanMismatch) return false;
    }
    return true;
}

// Level 0 with the denormals the shader computes in replaced by zeros of the same sign: 32-bit
// float formats, and 16-bit float formats on the FP16 path. False if there were none.
bool flushDenormals(VkFormat format, bool fp16, std::vector<uint8_t>* level0, size_t texels) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    double smallestNormal = 0.0;
    if (fi.encoding == vkspd::ChannelEncoding::Float32) smallestNormal = double(FLT_MIN);
    if (fi.encoding == vkspd::ChannelEncoding::Float16 && fp16) smallestNormal = std::ldexp(1.0, -14);
    if (smallestNormal == 0.0) return false;
    std::vector<float> values(texels * fi.channels);
    vkspd::decodeTexels(format, level0->data(), texels, values.data());
    std::vector<double> flushed(values.begin(), values.end());
    bool any = false;
    for (double& v : flushed) {
        if (v != 0.0 && std::fabs(v) < smallestNormal) {
            v = std::signbit(v) ? -0.0 : 0.0;
            any = true;
        }
    }
    if (any) vkspd::encodeTexels(format, flushed.data(), texels, level0->data());
    return any;
}

struct Outcome {
    bool fp16 = false;
    size_t overflows = 0;  // finite in the reference, infinite on the GPU
};

// Generates the chain of a `w` x `h` image holding `pattern` and compares every level with the
// reference: within the tolerance of docs/FILTER.md (bit-exact for Min, Max, MinMax), NaN exactly where the
// reference has NaN, and +-Inf exactly where the reference rounds to +-Inf.
Outcome runCase(Harness* h, VkFormat format, uint32_t w, uint32_t ht, Pattern pattern, vkspd::Reduction reduction,
                vkspd::Precision precision, vkspd::Fetch fetch = vkspd::Fetch::Auto) {
    Outcome out;
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const std::string what = std::string(patternName(pattern)) + ", " + fi.name + " " + std::to_string(w) + "x" +
                             std::to_string(ht) + ", reduction " + std::to_string(int(reduction)) +
                             (precision == vkspd::Precision::FP16 ? ", FP16" : ", FP32") +
                             (fetch == vkspd::Fetch::Gather ? ", gather" : "");
    SCOPED_TRACE(what);
    TestImage img = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, 1, singlePassFlags(format));
    std::vector<double> texels = makeTexels(pattern, format, w, ht, fi.channels);
    std::vector<uint8_t> bytes(levelBytes(img, 0));
    EXPECT_TRUE(vkspd::encodeTexels(format, texels.data(), size_t(w) * ht, bytes.data()));
    h->upload(img, bytes.data());
    vkspd::MipGenInfo info = chainInfo(img);
    info.reduction = reduction;
    info.precision = precision;
    info.fetch = fetch;
    vkspd::DispatchDescription d;
    EXPECT_TRUE(vkspd::describeDispatch(h->context, info, &d).ok());
    if (fetch == vkspd::Fetch::Gather) {
        EXPECT_TRUE(d.gatherFetch);
    }
    out.fp16 = d.fp16;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(r.ok()) << r.message;
    });
    auto gpu = h->readLevels(img);
    const double tolerance = reduction == vkspd::Reduction::Average ? vkspd::toleranceFor(format, d.fp16) : 0.0;
    vkspd::ReferenceOptions options;
    options.reduction = reduction;
    // A device that cannot preserve denormals (no shaderDenormPreserveFloat32, or
    // ContextTuning::skipDenormPreserve) may flush them: then the chain must be the IEEE one or exactly the one
    // made from level 0 with its denormals flushed to signed zeros, nothing in between.
    if (d.denormalsPreserved || !chainMatches(img, gpu, tolerance, options)) {
        std::vector<std::vector<uint8_t>> flushed;
        if (!d.denormalsPreserved) {
            flushed = gpu;
            if (!flushDenormals(format, d.fp16, &flushed[0], size_t(w) * ht)) flushed.clear();
        }
        if (flushed.empty()) {
            expectChainMatches(img, gpu, 0, img.levels, 0, 1, tolerance, what, options);
        } else {
            expectChainMatches(img, flushed, 0, img.levels, 0, 1, tolerance,
                               what + " (denormals flushed: the device cannot preserve them)", options);
        }
    }

    // Infinities exactly where the reference has them: the ulp measure alone would let 65504
    // become Inf (the next half-float code) inside the FP16 tolerance.
    std::vector<float> level0(size_t(w) * ht * fi.channels);
    vkspd::decodeTexels(format, gpu[0].data(), size_t(w) * ht, level0.data());
    auto ref = vkspd::referenceChain(level0.data(), w, ht, fi.channels, img.levels, options);
    for (uint32_t l = 1; l < img.levels && l < ref.size(); ++l) {
        const size_t n = size_t(ref[l].width) * ref[l].height;
        std::vector<uint8_t> rounded(levelBytes(img, l));
        vkspd::encodeTexels(format, ref[l].texels.data(), n, rounded.data());
        std::vector<float> want(n * fi.channels), got(n * fi.channels);
        vkspd::decodeTexels(format, rounded.data(), n, want.data());
        vkspd::decodeTexels(format, gpu[l].data(), n, got.data());
        size_t mismatches = 0;
        for (size_t i = 0; i < want.size(); ++i) {
            if (std::isinf(got[i]) && !std::isinf(want[i])) ++out.overflows;
            if (std::isinf(got[i]) != std::isinf(want[i]) || (std::isinf(got[i]) && got[i] != want[i])) {
                if (mismatches++ == 0)
                    ADD_FAILURE() << what << ": level " << l << " texel " << i / fi.channels << " channel "
                                  << i % fi.channels << ": GPU " << got[i] << ", reference " << want[i];
            }
        }
        EXPECT_EQ(mismatches, 0u) << what << ": level " << l << " infinities differ from the reference";
    }
    h->destroyImage(img);
    return out;
}

// Wider and taller than 128, odd: several tiles, odd-edge partial sums (three-tap weights), and a
// second stage (the elected last group) for the levels past 6. 63x65: one tile, odd everywhere.
// (Kept to these two so the suite stays within its CI time on lavapipe.)
const uint32_t kSizes[][2] = {{257, 131}, {63, 65}};

void runFloatFormat(Harness* h, VkFormat format, vkspd::Precision precision, size_t sizes, size_t* cases,
                    bool averageOnly = false) {
    const Pattern patterns[] = {Pattern::HalfMax, Pattern::NegHalfMax, Pattern::Zero,    Pattern::FormatMax,
                                Pattern::NaNs,    Pattern::Infs,       Pattern::NegInfs, Pattern::Denormals,
                                Pattern::Extremes, Pattern::SignedExtremes};
    const vkspd::Reduction reductions[] = {vkspd::Reduction::Average, vkspd::Reduction::Min, vkspd::Reduction::Max};
    for (size_t size = 0; size < sizes; ++size)
        for (Pattern p : patterns)
            for (vkspd::Reduction r : reductions) {
                if (p == Pattern::SignedExtremes && r == vkspd::Reduction::Average) continue;
                if (averageOnly && r != vkspd::Reduction::Average) continue;
                Outcome o = runCase(h, format, kSizes[size][0], kSizes[size][1], p, r, precision);
                EXPECT_EQ(o.overflows, 0u);
                ++*cases;
            }
}

}  // namespace

// What the device reports on denormals, and whether the library asks for them to be preserved.
TEST_F(GpuTest, DenormalHandlingFollowsFloatControls) {
    VkPhysicalDeviceFloatControlsProperties fc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &fc;
    vkGetPhysicalDeviceProperties2(h->physicalDevice, &p2);
    std::printf("[ denormal ] %s: shaderDenormPreserveFloat16 %u, shaderDenormPreserveFloat32 %u, "
                "shaderDenormFlushToZeroFloat32 %u, denormBehaviorIndependence %d\n",
                p2.properties.deviceName, fc.shaderDenormPreserveFloat16, fc.shaderDenormPreserveFloat32,
                fc.shaderDenormFlushToZeroFloat32, int(fc.denormBehaviorIndependence));
    TestImage img = h->createImage(VK_FORMAT_R32G32B32A32_SFLOAT, 65, 63, vkspd::fullMipCount(65, 63), kChainUsage);
    vkspd::MipGenInfo info = chainInfo(img);
    info.precision = vkspd::Precision::FP32;
    vkspd::DispatchDescription d;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, info, &d).ok());
    std::printf("[ denormal ] FP32 path: denormalsPreserved %d\n", int(d.denormalsPreserved));
    EXPECT_EQ(d.denormalsPreserved, fc.shaderDenormPreserveFloat32 == VK_TRUE);
    h->destroyImage(img);
}

TEST_F(GpuTest, HostileFloatDataFP32Path) {
    size_t cases = 0;
    // RGBA16F through FP32 with Average only: Min and Max run at FP32 on RGBA32F below and on
    // RGBA16F at FP16 in HostileFloatDataFP16Path (each variant and format is one more lavapipe
    // compile in a CI without a shader cache).
    runFloatFormat(h, VK_FORMAT_R16G16B16A16_SFLOAT, vkspd::Precision::FP32, 1, &cases, true);
    runFloatFormat(h, VK_FORMAT_R32G32B32A32_SFLOAT, vkspd::Precision::FP32, 2, &cases);
    std::printf("[ hostile  ] %zu cases\n", cases);
}

TEST_F(GpuTest, HostileFloatDataFP16Path) {
    if (!h->fp16) GTEST_SKIP() << "shaderFloat16 is not enabled on this device";
    size_t cases = 0;
    runFloatFormat(h, VK_FORMAT_R16G16B16A16_SFLOAT, vkspd::Precision::FP16, 2, &cases);
    std::printf("[ hostile  ] %zu cases\n", cases);
}

TEST_F(GpuTest, HalfMaxStaysFiniteThroughEveryStage) {
    // The case that overflowed: a solid 65504 RGBA16F image with a second stage, FP16 path.
    for (vkspd::Precision p : {vkspd::Precision::FP16, vkspd::Precision::FP32}) {
        if (p == vkspd::Precision::FP16 && !h->fp16) continue;
        for (uint32_t size : {129u, 300u}) {
            Outcome o = runCase(h, VK_FORMAT_R16G16B16A16_SFLOAT, size, size, Pattern::HalfMax,
                                vkspd::Reduction::Average, p);
            EXPECT_EQ(o.overflows, 0u) << size;
            o = runCase(h, VK_FORMAT_R16G16B16A16_SFLOAT, size, size / 2 + 1, Pattern::Extremes,
                        vkspd::Reduction::Average, p);
            EXPECT_EQ(o.overflows, 0u) << size;
        }
    }
}

TEST_F(GpuTest, HostileMinMaxPyramids) {
    size_t cases = 0;
    for (VkFormat format : {VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R32G32_SFLOAT})
        for (Pattern p : {Pattern::NaNs, Pattern::Infs, Pattern::NegInfs, Pattern::Denormals, Pattern::SignedExtremes})
            for (auto& size : kSizes) {
                runCase(h, format, size[0], size[1], p, vkspd::Reduction::MinMax, vkspd::Precision::Auto);
                ++cases;
            }
    std::printf("[ hostile  ] %zu cases\n", cases);
}

// The gather returns the texels as they are: NaN, infinities, denormals and extremes of one-channel
// float formats reach every level as through loads, on a plain chain and on a plain prefix before
// later levels of odd sides.
TEST_F(GpuTest, HostileFloatDataThroughTheGather) {
    if (!h->quad) GTEST_SKIP() << "Fetch::Gather needs the quad path";
    size_t cases = 0;
    const uint32_t sizes[][2] = {{256, 128}, {520, 264}};
    for (VkFormat format : {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R16_SFLOAT})
        for (Pattern p : {Pattern::NaNs, Pattern::Infs, Pattern::NegInfs, Pattern::Denormals, Pattern::Extremes,
                          Pattern::SignedExtremes})
            for (vkspd::Reduction r : {vkspd::Reduction::Average, vkspd::Reduction::Min, vkspd::Reduction::Max})
                for (const auto& size : sizes) {
                    if (p == Pattern::SignedExtremes && r == vkspd::Reduction::Average) continue;
                    Outcome o = runCase(h, format, size[0], size[1], p, r, vkspd::Precision::Auto, vkspd::Fetch::Gather);
                    EXPECT_EQ(o.overflows, 0u);
                    ++cases;
                }
    std::printf("[ hostile  ] %zu cases\n", cases);
}

TEST_F(GpuTest, AllZeroAndAllMaxFixedPointImages) {
    size_t cases = 0;
    for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R16G16B16A16_UNORM,
                            VK_FORMAT_B10G11R11_UFLOAT_PACK32})
        for (Pattern p : {Pattern::Zero, Pattern::FormatMax}) {
            runCase(h, format, kSizes[0][0], kSizes[0][1], p, vkspd::Reduction::Average, vkspd::Precision::Auto);
            ++cases;
        }
    std::printf("[ hostile  ] %zu cases\n", cases);
}
