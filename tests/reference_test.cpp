// Tests of the CPU reference (the Average chain of docs/FILTER.md) and of the format conversions and
// error measures in reference.hpp. No performance is asserted anywhere.
#include "vkspd/reference.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace vkspd {
namespace {

struct Size {
    uint32_t w, h;
};

// The awkward sizes of the brief: 1-wide, odd at every level, very thin in either direction.
const Size kAwkwardSizes[] = {{1, 1},   {1, 7},     {7, 1},    {3, 5},
                              {63, 65}, {127, 129}, {4095, 3}, {3, 4095}};

std::string sizeName(Size s) { return std::to_string(s.w) + "x" + std::to_string(s.h); }

std::vector<float> randomImage(uint32_t w, uint32_t h, uint32_t channels, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    std::vector<float> v(size_t(w) * h * channels);
    for (float& x : v) x = dist(rng);
    return v;
}

std::vector<double> levelMeans(const ReferenceLevel& level) {
    std::vector<double> sums(level.channels, 0.0);
    const size_t texels = size_t(level.width) * level.height;
    for (size_t t = 0; t < texels; ++t) {
        for (uint32_t c = 0; c < level.channels; ++c) sums[c] += level.texels[t * level.channels + c];
    }
    for (double& s : sums) s /= double(texels);
    return sums;
}

// A deliberately plain implementation of docs/FILTER.md, written from the formula (division per
// axis), to check the optimized one against.
std::vector<double> naiveAxis(const std::vector<double>& src, uint32_t s) {
    const uint32_t d = std::max(1u, s / 2);
    std::vector<double> dst(d);
    for (uint32_t i = 0; i < d; ++i) {
        if (s == 1) {
            dst[i] = src[0];
        } else if (s % 2 == 0) {
            dst[i] = (src[2 * i] + src[2 * i + 1]) / 2.0;
        } else {
            dst[i] = (double(d - i) * src[2 * i] + double(d) * src[2 * i + 1] +
                      double(i + 1) * src[2 * i + 2]) / double(s);
        }
    }
    return dst;
}

ReferenceLevel naiveNextLevel(const ReferenceLevel& src) {
    ReferenceLevel dst;
    dst.width = std::max(1u, src.width / 2);
    dst.height = std::max(1u, src.height / 2);
    dst.channels = src.channels;
    const uint32_t c = src.channels;
    // Horizontal: src.height rows of dst.width.
    std::vector<double> tmp(size_t(src.height) * dst.width * c);
    for (uint32_t y = 0; y < src.height; ++y) {
        for (uint32_t k = 0; k < c; ++k) {
            std::vector<double> line(src.width);
            for (uint32_t x = 0; x < src.width; ++x) line[x] = src.texels[(size_t(y) * src.width + x) * c + k];
            const std::vector<double> out = naiveAxis(line, src.width);
            for (uint32_t x = 0; x < dst.width; ++x) tmp[(size_t(y) * dst.width + x) * c + k] = out[x];
        }
    }
    // Vertical.
    dst.texels.resize(size_t(dst.width) * dst.height * c);
    for (uint32_t x = 0; x < dst.width; ++x) {
        for (uint32_t k = 0; k < c; ++k) {
            std::vector<double> line(src.height);
            for (uint32_t y = 0; y < src.height; ++y) line[y] = tmp[(size_t(y) * dst.width + x) * c + k];
            const std::vector<double> out = naiveAxis(line, src.height);
            for (uint32_t y = 0; y < dst.height; ++y) dst.texels[(size_t(y) * dst.width + x) * c + k] = out[y];
        }
    }
    return dst;
}

uint16_t halfBitsOf(double v) {
    uint16_t h = 0;
    EXPECT_TRUE(encodeTexels(VK_FORMAT_R16_SFLOAT, &v, 1, &h));
    return h;
}

float floatFromHalfBits(uint16_t h) {
    float f = 0.0f;
    EXPECT_TRUE(decodeTexels(VK_FORMAT_R16_SFLOAT, &h, 1, &f));
    return f;
}

bool halfIsNaN(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; }

ReferenceLevel makeLevel(uint32_t w, uint32_t h, uint32_t channels, std::vector<double> texels) {
    ReferenceLevel l;
    l.width = w;
    l.height = h;
    l.channels = channels;
    l.texels = std::move(texels);
    return l;
}

// ---------------------------------------------------------------------------------------------
// Level counts and sizes.

TEST(ReferenceChain, FullMipCount) {
    EXPECT_EQ(fullMipCount(1, 1), 1u);
    EXPECT_EQ(fullMipCount(2, 1), 2u);
    EXPECT_EQ(fullMipCount(1, 7), 3u);
    EXPECT_EQ(fullMipCount(7, 1), 3u);
    EXPECT_EQ(fullMipCount(3, 5), 3u);
    EXPECT_EQ(fullMipCount(63, 65), 7u);
    EXPECT_EQ(fullMipCount(127, 129), 8u);
    EXPECT_EQ(fullMipCount(4095, 3), 12u);
    EXPECT_EQ(fullMipCount(4096, 4096), 13u);
    EXPECT_EQ(fullMipCount(32768, 16), 16u);
    EXPECT_EQ(fullMipCount(0xFFFFFFFFu, 1), 32u);
    EXPECT_EQ(fullMipCount(0, 0), 0u);
}

TEST(ReferenceChain, LevelSizesFollowVulkanRule) {
    for (Size s : kAwkwardSizes) {
        SCOPED_TRACE(sizeName(s));
        const uint32_t levels = fullMipCount(s.w, s.h);
        const std::vector<float> img(size_t(s.w) * s.h * 2, 0.5f);
        const std::vector<ReferenceLevel> chain = referenceChain(img.data(), s.w, s.h, 2, levels);
        ASSERT_EQ(chain.size(), levels);
        for (uint32_t n = 0; n < levels; ++n) {
            // max(1, floor(e / 2^n)), computed without shifts.
            const uint32_t ew = std::max<uint32_t>(1, uint32_t(std::floor(double(s.w) / std::pow(2.0, n))));
            const uint32_t eh = std::max<uint32_t>(1, uint32_t(std::floor(double(s.h) / std::pow(2.0, n))));
            EXPECT_EQ(chain[n].width, ew) << "level " << n;
            EXPECT_EQ(chain[n].height, eh) << "level " << n;
            EXPECT_EQ(mipExtent(s.w, n), ew);
            EXPECT_EQ(chain[n].channels, 2u);
            EXPECT_EQ(chain[n].texels.size(), size_t(ew) * eh * 2);
        }
        EXPECT_EQ(chain.back().width, 1u);
        EXPECT_EQ(chain.back().height, 1u);
    }
}

TEST(ReferenceChain, PartialChainAndDegenerateInputs) {
    const std::vector<float> img(64 * 32, 1.0f);
    EXPECT_EQ(referenceChain(img.data(), 64, 32, 1, 3).size(), 3u);
    EXPECT_TRUE(referenceChain(img.data(), 64, 32, 1, 0).empty());
    EXPECT_TRUE(referenceChain(nullptr, 64, 32, 1, 3).empty());
    EXPECT_TRUE(referenceChain(img.data(), 0, 32, 1, 3).empty());
    EXPECT_TRUE(referenceChain(img.data(), 64, 32, 0, 3).empty());
}

// ---------------------------------------------------------------------------------------------
// Properties of the exact filter.

TEST(ReferenceChain, SolidColourStaysSolid) {
    // Dyadic values with few bits: every step of the filter is exact, so equality is exact.
    const float dyadic[4] = {0.25f, 0.640625f, 1.0f, 0.0f};
    // Arbitrary values: equal to double rounding.
    const float arbitrary[4] = {0.1f, 1.0f / 3.0f, 0.7f, 0.99f};
    for (Size s : kAwkwardSizes) {
        SCOPED_TRACE(sizeName(s));
        for (const float* colour : {dyadic, arbitrary}) {
            const bool exact = colour == dyadic;
            std::vector<float> img(size_t(s.w) * s.h * 4);
            for (size_t i = 0; i < img.size(); ++i) img[i] = colour[i % 4];
            const uint32_t levels = fullMipCount(s.w, s.h);
            const std::vector<ReferenceLevel> chain = referenceChain(img.data(), s.w, s.h, 4, levels);
            ASSERT_EQ(chain.size(), levels);
            for (uint32_t n = 0; n < levels; ++n) {
                const std::vector<double>& t = chain[n].texels;
                size_t bad = 0;
                for (size_t i = 0; i < t.size(); ++i) {
                    const double want = double(colour[i % 4]);
                    const bool ok = exact ? t[i] == want : std::fabs(t[i] - want) <= 1e-14 * std::fabs(want);
                    if (!ok && bad++ < 3) {
                        ADD_FAILURE() << "level " << n << " value " << i << ": " << t[i] << " != " << want;
                    }
                }
                EXPECT_EQ(bad, 0u) << "level " << n << (exact ? " (dyadic)" : " (arbitrary)");
            }
        }
    }
}

TEST(ReferenceChain, MeanOfEveryLevelEqualsMeanOfLevel0) {
    uint32_t seed = 1;
    for (Size s : kAwkwardSizes) {
        SCOPED_TRACE(sizeName(s));
        const std::vector<float> img = randomImage(s.w, s.h, 3, seed++);
        const uint32_t levels = fullMipCount(s.w, s.h);
        const std::vector<ReferenceLevel> chain = referenceChain(img.data(), s.w, s.h, 3, levels);
        ASSERT_EQ(chain.size(), levels);
        const std::vector<double> mean0 = levelMeans(chain[0]);
        for (uint32_t n = 1; n < levels; ++n) {
            const std::vector<double> mean = levelMeans(chain[n]);
            for (uint32_t c = 0; c < 3; ++c) {
                EXPECT_NEAR(mean[c], mean0[c], 1e-9 * std::fabs(mean0[c])) << "level " << n << " channel " << c;
            }
        }
    }
}

TEST(ReferenceChain, MeanCatchesAWrongKernel) {
    // Guard for the mean test itself: SPD's truncating kernel (drop the last odd texel) would move
    // the mean of this 3x1 image, so the property really distinguishes exact from inexact.
    const float img[3] = {0.0f, 0.0f, 3.0f};
    const std::vector<ReferenceLevel> chain = referenceChain(img, 3, 1, 1, 2);
    ASSERT_EQ(chain.size(), 2u);
    EXPECT_EQ(chain[1].texels[0], 1.0);  // Truncation would give 0.
}

TEST(ReferenceChain, HandComputed3x1) {
    const float img[3] = {1.0f, 2.0f, 4.0f};
    const std::vector<ReferenceLevel> chain = referenceChain(img, 3, 1, 1, 2);
    ASSERT_EQ(chain.size(), 2u);
    ASSERT_EQ(chain[1].texels.size(), 1u);
    // d = 1: (1*src0 + 1*src1 + 1*src2) / 3.
    EXPECT_EQ(chain[1].texels[0], 7.0 / 3.0);
}

TEST(ReferenceChain, HandComputed5x1) {
    const float img[5] = {0.0f, 1.0f, 2.0f, 3.0f, 10.0f};
    const std::vector<ReferenceLevel> chain = referenceChain(img, 5, 1, 1, 3);
    ASSERT_EQ(chain.size(), 3u);
    ASSERT_EQ(chain[1].width, 2u);
    // d = 2: dst0 = (2*0 + 2*1 + 1*2) / 5 = 4/5, dst1 = (1*2 + 2*3 + 2*10) / 5 = 28/5.
    EXPECT_EQ(chain[1].texels[0], 4.0 / 5.0);
    EXPECT_EQ(chain[1].texels[1], 28.0 / 5.0);
    // Level 2 from level 1, even: (4/5 + 28/5) / 2, which is also the level-0 mean 16/5.
    EXPECT_EQ(chain[2].texels[0], (4.0 / 5.0 + 28.0 / 5.0) / 2.0);
    EXPECT_NEAR(chain[2].texels[0], 16.0 / 5.0, 1e-15);
}

TEST(ReferenceChain, HandComputed1x5Vertical) {
    const float img[5] = {0.0f, 1.0f, 2.0f, 3.0f, 10.0f};
    const std::vector<ReferenceLevel> chain = referenceChain(img, 1, 5, 1, 2);
    ASSERT_EQ(chain.size(), 2u);
    ASSERT_EQ(chain[1].height, 2u);
    EXPECT_EQ(chain[1].texels[0], 4.0 / 5.0);
    EXPECT_EQ(chain[1].texels[1], 28.0 / 5.0);
}

TEST(ReferenceChain, HandComputed7x1) {
    const float img[7] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 70.0f};
    const std::vector<ReferenceLevel> chain = referenceChain(img, 7, 1, 1, 2);
    ASSERT_EQ(chain.size(), 2u);
    ASSERT_EQ(chain[1].width, 3u);
    // d = 3: weights (3,3,1), (2,3,2), (1,3,3) over 7.
    EXPECT_EQ(chain[1].texels[0], (3.0 * 1 + 3.0 * 2 + 1.0 * 3) / 7.0);
    EXPECT_EQ(chain[1].texels[1], (2.0 * 3 + 3.0 * 4 + 2.0 * 5) / 7.0);
    EXPECT_EQ(chain[1].texels[2], (1.0 * 5 + 3.0 * 6 + 3.0 * 70) / 7.0);
}

