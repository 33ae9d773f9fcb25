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
// Levels below the base one dispatch writes: two stages of 6 (a 4096x4096 base has 12).
#define VKSPD_MAX_LEVELS 12

// Descriptor bindings (set 0).
#define VKSPD_BINDING_SOURCE 0    // combined image sampler: the base level
#define VKSPD_BINDING_DEST 1      // storage image[VKSPD_MAX_LEVELS]: levels base+1 ...
#define VKSPD_BINDING_COUNTERS 2  // storage buffer of uint: election counters
#define VKSPD_BINDING_DATA 3      // storage buffer of vec4: mip-6 values and tile-edge partials

// Counters: [0] counts finished mip-6 texels (elects the last group); then per tile
// (row-major) three counters: right edge, bottom edge, bottom-right corner.
#define VKSPD_COUNTER_GLOBAL 0
#define VKSPD_COUNTERS_PER_TILE 3

// Per-tile record of partial sums (vec4 each) for odd sizes; see docs/DESIGN.md. Each strip
// holds, level after level, 32+16+8+4+2+1 = 63 texels; corners hold one texel per level.
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
#define VKSPD_FLAG_SECOND_STAGE 2u     // more than 6 levels: the last group computes the rest

struct PushConstants {
    uint extentX;      // extent of the base level
    uint extentY;
    uint levels;       // levels written below the base (1 .. VKSPD_MAX_LEVELS)
    uint tileLevels;   // levels written by the tile stage: min(levels, 6)
    uint tilesX;       // workgroups of the dispatch
    uint tilesY;
    uint depMaskX;     // bit k: a tile's last column of level k needs its right neighbour
    uint depMaskY;     // bit k: a tile's last row of level k needs its lower neighbour
    uint flags;        // VKSPD_FLAG_*
    uint mipTexels;    // texels of level 6 (the second stage's source); the election target
    uint recordBase;   // vec4 index of the first tile record in the data buffer
    uint reserved;
};

#ifdef __cplusplus
}  // namespace shader
}  // namespace vkspd
#endif

#endif
