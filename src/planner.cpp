#include "planner.hpp"

#include <vkspd/reference.hpp>

#include <algorithm>

namespace vkspd {
namespace {

// Bit k (1..levels) set when level k of a tile's last column along this axis reads texels of the
// next tile: some level above it, from 0 to k-1, has an odd extent > 1 (three-tap filter).
uint32_t dependencyMask(uint32_t extent, uint32_t levels) {
    uint32_t mask = 0;
    bool odd = false;
    for (uint32_t k = 1; k <= levels; ++k) {
        uint32_t above = mipExtent(extent, k - 1);
        odd = odd || (above > 1 && (above & 1u));
        if (odd) mask |= 1u << k;
    }
    return mask;
}

}  // namespace

bool makePlan(uint32_t width, uint32_t height, uint32_t levelsBelowBase, Plan* plan,
              std::string* error) {
    *plan = Plan{};
    if (width == 0 || height == 0) {
        if (error) *error = "extent " + std::to_string(width) + "x" + std::to_string(height) +
                            " is empty: both sides must be at least 1";
        return false;
    }
    uint32_t full = fullMipCount(width, height) - 1;
    if (levelsBelowBase > full) {
        if (error) *error = std::to_string(levelsBelowBase) + " levels below a " +
                            std::to_string(width) + "x" + std::to_string(height) +
                            " base exceed the " + std::to_string(full) + " it has";
        return false;
    }
    if (levelsBelowBase > VKSPD_MAX_LEVELS) {
        if (error) *error = "a " + std::to_string(width) + "x" + std::to_string(height) +
                            " base needs " + std::to_string(levelsBelowBase) +
                            " levels; this version writes at most " +
                            std::to_string(VKSPD_MAX_LEVELS) + " (bases up to 4096x4096)";
        return false;
    }
    Plan p;
    p.width = width;
    p.height = height;
    p.levels = levelsBelowBase;
    p.tileLevels = std::min<uint32_t>(levelsBelowBase, VKSPD_TILE_LEVELS);
    p.tilesX = (width + VKSPD_TILE - 1) / VKSPD_TILE;
    p.tilesY = (height + VKSPD_TILE - 1) / VKSPD_TILE;
    // A dependency only matters where there is a neighbour to depend on.
    p.depMaskX = p.tilesX > 1 ? dependencyMask(width, p.tileLevels) : 0;
    p.depMaskY = p.tilesY > 1 ? dependencyMask(height, p.tileLevels) : 0;
    p.quadLevels12 = p.tileLevels >= 2 && (width % 2 == 0) && (height % 2 == 0) &&
                     (mipExtent(width, 1) % 2 == 0) && (mipExtent(height, 1) % 2 == 0);
    p.secondStage = p.levels > VKSPD_TILE_LEVELS;
    if (p.secondStage) {
        p.mipTexels = mipExtent(width, VKSPD_TILE_LEVELS) * mipExtent(height, VKSPD_TILE_LEVELS);
    }
    uint32_t tiles = p.tilesX * p.tilesY;
    p.recordCount = (p.depMaskX || p.depMaskY) ? tiles : 0;
    p.counterCount = 1 + tiles * VKSPD_COUNTERS_PER_TILE;
    p.counterBytes = uint64_t(p.counterCount) * 4;
    p.dataBytes = (uint64_t(p.mipTexels) + uint64_t(p.recordCount) * VKSPD_RECORD_SIZE) * 16;
    if (p.dataBytes == 0) p.dataBytes = 16;  // a binding needs a non-empty range
    *plan = p;
    return true;
}

shader::PushConstants pushConstantsFor(const Plan& plan) {
    shader::PushConstants pc{};
    pc.extentX = plan.width;
    pc.extentY = plan.height;
    pc.levels = plan.levels;
    pc.tileLevels = plan.tileLevels;
    pc.tilesX = plan.tilesX;
    pc.tilesY = plan.tilesY;
    pc.depMaskX = plan.depMaskX;
    pc.depMaskY = plan.depMaskY;
    pc.flags = (plan.quadLevels12 ? VKSPD_FLAG_QUAD_LEVELS_1_2 : 0u) |
               (plan.secondStage ? VKSPD_FLAG_SECOND_STAGE : 0u);
    pc.mipTexels = plan.mipTexels;
    pc.recordBase = plan.mipTexels;
    return pc;
}

uint32_t haloTexels(uint32_t extent, uint32_t levels) {
    uint32_t h = 0;
    for (uint32_t k = levels; k-- > 0;) {
        uint32_t e = mipExtent(extent, k);
        h = 2 * h + ((e > 1 && (e & 1u)) ? 1u : 0u);
    }
    return h;
}

}  // namespace vkspd