TEST(ReferenceChain, HandComputed3x3) {
    // 3x3 -> 1x1 with weights 1/3 per axis: the plain mean. Two channels, different data.
    const float img[18] = {1, 0.5f, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 10, 0.25f};
    const std::vector<ReferenceLevel> chain = referenceChain(img, 3, 3, 2, 2);
    ASSERT_EQ(chain.size(), 2u);
    ASSERT_EQ(chain[1].texels.size(), 2u);
    EXPECT_EQ(chain[1].texels[0], 46.0 / 9.0);
    EXPECT_EQ(chain[1].texels[1], 0.75 / 9.0);
}

TEST(ReferenceChain, HandComputed5x3) {
    // 5x3 -> 2x1. Horizontal weights (2,2,1)/5 and (1,2,2)/5, vertical (1,1,1)/3.
    const float img[15] = {1, 2, 3, 4, 5,  //
                           0, 0, 9, 0, 0,  //
                           2, 2, 2, 2, 20};
    const std::vector<ReferenceLevel> chain = referenceChain(img, 5, 3, 1, 2);
    ASSERT_EQ(chain.size(), 2u);
    ASSERT_EQ(chain[1].width, 2u);
    ASSERT_EQ(chain[1].height, 1u);
    const double left = ((2 * 1 + 2 * 2 + 1 * 3) + (1 * 9) + (2 * 2 + 2 * 2 + 1 * 2)) / 15.0;
    const double right = ((1 * 3 + 2 * 4 + 2 * 5) + (1 * 9) + (1 * 2 + 2 * 2 + 2 * 20)) / 15.0;
    EXPECT_DOUBLE_EQ(chain[1].texels[0], left);
    EXPECT_DOUBLE_EQ(chain[1].texels[1], right);
}

