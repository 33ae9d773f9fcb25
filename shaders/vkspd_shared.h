// Constants and the push-constant layout shared by the C++ planner and the GLSL shader, so the
// two sides cannot drift. Plain #defines and 32-bit scalars only: valid C++ and GLSL.
#ifndef VKSPD_SHARED_H
#define VKSPD_SHARED_H

#ifdef __cplusplus
#include <cstdint>
namespace vkspd {
namespace shader {
typedef uint32_t uint;
#endif

// One workgroup of 256 threads reduces one 64x64 tile of its stage's source to 1x1 (6 levels).
#define VKSPD_GROUP_SIZE 256
#define VKSPD_TILE 64
#define VKSPD_TILE_LEVELS 6
// Stages of one dispatch: stage s writes levels 6s+1 .. 6s+6 below the base. Stage 0 runs in
// every group; the last group to finish a 64x64 block of stage-s tiles runs stage s+1 on it.
// Three stages cover 18 levels below the base: bases of up to 2^19 - 1 texels per side.
#define VKSPD_MAX_STAGES 3
#define VKSPD_MAX_LEVELS 18

// vkspd_plain.comp: the most stage-0 tiles one workgroup reduces (a strip of a 32x32 quadrant of a
// 64x64 block: the later stages run per quadrant).
#define VKSPD_MAX_TILES_PER_GROUP 32

// Descriptor bindings (set 0).
#define VKSPD_BINDING_SOURCE 0    // combined image sampler (2D array view): the base level
#define VKSPD_BINDING_DEST 1      // storage image[VKSPD_MAX_LEVELS + 1] (2D array views): element
                                  // k is level base+k (element 0 only written with COPY_BASE)
#define VKSPD_BINDING_COUNTERS 2  // storage buffer of uint: election and edge counters
#define VKSPD_BINDING_DATA 3      // storage buffer of float: kept level values and edge partials
#define VKSPD_BINDING_DEBUG_MAP 4  // debug variants only: storage buffer of uint (debug.hpp)
#define VKSPD_BINDING_DATA_RANGE1 5  // data ranges 1 .. VKSPD_MAX_DATA_RANGES - 1, one binding each
                                     // (variants built with VKSPD_DATA_RANGES only)
#define VKSPD_BINDING_SOURCE_TEXELS 8  // combined image sampler (2D view of the base level's first
                                       // layer, unnormalized coordinates): the linear-sampler
                                       // fetch of a one-layer dispatch

// Debug map: a finish counter and three reserved words, then per tile {order, SM id, warp id,
// flags} (vkspd::DebugMapTile).
#define VKSPD_DEBUG_HEADER_WORDS 4u
#define VKSPD_DEBUG_TILE_WORDS 4u

// Edge counters: per stage tile (row-major), three: right edge, bottom edge, bottom-right corner.
#define VKSPD_COUNTERS_PER_TILE 3

// Per-tile record of partial sums, in texels of `channels` floats each (docs/DESIGN.md). Each
// strip holds, level after level, 32+16+8+4+2+1 = 63 texels; corners one texel per level.
#define VKSPD_STRIP 63
#define VKSPD_REC_RIGHT 0        // the tile's own last column (its partial)
#define VKSPD_REC_LEFT 63        // its contribution to the left neighbour's last column
#define VKSPD_REC_BOTTOM 126     // its own last row
#define VKSPD_REC_TOP 189        // its contribution to the upper neighbour's last row
#define VKSPD_REC_CORNER 252     // own bottom-right corner
#define VKSPD_REC_CORNER_L 258   // contribution to the left neighbour's corner
#define VKSPD_REC_CORNER_T 264   // contribution to the upper neighbour's corner
#define VKSPD_REC_CORNER_TL 270  // contribution to the upper-left neighbour's corner
#define VKSPD_RECORD_SIZE 276

// Push-constant flags.
#define VKSPD_FLAG_QUAD_LEVELS_1_2 1u  // levels 1 and 2 are plain 2x2 averages: quad path allowed
#define VKSPD_FLAG_SRGB 2u             // encode R, G, B to sRGB before each store (UNORM views)
#define VKSPD_FLAG_COPY_BASE 4u        // also write the source into the base level (depth sources)
#define VKSPD_FLAG_EXPAND_MINMAX 8u    // the source has one channel: MinMax starts from (v, v)
#define VKSPD_FLAG_LINEAR_FETCH 16u    // Average, quad path: level 1 of even tiles as one bilinear
                                       // sample (the source is bound with a LINEAR sampler)
#define VKSPD_FLAG_PLAIN_SUMS 32u      // the summed-levels kernel on a plain chain (P = 6): every
                                       // later level a plain 2x2 reduction, made in one pass

// Specialization constants (constant_id). vkspd_plain.comp takes the sRGB encoding as one
// (VKSPD_FLAG_SRGB is set as well): its pipelines are made per encoding.
#define VKSPD_SPEC_SRGB 0
// vkspd.comp (built-in reductions): true runs stage 0 and the later stages through one call site
// of runStage, so an elected group runs the code its SM has just run (VKSPD_FLAG_QUAD_LEVELS_1_2
// chains); false keeps stage 0 a copy of its own, specialized for stage 0 (odd level 1).
#define VKSPD_SPEC_ONE_SITE 1
// vkspd_plain.comp: true where the dispatch reads a MipGenInfo::source, which stage 0 also copies
// into the base level (VKSPD_FLAG_COPY_BASE is set as well); its pipelines are made per value, so
// the kernel without a source carries no copy.
#define VKSPD_SPEC_COPY_BASE 2
// vkspd_plain.comp built with VKSPD_HALO: true where every value the dispatch reads is finite and
// within [-1, 1] (normalized formats without a source), so the halo passes track no Inf or NaN
// and clamp nothing (the FP16 variant's passes track none in any case: their taps are halves);
// its pipelines are made per value.
#define VKSPD_SPEC_FINITE 4
// vkspd.comp built with VKSPD_DATA_RANGES = N > 1 (at run time, only for scratch data larger than
// one storage-buffer range, maxStorageBufferRange): the data is N consecutive ranges of
// 2^DATA_SHIFT texels each (the last one shorter), range 0 at VKSPD_BINDING_DATA and range k >= 1
// at VKSPD_BINDING_DATA_RANGE1 + k - 1. The embedded variants bind the data as one range.
#define VKSPD_SPEC_DATA_SHIFT 3
// vkspd_plain.comp built with VKSPD_HALO: pc.channels (1 to 4), so the kernel computes only the
// channels the texels have (vkspd_common.glsl, LIVE_CHANNELS); its pipelines are made per value.
#define VKSPD_SPEC_CHANNELS 5
// vkspd_plain.comp (both kernels): true where level 1 is fetched through the linear sampler
// (VKSPD_FLAG_LINEAR_FETCH is set as well): the pipeline carries no load path. False where through
// texel loads: the pipeline keeps both paths behind the flag, as without the constant, because
// without the sampler's path the FP16 plain kernel took 64 registers instead of 48 and its loads
// ran 7-9% slower (docs/PERFORMANCE.md). Its pipelines are made per value.
#define VKSPD_SPEC_LINEAR 6
// vkspd_plain.comp (the plain-chain kernel, and the halo-stage and summed-levels kernels' plain
// prefix): true where level 1 of a one-channel format is read by textureGather (Fetch::Gather),
// four texels in one texture instruction from the texel-coordinate binding (one layer, the image
// itself, no MipGenInfo::source): the pipeline carries no load path. Its pipelines are made per
// value.
#define VKSPD_SPEC_GATHER 7
#define VKSPD_MAX_DATA_RANGES 4

// Reductions (the shader's VKSPD_REDUCTION build-time switch).
#define VKSPD_REDUCTION_AVERAGE 0
#define VKSPD_REDUCTION_MIN 1
#define VKSPD_REDUCTION_MAX 2
#define VKSPD_REDUCTION_MINMAX 3
#define VKSPD_REDUCTION_CUSTOM 4
#define VKSPD_REDUCTION_COUNT 5

// Where one stage keeps its state, per layer. Counter offsets are in uints, data offsets in
// texels (of `channels` floats) from the start of the layer's region.
struct StagePush {
    uint tilesX;          // tiles (groups) of this stage per axis
    uint tilesY;
    uint depMask;         // bits 0-7: level k (bit k) of a tile's last column needs its right
                          // neighbour; bits 16-23: the same for the last row and lower neighbour
    uint edgeCounters;    // VKSPD_COUNTERS_PER_TILE per tile
    uint electCounters;   // one per tile of the next stage: level-6 texels of this stage made final
    uint records;         // VKSPD_RECORD_SIZE texels per tile (when depMask != 0)
    uint kept;            // this stage's last level (6s+6), full precision, for the next stage
};

struct PushConstants {
    uint extentX;            // extent of the base level
    uint extentY;
    uint levels;             // levels written below the base (1 .. VKSPD_MAX_LEVELS)
    uint stages;             // stages of the dispatch: ceil(levels / 6)
    uint flags;              // VKSPD_FLAG_*
    uint channels;           // floats per texel in the data buffer (1 to 4)
    uint countersPerLayer;   // uints of counters per layer (the dispatch's z)
    uint dataPerLayer;       // texels of data per layer
    uint groupColumns;       // group-ID tiling: 0 = tile (x, y) is group (x, y); N > 0 = groups
                             // walk strips N tiles wide, row by row inside a strip
    StagePush stage[VKSPD_MAX_STAGES];
    uint tilesPerGroup;      // vkspd_plain.comp: stage-0 tiles per workgroup, a strip along x (a
                             // power of two up to VKSPD_MAX_TILES_PER_GROUP, so a strip never
                             // crosses a 64x64 block of tiles)
    uint tail;               // vkspd_plain.comp: bits 0-7 the tiles per workgroup (a power of two
                             // up to tilesPerGroup) of tile rows tail >> 8 and after; the
                             // workgroups are numbered row-major over (x, y) of the dispatch
};

// vkspd_plain.comp built with VKSPD_HALO=1, the halo-stage kernel (docs/DESIGN.md, "Halo
// stages"): stage 0 is a plain prefix (levels 1..P of the base, every one a 2x2 reduction), or,
// built with VKSPD_HALO=2, 64x64 tiles of the base with a halo; each later stage s reads tiles of
// the level the stage before kept (VKSPD_HALO_TILE or 64 texels a side), plus a right and bottom
// halo of at most VKSPD_HALO_MAX texels per axis, and makes its levels alone in shared memory.
#define VKSPD_HALO_MAX_STAGES 5
#define VKSPD_HALO_MAX 7
// The side of a later stage's tiles where its source spans more than one 64-texel tile on both
// axes (a last stage whose source is one 64x64 tile keeps 64): a quarter of the texels of a 64x64
// tile, so four times the groups share the stage (a power of two, 64 >> 0..3: bits 11-12 of
// HaloStagePush::shape).
#define VKSPD_HALO_TILE 32
// Its pool of shared texels (sPool): a stage's level 1 (at most 35x35) in the first part, whole
// where it fits, else in two halves of at most 19 rows, then its level 2 (at most 17x17). FP16: a
// first part of 35x35 texels (level 1 always whole), 12.1 KB in all; FP32: 35x19, 15.3 KB
// (Vulkan guarantees 16 KB of shared memory).
#define VKSPD_HALO_FIRST_FP16 (35 * 35)
#define VKSPD_HALO_FIRST_FP32 (35 * 19)
#define VKSPD_HALO_SECOND (17 * 17)

// One stage of the halo-stage kernel. `shape`: bits 0-4 the first level it writes (relative to
// the base), bit 5 (6) set where its last tile along x (y) also owns the remainder of its source
// past the other tiles (at most its halo: one tile fewer than the source's tiles on that axis),
// bits 8-10 how many levels it writes (1..6), bits 11-12 k where its tiles are 64 >> k texels a
// side, bits 16-19 and 24-27 the halo of its source along x and y, in texels of the source (0 for
// a plain prefix and for an axis of at most one tile). Tile counts are not carried: they follow
// from the source level's extent, the side and bits 5-6.
struct HaloStagePush {
    uint shape;
    uint counters;  // uint offset: one footprint counter per tile (row-major; stages s >= 1)
    uint kept;      // texel offset: the stage's last level, for the next stage (if any)
};

// The halo-stage kernel's push constants: the fields it shares with PushConstants by name, then
// its stages (the plain prefix's strip fields as there).
struct HaloPushConstants {
    uint extentX;
    uint extentY;
    uint levels;
    uint stages;             // 2 .. VKSPD_HALO_MAX_STAGES (1 .. with VKSPD_HALO=2)
    uint flags;
    uint channels;
    uint countersPerLayer;
    uint dataPerLayer;
    uint tilesPerGroup;      // stage-0 tiles per workgroup (PushConstants::tilesPerGroup)
    uint tail;               // PushConstants::tail
    HaloStagePush stage[VKSPD_HALO_MAX_STAGES];
};

// vkspd_plain.comp built with VKSPD_SUMS=1, the summed-levels kernel (docs/DESIGN.md, "Summed
// levels"): the plain prefix makes levels 1..P of the base in strips, then every later level is a
// reduction of level-P texels. Each workgroup makes its strip's share of every later texel; a
// texel whose footprint lies in one strip is stored by it, the others are combined in the counter
// buffer by integer atomics (an average in fixed point, units of 2^-VKSPD_SUM_UNIT_BITS; Min and
// Max as order-preserving keys), where the last share to arrive stores the texel. Shared memory: the strip's level-P texels (at most VKSPD_SUM_BLOCK) and its shares of
// the later levels as floats (at most VKSPD_SUM_SHARES_FP16 or _FP32: the FP32 kernel's prefix
// takes twice the shared memory, and Vulkan guarantees 16 KB).
#define VKSPD_SUM_BLOCK 256
#define VKSPD_SUM_SHARES_FP16 384
#define VKSPD_SUM_SHARES_FP32 192
#define VKSPD_SUM_UNIT_BITS 31
// The most levels past the prefix: the prefix makes at least two.
#define VKSPD_SUM_MAX_LEVELS (VKSPD_MAX_LEVELS - 2)

// The summed-levels kernel's push constants: the fields it shares with PushConstants by name,
// then its own. A layer's counters are, per texel of levels prefixLevels + 1 .. levels (records
// levelRecord[l - prefixLevels - 1] on, row-major per level), sumTexels counters, then
// sumTexels words of channel 0, of channel 1, ...: a texel's words lie in different cache lines.
struct SumPushConstants {
    uint extentX;
    uint extentY;
    uint levels;
    uint stages;             // 1 (the prefix; the summed levels are no stage)
    uint flags;
    uint channels;
    uint countersPerLayer;
    uint dataPerLayer;       // 0: the kernel keeps nothing in the data buffer
    uint tilesPerGroup;      // stage-0 tiles per workgroup (PushConstants::tilesPerGroup)
    uint tail;               // PushConstants::tail
    uint prefixLevels;       // P (2 .. 6)
    uint sumTexels;          // records per layer
    uint levelRecord[VKSPD_SUM_MAX_LEVELS];
};

#ifdef __cplusplus
}  // namespace shader
}  // namespace vkspd
#endif

#endif
