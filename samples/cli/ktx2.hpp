// A KTX 2.0 writer for one 2D image with a full or partial mip chain, uncompressed (no
// supercompression), with a Khronos Basic Data Format Descriptor. Follows the KTX 2.0
// specification (Khronos, "KTX File Format Specification", version 2.0): header, level index
// with level 0 first, DFD, key/value data, then the levels stored smallest first, each at an
// offset that is a multiple of lcm(texel size, 4).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_cli {

// One mip level: tightly packed texels, row by row.
struct Ktx2Level {
    const uint8_t* data = nullptr;
    size_t size = 0;
};

// The Basic Data Format Descriptor block of `format` (without the leading dfdTotalSize), as
// 32-bit words; empty for a format it does not describe.
std::vector<uint32_t> basicDfd(VkFormat format);

// The KTX2 `typeSize` of `format`: 1 for 8-bit channels, 2 for 16-bit, 4 for 32-bit channels
// and 32-bit packed formats; 0 if unknown.
uint32_t ktx2TypeSize(VkFormat format);

// Builds the file. `levels[i]` is level i (width >> i by height >> i, at least 1). `writer` is
// stored as the KTXwriter value. Returns false with `reason` set for a format it cannot describe
// or a level whose size does not match.
bool writeKtx2(VkFormat format, uint32_t width, uint32_t height, const std::vector<Ktx2Level>& levels,
               const std::string& writer, std::vector<uint8_t>* file, std::string* reason);

}  // namespace vkspd_cli