TEST(ReferenceChain, MatchesPlainImplementation) {
    const Size sizes[] = {{1, 1}, {2, 3}, {5, 9}, {17, 4}, {33, 31}, {63, 65}, {100, 7}, {9, 130}};
    uint32_t seed = 100;
    for (Size s : sizes) {
        for (uint32_t channels : {1u, 2u, 3u, 4u}) {
            SCOPED_TRACE(sizeName(s) + " channels " + std::to_string(channels));
            const std::vector<float> img = randomImage(s.w, s.h, channels, seed++);
            const uint32_t levels = fullMipCount(s.w, s.h);
            const std::vector<ReferenceLevel> chain = referenceChain(img.data(), s.w, s.h, channels, levels, 3);
            ASSERT_EQ(chain.size(), levels);
            ReferenceLevel want = makeLevel(s.w, s.h, channels, std::vector<double>(img.begin(), img.end()));
            EXPECT_EQ(chain[0].texels, want.texels);
            for (uint32_t n = 1; n < levels; ++n) {
                want = naiveNextLevel(want);
                ASSERT_EQ(chain[n].width, want.width);
                ASSERT_EQ(chain[n].height, want.height);
                size_t bad = 0;
                for (size_t i = 0; i < want.texels.size(); ++i) {
                    if (std::fabs(chain[n].texels[i] - want.texels[i]) > 1e-14) ++bad;
                }
                EXPECT_EQ(bad, 0u) << "level " << n;
            }
        }
    }
}

TEST(ReferenceChain, ThreadCountDoesNotChangeResults) {
    const std::vector<float> img = randomImage(257, 515, 4, 7);
    const uint32_t levels = fullMipCount(257, 515);
    const std::vector<ReferenceLevel> one = referenceChain(img.data(), 257, 515, 4, levels, 1);
    for (unsigned threads : {0u, 2u, 3u, 7u}) {
        const std::vector<ReferenceLevel> many = referenceChain(img.data(), 257, 515, 4, levels, threads);
        ASSERT_EQ(many.size(), one.size());
        for (uint32_t n = 0; n < levels; ++n) EXPECT_EQ(many[n].texels, one[n].texels) << "threads " << threads << " level " << n;
    }
}

TEST(ReferenceChain, InfinityAndNaNPropagate) {
    const float inf = std::numeric_limits<float>::infinity();
    const float img[4] = {1.0f, inf, 2.0f, 3.0f};  // 2x2: the single output sees +Inf.
    std::vector<ReferenceLevel> chain = referenceChain(img, 2, 2, 1, 2);
    ASSERT_EQ(chain.size(), 2u);
    EXPECT_EQ(chain[1].texels[0], std::numeric_limits<double>::infinity());
    const float img2[4] = {1.0f, inf, -inf, 3.0f};
    chain = referenceChain(img2, 2, 2, 1, 2);
    EXPECT_TRUE(std::isnan(chain[1].texels[0]));
}

TEST(ReferenceChain, Large4096) {
    const uint32_t w = 4096, h = 4096, c = 4;
    std::vector<float> img(size_t(w) * h * c);
    for (size_t i = 0; i < img.size(); ++i) img[i] = float((i * 2654435761u) % 256) / 255.0f;
    const auto start = std::chrono::steady_clock::now();
    const std::vector<ReferenceLevel> chain = referenceChain(img.data(), w, h, c, fullMipCount(w, h));
    const auto end = std::chrono::steady_clock::now();
    // Informational only: no performance is asserted.
    std::cout << "[ info     ] 4096x4096x4 chain: "
              << std::chrono::duration<double, std::milli>(end - start).count() << " ms\n";
    ASSERT_EQ(chain.size(), 13u);
    EXPECT_EQ(chain[12].width, 1u);
    EXPECT_EQ(chain[12].height, 1u);
    // Level 1 texel (x, y) channel k is the mean of a 2x2 block.
    const auto src = [&](size_t x, size_t y, size_t k) { return double(img[(y * w + x) * c + k]); };
    for (size_t y : {size_t(0), size_t(1000), size_t(2047)}) {
        for (size_t x : {size_t(0), size_t(777), size_t(2047)}) {
            for (size_t k = 0; k < c; ++k) {
                const double want = (src(2 * x, 2 * y, k) + src(2 * x + 1, 2 * y, k) + src(2 * x, 2 * y + 1, k) +
                                     src(2 * x + 1, 2 * y + 1, k)) / 4.0;
                EXPECT_EQ(chain[1].texels[(y * 2048 + x) * c + k], want);
            }
        }
    }
    const std::vector<double> mean0 = levelMeans(chain[0]);
    for (uint32_t k = 0; k < c; ++k) EXPECT_NEAR(chain[12].texels[k], mean0[k], 1e-9 * mean0[k]);
}

// ---------------------------------------------------------------------------------------------
// Formats.

