// The contact sheet: every level of a chain side by side in one 8-bit RGBA image.
#pragma once

#include "convert.hpp"

#include <cstdint>
#include <vector>

namespace vkspd_cli {

constexpr uint32_t kContactSheetGap = 4;  // Transparent columns between levels.

struct ContactSheet {
    uint32_t width = 0, height = 0;
    uint32_t firstLevel = 0;    // Levels above this one are left out (larger than maxSide).
    std::vector<uint32_t> x;    // Left column of each level (levels before firstLevel: unused).
    std::vector<uint8_t> rgba;  // width * height * 4; transparent where no level is.
};

// Lays out a chain of `levelCount` levels of a width x height level 0 left to right, top-aligned,
// from the first level whose sides are at most `maxSide`, kContactSheetGap columns apart.
ContactSheet planContactSheet(uint32_t width, uint32_t height, uint32_t levelCount, uint32_t maxSide = 4096);

// Copies a preview of `view` (level `level`) into its place; does nothing for a left-out level.
void placeLevel(ContactSheet* sheet, uint32_t level, const ViewImage& view);

}  // namespace vkspd_cli
