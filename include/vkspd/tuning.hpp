/// @file
/// vkspd tuning: how the single pass is scheduled, for benchmarks and for measuring a device.
///
/// Nothing here changes a texel: every setting gives the same output within docs/FILTER.md's
/// tolerance. The defaults are measured rules (docs/PERFORMANCE.md has the figures) and may change
/// between versions; an application that sets nothing here gets them. Pass a Tuning through
/// MipGenInfo::tuning and a ContextTuning through ContextCreateInfo::tuning.
#pragma once

#include <vkspd/vkspd.hpp>

#include <cstdint>

namespace vkspd {

/// The largest Tuning::tilesPerGroup and tailTilesPerGroup: a strip of the plain-chain kernel
/// stays in one 32x32 quadrant of a 64x64 block of tiles, the unit of its later stages' elections.
inline constexpr uint32_t kMaxTilesPerGroup = 32;

/// Which single-pass shader records the dispatch. All give the same texels (within the
/// tolerances of docs/FILTER.md; Min, Max and MinMax bit for bit) and are one dispatch.
enum class Kernel {
    Auto,        ///< SummedLevels where its rules allow it, the plain prefix is 2 to 5 levels,
                 ///< its own strips are at most 4 64x64 tiles long and at most 384 workgroups
                 ///< over all layers (1000x600 to 3440x1440 and 3200x1800; not 3840x2160) and
                 ///< texels are at most 4 bytes; else
                 ///< PlainChain wherever its rules allow it; else HaloStages wherever its rules
                 ///< allow it (Fetch::Auto keeps its choice where they allow it, else loads) and
                 ///< its scratch fits one range; General everywhere else (never an error).
    PlainChain,  ///< shaders/vkspd_plain.comp, for chains where each axis of the base and of every
                 ///< level read is even or 1: a workgroup reduces a strip of tilesPerGroup 64x64
                 ///< tiles (docs/DESIGN.md). A Reduction::Custom runs on its FP32 variant, compiled
                 ///< with the reduction on first use (seconds), as is the LDS-only path's module
                 ///< (SubgroupPath). Needs groupColumns 0, and a SourceImage (copied into the base
                 ///< level from the texels it loads) only with Fetch::Load or Auto; elsewhere
                 ///< generateMips returns an error naming the rule (VK_ERROR_FEATURE_NOT_PRESENT).
    General,     ///< shaders/vkspd.comp: every size, one 64x64 tile per workgroup.
    HaloStages,  ///< shaders/vkspd_plain.comp built with VKSPD_HALO, for chains with a level that
                 ///< is not plain: where the first two or more levels are plain (screen sizes such
                 ///< as 1920x1080) the plain kernel's strips make that prefix, else (odd bases such
                 ///< as 4095x4095 and 1366x768) stage 0 reads 64x64 tiles of the base with a halo;
                 ///< then each later stage's tiles (32x32 or 64x64) are made whole, with a halo of
                 ///< at most 7 texels, by the group that completes their inputs (docs/DESIGN.md). A
                 ///< Reduction::Custom runs on its FP32 variant, compiled with the reduction on
                 ///< first use (seconds), as is the LDS-only path's module. Needs groupColumns 0,
                 ///< at most 5 stages, a SourceImage only with Fetch::Load or Auto, on an odd base
                 ///< no Fetch::LinearSampler and relative subgroup shuffles
                 ///< (VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT) or shaderc (without them its
                 ///< odd-base module is compiled at run time on first use, seconds), and
                 ///< Fetch::LinearSampler on the FP32 path only for 8-bit UNORM and SNORM formats
                 ///< (Fetch::Auto loads where the sampler is refused); elsewhere an error naming
                 ///< the rule (VK_ERROR_FEATURE_NOT_PRESENT). The stages' shared memory is 15.3 KB
                 ///< at FP32.
    SummedLevels,  ///< shaders/vkspd_plain.comp built with VKSPD_SUMS, for chains whose first two
                   ///< or more levels are plain: the plain kernel's strips make that prefix (at
                   ///< most 6 levels), and every later level is combined from it at once, each
                   ///< texel in the scratch counters by integer atomics (an average in fixed
                   ///< point, Min and Max by order-preserving keys) and stored by the last
                   ///< workgroup whose strip it reads (docs/DESIGN.md); the LDS-only path's
                   ///< module is compiled on first use (seconds). Needs a built-in reduction
                   ///< (Reduction::Average of formats whose values lie in [0, 1], UNORM and
                   ///< sRGB, without a SourceImage; Min, Max and MinMax of any),
                   ///< a SourceImage only with Fetch::Load or Auto, groupColumns 0 and a range
                   ///< with a level past the prefix; elsewhere an error naming the rule
                   ///< (VK_ERROR_FEATURE_NOT_PRESENT). tilesPerGroup is capped so that a strip's
                   ///< share of the later levels fits its shared memory. On a plain chain (every
                   ///< level a 2x2 reduction: 2048x2048, 4096x4096) the prefix is six levels and
                   ///< every later level is made in one pass, with the plain-chain kernel's
                   ///< strips and tail.
};

/// Scheduling overrides for one generateMips call (MipGenInfo::tuning). Zero members mean the
/// library's measured default.
struct Tuning {
    Kernel kernel = Kernel::Auto;  ///< Which shader runs.
    /// Plain-chain kernel: 64x64 tiles of the base one workgroup reduces, a strip along x. 0 = the
    /// default rule (the largest of 1, 2, 4 and 8 that leaves at least 256 workgroups, 512 where
    /// the FP16 path reads texels of at most 4 bytes through the linear sampler; at most 4 for
    /// texels of 8 bytes or more from 128x128 tiles over all layers); else a power of two up to
    /// kMaxTilesPerGroup (an error otherwise), capped at the base's tile columns. The halo-stage
    /// kernel takes the 256 rule (its default at most 4), capped at 2^P for a plain prefix of
    /// P levels (2^(P - 1) where its first later stage has 32x32 tiles), and no tail; the
    /// summed-levels kernel the same where asked, and by default the fewest tiles (a power of two)
    /// that leave at most 384 workgroups over all layers (strips of 2 at 1920x1080, 4 at
    /// 2560x1440), capped so that a strip's share of the later levels fits its shared memory, and
    /// no tail; on a plain chain the plain-chain kernel's rule and tail.
    uint32_t tilesPerGroup = 0;
    /// Plain-chain kernel, and the summed-levels kernel on a plain chain: the last `tailTiles`
    /// tiles of each layer's base, rounded up to whole tile rows, run in strips of
    /// `tailTilesPerGroup`, so the workgroups that start last end sooner. tailTilesPerGroup 0 =
    /// the default rule (from 128x128 tiles per layer on, the last 2048 tiles in strips of 2; no
    /// tail below); else a power of two up to kMaxTilesPerGroup (an error otherwise). tailTiles
    /// 0, or tailTilesPerGroup not below the resolved tilesPerGroup, means no tail. The tail
    /// loses rows where it would take the dispatch past 65535 rows of workgroups.
    uint32_t tailTiles = 0;
    uint32_t tailTilesPerGroup = 0;  ///< Tiles per workgroup of the tail (see tailTiles).
    /// General kernel: group-ID tiling (Bavoil, "Optimizing Compute Shaders for L2 Locality using
    /// Thread-Group ID Swizzling", NVIDIA 2020). 0 = off (the default): workgroup (x, y) runs tile
    /// (x, y). N > 0: consecutive workgroups walk vertical strips N tiles wide, row by row inside a
    /// strip. Any value is valid; N at or above the tile columns is the row-major order of 0.
    uint32_t groupColumns = 0;
};

/// Context-wide overrides (ContextCreateInfo::tuning).
struct ContextTuning {
    /// false (the default): the library adds DenormPreserve to its compute shaders where the device
    /// allows it (DispatchDescription::denormalsPreserved). true: the shaders run with the device's
    /// default denormal handling, which may flush denormals to zero; for measuring what preserving
    /// them costs.
    bool skipDenormPreserve = false;
    /// 0 (the default): the general kernel binds its scratch data as one range where it fits the
    /// device's maxStorageBufferRange, else as up to 4 consecutive ranges of at most that size.
    /// N > 0 (at least 65536): ranges of at most N bytes, so the split binding runs on small
    /// images; for testing and measuring it.
    uint64_t maxDataRangeBytes = 0;
};

/// How a single-pass call is scheduled; filled by describeSchedule.
struct ScheduleDescription {
    bool plainChain = false;         ///< The plain-chain kernel runs.
    bool haloStages = false;         ///< The halo-stage kernel runs (none of the three: the
                                     ///< general kernel).
    bool summedLevels = false;       ///< The summed-levels kernel runs: stage 0 is the plain
                                     ///< prefix and levelsPerStage[0] its levels; the later
                                     ///< levels are summed, no stage.
    bool oddBaseStage = false;       ///< The halo-stage kernel's stage 0 reads tiles of the base
                                     ///< with a halo (the base or its level 1 has an odd side),
                                     ///< not a plain prefix.
    uint32_t stages = 0;             ///< Stages of the dispatch: the general and plain-chain
                                     ///< kernels make levels 1-6, 7-12, 13-18 of the range (1 to
                                     ///< 3 stages); the halo-stage kernel 1 to 5 (levelsPerStage).
    uint32_t levelsPerStage[5] = {}; ///< Levels each stage makes, in order.
    uint32_t tilesPerGroup = 0;      ///< Tiles one workgroup reduces (1 for the general kernel).
    uint32_t tailRow = 0;            ///< The first 64-texel row of the base run in strips of
                                     ///< tailTilesPerGroup; the number of such rows when there is
                                     ///< no tail (always for the general kernel).
    uint32_t tailTilesPerGroup = 0;  ///< Tiles per workgroup from tailRow on.
    uint32_t groupColumns = 0;       ///< Group-ID tiling's strip width as used (at most the
                                     ///< workgroups across); 0 = off.
    bool exactOddEdges = false;      ///< Tiles exchange edge partial sums (some level is odd).
};

/// Checks `info` as generateMips does and describes how the single pass would be scheduled.
/// Records nothing. Errors: those of describeDispatch, and a path other than the single pass
/// (VK_ERROR_FEATURE_NOT_PRESENT); on error `*schedule` is left unchanged.
Result describeSchedule(Context context, const MipGenInfo& info, ScheduleDescription* schedule) noexcept;

}  // namespace vkspd
