// Conversions between decoded image files and texels of a vkspd format: level 0 going in, and
// viewable pixels (PNG or HDR) coming out.
#pragma once

#include "image_load.hpp"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_cli {

// Level 0 of `format` from `image` (rules in --help):
// - sRGB formats receive sRGB codes: 8/16-bit sRGB input is re-quantised, linear input (HDR,
//   --linear) is encoded;
// - UNORM formats receive the file's values unchanged (HDR clamped to [0, 1]);
// - SNORM formats receive 2v - 1 of 8/16-bit values (HDR unchanged, clamped to [-1, 1]);
// - float formats receive linear values (8/16-bit sRGB input decoded to linear);
// - the first `channels` of R G B A are kept; with `minmax` the format has two channels and each
//   texel is (v, v) for the first channel v (after the rules above).
// `srgbInput`: 8/16-bit values are sRGB-encoded (ignored for HDR). Returns false with `reason` set
// for a format the library does not know or cannot encode.
bool makeLevel0(const LoadedImage& image, VkFormat format, bool srgbInput, bool minmax,
                std::vector<uint8_t>* texels, std::string* reason);

// A level ready to be written to a file: 8-bit or 16-bit PNG samples, or linear floats (HDR).
struct ViewImage {
    uint32_t width = 0, height = 0;
    uint32_t channels = 0;  // 1 (grey), 3 (RGB) or 4 (RGBA); two-channel formats become RGB
                            // with blue 0.
    uint32_t bits = 8;      // 8, 16, or 32 (floats).
    std::vector<uint8_t> u8;
    std::vector<uint16_t> u16;
    std::vector<float> f32;
};

// How one level of `format` is viewed: sRGB and UNORM 8-bit codes as they are (BGRA swizzled to
// RGBA); SNORM v as (v + 1) / 2 in 8 bits; 16-bit and 10-bit UNORM as 16-bit; float formats as
// floats. Returns false for a format the library cannot decode.
bool viewLevel(VkFormat format, const uint8_t* texels, uint32_t width, uint32_t height, ViewImage* view);

// An 8-bit RGBA copy of `view` for the contact sheet: 16-bit rounded to 8, floats clamped to
// [0, 1] and sRGB-encoded, grey replicated.
std::vector<uint8_t> previewRgba8(const ViewImage& view);

// sRGB transfer functions (IEC 61966-2-1), on [0, 1].
double srgbToLinear(double encoded);
double linearToSrgb(double linear);

}  // namespace vkspd_cli
