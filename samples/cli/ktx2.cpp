#include "ktx2.hpp"

#include <vkspd/reference.hpp>

#include <cstring>
#include <numeric>

namespace vkspd_cli {

namespace {

// Khronos Data Format values (khr_df.h).
constexpr uint32_t kModelRgbsda = 1;
constexpr uint32_t kPrimariesBt709 = 1;
constexpr uint32_t kTransferLinear = 1;
constexpr uint32_t kTransferSrgb = 2;
constexpr uint32_t kChannelR = 0, kChannelG = 1, kChannelB = 2, kChannelA = 15;
constexpr uint32_t kQualifierLinear = 0x10, kQualifierSigned = 0x40, kQualifierFloat = 0x80;
constexpr uint32_t kFloatOne = 0x3F800000u, kFloatMinusOne = 0xBF800000u;

struct Sample {
    uint32_t channel, bitOffset, bitLength, qualifiers, lower, upper;
};

// The samples of `format`, in order of bit offset, and its transfer function.
bool describe(VkFormat format, std::vector<Sample>* samples, uint32_t* transfer) {
    vkspd::FormatInfo fi;
    if (!vkspd::getFormatInfo(format, &fi) || fi.depth) return false;
    *transfer = fi.encoding == vkspd::ChannelEncoding::Srgb8 ? kTransferSrgb : kTransferLinear;
    samples->clear();
    if (fi.encoding == vkspd::ChannelEncoding::Ufloat11_10) {
        for (uint32_t c = 0; c < 3; ++c)
            samples->push_back({c, 11 * c, c == 2 ? 10u : 11u, kQualifierFloat, 0, kFloatOne});
        return true;
    }
    if (fi.encoding == vkspd::ChannelEncoding::Unorm10_2) {
        for (uint32_t c = 0; c < 3; ++c) samples->push_back({c, 10 * c, 10, 0, 0, 1023});
        samples->push_back({kChannelA, 30, 2, 0, 0, 3});
        return true;
    }
    const uint32_t bits = 8 * fi.bytesPerTexel / fi.channels;
    const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
    for (uint32_t i = 0; i < fi.channels; ++i) {
        uint32_t channel = i == 3 ? kChannelA : i;
        if (bgra && i != 3) channel = i == 0 ? kChannelB : i == 2 ? kChannelR : kChannelG;
        Sample s{channel, bits * i, bits, 0, 0, 0};
        switch (fi.encoding) {
        case vkspd::ChannelEncoding::Unorm8:
        case vkspd::ChannelEncoding::Unorm16:
            s.upper = (1u << bits) - 1;
            break;
        case vkspd::ChannelEncoding::Srgb8:
            s.upper = 255;
            if (channel == kChannelA) s.qualifiers = kQualifierLinear;
            break;
        case vkspd::ChannelEncoding::Snorm8:
            s.qualifiers = kQualifierSigned;
            s.upper = 127;
            s.lower = uint32_t(-127);
            break;
        case vkspd::ChannelEncoding::Float16:
        case vkspd::ChannelEncoding::Float32:
            s.qualifiers = kQualifierFloat | kQualifierSigned;
            s.lower = kFloatMinusOne;
            s.upper = kFloatOne;
            break;
        default: return false;
        }
        samples->push_back(s);
    }
    return true;
}

void put32(std::vector<uint8_t>* out, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) (*out)[at + i] = uint8_t(v >> (8 * i));
}

void put64(std::vector<uint8_t>* out, size_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i) (*out)[at + i] = uint8_t(v >> (8 * i));
}

size_t alignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

}  // namespace

std::vector<uint32_t> basicDfd(VkFormat format) {
    std::vector<Sample> samples;
    uint32_t transfer = 0;
    vkspd::FormatInfo fi;
    if (!describe(format, &samples, &transfer) || !vkspd::getFormatInfo(format, &fi)) return {};
    const uint32_t blockBytes = 24 + 16 * uint32_t(samples.size());
    std::vector<uint32_t> w;
    w.push_back(0);                               // vendorId 0 (Khronos), descriptorType 0 (basic)
    w.push_back(2u | (blockBytes << 16));         // versionNumber 2, descriptorBlockSize
    w.push_back(kModelRgbsda | (kPrimariesBt709 << 8) | (transfer << 16));  // flags 0: straight alpha
    w.push_back(0);                               // texelBlockDimension0..3: 1x1x1x1
    w.push_back(fi.bytesPerTexel);                // bytesPlane0
    w.push_back(0);                               // bytesPlane4..7
    for (const Sample& s : samples) {
        w.push_back(s.bitOffset | ((s.bitLength - 1) << 16) | ((s.channel | s.qualifiers) << 24));
        w.push_back(0);  // sample position 0,0,0,0
        w.push_back(s.lower);
        w.push_back(s.upper);
    }
    return w;
}

