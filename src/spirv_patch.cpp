// DenormPreserve for compiled SPIR-V (see spirv_patch.hpp). The patcher walks the instruction
// stream of the module's logical layout (capabilities, extensions, imports, memory model, entry
// points, execution modes) and inserts what is missing at the end of the matching section.
#include "spirv_patch.hpp"

#include <cstring>

namespace vkspd {
namespace {

constexpr uint32_t kMagic = 0x07230203u;
constexpr uint32_t kHeaderWords = 5;

// Opcodes and enumerants (SPIR-V unified1 spirv.hpp).
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpExtInstImport = 11;
constexpr uint32_t kOpMemoryModel = 14;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kOpTypeFloat = 22;
constexpr uint32_t kOpExecutionModeId = 331;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr uint32_t kModeDenormPreserve = 4459;
constexpr uint32_t kModeDenormFlushToZero = 4460;
constexpr uint32_t kCapabilityDenormPreserve = 4464;
constexpr const char* kFloatControls = "SPV_KHR_float_controls";

// Rank of an instruction in the module's logical layout; 6 for everything after the modes.
int layoutRank(uint32_t opcode) {
    switch (opcode) {
        case kOpCapability: return 0;
        case kOpExtension: return 1;
        case kOpExtInstImport: return 2;
        case kOpMemoryModel: return 3;
        case kOpEntryPoint: return 4;
        case kOpExecutionMode:
        case kOpExecutionModeId: return 5;
        default: return 6;
    }
}

// A literal string as SPIR-V words (nul-terminated, zero-padded, little-endian within a word).
std::vector<uint32_t> stringWords(const char* s) {
    const size_t bytes = std::strlen(s) + 1;
    std::vector<uint32_t> w((bytes + 3) / 4, 0u);
    for (size_t i = 0; i < bytes - 1; ++i) w[i / 4] |= uint32_t(uint8_t(s[i])) << (8 * (i % 4));
    return w;
}

bool isString(const uint32_t* operand, size_t words, const char* s) {
    const std::vector<uint32_t> want = stringWords(s);
    return words == want.size() && std::memcmp(operand, want.data(), words * 4) == 0;
}

bool validHeader(const uint32_t* words, size_t wordCount) {
    return words && wordCount > kHeaderWords && words[0] == kMagic;
}

}  // namespace

DenormModes chooseDenormModes(const DenormSupport& support, const FloatWidths& widths) {
    DenormModes m;
    switch (support.independence) {
        case 1:  // ALL: each width on its own.
            m.preserve16 = widths.f16 && support.preserve16;
            m.preserve32 = widths.f32 && support.preserve32;
            break;
        case 0:  // 32_BIT_ONLY: 32 on its own; 16 and 64 must share one mode, so both stay default.
            m.preserve32 = widths.f32 && support.preserve32;
            break;
        default:  // NONE: one mode for every width the module uses, or none declared.
            if (!widths.f64 && (widths.f16 || widths.f32) && (!widths.f16 || support.preserve16) &&
                (!widths.f32 || support.preserve32)) {
                m.preserve16 = widths.f16;
                m.preserve32 = widths.f32;
            }
            break;
    }
    return m;
}

bool spirvFloatWidths(const uint32_t* words, size_t wordCount, FloatWidths* widths) {
    *widths = FloatWidths{};
    if (!validHeader(words, wordCount)) return false;
    for (size_t i = kHeaderWords; i < wordCount;) {
        const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
        if (count == 0 || i + count > wordCount) return false;
        if (opcode == kOpTypeFloat && count >= 3) {
            widths->f16 = widths->f16 || words[i + 2] == 16;
            widths->f32 = widths->f32 || words[i + 2] == 32;
            widths->f64 = widths->f64 || words[i + 2] == 64;
        }
        i += count;
    }
    return true;
}

bool addDenormPreserve(const uint32_t* words, size_t wordCount, const DenormModes& modes,
                       std::vector<uint32_t>* out) {
    out->assign(words, words + (words ? wordCount : 0));
    if (!modes.any()) return true;
    if (!validHeader(words, wordCount)) return false;

    size_t capEnd = 0, extEnd = 0, modeEnd = 0;
    bool haveCapability = false, haveExtension = false, haveMemoryModel = false;
    bool havePreserve[2] = {false, false}, haveFlush[2] = {false, false};  // [16, 32]
    uint32_t entry = 0, entries = 0;
    int rank = 0;
    size_t i = kHeaderWords;
    // First pass: the preamble, up to the first instruction past the execution modes.
    for (; i < wordCount;) {
        const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
        if (count == 0 || i + count > wordCount) return false;
        const int r = layoutRank(opcode);
        if (r < rank) return false;  // out of the logical layout order
        rank = r;
        if (r == 6) break;
        switch (opcode) {
            case kOpCapability:
                if (count != 2) return false;
                haveCapability = haveCapability || words[i + 1] == kCapabilityDenormPreserve;
                capEnd = i + count;
                break;
            case kOpExtension:
                haveExtension = haveExtension || isString(words + i + 1, count - 1, kFloatControls);
                extEnd = i + count;
                break;
            case kOpMemoryModel: haveMemoryModel = true; break;
            case kOpEntryPoint:
                if (count < 4) return false;
                if (words[i + 1] == kExecutionModelGLCompute) {
                    entry = words[i + 2];
                    ++entries;
                }
                modeEnd = i + count;
                break;
            default:  // execution modes
                if (count < 3) return false;
                if (opcode == kOpExecutionMode && count == 4 && words[i + 1] == entry &&
                    (words[i + 2] == kModeDenormPreserve || words[i + 2] == kModeDenormFlushToZero) &&
                    (words[i + 3] == 16 || words[i + 3] == 32)) {
                    bool* seen = words[i + 2] == kModeDenormPreserve ? havePreserve : haveFlush;
                    seen[words[i + 3] == 32 ? 1 : 0] = true;
                }
                modeEnd = i + count;
                break;
        }
        i += count;
    }
    if (capEnd == 0 || !haveMemoryModel || entries != 1 || modeEnd == 0) return false;
    if ((modes.preserve16 && haveFlush[0]) || (modes.preserve32 && haveFlush[1])) return false;
    // The rest of the stream must be well formed too (a truncated module is refused, not patched).
    for (; i < wordCount;) {
        const uint32_t count = words[i] >> 16;
        if (count == 0 || i + count > wordCount) return false;
        i += count;
    }
    if (extEnd == 0) extEnd = capEnd;

    const uint32_t version = words[1];
    const bool needExtension = version < 0x00010400u && !haveExtension;
    std::vector<uint32_t> patched;
    patched.reserve(wordCount + 16);
    patched.insert(patched.end(), words, words + capEnd);
    if (!haveCapability) {
        patched.push_back(2u << 16 | kOpCapability);
        patched.push_back(kCapabilityDenormPreserve);
    }
    patched.insert(patched.end(), words + capEnd, words + extEnd);
    if (needExtension) {
        const std::vector<uint32_t> name = stringWords(kFloatControls);
        patched.push_back(uint32_t(1 + name.size()) << 16 | kOpExtension);
        patched.insert(patched.end(), name.begin(), name.end());
    }
    patched.insert(patched.end(), words + extEnd, words + modeEnd);
    for (int w = 0; w < 2; ++w) {
        const bool want = w == 0 ? modes.preserve16 : modes.preserve32;
        if (!want || havePreserve[w]) continue;
        patched.push_back(4u << 16 | kOpExecutionMode);
        patched.push_back(entry);
        patched.push_back(kModeDenormPreserve);
        patched.push_back(w == 0 ? 16u : 32u);
    }
    patched.insert(patched.end(), words + modeEnd, words + wordCount);
    *out = std::move(patched);
    return true;
}

}  // namespace vkspd