TEST(Formats, TableIsConsistent) {
    const std::vector<VkFormat>& formats = supportedFormats();
    // docs/FILTER.md's list: 20 colour formats and 2 depth formats.
    EXPECT_EQ(formats.size(), 22u);
    size_t depth = 0;
    for (VkFormat f : formats) {
        FormatInfo info;
        ASSERT_TRUE(getFormatInfo(f, &info));
        EXPECT_EQ(info.format, f);
        EXPECT_GT(std::strlen(info.name), 0u);
        uint32_t bitsPerChannel = 0;
        switch (info.encoding) {
            case ChannelEncoding::Unorm8:
            case ChannelEncoding::Snorm8:
            case ChannelEncoding::Srgb8: bitsPerChannel = 8; break;
            case ChannelEncoding::Unorm16:
            case ChannelEncoding::Float16: bitsPerChannel = 16; break;
            case ChannelEncoding::Float32: bitsPerChannel = 32; break;
            case ChannelEncoding::Ufloat11_10:
            case ChannelEncoding::Unorm10_2: bitsPerChannel = 0; break;  // packed in 32 bits
        }
        if (bitsPerChannel) EXPECT_EQ(info.bytesPerTexel * 8, info.channels * bitsPerChannel) << info.name;
        else EXPECT_EQ(info.bytesPerTexel, 4u) << info.name;
        // FP16 holds 8-bit fixed point, half floats and the 11/10-bit floats; not 10/16-bit UNORM
        // or 32-bit floats.
        const bool fp16 = bitsPerChannel == 8 || info.encoding == ChannelEncoding::Float16 ||
                          info.encoding == ChannelEncoding::Ufloat11_10;
        EXPECT_EQ(info.fp16Capable, fp16) << info.name;
        if (info.depth) ++depth;
    }
    EXPECT_EQ(depth, 2u);
    FormatInfo info;
    EXPECT_TRUE(getFormatInfo(VK_FORMAT_R8G8B8A8_UNORM, &info));
    EXPECT_EQ(info.channels, 4u);
    EXPECT_STREQ(info.name, "R8G8B8A8_UNORM");
    EXPECT_FALSE(getFormatInfo(VK_FORMAT_UNDEFINED, &info));
    EXPECT_FALSE(getFormatInfo(VK_FORMAT_R8G8B8_UNORM, &info));
    float f = 0;
    double d = 0;
    uint32_t bytes = 0;
    EXPECT_FALSE(decodeTexels(VK_FORMAT_R8G8B8_UNORM, &bytes, 1, &f));
    EXPECT_FALSE(encodeTexels(VK_FORMAT_R8G8B8_UNORM, &d, 1, &bytes));
}

TEST(Formats, HalfRoundTripAllPatterns) {
    std::vector<uint16_t> all(65536);
    for (uint32_t i = 0; i < 65536; ++i) all[i] = uint16_t(i);
    std::vector<float> decoded(65536);
    ASSERT_TRUE(decodeTexels(VK_FORMAT_R16_SFLOAT, all.data(), 65536, decoded.data()));
    std::vector<double> wide(decoded.begin(), decoded.end());
    std::vector<uint16_t> back(65536);
    ASSERT_TRUE(encodeTexels(VK_FORMAT_R16_SFLOAT, wide.data(), 65536, back.data()));
    size_t bad = 0;
    for (uint32_t i = 0; i < 65536; ++i) {
        const uint16_t h = uint16_t(i);
        if (halfIsNaN(h)) {
            const bool ok = std::isnan(decoded[i]) && halfIsNaN(back[i]) && (back[i] & 0x8000) == (h & 0x8000);
            if (!ok) ++bad;
        } else if (back[i] != h) {
            if (bad++ < 5) ADD_FAILURE() << std::hex << "0x" << i << " -> " << decoded[i] << " -> 0x" << back[i];
        }
    }
    EXPECT_EQ(bad, 0u);
}

TEST(Formats, HalfDecodeValues) {
    EXPECT_EQ(floatFromHalfBits(0x0000), 0.0f);
    EXPECT_TRUE(std::signbit(floatFromHalfBits(0x8000)));
    EXPECT_EQ(floatFromHalfBits(0x0001), std::ldexp(1.0f, -24));
    EXPECT_EQ(floatFromHalfBits(0x03FF), std::ldexp(1023.0f, -24));
    EXPECT_EQ(floatFromHalfBits(0x0400), std::ldexp(1.0f, -14));
    EXPECT_EQ(floatFromHalfBits(0x3C00), 1.0f);
    EXPECT_EQ(floatFromHalfBits(0x3C01), 1.0f + std::ldexp(1.0f, -10));
    EXPECT_EQ(floatFromHalfBits(0xC000), -2.0f);
    EXPECT_EQ(floatFromHalfBits(0x7BFF), 65504.0f);
    EXPECT_EQ(floatFromHalfBits(0x7C00), std::numeric_limits<float>::infinity());
    EXPECT_EQ(floatFromHalfBits(0xFC00), -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(floatFromHalfBits(0x7E00)));
    EXPECT_TRUE(std::isnan(floatFromHalfBits(0x7C01)));
}

