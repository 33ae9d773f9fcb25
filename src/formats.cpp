// Format facts, texel decode/encode and the SPEC section 3 error measures used to compare a GPU
// level with the CPU reference.
//
// Half-float conversion is written here (no dependency) and is exact: decoding is lossless and
// encoding rounds to nearest, ties to even, with subnormals, infinities and NaN handled as IEEE 754.
#include "vkspd/reference.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

namespace vkspd {

namespace {

// ---------------------------------------------------------------------------------------------
// Format table. Its order is the order supportedFormats() returns.

const FormatInfo kFormats[] = {
    {VK_FORMAT_R8_UNORM, "R8_UNORM", 1, 1, ChannelEncoding::Unorm8, true},
    {VK_FORMAT_R8G8_UNORM, "R8G8_UNORM", 2, 2, ChannelEncoding::Unorm8, true},
    {VK_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM", 4, 4, ChannelEncoding::Unorm8, true},
    {VK_FORMAT_R16_SFLOAT, "R16_SFLOAT", 1, 2, ChannelEncoding::Float16, true},
    {VK_FORMAT_R16G16_SFLOAT, "R16G16_SFLOAT", 2, 4, ChannelEncoding::Float16, true},
    {VK_FORMAT_R16G16B16A16_SFLOAT, "R16G16B16A16_SFLOAT", 4, 8, ChannelEncoding::Float16, true},
    {VK_FORMAT_R32_SFLOAT, "R32_SFLOAT", 1, 4, ChannelEncoding::Float32, false},
    {VK_FORMAT_R32G32_SFLOAT, "R32G32_SFLOAT", 2, 8, ChannelEncoding::Float32, false},
    {VK_FORMAT_R32G32B32A32_SFLOAT, "R32G32B32A32_SFLOAT", 4, 16, ChannelEncoding::Float32, false},
};

const FormatInfo* findFormat(VkFormat format) {
    for (const FormatInfo& f : kFormats) {
        if (f.format == format) return &f;
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Half floats (IEEE 754 binary16: 1 sign, 5 exponent bits biased by 15, 10 mantissa bits).

uint64_t doubleBits(double v) {
    uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

float floatFromBits(uint32_t b) {
    float v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

// Shifts `value` right by `shift` (1..63) bits, rounding to nearest, ties to even.
uint64_t shiftRightRoundEven(uint64_t value, unsigned shift) {
    const uint64_t kept = value >> shift;
    const uint64_t rest = value & ((uint64_t(1) << shift) - 1);
    const uint64_t half = uint64_t(1) << (shift - 1);
    if (rest > half || (rest == half && (kept & 1))) return kept + 1;
    return kept;
}

// Rounds a double straight to half (one rounding, so no double-rounding error via float).
uint16_t doubleToHalf(double v) {
    const uint64_t b = doubleBits(v);
    const uint16_t sign = uint16_t((b >> 48) & 0x8000);
    const int expField = int((b >> 52) & 0x7FF);
    const uint64_t mant = b & ((uint64_t(1) << 52) - 1);

    if (expField == 0x7FF) {
        if (mant == 0) return uint16_t(sign | 0x7C00);  // Infinity.
        // NaN: keep the top payload bits, and force the quiet bit so the result stays a NaN.
        return uint16_t(sign | 0x7C00 | 0x0200 | uint16_t(mant >> 42));
    }
    if (expField == 0) return sign;  // Zero or a double subnormal: far below half's range.

    const int e = expField - 1023;  // Unbiased exponent; |v| = 1.mant * 2^e.
    if (e > 15) return uint16_t(sign | 0x7C00);  // At least 2^16: overflows to infinity.

    const uint64_t sig = mant | (uint64_t(1) << 52);  // 53-bit significand with the hidden bit.
    if (e >= -14) {
        // Normal half. The carry of a round-up moves into the exponent field naturally, and out of
        // exponent 30 into 31 with a zero mantissa, which is infinity (values >= 65520).
        const uint64_t m = shiftRightRoundEven(sig, 42);  // 11 bits, hidden bit included.
        const uint32_t bits = (uint32_t(e + 14) << 10) + uint32_t(m);  // hidden bit adds 1 to exp
        return uint16_t(sign | bits);
    }
    // Subnormal half: |v| / 2^-24 = sig * 2^(e - 28), with e - 28 < -42.
    const unsigned shift = unsigned(28 - e);
    if (shift >= 64) return sign;  // Below 2^-35: rounds to zero.
    // A round-up from 0x3FF to 0x400 gives the smallest normal, which is the right answer.
    return uint16_t(sign | uint16_t(shiftRightRoundEven(sig, shift)));
}

// Exact: every half is representable as a float.
float halfToFloat(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000) << 16;
    const uint32_t expField = (h >> 10) & 0x1F;
    const uint32_t mant = h & 0x3FF;
    if (expField == 0x1F) return floatFromBits(sign | 0x7F800000u | (mant << 13));  // Inf, NaN.
    if (expField == 0) {
        const float magnitude = std::ldexp(float(mant), -24);  // Zero or subnormal, exact.
        return sign ? -magnitude : magnitude;
    }
    return floatFromBits(sign | ((expField - 15 + 127) << 23) | (mant << 13));
}

bool halfIsNaN(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; }

// Maps half bit patterns onto a line where consecutive representable values are consecutive
// integers: +0 and -0 both map to 0, +Inf is one past the largest finite value.
int32_t halfOrdinal(uint16_t h) {
    const int32_t magnitude = int32_t(h & 0x7FFF);
    return (h & 0x8000) ? -magnitude : magnitude;
}

// ---------------------------------------------------------------------------------------------
// UNORM8.

// round(clamp(v, 0, 1) * 255), halves rounded up. NaN gives 0, as Vulkan's float-to-UNORM rule.
uint8_t encodeUnorm8(double v) {
    if (std::isnan(v)) return 0;
    const double c = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
    return uint8_t(std::floor(c * 255.0 + 0.5));
}

}  // namespace

bool getFormatInfo(VkFormat format, FormatInfo* info) {
    const FormatInfo* f = findFormat(format);
    if (!f) return false;
    if (info) *info = *f;
    return true;
}

const std::vector<VkFormat>& supportedFormats() {
    static const std::vector<VkFormat> formats = [] {
        std::vector<VkFormat> v;
        for (const FormatInfo& f : kFormats) v.push_back(f.format);
        return v;
    }();
    return formats;
}

bool decodeTexels(VkFormat format, const void* src, size_t texelCount, float* dst) {
    const FormatInfo* f = findFormat(format);
    if (!f) return false;
    const size_t n = texelCount * f->channels;
    if (n == 0) return true;
    if (!src || !dst) return false;
    switch (f->encoding) {
        case ChannelEncoding::Unorm8: {
            const uint8_t* s = static_cast<const uint8_t*>(src);
            for (size_t i = 0; i < n; ++i) dst[i] = float(s[i]) / 255.0f;
            break;
        }
        case ChannelEncoding::Float16: {
            const unsigned char* s = static_cast<const unsigned char*>(src);
            for (size_t i = 0; i < n; ++i) {
                uint16_t h;
                std::memcpy(&h, s + 2 * i, sizeof h);  // Source may be unaligned.
                dst[i] = halfToFloat(h);
            }
            break;
        }
        case ChannelEncoding::Float32:
            std::memcpy(dst, src, n * sizeof(float));
            break;
    }
    return true;
}

bool encodeTexels(VkFormat format, const double* src, size_t texelCount, void* dst) {
    const FormatInfo* f = findFormat(format);
    if (!f) return false;
    const size_t n = texelCount * f->channels;
    if (n == 0) return true;
    if (!src || !dst) return false;
    unsigned char* d = static_cast<unsigned char*>(dst);
    switch (f->encoding) {
        case ChannelEncoding::Unorm8:
            for (size_t i = 0; i < n; ++i) d[i] = encodeUnorm8(src[i]);
            break;
        case ChannelEncoding::Float16:
            for (size_t i = 0; i < n; ++i) {
                const uint16_t h = doubleToHalf(src[i]);
                std::memcpy(d + 2 * i, &h, sizeof h);
            }
            break;
        case ChannelEncoding::Float32:
            for (size_t i = 0; i < n; ++i) {
                const float v = float(src[i]);  // Default FP environment: nearest, ties to even.
                std::memcpy(d + 4 * i, &v, sizeof v);
            }
            break;
    }
    return true;
}

double toleranceFor(VkFormat format, bool fp16Path) {
    const FormatInfo* f = findFormat(format);
    if (!f) return 0.0;
    switch (f->encoding) {
        case ChannelEncoding::Unorm8: return 1.0;
        case ChannelEncoding::Float16: return fp16Path ? 4.0 : 1.0;
        case ChannelEncoding::Float32: return std::ldexp(1.0, -20);
    }
    return 0.0;
}

// Error measures, per channel:
// - UNORM8: |gpu code - reference encoded to UNORM8| in codes (a correctly rounded GPU gives 0).
// - Float16: distance in half ulps between the GPU half and the reference rounded to half, on the
//   ordinal line of halfOrdinal (so 65504 vs +Inf is 1 ulp; equal infinities are 0).
// - Float32: |gpu - ref| / max(|ref|, FLT_MIN) in double; equal infinities are 0.
// NaN in both gives 0; NaN in exactly one sets nanMismatch and counts as an infinite error.
// A malformed call (unsupported format, a reference whose channel count or size does not match,
// null data) reports worst = infinity and every channel over tolerance, so it can never pass.
LevelError compareLevel(VkFormat format, const void* gpu, const ReferenceLevel& ref,
                        double tolerance) {
    LevelError result;
    const double inf = std::numeric_limits<double>::infinity();
    const FormatInfo* f = findFormat(format);
    const size_t texelCount = size_t(ref.width) * ref.height;
    const size_t n = texelCount * ref.channels;
    if (!f || f->channels != ref.channels || ref.texels.size() != n || (n > 0 && !gpu)) {
        result.worst = inf;
        result.overTolerance = n > 0 ? n : 1;
        return result;
    }

    const unsigned char* g = static_cast<const unsigned char*>(gpu);
    for (size_t i = 0; i < n; ++i) {
        const double r = ref.texels[i];
        double err = 0.0;
        switch (f->encoding) {
            case ChannelEncoding::Unorm8:
                // UNORM cannot hold NaN; a NaN reference encodes to 0 like the GPU's conversion.
                err = std::fabs(double(g[i]) - double(encodeUnorm8(r)));
                break;
            case ChannelEncoding::Float16: {
                uint16_t h;
                std::memcpy(&h, g + 2 * i, sizeof h);
                const uint16_t rh = doubleToHalf(r);
                const bool gNaN = halfIsNaN(h), rNaN = halfIsNaN(rh);
                if (gNaN || rNaN) {
                    err = (gNaN && rNaN) ? 0.0 : inf;
                    if (gNaN != rNaN) result.nanMismatch = true;
                } else {
                    err = std::fabs(double(halfOrdinal(h)) - double(halfOrdinal(rh)));
                }
                break;
            }
            case ChannelEncoding::Float32: {
                float v;
                std::memcpy(&v, g + 4 * i, sizeof v);
                const double gv = double(v);
                const bool gNaN = std::isnan(gv), rNaN = std::isnan(r);
                if (gNaN || rNaN) {
                    err = (gNaN && rNaN) ? 0.0 : inf;
                    if (gNaN != rNaN) result.nanMismatch = true;
                } else if (gv == r) {
                    err = 0.0;  // Also covers equal infinities, whose difference would be NaN.
                } else {
                    // Unequal with an infinity on either side gives inf / x = inf.
                    err = std::fabs(gv - r) / std::max(std::fabs(r), double(FLT_MIN));
                    if (std::isnan(err)) err = inf;  // inf / inf: opposite infinities.
                }
                break;
            }
        }
        if (err > tolerance) ++result.overTolerance;
        if (err > result.worst) {
            result.worst = err;
            result.worstTexel = i / ref.channels;
            result.worstChannel = uint32_t(i % ref.channels);
        }
    }
    return result;
}

}  // namespace vkspd
