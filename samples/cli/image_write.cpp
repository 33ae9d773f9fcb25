#include "image_write.hpp"

#include <stb/stb_image_write.h>

#include <cstdlib>
#include <cstring>

// stb_image_write's deflate, defined (not declared) by its implementation in stb_impl.cpp.
extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int data_len, int* out_len, int quality);

namespace vkspd_cli {

namespace {

void appendToVector(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    const auto* bytes = static_cast<const uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

uint32_t crc32(const uint8_t* data, size_t n, uint32_t crc = 0) {
    static uint32_t table[256];
    static const bool ready = [] {
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        return true;
    }();
    (void)ready;
    crc = ~crc;
    for (size_t i = 0; i < n; ++i) crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

void putBigEndian32(std::vector<uint8_t>* out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out->push_back(uint8_t(v >> s));
}

void putChunk(std::vector<uint8_t>* out, const char type[4], const uint8_t* data, size_t size) {
    putBigEndian32(out, uint32_t(size));
    const size_t start = out->size();
    out->insert(out->end(), type, type + 4);
    out->insert(out->end(), data, data + size);
    putBigEndian32(out, crc32(out->data() + start, size + 4));
}

}  // namespace

bool encodePng8(const uint8_t* samples, uint32_t width, uint32_t height, uint32_t channels,
                std::vector<uint8_t>* file) {
    file->clear();
    return stbi_write_png_to_func(appendToVector, file, int(width), int(height), int(channels), samples,
                                  int(width * channels)) != 0;
}

bool encodePng16(const uint16_t* samples, uint32_t width, uint32_t height, uint32_t channels,
                 std::vector<uint8_t>* file) {
    file->clear();
    if (channels < 1 || channels > 4) return false;
    // Scanlines with filter type 0 (none), samples big-endian.
    const size_t rowBytes = size_t(width) * channels * 2 + 1;
    const size_t rawBytes = rowBytes * height;
    if (rawBytes > size_t(0x7FFFFFFF)) return false;  // stb's deflate takes an int length
    std::vector<uint8_t> raw(rawBytes);
    for (uint32_t y = 0; y < height; ++y) {
        uint8_t* row = &raw[y * rowBytes];
        row[0] = 0;
        const uint16_t* src = samples + size_t(y) * width * channels;
        for (size_t i = 0; i < size_t(width) * channels; ++i) {
            row[1 + 2 * i] = uint8_t(src[i] >> 8);
            row[2 + 2 * i] = uint8_t(src[i] & 0xFF);
        }
    }
    int zlen = 0;
    unsigned char* z = stbi_zlib_compress(raw.data(), int(raw.size()), &zlen, 8);
    if (!z) return false;
    static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    static const uint8_t kColourType[5] = {0, 0, 4, 2, 6};  // by channels: grey, grey+alpha, RGB, RGBA
    file->assign(kSignature, kSignature + 8);
    std::vector<uint8_t> ihdr;
    putBigEndian32(&ihdr, width);
    putBigEndian32(&ihdr, height);
    ihdr.push_back(16);  // bit depth
    ihdr.push_back(kColourType[channels]);
    ihdr.push_back(0);  // deflate
    ihdr.push_back(0);  // adaptive filtering
    ihdr.push_back(0);  // no interlace
    putChunk(file, "IHDR", ihdr.data(), ihdr.size());
    putChunk(file, "IDAT", z, size_t(zlen));
    std::free(z);
    putChunk(file, "IEND", nullptr, 0);
    return true;
}

bool encodeView(const ViewImage& view, std::vector<uint8_t>* file) {
    switch (view.bits) {
    case 8: return encodePng8(view.u8.data(), view.width, view.height, view.channels, file);
    case 16: return encodePng16(view.u16.data(), view.width, view.height, view.channels, file);
    default:
        file->clear();
        return stbi_write_hdr_to_func(appendToVector, file, int(view.width), int(view.height),
                                      int(view.channels), view.f32.data()) != 0;
    }
}

const char* extensionFor(const ViewImage& view) { return view.bits == 32 ? ".hdr" : ".png"; }

}  // namespace vkspd_cli