TEST(Formats, HalfEncodeRoundsToNearestEven) {
    EXPECT_EQ(halfBitsOf(1.0), 0x3C00);
    EXPECT_EQ(halfBitsOf(-0.0), 0x8000);
    // Ties between 1 and 1 + 2^-10 go to the even mantissa; just above a tie goes up.
    EXPECT_EQ(halfBitsOf(1.0 + std::ldexp(1.0, -11)), 0x3C00);
    EXPECT_EQ(halfBitsOf(1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02);
    EXPECT_EQ(halfBitsOf(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3C01);  // No double rounding.
    EXPECT_EQ(halfBitsOf(1.0 + std::ldexp(1.0, -11) - std::ldexp(1.0, -40)), 0x3C00);
    // Overflow: 65504 is the largest half; 65520 is the tie with 2^16 and rounds to infinity.
    EXPECT_EQ(halfBitsOf(65504.0), 0x7BFF);
    EXPECT_EQ(halfBitsOf(65519.99), 0x7BFF);
    EXPECT_EQ(halfBitsOf(65520.0), 0x7C00);
    EXPECT_EQ(halfBitsOf(-1e10), 0xFC00);
    EXPECT_EQ(halfBitsOf(std::numeric_limits<double>::infinity()), 0x7C00);
    EXPECT_EQ(halfBitsOf(-std::numeric_limits<double>::infinity()), 0xFC00);
    EXPECT_TRUE(halfIsNaN(halfBitsOf(std::numeric_limits<double>::quiet_NaN())));
    // Subnormals: 2^-25 is the tie between 0 and the smallest subnormal.
    EXPECT_EQ(halfBitsOf(std::ldexp(1.0, -24)), 0x0001);
    EXPECT_EQ(halfBitsOf(std::ldexp(1.0, -25)), 0x0000);
    EXPECT_EQ(halfBitsOf(std::ldexp(1.0, -25) * 1.0000001), 0x0001);
    EXPECT_EQ(halfBitsOf(std::ldexp(3.0, -25)), 0x0002);  // 1.5 subnormal units: tie to even.
    EXPECT_EQ(halfBitsOf(-std::ldexp(1.0, -30)), 0x8000);
    EXPECT_EQ(halfBitsOf(1e-300), 0x0000);
    // Rounding up out of the subnormals gives the smallest normal.
    EXPECT_EQ(halfBitsOf(std::ldexp(1023.5, -24)), 0x0400);
    EXPECT_EQ(halfBitsOf(std::ldexp(1023.25, -24)), 0x03FF);
    EXPECT_EQ(halfBitsOf(0.1), 0x2E66);
}

TEST(Formats, EncodeDecodeRoundTripEveryFormat) {
    std::mt19937 rng(42);
    for (VkFormat format : supportedFormats()) {
        FormatInfo info;
        ASSERT_TRUE(getFormatInfo(format, &info));
        SCOPED_TRACE(info.name);
        const size_t texels = 4000;
        std::vector<unsigned char> bytes(texels * info.bytesPerTexel);
        for (size_t i = 0; i < bytes.size(); ++i) {
            // The first 256 texels of a byte-per-channel format see every code.
            bytes[i] = uint8_t(i < 256 * info.bytesPerTexel && info.bytesPerTexel == info.channels
                                   ? i / info.bytesPerTexel : rng() & 0xFF);
        }
        const size_t n = texels * info.channels;
        std::vector<float> decoded(n);
        ASSERT_TRUE(decodeTexels(format, bytes.data(), texels, decoded.data()));
        const std::vector<double> wide(decoded.begin(), decoded.end());
        std::vector<unsigned char> back(bytes.size());
        ASSERT_TRUE(encodeTexels(format, wide.data(), texels, back.data()));
        std::vector<float> again(n);
        ASSERT_TRUE(decodeTexels(format, back.data(), texels, again.data()));
        size_t exactTexels = 0;
        for (size_t t = 0; t < texels; ++t) {
            bool canonical = true;  // no NaN (payloads need not survive), no SNORM -128 (= -127)
            for (uint32_t k = 0; k < info.channels; ++k) {
                const float a = decoded[t * info.channels + k], b = again[t * info.channels + k];
                if (std::isnan(a)) {
                    EXPECT_TRUE(std::isnan(b)) << "texel " << t;
                    canonical = false;
                } else {
                    EXPECT_EQ(a, b) << "texel " << t << " channel " << k;
                }
                if (info.encoding == ChannelEncoding::Snorm8 && a == -1.0f) canonical = false;
            }
            if (!canonical) continue;
            ++exactTexels;
            EXPECT_EQ(0, std::memcmp(&bytes[t * info.bytesPerTexel], &back[t * info.bytesPerTexel],
                                     info.bytesPerTexel))
                << "texel " << t;
        }
        EXPECT_GT(exactTexels, texels / 2);
    }
}

TEST(Formats, ChannelLayoutsAndEncodings) {
    auto encode1 = [](VkFormat f, std::vector<double> v) {
        FormatInfo info;
        EXPECT_TRUE(getFormatInfo(f, &info));
        std::vector<unsigned char> out(info.bytesPerTexel);
        EXPECT_TRUE(encodeTexels(f, v.data(), 1, out.data()));
        uint64_t bits = 0;
        for (size_t i = 0; i < out.size() && i < 8; ++i) bits |= uint64_t(out[i]) << (8 * i);
        return bits;
    };
    // BGRA stores blue first; decode returns R G B A.
    EXPECT_EQ(encode1(VK_FORMAT_B8G8R8A8_UNORM, {1.0, 0.0, 0.2, 0.4}), 0x66FF0033u);
    const uint8_t bgra[4] = {0x33, 0x00, 0xFF, 0x66};
    float rgba[4];
    ASSERT_TRUE(decodeTexels(VK_FORMAT_B8G8R8A8_UNORM, bgra, 1, rgba));
    EXPECT_FLOAT_EQ(rgba[0], 1.0f);
    EXPECT_FLOAT_EQ(rgba[2], 0.2f);
    // A2B10G10R10: R in bits 0-9, A in 30-31.
    EXPECT_EQ(encode1(VK_FORMAT_A2B10G10R10_UNORM_PACK32, {1.0, 0.0, 0.0, 1.0}), 0xC00003FFu);
    EXPECT_EQ(encode1(VK_FORMAT_A2B10G10R10_UNORM_PACK32, {0.0, 0.0, 1.0, 0.0}), 0x3FF00000u);
    // B10G11R11: 1.0 is exponent 15, mantissa 0 in each field; negative clamps to 0; huge to max.
    EXPECT_EQ(encode1(VK_FORMAT_B10G11R11_UFLOAT_PACK32, {1.0, 0.0, 0.0}), 15u << 6);
    EXPECT_EQ(encode1(VK_FORMAT_B10G11R11_UFLOAT_PACK32, {0.0, 1.0, 0.0}), (15u << 6) << 11);
    EXPECT_EQ(encode1(VK_FORMAT_B10G11R11_UFLOAT_PACK32, {0.0, 0.0, 1.0}), (15u << 5) << 22);
    EXPECT_EQ(encode1(VK_FORMAT_B10G11R11_UFLOAT_PACK32, {-3.0, 1e9, 0.0}), 0x7BFu << 11);
    // SNORM: -1 is -127, halves away from zero.
    EXPECT_EQ(encode1(VK_FORMAT_R8_SNORM, {-1.0}), 0x81u);
    EXPECT_EQ(encode1(VK_FORMAT_R8_SNORM, {0.5 / 127.0}), 1u);
    EXPECT_EQ(encode1(VK_FORMAT_R8_SNORM, {-0.5 / 127.0}), 0xFFu);
    // 16-bit UNORM.
    EXPECT_EQ(encode1(VK_FORMAT_R16_UNORM, {0.5}), 32768u);
    // sRGB: linear 0.5 is 188 (0.7354 * 255 = 187.5); alpha stays linear.
    EXPECT_EQ(encode1(VK_FORMAT_R8G8B8A8_SRGB, {0.5, 0.0, 1.0, 0.5}), 0x80FF00BCu);
    const uint8_t srgb[4] = {188, 0, 255, 128};
    ASSERT_TRUE(decodeTexels(VK_FORMAT_R8G8B8A8_SRGB, srgb, 1, rgba));
    EXPECT_NEAR(rgba[0], 0.5029, 1e-4);
    EXPECT_FLOAT_EQ(rgba[3], 128.0f / 255.0f);
}

TEST(Formats, ToleranceOfEveryFormat) {
    for (VkFormat format : supportedFormats()) {
        FormatInfo info;
        ASSERT_TRUE(getFormatInfo(format, &info));
        SCOPED_TRACE(info.name);
        const double expected = info.encoding == ChannelEncoding::Float32 ? std::ldexp(1.0, -20) : 1.0;
        EXPECT_EQ(toleranceFor(format, false), expected);
        if (info.encoding == ChannelEncoding::Float16) {
            EXPECT_EQ(toleranceFor(format, true), 4.0);
        }
        // Storage views: sRGB writes through its UNORM twin, depth is never written.
        if (info.depth) {
            EXPECT_EQ(info.storageFormat, VK_FORMAT_UNDEFINED);
        } else if (info.encoding == ChannelEncoding::Srgb8) {
            EXPECT_NE(info.storageFormat, format);
        } else {
            EXPECT_EQ(info.storageFormat, format);
        }
    }
}

TEST(Formats, Unorm8EncodeRoundsHalfUpAndClamps) {
    const double in[] = {0.0, 1.0, 0.5, -0.25, 1.5, 1.0 / 255.0, 0.4 / 255.0, 0.6 / 255.0,
                         254.49 / 255.0, std::numeric_limits<double>::quiet_NaN(),
                         std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    const uint8_t want[] = {0, 255, 128, 0, 255, 1, 0, 1, 254, 0, 255, 0};
    uint8_t out[12] = {};
    ASSERT_TRUE(encodeTexels(VK_FORMAT_R8_UNORM, in, 12, out));
    for (int i = 0; i < 12; ++i) EXPECT_EQ(int(out[i]), int(want[i])) << "input " << in[i];
    float f[3];
    const uint8_t codes[3] = {0, 255, 51};
    ASSERT_TRUE(decodeTexels(VK_FORMAT_R8_UNORM, codes, 3, f));
    EXPECT_EQ(f[0], 0.0f);
    EXPECT_EQ(f[1], 1.0f);
    EXPECT_EQ(f[2], 0.2f);
}

// ---------------------------------------------------------------------------------------------
// Tolerances and compareLevel.

TEST(Compare, Tolerances) {
    EXPECT_EQ(toleranceFor(VK_FORMAT_R8G8B8A8_UNORM, false), 1.0);
    EXPECT_EQ(toleranceFor(VK_FORMAT_R8G8B8A8_UNORM, true), 1.0);
    EXPECT_EQ(toleranceFor(VK_FORMAT_R16G16B16A16_SFLOAT, false), 1.0);
    EXPECT_EQ(toleranceFor(VK_FORMAT_R16G16B16A16_SFLOAT, true), 4.0);
    EXPECT_EQ(toleranceFor(VK_FORMAT_R32_SFLOAT, false), std::ldexp(1.0, -20));
}

TEST(Compare, Unorm8OneAndTwoUlp) {
    // Two texels of RGBA8; the reference sits between codes so it has to be rounded.
    const ReferenceLevel ref = makeLevel(2, 1, 4, {100.4 / 255, 0.0, 1.0, 0.5, 7.6 / 255, 200.0 / 255, 0.25, 1.0});
    uint8_t exact[8];
    ASSERT_TRUE(encodeTexels(VK_FORMAT_R8G8B8A8_UNORM, ref.texels.data(), 2, exact));
    const uint8_t wantCodes[8] = {100, 0, 255, 128, 8, 200, 64, 255};
    EXPECT_EQ(std::memcmp(exact, wantCodes, 8), 0);

    LevelError e = compareLevel(VK_FORMAT_R8G8B8A8_UNORM, exact, ref, 1.0);
    EXPECT_EQ(e.worst, 0.0);
    EXPECT_EQ(e.overTolerance, 0u);
    EXPECT_FALSE(e.nanMismatch);

    uint8_t gpu[8];
    std::memcpy(gpu, exact, 8);
    gpu[4] = 9;  // Texel 1, channel 0: +1.
    e = compareLevel(VK_FORMAT_R8G8B8A8_UNORM, gpu, ref, 1.0);
    EXPECT_EQ(e.worst, 1.0);
    EXPECT_EQ(e.overTolerance, 0u);
    EXPECT_EQ(e.worstTexel, 1u);
    EXPECT_EQ(e.worstChannel, 0u);

    gpu[1] = 2;  // Texel 0, channel 1: +2.
    e = compareLevel(VK_FORMAT_R8G8B8A8_UNORM, gpu, ref, 1.0);
    EXPECT_EQ(e.worst, 2.0);
    EXPECT_EQ(e.overTolerance, 1u);
    EXPECT_EQ(e.worstTexel, 0u);
    EXPECT_EQ(e.worstChannel, 1u);

    std::memcpy(gpu, exact, 8);
    gpu[2] = 253;  // Below a clamped reference: -2.
    e = compareLevel(VK_FORMAT_R8G8B8A8_UNORM, gpu, ref, 1.0);
    EXPECT_EQ(e.worst, 2.0);
    EXPECT_EQ(e.overTolerance, 1u);
    EXPECT_EQ(e.worstChannel, 2u);
}

TEST(Compare, HalfOneAndTwoUlp) {
    const ReferenceLevel ref = makeLevel(4, 1, 1, {1.0, 0.0, -0.0, 65504.0});
    const uint16_t exact[4] = {0x3C00, 0x0000, 0x8000, 0x7BFF};

    LevelError e = compareLevel(VK_FORMAT_R16_SFLOAT, exact, ref, 1.0);
    EXPECT_EQ(e.worst, 0.0);
    EXPECT_EQ(e.overTolerance, 0u);

    // +0 and -0 are the same point; the smallest subnormals of either sign are 1 ulp from it.
    const uint16_t swappedZeros[4] = {0x3C00, 0x8000, 0x0000, 0x7BFF};
    EXPECT_EQ(compareLevel(VK_FORMAT_R16_SFLOAT, swappedZeros, ref, 1.0).worst, 0.0);

    const uint16_t oneUlp[4] = {0x3BFF, 0x8001, 0x0001, 0x7C00};  // 65504 -> +Inf is 1 ulp.
    e = compareLevel(VK_FORMAT_R16_SFLOAT, oneUlp, ref, 1.0);
    EXPECT_EQ(e.worst, 1.0);
    EXPECT_EQ(e.overTolerance, 0u);

    const uint16_t twoUlp[4] = {0x3C00, 0x0000, 0x0002, 0x7BFF};  // Texel 2: 2 ulp.
    e = compareLevel(VK_FORMAT_R16_SFLOAT, twoUlp, ref, 1.0);
    EXPECT_EQ(e.worst, 2.0);
    EXPECT_EQ(e.overTolerance, 1u);
    EXPECT_EQ(e.worstTexel, 2u);
    EXPECT_EQ(compareLevel(VK_FORMAT_R16_SFLOAT, twoUlp, ref, toleranceFor(VK_FORMAT_R16_SFLOAT, true)).overTolerance, 0u);

    const uint16_t acrossZero[4] = {0x3C00, 0x8001, 0x0001, 0x7BFF};  // -min and +min: each 1.
    EXPECT_EQ(compareLevel(VK_FORMAT_R16_SFLOAT, acrossZero, ref, 1.0).worst, 1.0);
    const ReferenceLevel refMin = makeLevel(1, 1, 1, {std::ldexp(1.0, -24)});
    const uint16_t negMin = 0x8001;
    EXPECT_EQ(compareLevel(VK_FORMAT_R16_SFLOAT, &negMin, refMin, 1.0).worst, 2.0);

    // The reference is rounded to half before measuring: 1 + 0.6 ulp rounds to 0x3C01.
    const ReferenceLevel between = makeLevel(1, 1, 1, {1.0 + 0.6 * std::ldexp(1.0, -10)});
    const uint16_t up = 0x3C01, down = 0x3C00, twoDown = 0x3BFF;
    EXPECT_EQ(compareLevel(VK_FORMAT_R16_SFLOAT, &up, between, 1.0).worst, 0.0);
    EXPECT_EQ(compareLevel(VK_FORMAT_R16_SFLOAT, &down, between, 1.0).worst, 1.0);
    EXPECT_EQ(compareLevel(VK_FORMAT_R16_SFLOAT, &twoDown, between, 1.0).worst, 2.0);
}

TEST(Compare, HalfInfinityAndNaN) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const ReferenceLevel ref = makeLevel(4, 1, 1, {inf, -inf, nan, 1.0});

    const uint16_t match[4] = {0x7C00, 0xFC00, 0x7E00, 0x3C00};
    LevelError e = compareLevel(VK_FORMAT_R16_SFLOAT, match, ref, 1.0);
    EXPECT_EQ(e.worst, 0.0);
    EXPECT_EQ(e.overTolerance, 0u);
    EXPECT_FALSE(e.nanMismatch);

    const uint16_t gpuNaN[4] = {0x7C00, 0xFC00, 0x7E00, 0x7E00};  // NaN where the reference is 1.
    e = compareLevel(VK_FORMAT_R16_SFLOAT, gpuNaN, ref, 4.0);
    EXPECT_TRUE(e.nanMismatch);
    EXPECT_EQ(e.overTolerance, 1u);
    EXPECT_EQ(e.worstTexel, 3u);

    const uint16_t refNaN[4] = {0x7C00, 0xFC00, 0x3C00, 0x3C00};  // A number where the reference is NaN.
    e = compareLevel(VK_FORMAT_R16_SFLOAT, refNaN, ref, 4.0);
    EXPECT_TRUE(e.nanMismatch);
    EXPECT_EQ(e.overTolerance, 1u);
    EXPECT_EQ(e.worstTexel, 2u);

    const uint16_t wrongInf[4] = {0xFC00, 0xFC00, 0x7E00, 0x3C00};
    e = compareLevel(VK_FORMAT_R16_SFLOAT, wrongInf, ref, 4.0);
    EXPECT_FALSE(e.nanMismatch);
    EXPECT_EQ(e.overTolerance, 1u);
}

TEST(Compare, Float32RelativeErrorAndNaN) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const ReferenceLevel ref = makeLevel(1, 1, 4, {1.0, 0.1, inf, nan});
    const double tol = toleranceFor(VK_FORMAT_R32G32B32A32_SFLOAT, false);

    float gpu[4] = {1.0f, 0.1f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
    LevelError e = compareLevel(VK_FORMAT_R32G32B32A32_SFLOAT, gpu, ref, tol);
    EXPECT_EQ(e.overTolerance, 0u);  // 0.1f vs 0.1 is within half a float ulp.
    EXPECT_LT(e.worst, std::ldexp(1.0, -24));
    EXPECT_FALSE(e.nanMismatch);

    gpu[0] = 1.0f + std::ldexp(1.0f, -21);  // 2^-21 relative: inside 2^-20.
    e = compareLevel(VK_FORMAT_R32G32B32A32_SFLOAT, gpu, ref, tol);
    EXPECT_EQ(e.worst, std::ldexp(1.0, -21));
    EXPECT_EQ(e.overTolerance, 0u);

    gpu[0] = 1.0f + std::ldexp(1.0f, -19);  // Outside.
    e = compareLevel(VK_FORMAT_R32G32B32A32_SFLOAT, gpu, ref, tol);
    EXPECT_EQ(e.worst, std::ldexp(1.0, -19));
    EXPECT_EQ(e.overTolerance, 1u);
    EXPECT_EQ(e.worstChannel, 0u);

    gpu[0] = 1.0f;
    gpu[2] = -std::numeric_limits<float>::infinity();
    e = compareLevel(VK_FORMAT_R32G32B32A32_SFLOAT, gpu, ref, tol);
    EXPECT_EQ(e.overTolerance, 1u);
    EXPECT_EQ(e.worstChannel, 2u);
    EXPECT_FALSE(e.nanMismatch);

    gpu[2] = std::numeric_limits<float>::infinity();
    gpu[3] = 0.0f;
    e = compareLevel(VK_FORMAT_R32G32B32A32_SFLOAT, gpu, ref, tol);
    EXPECT_TRUE(e.nanMismatch);
    EXPECT_EQ(e.overTolerance, 1u);
    EXPECT_EQ(e.worstChannel, 3u);

    // Denominator floor: against a zero reference the error is |gpu| / FLT_MIN.
    const ReferenceLevel zero = makeLevel(1, 1, 1, {0.0});
    const float tiny = std::ldexp(1.0f, -140);
    e = compareLevel(VK_FORMAT_R32_SFLOAT, &tiny, zero, tol);
    EXPECT_EQ(e.worst, std::ldexp(1.0, -140) / std::ldexp(1.0, -126));
}

TEST(Compare, MalformedInputNeverPasses) {
    const ReferenceLevel ref = makeLevel(2, 1, 2, {0.0, 0.0, 0.0, 0.0});
    const uint8_t gpu[8] = {};
    // RGBA8 has four channels; the reference has two.
    LevelError e = compareLevel(VK_FORMAT_R8G8B8A8_UNORM, gpu, ref, 1.0);
    EXPECT_GT(e.overTolerance, 0u);
    e = compareLevel(VK_FORMAT_D32_SFLOAT, gpu, ref, 1.0);
    EXPECT_GT(e.overTolerance, 0u);
    e = compareLevel(VK_FORMAT_R8G8_UNORM, nullptr, ref, 1.0);
    EXPECT_GT(e.overTolerance, 0u);
    EXPECT_EQ(compareLevel(VK_FORMAT_R8G8_UNORM, gpu, ref, 1.0).overTolerance, 0u);
}


// ---------------------------------------------------------------------------------------------
// Reductions other than the average.

namespace {

// Brute force: the min / max over the level-0 footprint of each texel of `level`, following taps
// with non-zero weight level by level (independent of the reference's implementation).
std::vector<double> bruteMinMax(const std::vector<float>& v, uint32_t w, uint32_t h, uint32_t level,
                                bool takeMax) {
    std::vector<double> cur(v.begin(), v.end());
    uint32_t cw = w, ch = h;
    for (uint32_t l = 0; l < level; ++l) {
        const uint32_t nw = std::max(1u, cw / 2), nh = std::max(1u, ch / 2);
        std::vector<double> next(size_t(nw) * nh);
        auto taps = [](uint32_t s, uint32_t i) { return s == 1 ? 1u : (s % 2 ? 3u : 2u) + 0 * i; };
        for (uint32_t y = 0; y < nh; ++y)
            for (uint32_t x = 0; x < nw; ++x) {
                double r = takeMax ? -INFINITY : INFINITY;
                for (uint32_t b = 0; b < taps(ch, y); ++b)
                    for (uint32_t a = 0; a < taps(cw, x); ++a) {
                        const double s = cur[size_t(ch == 1 ? 0 : 2 * y + b) * cw + (cw == 1 ? 0 : 2 * x + a)];
                        r = takeMax ? std::max(r, s) : std::min(r, s);
                    }
                next[size_t(y) * nw + x] = r;
            }
        cur.swap(next);
        cw = nw;
        ch = nh;
    }
    return cur;
}

void identitySumMaxAlpha(double acc[4]) {
    acc[0] = acc[1] = acc[2] = 0.0;
    acc[3] = -INFINITY;
}

void accumulateSumMaxAlpha(double acc[4], const double v[4], double w) {
    for (int k = 0; k < 3; ++k) acc[k] += w * v[k];
    acc[3] = std::max(acc[3], v[3]);
}

}  // namespace

TEST(Reference, MinMaxAndMinMaxAreConservativeAtOddSizes) {
    const uint32_t sizes[][2] = {{1, 1}, {1, 7}, {9, 1}, {5, 3}, {63, 65}, {127, 33}, {64, 64}};
    std::mt19937 rng(7);
    for (const auto& s : sizes) {
        const uint32_t w = s[0], h = s[1], levels = fullMipCount(w, h);
        std::vector<float> v(size_t(w) * h);
        for (float& x : v) x = float(rng() % 100000) / 7.0f;
        ReferenceOptions o;
        o.reduction = Reduction::Min;
        const auto mins = referenceChain(v.data(), w, h, 1, levels, o);
        o.reduction = Reduction::Max;
        const auto maxs = referenceChain(v.data(), w, h, 1, levels, o);
        o.reduction = Reduction::MinMax;
        const auto both = referenceChain(v.data(), w, h, 1, levels, o);
        ASSERT_EQ(mins.size(), levels);
        ASSERT_EQ(both.size(), levels);
        EXPECT_EQ(both[0].channels, 2u);
        for (uint32_t l = 0; l < levels; ++l) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " level " + std::to_string(l));
            const auto bmin = bruteMinMax(v, w, h, l, false), bmax = bruteMinMax(v, w, h, l, true);
            ASSERT_EQ(mins[l].texels.size(), bmin.size());
            for (size_t i = 0; i < bmin.size(); ++i) {
                EXPECT_EQ(mins[l].texels[i], bmin[i]);
                EXPECT_EQ(maxs[l].texels[i], bmax[i]);
                EXPECT_EQ(both[l].texels[2 * i], bmin[i]);
                EXPECT_EQ(both[l].texels[2 * i + 1], bmax[i]);
            }
        }
        // The last level of Min is the minimum of the whole image (conservative at any size).
        EXPECT_EQ(mins.back().texels[0], double(*std::min_element(v.begin(), v.end())));
        EXPECT_EQ(maxs.back().texels[0], double(*std::max_element(v.begin(), v.end())));
    }
}

