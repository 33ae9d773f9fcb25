// An independent KTX 2.0 reader for the CLI tests: parses a file from the specification (not
// from the writer's code) and lists every rule it breaks.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace vkspd_test {

struct Ktx2Sample {
    uint32_t bitOffset = 0, bitLength = 0;  // bitLength as stored plus one
    uint32_t channel = 0;                   // channel id (low 4 bits)
    uint32_t qualifiers = 0;                // high 4 bits of the channelType byte, in place (0x10..0x80)
    uint32_t lower = 0, upper = 0;
};

struct Ktx2LevelIndex {
    uint64_t offset = 0, length = 0, uncompressedLength = 0;
};

struct Ktx2File {
    uint32_t vkFormat = 0, typeSize = 0, pixelWidth = 0, pixelHeight = 0, pixelDepth = 0;
    uint32_t layerCount = 0, faceCount = 0, levelCount = 0, supercompression = 0;
    uint32_t dfdOffset = 0, dfdLength = 0, kvdOffset = 0, kvdLength = 0;
    uint64_t sgdOffset = 0, sgdLength = 0;
    std::vector<Ktx2LevelIndex> levels;
    // DFD, basic block:
    uint32_t vendorId = 0, descriptorType = 0, versionNumber = 0, blockSize = 0;
    uint32_t colorModel = 0, colorPrimaries = 0, transfer = 0, flags = 0;
    uint32_t texelBlockDimensions = 0, bytesPlane0 = 0, bytesPlanes1to7 = 0;
    std::vector<Ktx2Sample> samples;
    std::map<std::string, std::string> keyValues;
    std::vector<std::string> problems;  // Every rule broken; empty for a good file.
    std::vector<uint8_t> bytes;

    const uint8_t* levelData(uint32_t level) const { return bytes.data() + levels[level].offset; }
};

inline uint32_t ktxRead32(const std::vector<uint8_t>& b, size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | b[at + size_t(i)];
    return v;
}

inline uint64_t ktxRead64(const std::vector<uint8_t>& b, size_t at) {
    return uint64_t(ktxRead32(b, at)) | (uint64_t(ktxRead32(b, at + 4)) << 32);
}

