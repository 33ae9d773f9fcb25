// vkspd CPU reference: the normative mip chain of SPEC section 3, computed in double precision,
// plus the format conversions and error measures the tests and the sample use to compare a GPU
// chain with it.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vkspd {

// How a stored channel is encoded.
enum class ChannelEncoding { Unorm8, Float16, Float32 };

// Facts about a format vkspd supports.
struct FormatInfo {
    VkFormat format = VK_FORMAT_UNDEFINED;
    const char* name = "";               // e.g. "R8G8B8A8_UNORM".
    uint32_t channels = 0;               // 1, 2 or 4.
    uint32_t bytesPerTexel = 0;
    ChannelEncoding encoding = ChannelEncoding::Unorm8;
    bool fp16Capable = false;            // Half floats hold its precision (8-bit UNORM, 16-bit float).
};

// Fills *info for a supported format and returns true; returns false otherwise.
bool getFormatInfo(VkFormat format, FormatInfo* info);

// Every format vkspd supports, in a fixed order.
const std::vector<VkFormat>& supportedFormats();

// Decodes `texelCount` texels of `format` at `src` into floats, `channels` per texel.
// Returns false for an unsupported format.
bool decodeTexels(VkFormat format, const void* src, size_t texelCount, float* dst);

// Encodes doubles (`channels` per texel) into `format`, rounding to nearest (ties to even for
// floats, half up for UNORM), clamping UNORM to [0, 1]. Returns false for an unsupported format.
bool encodeTexels(VkFormat format, const double* src, size_t texelCount, void* dst);

// Extent of mip level `level` of a `base`-sized axis: max(1, base >> level).
inline uint32_t mipExtent(uint32_t base, uint32_t level) {
    uint32_t e = level >= 32 ? 0u : (base >> level);
    return e ? e : 1u;
}

// Number of levels in a full chain of a width x height image: floor(log2(max)) + 1.
uint32_t fullMipCount(uint32_t width, uint32_t height);

// One level of the reference chain: width * height * channels doubles, row-major.
struct ReferenceLevel {
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t channels = 0;
    std::vector<double> texels;
};

// The average-reduction chain of SPEC section 3: level 0 (a copy of `level0`) through level
// levelCount-1, each level the exact area-weighted box filter of the one above, in double
// precision with no intermediate rounding. `level0` holds width * height * channels floats.
// `threads` = 0 uses std::thread::hardware_concurrency().
std::vector<ReferenceLevel> referenceChain(const float* level0, uint32_t width, uint32_t height,
                                           uint32_t channels, uint32_t levelCount,
                                           unsigned threads = 0);

// Worst error of one GPU level against the reference level.
struct LevelError {
    double worst = 0.0;         // UNORM: units in the last place; Float16: ulps of half;
                                // Float32: relative error |gpu - ref| / max(|ref|, FLT_MIN).
    size_t worstTexel = 0;      // Texel index of the worst channel.
    uint32_t worstChannel = 0;
    size_t overTolerance = 0;   // Channels whose error exceeds `tolerance`.
    bool nanMismatch = false;   // A NaN where the reference has none, or the reverse.
};

// The SPEC section 3 tolerance for `format`: 1 ulp for UNORM; for Float16 1 ulp (FP32 path) or
// 4 ulp (FP16 path); 2^-20 relative for Float32.
double toleranceFor(VkFormat format, bool fp16Path);

// Compares `gpu` (the stored bytes of one level, tightly packed, width * height texels of
// `format`) with `ref`, counting channels over `tolerance`.
LevelError compareLevel(VkFormat format, const void* gpu, const ReferenceLevel& ref,
                        double tolerance);

}  // namespace vkspd
