// Reading image files with stb_image, defensively: every input is untrusted (this is the code
// the fuzz target in tests/fuzz/ exercises).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vkspd_cli {

// How the decoded values are stored.
enum class SampleType {
    U8,   // 8-bit codes (PNG, JPEG, TGA, BMP, GIF, 8-bit PSD).
    U16,  // 16-bit codes (16-bit PNG and PSD).
    F32,  // Linear floats (Radiance HDR).
};

// A decoded image, always expanded to 4 channels (R G B A; grey is replicated, missing alpha is
// opaque), top row first.
struct LoadedImage {
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t fileChannels = 0;  // Channels in the file: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.
    SampleType type = SampleType::U8;
    // width * height * 4 values of `type` (the decoder's own buffer, freed with it).
    std::unique_ptr<void, void (*)(void*)> pixels{nullptr, [](void*) {}};

    const uint8_t* u8() const { return static_cast<const uint8_t*>(pixels.get()); }
    const uint16_t* u16() const { return static_cast<const uint16_t*>(pixels.get()); }
    const float* f32() const { return static_cast<const float*>(pixels.get()); }
    size_t texelCount() const { return size_t(width) * height; }
};

// Limits checked from the header before anything is decoded.
struct LoadLimits {
    uint32_t maxDimension = 16384;         // The device's maxImageDimension2D.
    uint64_t maxDecodedBytes = 1ull << 34; // Decoded RGBA bytes (guards the decoder's allocation).
    // Asked once the header has given the size and sample type, before anything is decoded (the
    // CLI: whether the device can make the chain at all); false refuses the image with `reason`.
    std::function<bool(uint32_t width, uint32_t height, SampleType type, std::string* reason)> accept;
};

// Reads a whole file ("-": standard input), at most 2 GiB - 1 byte. On failure returns false and
// `reason` says why (for example "No such file or directory").
bool readFile(const std::string& path, std::vector<uint8_t>* bytes, std::string* reason);

// Reads an input image ("-": standard input) for loadImage. Its first bytes are checked for the
// signature of a supported type before the rest is read, so an endless stream that is no image is
// refused at once, and no more than 2 GiB - 1 byte is read. A pipe or terminal is waited on in
// steps of 100 ms; `stop`, when given, is asked in between and ends the read ("interrupted") when
// it says so. On failure returns false with `reason` set, one line: "cannot read: No such file or
// directory", "not an image of a supported type (...)", "file too large ...".
bool readImageFile(const std::string& path, std::vector<uint8_t>* bytes, std::string* reason,
                   bool (*stop)() = nullptr);

// Decodes an image file held in memory. Checks the header first (stbi_info): an unknown or
// corrupt header, a zero side, a side over limits.maxDimension, more than limits.maxDecodedBytes,
// or 2 GiB or more decoded (stb_image's sizes are ints: a 16384x16384 16-bit image is 2 GiB as
// RGBA) are refused before any pixel is decoded, the size named. On failure returns false with
// `reason` set, one line.
bool loadImage(const uint8_t* data, size_t size, const LoadLimits& limits, LoadedImage* image,
               std::string* reason);

// Bits per channel of `type`: 8, 16 or 32.
inline uint32_t bitsOf(SampleType type) {
    return type == SampleType::U8 ? 8 : type == SampleType::U16 ? 16 : 32;
}

}  // namespace vkspd_cli
