// Pictures of the debug map (vkspd/debug.hpp), for --order-map and --sm-map: one cell per 64x64
// tile of level 0, with a legend below. Pure functions of the map; no Vulkan calls.
#pragma once

#include <vkspd/debug.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_cli {

// An 8-bit RGBA picture.
struct Picture {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> rgba;  // width * height * 4
};

// Side in pixels of one tile's cell: as large as fits 1024 pixels across the larger axis, from 1
// to 16.
uint32_t cellSize(uint32_t tilesX, uint32_t tilesY);

// The finish order as a gradient from dark blue (first, 0) through green to yellow (last, n-1),
// and below the tiles a gradient bar labelled 0 and n-1. `map` holds tilesX * tilesY entries,
// row-major; tiles without an entry (flags bit 0 clear) are grey.
Picture renderOrderMap(const std::vector<vkspd::DebugMapTile>& map, uint32_t tilesX, uint32_t tilesY);

// The SM of each tile, one distinct colour per SM id, and below the tiles a legend of one swatch
// per SM (0 .. smCount-1, at least up to the largest id seen) labelled with its id. Tiles without an
// SM id (flags bit 1 clear) are grey.
Picture renderSmMap(const std::vector<vkspd::DebugMapTile>& map, uint32_t tilesX, uint32_t tilesY,
                    uint32_t smCount);

// The colour of SM `id` in renderSmMap (RGB).
void smColour(uint32_t id, uint8_t rgb[3]);

// Tiles per SM over `smCount` SMs (at least up to the largest id seen), SMs without a tile counted
// as 0.
struct SmTileCounts {
    uint32_t sms = 0;        // SMs counted
    uint32_t idle = 0;       // SMs that got no tile
    uint32_t min = 0, max = 0;
    double median = 0;
    std::vector<uint32_t> perSm;  // tiles of SM i
};
SmTileCounts countTilesPerSm(const std::vector<vkspd::DebugMapTile>& map, uint32_t smCount);

// Checks that every tile has one entry and the orders are a permutation of 0..n-1; on false,
// `problem` says what is wrong.
bool mapIsComplete(const std::vector<vkspd::DebugMapTile>& map, std::string* problem);

}  // namespace vkspd_cli

namespace vkspd_cli {

// The --occupancy table: one row per record (variant, source, registers, shared memory, subgroup
// size, groups and warps per SM, occupancy, limiter), then where the per-SM limits come from and
// the driver's statistics.
std::string occupancyTable(const std::vector<vkspd::OccupancyRecord>& records, const std::string& deviceName);

// "37.5% (3 groups, registers)" or "n/a": the short form for the benchmark.
std::string occupancyShort(const vkspd::OccupancyRecord& record);

}  // namespace vkspd_cli
