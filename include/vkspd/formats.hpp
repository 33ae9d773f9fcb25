/// @file
/// vkspd formats and mip arithmetic: the formats the library supports, their decoding and
/// encoding to floats, and the size of each level.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vkspd {

/// How a stored channel is encoded.
enum class ChannelEncoding {
    Unorm8,         ///< 8-bit unsigned normalized.
    Snorm8,         ///< 8-bit signed normalized.
    Srgb8,          ///< sRGB-encoded colour channels, linear 8-bit alpha.
    Unorm16,        ///< 16-bit unsigned normalized.
    Float16,        ///< IEEE half float.
    Float32,        ///< IEEE single float.
    Ufloat11_10,    ///< B10G11R11_UFLOAT_PACK32: 11-bit R and G, 10-bit B unsigned floats.
    Unorm10_2,      ///< A2B10G10R10_UNORM_PACK32: 10-bit R, G, B, 2-bit A.
};

/// Facts about a format vkspd supports.
struct FormatInfo {
    VkFormat format = VK_FORMAT_UNDEFINED;  ///< The format described.
    const char* name = "";               ///< e.g. "R8G8B8A8_UNORM".
    uint32_t channels = 0;               ///< 1, 2, 3 or 4 (decoded values per texel, in R G B A order).
    uint32_t bytesPerTexel = 0;          ///< Bytes of one stored texel.
    ChannelEncoding encoding = ChannelEncoding::Unorm8;  ///< How each stored channel is encoded.
    bool fp16Capable = false;            ///< Half floats hold its precision (8-bit, 16-bit float,
                                         ///< B10G11R11).
    bool depth = false;                  ///< A depth format: read-only source (SourceImage).
    VkFormat storageFormat = VK_FORMAT_UNDEFINED;  ///< Format of the views the single pass writes
                                                   ///< through (the UNORM twin for sRGB).
};

/// Returns true for a format vkspd supports and fills `*info` (when `info` is not null); returns
/// false and leaves `*info` unchanged otherwise.
bool getFormatInfo(VkFormat format, FormatInfo* info);

/// Every format vkspd supports (docs/FILTER.md; depth formats included), in a fixed order. The
/// vector lives as long as the program. Whether this device can run it is queryCapability's answer.
const std::vector<VkFormat>& supportedFormats();

/// Decodes `texelCount` texels of `format` at `src` into floats, `channels` per texel, in R G B A
/// order (BGRA formats are swizzled; sRGB colour channels are decoded to linear). `src` holds
/// texelCount * FormatInfo::bytesPerTexel bytes, tightly packed; `dst` room for
/// texelCount * FormatInfo::channels floats. Returns false (writing nothing) for an unsupported
/// format.
bool decodeTexels(VkFormat format, const void* src, size_t texelCount, float* dst);

/// Encodes doubles (`channels` per texel, R G B A order, linear for sRGB) into `format`, rounding to
/// nearest (ties to even for floats, half away from zero for UNORM, SNORM and sRGB), clamping
/// UNORM and sRGB to [0, 1], SNORM to [-1, 1] and unsigned floats to [0, max]. `src` holds
/// texelCount * FormatInfo::channels values; `dst` room for texelCount * FormatInfo::bytesPerTexel
/// bytes. Returns false (writing nothing) for an unsupported or depth format.
bool encodeTexels(VkFormat format, const double* src, size_t texelCount, void* dst);

/// Extent of mip level `level` of a `base`-sized axis: max(1, base >> level).
inline uint32_t mipExtent(uint32_t base, uint32_t level) {
    uint32_t e = level >= 32 ? 0u : (base >> level);
    return e ? e : 1u;
}

/// Number of levels in a full chain of a width x height image: floor(log2(max)) + 1.
uint32_t fullMipCount(uint32_t width, uint32_t height);

}  // namespace vkspd