uint32_t ktx2TypeSize(VkFormat format) {
    vkspd::FormatInfo fi;
    if (!vkspd::getFormatInfo(format, &fi) || fi.channels == 0) return 0;
    switch (fi.encoding) {
    case vkspd::ChannelEncoding::Ufloat11_10:
    case vkspd::ChannelEncoding::Unorm10_2: return 4;  // _PACK32
    default: return fi.bytesPerTexel / fi.channels;
    }
}

bool writeKtx2(VkFormat format, uint32_t width, uint32_t height, const std::vector<Ktx2Level>& levels,
               const std::string& writer, std::vector<uint8_t>* file, std::string* reason) {
    const std::vector<uint32_t> dfd = basicDfd(format);
    vkspd::FormatInfo fi;
    if (dfd.empty() || !vkspd::getFormatInfo(format, &fi)) {
        *reason = "KTX2: no data format descriptor for format " + std::to_string(int(format));
        return false;
    }
    if (levels.empty() || width == 0 || height == 0) {
        *reason = "KTX2: no levels";
        return false;
    }
    for (size_t i = 0; i < levels.size(); ++i) {
        const size_t expect = size_t(vkspd::mipExtent(width, uint32_t(i))) * vkspd::mipExtent(height, uint32_t(i)) *
                              fi.bytesPerTexel;
        if (levels[i].size != expect || !levels[i].data) {
            *reason = "KTX2: level " + std::to_string(i) + " holds " + std::to_string(levels[i].size) +
                      " bytes, expected " + std::to_string(expect);
            return false;
        }
    }
    const uint32_t levelCount = uint32_t(levels.size());
    // Key/value data: one entry, KTXwriter (the keys must be sorted; there is one).
    std::vector<uint8_t> kvd;
    {
        std::string kv = "KTXwriter";
        kv.push_back('\0');
        kv += writer;
        kv.push_back('\0');
        kvd.resize(4);
        put32(&kvd, 0, uint32_t(kv.size()));
        kvd.insert(kvd.end(), kv.begin(), kv.end());
        kvd.resize(alignUp(kvd.size(), 4), 0);
    }
    const size_t indexEnd = 80 + 24 * size_t(levelCount);
    const size_t dfdOffset = indexEnd;
    const size_t dfdLength = 4 + 4 * dfd.size();
    const size_t kvdOffset = dfdOffset + dfdLength;
    size_t end = kvdOffset + kvd.size();
    // Levels smallest first; each offset a multiple of lcm(texel block size, 4).
    const size_t alignment = std::lcm(size_t(fi.bytesPerTexel), size_t(4));
    std::vector<size_t> offsets(levelCount);
    for (uint32_t i = levelCount; i-- > 0;) {
        offsets[i] = alignUp(end, alignment);
        end = offsets[i] + levels[i].size;
    }
    file->assign(end, 0);
    static const uint8_t kIdentifier[12] = {0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n'};
    std::memcpy(file->data(), kIdentifier, 12);
    put32(file, 12, uint32_t(format));
    put32(file, 16, ktx2TypeSize(format));
    put32(file, 20, width);
    put32(file, 24, height);
    put32(file, 28, 0);  // pixelDepth: 2D
    put32(file, 32, 0);  // layerCount: not an array
    put32(file, 36, 1);  // faceCount
    put32(file, 40, levelCount);
    put32(file, 44, 0);  // supercompressionScheme: none
    put32(file, 48, uint32_t(dfdOffset));
    put32(file, 52, uint32_t(dfdLength));
    put32(file, 56, uint32_t(kvdOffset));
    put32(file, 60, uint32_t(kvd.size()));
    put64(file, 64, 0);  // sgdByteOffset: no supercompression global data
    put64(file, 72, 0);
    for (uint32_t i = 0; i < levelCount; ++i) {
        put64(file, 80 + 24 * size_t(i), offsets[i]);
        put64(file, 88 + 24 * size_t(i), levels[i].size);
        put64(file, 96 + 24 * size_t(i), levels[i].size);  // uncompressedByteLength
        std::memcpy(file->data() + offsets[i], levels[i].data, levels[i].size);
    }
    put32(file, dfdOffset, uint32_t(dfdLength));
    for (size_t i = 0; i < dfd.size(); ++i) put32(file, dfdOffset + 4 + 4 * i, dfd[i]);
    std::memcpy(file->data() + kvdOffset, kvd.data(), kvd.size());
    return true;
}

}  // namespace vkspd_cli