TEST(Reference, CustomReductionFollowsTheSeparableOrder) {
    const uint32_t w = 7, h = 5;
    std::mt19937 rng(3);
    std::vector<float> v(size_t(w) * h * 4);
    for (float& x : v) x = float(rng() % 1000) / 999.0f;
    CpuReduction custom;
    custom.identity = identitySumMaxAlpha;
    custom.accumulate = accumulateSumMaxAlpha;
    ReferenceOptions o;
    o.reduction = Reduction::Custom;
    o.custom = &custom;
    const auto chain = referenceChain(v.data(), w, h, 4, 3, o);
    const auto avg = referenceChain(v.data(), w, h, 4, 3);
    ASSERT_EQ(chain.size(), 3u);
    o.reduction = Reduction::Max;
    const auto maxs = referenceChain(v.data(), w, h, 4, 3, o);
    for (uint32_t l = 1; l < 3; ++l)
        for (size_t t = 0; t < size_t(chain[l].width) * chain[l].height; ++t) {
            for (int k = 0; k < 3; ++k) EXPECT_NEAR(chain[l].texels[4 * t + k], avg[l].texels[4 * t + k], 1e-12);
            EXPECT_EQ(chain[l].texels[4 * t + 3], maxs[l].texels[4 * t + 3]);
        }
    o.custom = nullptr;
    o.reduction = Reduction::Custom;
    EXPECT_TRUE(referenceChain(v.data(), w, h, 4, 3, o).empty());
}

