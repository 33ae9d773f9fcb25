// The dispatch planner: everything about one generateMips call that is plain arithmetic — levels,
// stages, workgroups, which tile edges depend on their neighbours, scratch layout and push
// constants. No Vulkan calls here, so it is unit-tested without a GPU.
#pragma once

#include "vkspd_shared.h"  // the shaders' constants (shaders/ is on the include path)

#include <cstdint>
#include <string>

namespace vkspd {

// One stage: tiles of 64x64 texels of level 6s (relative to the base) reduced to level 6s+6.
struct StagePlan {
    uint32_t firstLevel = 0;          // first level it writes (6s+1)
    uint32_t levels = 0;              // levels it writes (1..6)
    uint32_t sourceWidth = 0, sourceHeight = 0;  // extent of level 6s
    uint32_t tilesX = 0, tilesY = 0;  // 64x64 tiles of its source
    uint32_t depMaskX = 0, depMaskY = 0;  // bit k: a tile's last column/row of its k-th level
                                          // needs the neighbour's partial sums
    uint32_t edgeCounters = 0;        // uint offset in a layer's counters
    uint32_t electCounters = 0;       // uint offset: one per next-stage tile (0 count if last)
    uint32_t records = 0;             // texel offset in a layer's data (records, when dependent)
    uint32_t kept = 0;                // texel offset of its last level, kept for the next stage
    uint32_t keptWidth = 0, keptHeight = 0;  // extent of that level (0 if last stage)
    // vkspd_plain.comp, stages s >= 1 of plain chains (Plan::plain): each tile's source splits in
    // four 32x32 quadrants; the last group to finish one reduces it (levels 6s+1 .. 6s+5) and,
    // where the tile has several, keeps its level-6s+5 texel for the tile's last quadrant, which
    // makes level 6s+6. The push constants carry these in edgeCounters and records, which a stage
    // without dependencies does not use. 0 otherwise.
    uint32_t quadrantCounters = 0;    // uint offset: four per tile (quadrant y * 2 + x)
    uint32_t quadrantKept = 0;        // texel offset: level 6s+5, kept, one texel per quadrant
};

// One stage of the halo-stage kernel (vkspd_plain.comp built with VKSPD_HALO; docs/DESIGN.md,
// "Halo stages"). Stage 0 is the plain prefix: levels 1..P of the base, 64x64 tiles of the base
// in strips; or, where the base or its level 1 has an odd axis (HaloPlan::oddBase), a stage like
// the later ones whose source is the base. A later stage reads tiles of `tile` x `tile` texels of
// the level the stage before kept, each with a halo of haloX x haloY texels past its right and
// bottom edges, and makes `levels` levels.
struct HaloStagePlan {
    uint32_t firstLevel = 0;          // first level it writes, relative to the base
    uint32_t levels = 0;              // levels it writes (1..6; at most log2(tile))
    uint32_t tile = VKSPD_TILE;       // side of its tiles: 64 (makePlan), or VKSPD_HALO_TILE for a
                                      // later stage whose source spans more than one 64-texel
                                      // tile on both axes (useHaloStages)
    uint32_t haloX = 0, haloY = 0;    // texels of its source past a tile's edge that it reads
    uint32_t tilesX = 0, tilesY = 0;  // tiles of its source (but a plain prefix: the last per axis
                                      // also owns a remainder of at most its halo)
    uint32_t counters = 0;            // uint offset: one footprint counter per tile (stages >= 1)
    uint32_t kept = 0;                // texel offset of its last level, for the next stage
};

// The halo-stage kernel's stages for a chain, where it can run it: some level is not plain and the
// stages fit VKSPD_HALO_MAX_STAGES. Stage 0 is a plain prefix where the first kMinHaloPrefix
// levels or more are plain (the plain kernel's strips, whose quads make levels 1 and 2), else a
// stage of tiles of the base with a halo (`oddBase`).
constexpr uint32_t kMinHaloPrefix = 2;
struct HaloPlan {
    uint32_t stageCount = 0;          // 0: the kernel does not take the chain (`refusal` says why)
    const char* refusal = "";
    bool oddBase = false;             // stage 0 reads 64x64 tiles of the base and their halo, one
                                      // workgroup per tile (the shader built with VKSPD_HALO=2)
    HaloStagePlan stages[VKSPD_HALO_MAX_STAGES];
    uint32_t countersPerLayer = 0;    // uints
    uint32_t dataPerLayer = 0;        // texels
};

// The summed-levels kernel's plan (vkspd_plain.comp built with VKSPD_SUMS=1; docs/DESIGN.md,
// "Summed levels"): the plain kernel's strips make levels 1..P of the base, P the plain prefix (at
// most 6), then every later level of the range is combined from level P in the counter buffer, one
// record per texel: a counter and one word per channel (shader::SumPushConstants).
struct SumPlan {
    uint32_t prefix = 0;              // P (2..6); 0: the kernel does not take the chain (`refusal`)
    const char* refusal = "";
    uint32_t texels = 0;              // records per layer: the texels of levels P+1 .. levels
    uint32_t levelRecord[VKSPD_SUM_MAX_LEVELS] = {};  // first record of level P + 1 + i
};

struct Plan {
    uint32_t width = 0, height = 0;   // extent of the base level
    uint32_t levels = 0;              // levels written below the base
    uint32_t layers = 1;              // layers, one per workgroup z
    uint32_t channels = 4;            // floats per data texel
    uint32_t stageCount = 0;          // ceil(levels / 6)
    StagePlan stages[VKSPD_MAX_STAGES];
    bool quadLevels12 = false;        // levels 1 and 2 are plain 2x2 averages
    // Every level written is a plain 2x2 reduction of the level above: each axis of every level
    // the dispatch reads (the base .. level `levels`-1) is even or 1. Such chains can run
    // shaders/vkspd_plain.comp (no tile depends on a neighbour, and every tile of a stage with a
    // next one makes exactly one texel of the kept level).
    bool plain = false;
    // Plain chains with a later stage: the last data texel of each layer, which nothing writes.
    // vkspd_plain.comp's first group runs the later stages' code once before its own tiles (a
    // warm-up, docs/PERFORMANCE.md); the loads it makes all read this texel,
    // so they race with no write. 0 (and no texel) otherwise.
    uint32_t warmTexel = 0;
    // vkspd_plain.comp: stage-0 tiles per workgroup (tilesPerGroupFor); 1 for vkspd.comp.
    uint32_t tilesPerGroup = 1;
    // vkspd_plain.comp: from tile row tailRow on (of every layer), strips of tailTilesPerGroup
    // tiles (a power of two, at most tilesPerGroup; setTail). tailRow == stages[0].tilesY: no tail.
    uint32_t tailRow = 0;
    uint32_t tailTilesPerGroup = 1;
    uint32_t countersPerLayer = 0;    // uints
    uint32_t dataPerLayer = 0;        // texels
    uint64_t counterBytes = 0;        // all layers
    uint64_t dataBytes = 0;           // all layers (at least 16: a binding needs a range)
    // The data binding as dataRanges consecutive ranges of 2^dataRangeShift texels each, the last
    // one shorter (planDataRanges; the shader's VKSPD_DATA_RANGES switch and VKSPD_SPEC_DATA_SHIFT).
    // One range and shift 0 wherever dataBytes fits one storage-buffer range.
    uint32_t dataRanges = 1;
    uint32_t dataRangeShift = 0;
    // The halo-stage kernel's layout (made with the plan; the fields above describe the general
    // and plain kernels' until useHaloStages switches them to it).
    HaloPlan halo;
    bool haloStages = false;          // useHaloStages was called: the halo-stage kernel runs
    SumPlan sums;                     // the summed-levels kernel's (made with the plan)
    bool summedLevels = false;        // useSummedLevels was called: the summed-levels kernel runs
    uint32_t generalCountersPerLayer = 0, generalDataPerLayer = 0, generalWarmTexel = 0;

