// Format facts and texel decode/encode (formats.hpp), and the per-format error measures of
// reference.hpp (toleranceFor, compareLevel), which need the same channel table.
//
// Half-float conversion is written here (no dependency) and is exact: decoding is lossless and
// encoding rounds to nearest, ties to even, with subnormals, infinities and NaN handled as IEEE 754.
#include "vkspd/formats.hpp"
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
//
// Each channel (in R G B A order) is a bit field of the texel read as a little-endian integer, so
// byte formats, BGRA swizzles and packed formats are all described the same way.

enum class Kind : uint8_t { Unorm, Snorm, Srgb, Float, Ufloat };

struct Channel {
    Kind kind;
    uint8_t offset;  // bit offset in the texel
    uint8_t bits;
};

struct FormatEntry {
    FormatInfo info;
    Channel channel[4];
};

constexpr Channel U(uint8_t o, uint8_t b) { return {Kind::Unorm, o, b}; }
constexpr Channel S(uint8_t o) { return {Kind::Snorm, o, 8}; }
constexpr Channel G(uint8_t o) { return {Kind::Srgb, o, 8}; }
constexpr Channel F(uint8_t o, uint8_t b) { return {Kind::Float, o, b}; }
constexpr Channel UF(uint8_t o, uint8_t b) { return {Kind::Ufloat, o, b}; }