TEST(Reference, RoundEachLevelToMatchesAManualChain) {
    const uint32_t w = 33, h = 17;
    std::mt19937 rng(5);
    std::vector<float> v(size_t(w) * h * 4);
    for (float& x : v) x = float(rng() % 256) / 255.0f;
    ReferenceOptions o;
    o.roundEachLevelTo = VK_FORMAT_R8G8B8A8_UNORM;
    const auto rounded = referenceChain(v.data(), w, h, 4, 4, o);
    ASSERT_EQ(rounded.size(), 4u);
    // Level by level: one average step from the stored (rounded) level above.
    std::vector<float> level(v);
    uint32_t cw = w, ch = h;
    for (uint32_t l = 1; l < 4; ++l) {
        const auto step = referenceChain(level.data(), cw, ch, 4, 2);
        std::vector<unsigned char> bytes(step[1].texels.size());
        ASSERT_TRUE(encodeTexels(VK_FORMAT_R8G8B8A8_UNORM, step[1].texels.data(), bytes.size() / 4, bytes.data()));
        level.resize(bytes.size());
        ASSERT_TRUE(decodeTexels(VK_FORMAT_R8G8B8A8_UNORM, bytes.data(), bytes.size() / 4, level.data()));
        cw = step[1].width;
        ch = step[1].height;
        for (size_t i = 0; i < level.size(); ++i) EXPECT_EQ(rounded[l].texels[i], double(level[i])) << l;
    }
}

}  // namespace
}  // namespace vkspd