    // The dispatch: stage 0's tiles in strips along x, one z per layer. Workgroup (x, y) runs
    // strip x (tilesPerGroup tiles) of tile row y before tailRow; from there each tile row takes
    // tilesPerGroup / tailTilesPerGroup rows of workgroups, in strips of tailTilesPerGroup tiles
    // (the shader's stripOf). Workgroups past a row's last tile have none.
    // The halo-stage kernel with HaloPlan::oddBase: one workgroup per tile of its stage 0.
    uint32_t groupsX() const {
        if (haloStages && halo.oddBase) return halo.stages[0].tilesX;
        return (stages[0].tilesX + tilesPerGroup - 1) / tilesPerGroup;
    }
    uint32_t groupsY() const {
        if (haloStages && halo.oddBase) return halo.stages[0].tilesY;
        return tailRow + (stages[0].tilesY - tailRow) * (tilesPerGroup / tailTilesPerGroup);
    }
};

// Plans `levelsBelowBase` levels of a width x height base over `layers` layers, keeping
// `channels` floats per data texel. Returns false with a message when it cannot be done in one
// dispatch (empty extent, more levels than the base has or than VKSPD_MAX_LEVELS).
bool makePlan(uint32_t width, uint32_t height, uint32_t levelsBelowBase, uint32_t layers,
              uint32_t channels, Plan* plan, std::string* error);

// Splits the plan's data into ranges of at most `maxRange` bytes (maxStorageBufferRange): one
// range where dataBytes fits, else the fewest ranges of 2^dataRangeShift texels, with the largest
// shift whose range of `channels` floats fits maxRange. dataRanges may then exceed
// VKSPD_MAX_DATA_RANGES or what the device can bind: the caller refuses those.
void planDataRanges(Plan* plan, uint64_t maxRange);
// Bytes of one range (all but the last are this long); dataBytes for one range.
uint64_t dataRangeBytes(const Plan& plan);

// Whether every level of `levelsBelowBase` below a width x height base is a plain 2x2 reduction of
// the level above (each axis of the base .. level levelsBelowBase-1 even or 1): Plan::plain.
bool isPlainChain(uint32_t width, uint32_t height, uint32_t levelsBelowBase);

// Tiles per workgroup for the plain-chain kernel of `plan` (Plan::plain) reading texels of
// `texelBytes` bytes: `requested` where it is not 0 (a power of two from 1 to
// VKSPD_MAX_TILES_PER_GROUP; a caller's bad value is refused before this), else the default rule:
// the largest of 1, 2, 4 and 8 that leaves at least `minGroups` workgroups over all layers
// (plainMinGroups), and at most 4 where texels have 8 bytes or more and the base has at least
// kWideTexelTiles tiles over all layers (8192^2 and up). Never more than the tile columns need.
// The measurements behind the rule are in docs/PERFORMANCE.md ("Tiles per group").
constexpr uint32_t kDefaultTilesPerGroup = 8;
constexpr uint32_t kMinPlainGroups = 256;
constexpr uint32_t kMinSampledGroups = 512;
constexpr uint32_t kWideTexelTilesPerGroup = 4;
constexpr uint64_t kWideTexelTiles = 128 * 128;
uint32_t tilesPerGroupFor(const Plan& plan, uint32_t requested, uint32_t texelBytes,
                          uint32_t minGroups = kMinPlainGroups);

// The fewest workgroups tilesPerGroupFor's rule leaves for the plain-chain kernel's strips:
// kMinSampledGroups where the FP16 path reads texels of at most 4 bytes through the linear
// sampler (twice the strips of half the length: RGBA8 and R8 2048x2048 and 4096x2048 ran 11-18%
// faster on an H200; RGBA16F and the FP32 loads of a Hi-Z pyramid were faster with the longer
// strips), else kMinPlainGroups.
uint32_t plainMinGroups(uint32_t texelBytes, bool fp16, bool linearFetch);

// Sets plan->tailRow and tailTilesPerGroup after plan->tilesPerGroup (Tuning::tailTiles).
// `tailPer` 0: the default rule, the last kTailTiles tiles in strips of kTailTilesPerGroup where
// a layer's base has at least kTailMinTiles tiles, and no tail elsewhere. Else the last
// `tailTiles` tiles of each layer, rounded up to whole tile rows, in strips of `tailPer` (a power
// of two; a caller's bad value is refused before this); 0 tiles, or `tailPer` not below
// tilesPerGroup, mean no tail. The tail never takes groupsY() past 65535 (the least
// maxComputeWorkGroupCount[1] Vulkan allows): it loses rows first. The measurements behind the
// rule are in docs/PERFORMANCE.md ("Tail strips"); at 4096^2 (one wave of strips) every tail
// tried slowed the first use, so none there.
constexpr uint32_t kTailTiles = 2048;
constexpr uint32_t kTailTilesPerGroup = 2;
constexpr uint64_t kTailMinTiles = 128 * 128;
void setTail(Plan* plan, uint32_t tailTiles, uint32_t tailPer);

// The general kernel's VKSPD_SPEC_ONE_SITE for `plan`: true where levels 1 and 2 are plain 2x2
// averages (Plan::quadLevels12), so stage 0 and the later stages share one copy of runStage and an
// elected group runs code its SM has just run: 7-15% faster at 1920x1080 and 3840x2160 as the
// first use, but 7-12% slower with an odd level 1 (4095^2), so false there (docs/PERFORMANCE.md).
bool oneSiteFor(const Plan& plan);

// Switches `plan` back to the general and plain kernels' layout (after useHaloStages).
void useGeneralLayout(Plan* plan);

// Switches `plan` to the halo-stage kernel (plan->halo.stageCount > 0): its counters and data,
// and `requested` tiles per group (0: the plain kernel's rule, at most kHaloTilesPerGroup) capped
// so that a strip of stage-0 tiles stays inside one tile of stage 1 (2^P tiles for a 64-texel
// tile, 2^(P - 1) for a 32-texel one), with no tail; one tile per group where stage 0 reads the
// base in tiles with a halo (HaloPlan::oddBase).
// (H200, repeat use, 3840x2160: 46.0 us with 4 tiles per group against 54.4 with 8.)
// The later stages whose source spans more than one 64-texel tile on both axes take
// VKSPD_HALO_TILE-texel tiles where that adds no stage (plan->halo is replaced), the others
// 64-texel tiles (docs/PERFORMANCE.md, "Halo stages").
constexpr uint32_t kHaloTilesPerGroup = 4;
void useHaloStages(Plan* plan, uint32_t requested, uint32_t texelBytes);

// The halo-stage kernel's push constants for `plan` (useHaloStages).
shader::HaloPushConstants haloPushConstantsFor(const Plan& plan);

// The most shares of later levels a strip of `tilesPerGroup` stage-0 tiles of `plan` (sums.prefix
// > 0) makes in the summed-levels kernel: per axis, the texels of level P + m that a block of n
// level-P texels touches are at most (n_{m-1} + 1) / 2 + 1 (and the level's extent), whatever
// the block's place.
uint32_t sumSharesBound(const Plan& plan, uint32_t tilesPerGroup);
// The shares the summed-levels kernel's shared memory holds (VKSPD_SUM_SHARES_FP16 or _FP32).
uint32_t sumSharesCapacity(bool fp16);

// The summed-levels kernel's own rule for its strips (Tuning::tilesPerGroup 0): the fewest tiles per
// group, a power of two, that leave at most kSumMaxGroups workgroups over all layers. Every group
// adds into the texels of the later levels by atomics on one address per texel and channel, which
// the device serializes: below that many groups the prefix's parallelism is worth more, above it
// the top texels' atomics (every group adds into the last level) are. Measured on an H200 (132
// SMs; docs/PERFORMANCE.md, "Summed levels"): the fastest strips at 1000x600, 1920x1080,
// 2560x1440, 2048x2048 and 3840x2160 left 160, 255, 230, 256 and 272 groups; the next narrower
// strips, 460 to 512 groups, were 8-10 us slower.
constexpr uint32_t kSumMaxGroups = 384;
uint32_t summedTilesPerGroup(const Plan& plan);

// Whether Kernel::Auto may take the summed-levels kernel by its strips: its own rule
// (summedTilesPerGroup) leaves at most kSumMaxGroups groups in strips of at most
// kAutoSumTilesPerGroup tiles. Longer strips serialize the prefix in too few groups. Measured on
// an H200 at first use against the halo-stage kernel (docs/PERFORMANCE.md, "Summed levels"): in
// strips of 4 (2736x1824 to 3440x1440, 1242 to 1504 tiles) faster for every format timed (RGBA8
// 3440x1440 34.3 -> 27.1 us, 3000x2000 44.6 -> 29.3; R8, Hi-Z, RGBA8 Min); in strips of 8
// (3840x2160, 4096x2160, 5120x1440, 5120x2160) faster for some formats and slower for others
// (Hi-Z 3840x2160 55.1 -> 57.2, 4096x2160 56.6 -> 58.7).
constexpr uint32_t kAutoSumTilesPerGroup = 4;
bool summedStripsSuitAuto(const Plan& plan);

// Switches `plan` (sums.prefix > 0) to the summed-levels kernel: its counters (records), no data,
// and strips of `requested` tiles (0: summedTilesPerGroup), no tail, fewer where the strip's
// level-P block (VKSPD_SUM_BLOCK texels) or its shares (sumSharesCapacity) would not fit. A plain
// chain (Plan::plain: P = 6, every later level made in one pass, VKSPD_FLAG_PLAIN_SUMS) takes the
// plain kernel's strips instead (tilesPerGroupFor, with `minGroups`) and its tail (setTail with
// `tailTiles` and `tailPer`): the same schedule as the kernel it would replace.
// Returns false, with the plan unchanged, where even one tile per group does not fit.
bool useSummedLevels(Plan* plan, uint32_t requested, uint32_t texelBytes, bool fp16, uint32_t tailTiles = 0,
                     uint32_t tailPer = 0, uint32_t minGroups = kMinPlainGroups);

// The summed-levels kernel's push constants for `plan` (useSummedLevels).
shader::SumPushConstants sumPushConstantsFor(const Plan& plan);

// The push constants the shader reads for `plan`.
shader::PushConstants pushConstantsFor(const Plan& plan);

// h(k) for one axis (docs/DESIGN.md): extra level-0 texels a tile would need to make its
// level-`levels` texels alone: why the general kernel exchanges edges instead and the halo-stage
// kernel bounds its stages' depth (HaloPlan). Used by tests.
uint32_t haloTexels(uint32_t extent, uint32_t levels);

}  // namespace vkspd
