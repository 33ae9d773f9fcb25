// --verify: every level of a GPU chain against the library's CPU reference (docs/FILTER.md).
#pragma once

#include <vkspd/reference.hpp>
#include <vkspd/vkspd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_cli {

struct LevelCheck {
    uint32_t level = 0, width = 0, height = 0;
    vkspd::LevelError error;
    double tolerance = 0;
};

struct Verification {
    bool ok = false;
    std::string problem;  // Why it could not be checked (then ok is false and levels empty).
    double tolerance = 0;
    const char* unit = "";  // "ulp" or "relative".
    std::vector<LevelCheck> levels;  // Levels 1.. of the chain.
};

// Checks the chain `bytes` (levels tightly packed at `offsets`, level 0 as uploaded) of a
// width x height image in `format`, made with `reduction` on `path` (`fp16`: the FP16 path).
Verification verifyChain(VkFormat format, vkspd::Reduction reduction, vkspd::Path path, bool fp16, uint32_t width,
                         uint32_t height, const std::vector<uint8_t>& bytes, const std::vector<size_t>& offsets);

}  // namespace vkspd_cli
