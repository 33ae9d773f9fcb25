/// @file
/// vkspd CPU reference: the normative mip chain of SPEC section 3, computed in double precision,
/// plus the format conversions and error measures the tests and the sample use to compare a GPU
/// chain with it.
#pragma once

#include <vkspd/vkspd.hpp>
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

/// Every format vkspd supports (SPEC section 3, depth formats included), in a fixed order. The
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

/// One level of the reference chain: width * height * channels doubles, row-major.
struct ReferenceLevel {
    uint32_t width = 0;          ///< Texels across.
    uint32_t height = 0;         ///< Texels down.
    uint32_t channels = 0;       ///< Values per texel.
    std::vector<double> texels;  ///< width * height * channels values, linear (decoded) space.
};

/// A reduction for the CPU reference, the double-precision twin of a GLSL custom reduction
/// (vkspd::createCustomReduction): same three operations on four channels.
struct CpuReduction {
    /// Sets `acc` to the empty reduction (the twin of vkspdIdentity).
    void (*identity)(double acc[4]) = nullptr;
    /// Adds `value` with `weight` into `acc` (the twin of vkspdAccumulate).
    void (*accumulate)(double acc[4], const double value[4], double weight) = nullptr;
};

/// Options of referenceChain beyond the average.
struct ReferenceOptions {
    Reduction reduction = Reduction::Average;  ///< The reduction, as in MipGenInfo.
    const CpuReduction* custom = nullptr;  ///< Required with Reduction::Custom.
    /// When set, every level is rounded to this format before the next one is made from it: what a
    /// chain that reads back each stored level computes (the RenderPass and BlitChain paths).
    VkFormat roundEachLevelTo = VK_FORMAT_UNDEFINED;
    unsigned threads = 0;  ///< 0 = std::thread::hardware_concurrency().
};

/// The chain of SPEC section 3: level 0 (a copy of `level0`) through level levelCount-1, each
/// level made from the one above with the exact area weights (Average), or the minimum / maximum
/// over the source texels with a non-zero weight, in double precision with no intermediate
/// rounding. `level0` holds width * height * channels floats. With Reduction::MinMax `channels`
/// is 1 (every returned level has 2 channels, level 0 holding the value twice) or 2 (R already the
/// minimum, G the maximum). Custom reductions see up to 4 channels, the unused ones zero.
/// Returns an empty vector for invalid arguments or when memory runs out.
std::vector<ReferenceLevel> referenceChain(const float* level0, uint32_t width, uint32_t height,
                                           uint32_t channels, uint32_t levelCount,
                                           const ReferenceOptions& options);

/// The Average chain (the overload above with default options and `threads`).
std::vector<ReferenceLevel> referenceChain(const float* level0, uint32_t width, uint32_t height,
                                           uint32_t channels, uint32_t levelCount,
                                           unsigned threads = 0);

/// Worst error of one GPU level against the reference level.
struct LevelError {
    double worst = 0.0;         ///< UNORM, SNORM, sRGB (in encoded units): units in the last
                                ///< place; Float16, B10G11R11: ulps of that float at the reference;
                                ///< Float32: relative error |gpu - ref| / max(|ref|, FLT_MIN).
    size_t worstTexel = 0;      ///< Texel index of the worst channel.
    uint32_t worstChannel = 0;  ///< Channel of the worst error in that texel.
    size_t overTolerance = 0;   ///< Channels whose error exceeds `tolerance`.
    bool nanMismatch = false;   ///< A NaN where the reference has none, or the reverse.
};

/// The SPEC section 3 tolerance for `format`: 1 ulp for UNORM, SNORM, sRGB and the packed
/// formats; for Float16 1 ulp (FP32 path) or 4 ulp (FP16 path); 2^-20 relative for Float32.
/// Min, Max and MinMax are bit-exact: pass 0.
double toleranceFor(VkFormat format, bool fp16Path);

/// Compares `gpu` (the stored bytes of one level, tightly packed, width * height texels of
/// `format`) with `ref`, counting channels over `tolerance` (toleranceFor gives SPEC section 3's).
/// `gpu` holds ref.width * ref.height texels of `format`; `ref` must have that format's channel
/// count (2 for MinMax chains). An unsupported format, a mismatched channel count or a null `gpu`
/// returns a LevelError with `worst` infinite and every channel counted over tolerance.
LevelError compareLevel(VkFormat format, const void* gpu, const ReferenceLevel& ref,
                        double tolerance);

}  ///< namespace vkspd
