// Encoding levels as PNG (8- or 16-bit) or Radiance HDR, in memory.
#pragma once

#include "convert.hpp"

#include <cstdint>
#include <vector>

namespace vkspd_cli {

// The file `view` is written as: a PNG for 8- and 16-bit views, Radiance HDR for floats.
// Returns false if the encoder fails (out of memory).
bool encodeView(const ViewImage& view, std::vector<uint8_t>* file);

// File name extension for `view`: ".png" or ".hdr".
const char* extensionFor(const ViewImage& view);

// An 8-bit PNG of `channels` (1..4) interleaved samples.
bool encodePng8(const uint8_t* samples, uint32_t width, uint32_t height, uint32_t channels,
                std::vector<uint8_t>* file);

// A 16-bit PNG (big-endian samples, as PNG stores them), which stb_image_write cannot write.
bool encodePng16(const uint16_t* samples, uint32_t width, uint32_t height, uint32_t channels,
                 std::vector<uint8_t>* file);

}  // namespace vkspd_cli