// Parses `bytes`; `texelBytes` is the size of one texel of the format (for the level sizes and
// the alignment rule), `width`/`height` the base level's.
inline Ktx2File parseKtx2(std::vector<uint8_t> bytes, uint32_t texelBytes) {
    Ktx2File f;
    f.bytes = std::move(bytes);
    const std::vector<uint8_t>& b = f.bytes;
    auto problem = [&](const std::string& p) { f.problems.push_back(p); };
    static const uint8_t id[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
    if (b.size() < 80 || std::memcmp(b.data(), id, 12) != 0) {
        problem("no KTX 2.0 identifier, or shorter than the header");
        return f;
    }
    f.vkFormat = ktxRead32(b, 12);
    f.typeSize = ktxRead32(b, 16);
    f.pixelWidth = ktxRead32(b, 20);
    f.pixelHeight = ktxRead32(b, 24);
    f.pixelDepth = ktxRead32(b, 28);
    f.layerCount = ktxRead32(b, 32);
    f.faceCount = ktxRead32(b, 36);
    f.levelCount = ktxRead32(b, 40);
    f.supercompression = ktxRead32(b, 44);
    f.dfdOffset = ktxRead32(b, 48);
    f.dfdLength = ktxRead32(b, 52);
    f.kvdOffset = ktxRead32(b, 56);
    f.kvdLength = ktxRead32(b, 60);
    f.sgdOffset = ktxRead64(b, 64);
    f.sgdLength = ktxRead64(b, 72);
    const uint32_t levelCount = f.levelCount ? f.levelCount : 1;
    if (80 + 24 * size_t(levelCount) > b.size()) {
        problem("level index past the end of the file");
        return f;
    }
    for (uint32_t i = 0; i < levelCount; ++i) {
        Ktx2LevelIndex l;
        l.offset = ktxRead64(b, 80 + 24 * size_t(i));
        l.length = ktxRead64(b, 88 + 24 * size_t(i));
        l.uncompressedLength = ktxRead64(b, 96 + 24 * size_t(i));
        f.levels.push_back(l);
    }
    const size_t indexEnd = 80 + 24 * size_t(levelCount);
    if (f.dfdOffset != indexEnd) problem("the DFD does not follow the level index");
    if (size_t(f.dfdOffset) + f.dfdLength > b.size() || f.dfdLength < 4 + 24) {
        problem("DFD past the end of the file or too short");
        return f;
    }
    if (ktxRead32(b, f.dfdOffset) != f.dfdLength) problem("dfdTotalSize differs from dfdByteLength");
    const size_t d = f.dfdOffset + 4;
    f.vendorId = ktxRead32(b, d) & 0x1FFFF;
    f.descriptorType = ktxRead32(b, d) >> 17;
    f.versionNumber = ktxRead32(b, d + 4) & 0xFFFF;
    f.blockSize = ktxRead32(b, d + 4) >> 16;
    const uint32_t model = ktxRead32(b, d + 8);
    f.colorModel = model & 0xFF;
    f.colorPrimaries = (model >> 8) & 0xFF;
    f.transfer = (model >> 16) & 0xFF;
    f.flags = model >> 24;
    f.texelBlockDimensions = ktxRead32(b, d + 12);
    f.bytesPlane0 = ktxRead32(b, d + 16) & 0xFF;
    f.bytesPlanes1to7 = (ktxRead32(b, d + 16) >> 8) | ktxRead32(b, d + 20);
    if (f.blockSize < 24 || (f.blockSize - 24) % 16 || 4 + f.blockSize != f.dfdLength)
        problem("descriptorBlockSize does not match the samples and dfdByteLength");
    for (size_t s = d + 24; s + 16 <= d + f.blockSize && s + 16 <= b.size(); s += 16) {
        Ktx2Sample smp;
        const uint32_t w0 = ktxRead32(b, s);
        smp.bitOffset = w0 & 0xFFFF;
        smp.bitLength = ((w0 >> 16) & 0xFF) + 1;
        smp.channel = (w0 >> 24) & 0x0F;
        smp.qualifiers = (w0 >> 24) & 0xF0;
        if (ktxRead32(b, s + 4) != 0) problem("a sample position is not 0");
        smp.lower = ktxRead32(b, s + 8);
        smp.upper = ktxRead32(b, s + 12);
        f.samples.push_back(smp);
    }
    // Key/value data: sorted keys, NUL-terminated, each entry padded to 4 bytes.
    if (f.kvdLength) {
        if (f.kvdOffset != f.dfdOffset + f.dfdLength) problem("key/value data does not follow the DFD");
        size_t p = f.kvdOffset;
        const size_t end = size_t(f.kvdOffset) + f.kvdLength;
        std::string previous;
        while (p + 4 <= end && end <= b.size()) {
            const uint32_t n = ktxRead32(b, p);
            if (p + 4 + n > end) {
                problem("a key/value entry runs past kvdByteLength");
                break;
            }
            const std::string kv(reinterpret_cast<const char*>(&b[p + 4]), n);
            const size_t nul = kv.find('\0');
            if (nul == std::string::npos) {
                problem("a key without its NUL");
                break;
            }
            const std::string key = kv.substr(0, nul);
            if (!previous.empty() && key <= previous) problem("keys are not sorted");
            previous = key;
            f.keyValues[key] = kv.substr(nul + 1);
            p += 4 + ((n + 3) & ~size_t(3));
        }
        if (p != end) problem("key/value entries do not fill kvdByteLength exactly");
    }
    // Levels: inside the file, after the metadata, each offset a multiple of lcm(texel, 4),
    // sizes of the mip rule, stored smallest first without overlap.
    const uint64_t alignment = texelBytes % 4 == 0 ? texelBytes : texelBytes % 2 == 0 ? 4 * texelBytes / 2 : 4 * texelBytes;
    const uint64_t metadataEnd = f.kvdLength ? uint64_t(f.kvdOffset) + f.kvdLength : uint64_t(f.dfdOffset) + f.dfdLength;
    uint64_t previousEnd = metadataEnd;
    for (uint32_t i = levelCount; i-- > 0;) {
        const Ktx2LevelIndex& l = f.levels[i];
        const uint64_t w = f.pixelWidth >> i ? f.pixelWidth >> i : 1, h = f.pixelHeight >> i ? f.pixelHeight >> i : 1;
        if (l.length != w * h * texelBytes)
            problem("level " + std::to_string(i) + " holds " + std::to_string(l.length) + " bytes, not " +
                    std::to_string(w * h * texelBytes));
        if (f.supercompression == 0 && l.uncompressedLength != l.length)
            problem("level " + std::to_string(i) + ": uncompressedByteLength differs from byteLength");
        if (l.offset % alignment) problem("level " + std::to_string(i) + " is not aligned to lcm(texel, 4)");
        if (l.offset < previousEnd) problem("level " + std::to_string(i) + " overlaps what precedes it");
        if (l.offset - previousEnd >= alignment) problem("level " + std::to_string(i) + " has more padding than alignment needs");
        if (l.offset + l.length > b.size()) problem("level " + std::to_string(i) + " runs past the end of the file");
        previousEnd = l.offset + l.length;
    }
    if (previousEnd != b.size()) problem("bytes after the last (largest) level");
    return f;
}

}  // namespace vkspd_test
