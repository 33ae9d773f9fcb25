// The dispatch planner: everything about one generateMips call that is plain arithmetic — levels,
// workgroups, which tile edges depend on their neighbours, scratch layout and push constants.
// No Vulkan calls here, so it is unit-tested without a GPU.
#pragma once

#include "../shaders/vkspd_shared.h"

#include <cstdint>
#include <string>

namespace vkspd {

struct Plan {
    uint32_t width = 0, height = 0;   // Extent of the base level.
    uint32_t levels = 0;              // Levels written below the base.
    uint32_t tileLevels = 0;          // Levels written by the tile stage: min(levels, 6).
    uint32_t tilesX = 0, tilesY = 0;  // Workgroups of the one dispatch.
    uint32_t depMaskX = 0, depMaskY = 0;  // Bit k: a tile's last column/row of level k needs
                                          // its neighbour's partial sums.
    bool quadLevels12 = false;        // Levels 1 and 2 are plain 2x2 averages.
    bool secondStage = false;         // The elected last group computes levels 7 and below.
    uint32_t mipTexels = 0;           // Texels of level 6 (second-stage source); 0 without it.
    uint32_t counterCount = 0;        // uint counters the dispatch uses.
    uint32_t recordCount = 0;         // Tile records (0 unless some level is odd).
    uint64_t counterBytes = 0;        // Bytes of the counter region.
    uint64_t dataBytes = 0;           // Bytes of the data region (mip-6 values, records).
};

// Levels written for a base of width x height when the caller asked for `levelCount` levels
// including the base (0 = the full chain). Computes the plan; returns false with a message when
// the request cannot run in one dispatch of this version (levels beyond VKSPD_MAX_LEVELS).
bool makePlan(uint32_t width, uint32_t height, uint32_t levelsBelowBase, Plan* plan,
              std::string* error);

// The push constants the shader reads for `plan`.
shader::PushConstants pushConstantsFor(const Plan& plan);

// h(k) of SPEC section 3 for one axis: extra level-0 texels a tile would need to recompute its
// level-`levels` texel alone (the halo the design avoids). Used by tests and the design note.
uint32_t haloTexels(uint32_t extent, uint32_t levels);

}  // namespace vkspd