using E = ChannelEncoding;
// {format, name, channels, bytes, encoding, fp16Capable, depth, storageFormat}, channels.
const FormatEntry kFormats[] = {
    {{VK_FORMAT_R8_UNORM, "R8_UNORM", 1, 1, E::Unorm8, true, false, VK_FORMAT_R8_UNORM}, {U(0, 8)}},
    {{VK_FORMAT_R8G8_UNORM, "R8G8_UNORM", 2, 2, E::Unorm8, true, false, VK_FORMAT_R8G8_UNORM},
     {U(0, 8), U(8, 8)}},
    {{VK_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM", 4, 4, E::Unorm8, true, false, VK_FORMAT_R8G8B8A8_UNORM},
     {U(0, 8), U(8, 8), U(16, 8), U(24, 8)}},
    {{VK_FORMAT_B8G8R8A8_UNORM, "B8G8R8A8_UNORM", 4, 4, E::Unorm8, true, false, VK_FORMAT_B8G8R8A8_UNORM},
     {U(16, 8), U(8, 8), U(0, 8), U(24, 8)}},
    {{VK_FORMAT_R8G8B8A8_SRGB, "R8G8B8A8_SRGB", 4, 4, E::Srgb8, true, false, VK_FORMAT_R8G8B8A8_UNORM},
     {G(0), G(8), G(16), U(24, 8)}},
    {{VK_FORMAT_B8G8R8A8_SRGB, "B8G8R8A8_SRGB", 4, 4, E::Srgb8, true, false, VK_FORMAT_B8G8R8A8_UNORM},
     {G(16), G(8), G(0), U(24, 8)}},
    {{VK_FORMAT_R8_SNORM, "R8_SNORM", 1, 1, E::Snorm8, true, false, VK_FORMAT_R8_SNORM}, {S(0)}},
    {{VK_FORMAT_R8G8_SNORM, "R8G8_SNORM", 2, 2, E::Snorm8, true, false, VK_FORMAT_R8G8_SNORM},
     {S(0), S(8)}},
    {{VK_FORMAT_R8G8B8A8_SNORM, "R8G8B8A8_SNORM", 4, 4, E::Snorm8, true, false, VK_FORMAT_R8G8B8A8_SNORM},
     {S(0), S(8), S(16), S(24)}},
    {{VK_FORMAT_R16_UNORM, "R16_UNORM", 1, 2, E::Unorm16, false, false, VK_FORMAT_R16_UNORM}, {U(0, 16)}},
    {{VK_FORMAT_R16G16_UNORM, "R16G16_UNORM", 2, 4, E::Unorm16, false, false, VK_FORMAT_R16G16_UNORM},
     {U(0, 16), U(16, 16)}},
    {{VK_FORMAT_R16G16B16A16_UNORM, "R16G16B16A16_UNORM", 4, 8, E::Unorm16, false, false,
      VK_FORMAT_R16G16B16A16_UNORM},
     {U(0, 16), U(16, 16), U(32, 16), U(48, 16)}},
    {{VK_FORMAT_R16_SFLOAT, "R16_SFLOAT", 1, 2, E::Float16, true, false, VK_FORMAT_R16_SFLOAT}, {F(0, 16)}},
    {{VK_FORMAT_R16G16_SFLOAT, "R16G16_SFLOAT", 2, 4, E::Float16, true, false, VK_FORMAT_R16G16_SFLOAT},
     {F(0, 16), F(16, 16)}},
    {{VK_FORMAT_R16G16B16A16_SFLOAT, "R16G16B16A16_SFLOAT", 4, 8, E::Float16, true, false,
      VK_FORMAT_R16G16B16A16_SFLOAT},
     {F(0, 16), F(16, 16), F(32, 16), F(48, 16)}},
    {{VK_FORMAT_R32_SFLOAT, "R32_SFLOAT", 1, 4, E::Float32, false, false, VK_FORMAT_R32_SFLOAT}, {F(0, 32)}},
    {{VK_FORMAT_R32G32_SFLOAT, "R32G32_SFLOAT", 2, 8, E::Float32, false, false, VK_FORMAT_R32G32_SFLOAT},
     {F(0, 32), F(32, 32)}},
    {{VK_FORMAT_R32G32B32A32_SFLOAT, "R32G32B32A32_SFLOAT", 4, 16, E::Float32, false, false,
      VK_FORMAT_R32G32B32A32_SFLOAT},
     {F(0, 32), F(32, 32), F(64, 32), F(96, 32)}},
    {{VK_FORMAT_B10G11R11_UFLOAT_PACK32, "B10G11R11_UFLOAT_PACK32", 3, 4, E::Ufloat11_10, true, false,
      VK_FORMAT_B10G11R11_UFLOAT_PACK32},
     {UF(0, 11), UF(11, 11), UF(22, 10)}},
    {{VK_FORMAT_A2B10G10R10_UNORM_PACK32, "A2B10G10R10_UNORM_PACK32", 4, 4, E::Unorm10_2, false, false,
      VK_FORMAT_A2B10G10R10_UNORM_PACK32},
     {U(0, 10), U(10, 10), U(20, 10), U(30, 2)}},
    {{VK_FORMAT_D16_UNORM, "D16_UNORM", 1, 2, E::Unorm16, false, true, VK_FORMAT_UNDEFINED}, {U(0, 16)}},
    {{VK_FORMAT_D32_SFLOAT, "D32_SFLOAT", 1, 4, E::Float32, false, true, VK_FORMAT_UNDEFINED}, {F(0, 32)}},
};

const FormatEntry* findFormat(VkFormat format) {
    for (const FormatEntry& f : kFormats) {
        if (f.info.format == format) return &f;
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

// Rounds a double straight to a float with a 5-bit exponent (bias 15) and `mb` mantissa bits:
// half (mb = 10, signed), and the unsigned 11- and 10-bit floats of B10G11R11 (mb = 6, 5). One
// rounding (nearest, ties to even), so there is no double-rounding error through float. Half
// overflows to infinity; the unsigned formats clamp finite values to their maximum, map negative
// values and -Inf to zero and every NaN to a positive NaN (Vulkan's conversion rules).
uint32_t doubleToSmallFloat(double v, unsigned mb, bool hasSign) {
    const uint64_t b = doubleBits(v);
    const uint32_t infBits = 0x1Fu << mb;
    const uint32_t sign = hasSign ? uint32_t((b >> 63) << (mb + 5)) : 0u;
    const int expField = int((b >> 52) & 0x7FF);
    const uint64_t mant = b & ((uint64_t(1) << 52) - 1);
    if (expField == 0x7FF && mant != 0) {
        // NaN: keep the top payload bits and force the quiet bit, so the result stays a NaN.
        return sign | infBits | (1u << (mb - 1)) | uint32_t(mant >> (52 - mb));
    }
    if (!hasSign && (b >> 63)) return 0u;  // Negative (and -Inf, -0) to zero.
    if (expField == 0x7FF) return hasSign ? (sign | infBits) : infBits;  // Infinity.
    if (expField == 0) return sign;  // Zero or a double subnormal: far below these ranges.

    const int e = expField - 1023;  // |v| = 1.mant * 2^e.
    const uint32_t maxFinite = infBits - 1;
    if (e > 15) return hasSign ? (sign | infBits) : maxFinite;
    const uint64_t sig = mant | (uint64_t(1) << 52);  // 53-bit significand with the hidden bit.
    uint32_t bits;
    if (e >= -14) {
        // Normal. The carry of a round-up moves into the exponent field naturally, and out of
        // the largest exponent into the infinity pattern.
        const uint64_t m = shiftRightRoundEven(sig, 52 - mb);  // mb + 1 bits, hidden bit included.
        bits = (uint32_t(e + 14) << mb) + uint32_t(m);         // the hidden bit adds 1 to the exponent
    } else {
        // Subnormal: |v| / 2^(-14 - mb) = sig * 2^(e + 14 + mb - 52).
        const unsigned shift = unsigned(38 - int(mb) - e);
        if (shift >= 64) return sign;
        // A round-up into the smallest normal is the right answer.
        bits = uint32_t(shiftRightRoundEven(sig, shift));
    }
    if (!hasSign && bits > maxFinite) return maxFinite;
    return sign | bits;
}

uint16_t doubleToHalf(double v) { return uint16_t(doubleToSmallFloat(v, 10, true)); }

// Exact: every value of these formats is representable as a float.
float smallFloatToFloat(uint32_t bits, unsigned mb, bool hasSign) {
    const bool negative = hasSign && ((bits >> (mb + 5)) & 1u);
    const uint32_t expField = (bits >> mb) & 0x1F;
    const uint32_t mant = bits & ((1u << mb) - 1);
    float magnitude;
    if (expField == 0x1F) {
        magnitude = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
        if (mant && mb == 10) {
            // Keep a half NaN's payload, as the GPU would.
            return floatFromBits((negative ? 0x80000000u : 0u) | 0x7F800000u | (mant << 13));
        }
    } else if (expField == 0) {
        magnitude = std::ldexp(float(mant), -14 - int(mb));  // Zero or subnormal, exact.
    } else {
        magnitude = std::ldexp(float(mant | (1u << mb)), int(expField) - 15 - int(mb));
    }
    return negative ? -magnitude : magnitude;
}

float halfToFloat(uint16_t h) { return smallFloatToFloat(h, 10, true); }

bool smallFloatIsNaN(uint32_t bits, unsigned mb) {
    return ((bits >> mb) & 0x1F) == 0x1F && (bits & ((1u << mb) - 1)) != 0;
}

// Maps bit patterns onto a line where consecutive representable values are consecutive integers:
// +0 and -0 both map to 0, +Inf is one past the largest finite value.
int64_t smallFloatOrdinal(uint32_t bits, unsigned mb, bool hasSign) {
    const uint32_t magnitudeMask = (1u << (mb + 5)) - 1;
    const int64_t magnitude = int64_t(bits & magnitudeMask);
    return hasSign && ((bits >> (mb + 5)) & 1u) ? -magnitude : magnitude;
}

// ---------------------------------------------------------------------------------------------
// Fixed-point and sRGB channels.

double srgbToLinear(double c) {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linearToSrgb(double l) {
    return l <= 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

// round(clamp(v, 0, 1) * max), halves rounded up. NaN gives 0, as Vulkan's float-to-UNORM rule.
uint32_t encodeUnorm(double v, unsigned bits) {
    if (std::isnan(v)) return 0;
    const double max = double((uint64_t(1) << bits) - 1);
    const double c = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
    return uint32_t(std::floor(c * max + 0.5));
}

// round(clamp(v, -1, 1) * 127), halves away from zero, as a two's-complement byte. NaN gives 0.
uint32_t encodeSnorm8(double v) {
    if (std::isnan(v)) return 0;
    const double c = v < -1.0 ? -1.0 : (v > 1.0 ? 1.0 : v);
    return uint32_t(int32_t(std::round(c * 127.0))) & 0xFFu;
}

uint32_t encodeSrgb(double v) {
    if (std::isnan(v)) return 0;
    const double c = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
    return uint32_t(std::floor(linearToSrgb(c) * 255.0 + 0.5));
}

// ---------------------------------------------------------------------------------------------
// Channel bit fields of a texel (at most 16 bytes, little-endian).

uint64_t readBits(const unsigned char* texel, unsigned offset, unsigned bits) {
    uint64_t v = 0;
    for (unsigned i = 0; i < bits; ++i) {
        const unsigned bit = offset + i;
        v |= uint64_t((texel[bit / 8] >> (bit % 8)) & 1u) << i;
    }
    return v;
}

// Byte-aligned channels (every format but the packed ones) take the fast path.
uint64_t readChannel(const unsigned char* texel, const Channel& ch) {
    if (ch.offset % 8 == 0 && ch.bits % 8 == 0) {
        uint64_t v = 0;
        for (unsigned i = 0; i < ch.bits / 8u; ++i) v |= uint64_t(texel[ch.offset / 8 + i]) << (8 * i);
        return v;
    }
    return readBits(texel, ch.offset, ch.bits);
}

void writeChannel(unsigned char* texel, const Channel& ch, uint64_t value) {
    for (unsigned i = 0; i < ch.bits; ++i) {
        const unsigned bit = ch.offset + i;
        const unsigned char mask = static_cast<unsigned char>(1u << (bit % 8));
        if ((value >> i) & 1u) texel[bit / 8] |= mask;
        else texel[bit / 8] &= static_cast<unsigned char>(~mask);
    }
}

float decodeChannel(const Channel& ch, uint64_t code) {
    switch (ch.kind) {
        case Kind::Unorm: return float(double(code) / double((uint64_t(1) << ch.bits) - 1));
        case Kind::Snorm: {
            const double v = double(int8_t(uint8_t(code))) / 127.0;
            return float(v < -1.0 ? -1.0 : v);
        }
        case Kind::Srgb: return float(srgbToLinear(double(code) / 255.0));
        case Kind::Float: {
            if (ch.bits == 32) return floatFromBits(uint32_t(code));
            return halfToFloat(uint16_t(code));
        }
        case Kind::Ufloat: return smallFloatToFloat(uint32_t(code), ch.bits - 5u, false);
    }
    return 0.0f;
}

uint64_t encodeChannel(const Channel& ch, double v) {
    switch (ch.kind) {
        case Kind::Unorm: return encodeUnorm(v, ch.bits);
        case Kind::Snorm: return encodeSnorm8(v);
        case Kind::Srgb: return encodeSrgb(v);
        case Kind::Float: {
            if (ch.bits == 16) return doubleToHalf(v);
            uint32_t bits;
            const float f = float(v);  // Default FP environment: nearest, ties to even.
            std::memcpy(&bits, &f, sizeof bits);
            return bits;
        }
        case Kind::Ufloat: return doubleToSmallFloat(v, ch.bits - 5u, false);
    }
    return 0;
}

// Error of one channel (see compareLevel); sets *nanMismatch where exactly one side is NaN.
double channelError(const Channel& ch, uint64_t gpu, double ref, bool* nanMismatch) {
    const double inf = std::numeric_limits<double>::infinity();
    switch (ch.kind) {
        case Kind::Unorm:
        case Kind::Snorm:
        case Kind::Srgb: {
            // Fixed point cannot hold NaN; a NaN reference encodes to 0 like the GPU's conversion.
            const uint64_t r = encodeChannel(ch, ref);
            if (ch.kind == Kind::Snorm) return std::fabs(double(int8_t(uint8_t(gpu))) - double(int8_t(uint8_t(r))));
            return std::fabs(double(gpu) - double(r));
        }
        case Kind::Float:
            if (ch.bits == 32) {
                const double gv = double(floatFromBits(uint32_t(gpu)));
                const bool gNaN = std::isnan(gv), rNaN = std::isnan(ref);
                if (gNaN || rNaN) {
                    if (gNaN != rNaN) *nanMismatch = true;
                    return (gNaN && rNaN) ? 0.0 : inf;
                }
                if (gv == ref) return 0.0;  // Also equal infinities, whose difference is NaN.
                const double err = std::fabs(gv - ref) / std::max(std::fabs(ref), double(FLT_MIN));
                return std::isnan(err) ? inf : err;  // inf / inf: opposite infinities.
            }
            [[fallthrough]];  // half: measured in ulps like the unsigned small floats
        case Kind::Ufloat: {
            const unsigned mb = ch.kind == Kind::Float ? 10u : ch.bits - 5u;
            const bool hasSign = ch.kind == Kind::Float;
            const uint32_t r = uint32_t(encodeChannel(ch, ref));
            const bool gNaN = smallFloatIsNaN(uint32_t(gpu), mb), rNaN = smallFloatIsNaN(r, mb);
            if (gNaN || rNaN) {
                if (gNaN != rNaN) *nanMismatch = true;
                return (gNaN && rNaN) ? 0.0 : inf;
            }
            return std::fabs(double(smallFloatOrdinal(uint32_t(gpu), mb, hasSign) -
                                    smallFloatOrdinal(r, mb, hasSign)));
        }
    }
    return inf;
}

}  // namespace

bool getFormatInfo(VkFormat format, FormatInfo* info) {
    const FormatEntry* f = findFormat(format);
    if (!f) return false;
    if (info) *info = f->info;
    return true;
}

const std::vector<VkFormat>& supportedFormats() {
    static const std::vector<VkFormat> formats = [] {
        std::vector<VkFormat> v;
        for (const FormatEntry& f : kFormats) v.push_back(f.info.format);
        return v;
    }();
    return formats;
}

bool decodeTexels(VkFormat format, const void* src, size_t texelCount, float* dst) {
    const FormatEntry* f = findFormat(format);
    if (!f) return false;
    if (texelCount == 0) return true;
    if (!src || !dst) return false;
    const unsigned char* s = static_cast<const unsigned char*>(src);
    const uint32_t c = f->info.channels, bytes = f->info.bytesPerTexel;
    if (f->info.encoding == ChannelEncoding::Float32) {
        std::memcpy(dst, src, texelCount * c * sizeof(float));
        return true;
    }
    for (size_t t = 0; t < texelCount; ++t) {
        for (uint32_t k = 0; k < c; ++k)
            dst[t * c + k] = decodeChannel(f->channel[k], readChannel(s + t * bytes, f->channel[k]));
    }
    return true;
}

bool encodeTexels(VkFormat format, const double* src, size_t texelCount, void* dst) {
    const FormatEntry* f = findFormat(format);
    if (!f) return false;
    if (texelCount == 0) return true;
    if (!src || !dst) return false;
    unsigned char* d = static_cast<unsigned char*>(dst);
    const uint32_t c = f->info.channels, bytes = f->info.bytesPerTexel;
    for (size_t t = 0; t < texelCount; ++t) {
        unsigned char* texel = d + t * bytes;
        std::memset(texel, 0, bytes);
        for (uint32_t k = 0; k < c; ++k)
            writeChannel(texel, f->channel[k], encodeChannel(f->channel[k], src[t * c + k]));
    }
    return true;
}

double toleranceFor(VkFormat format, bool fp16Path) {
    const FormatEntry* f = findFormat(format);
    if (!f) return 0.0;
    switch (f->info.encoding) {
        case ChannelEncoding::Float16: return fp16Path ? 4.0 : 1.0;
        case ChannelEncoding::Float32: return std::ldexp(1.0, -20);
        default: return 1.0;
    }
}

// Error measures, per channel:
// - UNORM, SNORM, sRGB: |gpu code - reference encoded to the format| in codes (a correctly
//   rounded GPU gives 0; sRGB compares encoded codes, so the unit is one step of the stored byte).
// - Float16 and the unsigned floats of B10G11R11: distance in ulps between the GPU value and the
//   reference rounded to the format, on an ordinal line (so 65504 vs +Inf is 1 ulp of half).
// - Float32: |gpu - ref| / max(|ref|, FLT_MIN) in double; equal infinities are 0.
// NaN in both gives 0; NaN in exactly one sets nanMismatch and counts as an infinite error.
// A malformed call (unsupported format, a reference whose channel count or size does not match,
// null data) reports worst = infinity and every channel over tolerance, so it can never pass.
LevelError compareLevel(VkFormat format, const void* gpu, const ReferenceLevel& ref,
                        double tolerance) {
    LevelError result;
    const double inf = std::numeric_limits<double>::infinity();
    const FormatEntry* f = findFormat(format);
    const size_t texelCount = size_t(ref.width) * ref.height;
    const size_t n = texelCount * ref.channels;
    if (!f || f->info.channels != ref.channels || ref.texels.size() != n || (n > 0 && !gpu)) {
        result.worst = inf;
        result.overTolerance = n > 0 ? n : 1;
        return result;
    }
    const unsigned char* g = static_cast<const unsigned char*>(gpu);
    const uint32_t c = f->info.channels, bytes = f->info.bytesPerTexel;
    for (size_t i = 0; i < n; ++i) {
        const Channel& ch = f->channel[i % c];
        const uint64_t code = readChannel(g + (i / c) * bytes, ch);
        const double err = channelError(ch, code, ref.texels[i], &result.nanMismatch);
        if (err > tolerance) ++result.overTolerance;
        if (err > result.worst) {
            result.worst = err;
            result.worstTexel = i / c;
            result.worstChannel = uint32_t(i % c);
        }
    }
    return result;
}

}  // namespace vkspd
