#include "image_load.hpp"

#include <stb/stb_image.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>

namespace vkspd_cli {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

struct StbFree {
    void operator()(void* p) const { stbi_image_free(p); }
};

// The image type from the first bytes, for messages ("corrupt PNG" reads better than stb's
// generic text); empty when not recognised.
std::string typeOf(const uint8_t* d, size_t n) {
    auto starts = [&](const char* magic, size_t len) { return n >= len && std::memcmp(d, magic, len) == 0; };
    if (starts("\x89PNG\r\n\x1a\n", 8)) return "PNG";
    if (starts("\xff\xd8", 2)) return "JPEG";
    if (starts("BM", 2)) return "BMP";
    if (starts("GIF8", 4)) return "GIF";
    if (starts("8BPS", 4)) return "PSD";
    if (starts("#?RADIANCE", 10) || starts("#?RGBE", 6)) return "Radiance HDR";
    return "";
}

}  // namespace

bool readFile(const std::string& path, std::vector<uint8_t>* bytes, std::string* reason) {
    bytes->clear();
    std::unique_ptr<std::FILE, FileCloser> owned;
    std::FILE* f = stdin;
    if (path != "-") {
        owned.reset(std::fopen(path.c_str(), "rb"));
        if (!owned) {
            *reason = std::strerror(errno);
            return false;
        }
        f = owned.get();
    }
    uint8_t chunk[1 << 16];
    for (;;) {
        const size_t got = std::fread(chunk, 1, sizeof chunk, f);
        bytes->insert(bytes->end(), chunk, chunk + got);
        if (bytes->size() > size_t(INT_MAX)) {
            *reason = "file too large for the image decoder (over 2 GiB)";
            return false;
        }
        if (got < sizeof chunk) break;
    }
    if (std::ferror(f)) {
        // Reading a folder fails here with EISDIR on Linux.
        *reason = errno ? std::strerror(errno) : "read error";
        return false;
    }
    return true;
}

bool loadImage(const uint8_t* data, size_t size, const LoadLimits& limits, LoadedImage* image,
               std::string* reason) {
    *image = LoadedImage{};
    if (size == 0) {
        *reason = "empty file";
        return false;
    }
    if (size > size_t(INT_MAX)) {
        *reason = "file too large for the image decoder (over 2 GiB)";
        return false;
    }
    const std::string type = typeOf(data, size);
    const std::string what = type.empty() ? "image" : type;
    const int len = int(size);
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(data, len, &w, &h, &comp)) {
        const char* why = stbi_failure_reason();
        if (type.empty())
            *reason = "not an image of a supported type (PNG, JPEG, TGA, BMP, PSD, GIF, HDR)";
        else
            *reason = "corrupt " + what + " header" + (why ? std::string(" (") + why + ")" : "");
        return false;
    }
    if (w <= 0 || h <= 0) {
        *reason = what + " of zero size (" + std::to_string(w) + "x" + std::to_string(h) + ")";
        return false;
    }
    if (uint32_t(w) > limits.maxDimension || uint32_t(h) > limits.maxDimension) {
        *reason = std::to_string(w) + "x" + std::to_string(h) + " exceeds this device's maxImageDimension2D (" +
                  std::to_string(limits.maxDimension) + ")";
        return false;
    }
    const bool hdr = stbi_is_hdr_from_memory(data, len) != 0;
    const bool wide = !hdr && stbi_is_16_bit_from_memory(data, len) != 0;
    const SampleType sampleType = hdr ? SampleType::F32 : wide ? SampleType::U16 : SampleType::U8;
    const uint64_t texels = uint64_t(w) * uint64_t(h);
    const uint64_t decodedBytes = texels * 4 * (bitsOf(sampleType) / 8);
    if (decodedBytes > limits.maxDecodedBytes) {
        *reason = std::to_string(w) + "x" + std::to_string(h) + " needs " + std::to_string(decodedBytes >> 20) +
                  " MiB decoded, over the limit of " + std::to_string(limits.maxDecodedBytes >> 20) + " MiB";
        return false;
    }

    int dw = 0, dh = 0, dcomp = 0;
    std::unique_ptr<void, StbFree> pixels;  // freed on every early return
    switch (sampleType) {
    case SampleType::U8: pixels.reset(stbi_load_from_memory(data, len, &dw, &dh, &dcomp, 4)); break;
    case SampleType::U16: pixels.reset(stbi_load_16_from_memory(data, len, &dw, &dh, &dcomp, 4)); break;
    case SampleType::F32: pixels.reset(stbi_loadf_from_memory(data, len, &dw, &dh, &dcomp, 4)); break;
    }
    if (!pixels) {
        const char* why = stbi_failure_reason();
        *reason = "cannot decode " + what + (why ? std::string(": ") + why : std::string());
        return false;
    }
    // The decoder parses the header again; refuse anything that disagrees with what was checked.
    if (dw != w || dh != h) {
        *reason = "corrupt " + what + ": the header says " + std::to_string(w) + "x" + std::to_string(h) +
                  ", the decoder found " + std::to_string(dw) + "x" + std::to_string(dh);
        return false;
    }
    image->width = uint32_t(w);
    image->height = uint32_t(h);
    image->fileChannels = uint32_t(comp >= 1 && comp <= 4 ? comp : dcomp);
    image->type = sampleType;
    image->pixels = std::unique_ptr<void, void (*)(void*)>(pixels.release(), stbi_image_free);
    return true;
}

}  // namespace vkspd_cli
