/// @file
/// vkspd CPU reference: the mip chain of docs/FILTER.md computed in double precision, and the
/// error measures that compare a GPU chain with it (the tests and the sample's --verify use them).
#pragma once

#include <vkspd/formats.hpp>
#include <vkspd/vkspd.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vkspd {

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

/// The chain of docs/FILTER.md: level 0 (a copy of `level0`) through level levelCount-1, each
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

/// The tolerance of docs/FILTER.md for `format`: 1 ulp for UNORM, SNORM, sRGB and the packed
/// formats; for Float16 1 ulp (FP32 path) or 4 ulp (FP16 path); 2^-20 relative for Float32.
/// Min, Max and MinMax are bit-exact: pass 0.
double toleranceFor(VkFormat format, bool fp16Path);

/// Compares `gpu` (the stored bytes of one level, tightly packed, width * height texels of
/// `format`) with `ref`, counting channels over `tolerance` (toleranceFor gives docs/FILTER.md's).
/// `gpu` holds ref.width * ref.height texels of `format`; `ref` must have that format's channel
/// count (2 for MinMax chains). An unsupported format, a mismatched channel count or a null `gpu`
/// returns a LevelError with `worst` infinite and every channel counted over tolerance.
LevelError compareLevel(VkFormat format, const void* gpu, const ReferenceLevel& ref,
                        double tolerance);

}  // namespace vkspd
