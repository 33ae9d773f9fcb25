// The DenormPreserve patcher (src/spirv_patch.cpp) on the real embedded modules and on a small
// hand-made SPIR-V 1.3 module, checked with spirv-val where SPIRV-Tools is installed.
#include "context.hpp"
#include "spirv_patch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kOpExtension = 10, kOpExecutionMode = 16, kOpCapability = 17;
constexpr uint32_t kModeDenormPreserve = 4459, kModeDenormFlushToZero = 4460, kCapDenormPreserve = 4464;

struct Counts {
    int capability = 0, extension = 0, mode16 = 0, mode32 = 0;
};

// Calls f(opcode, word count, the instruction's words) for each instruction of a module after its
// five-word header; false at an instruction whose word count is 0 (malformed: the walk stops).
template <typename F>
bool forEachInstruction(const std::vector<uint32_t>& w, F f) {
    for (size_t i = 5; i < w.size();) {
        const uint32_t n = w[i] >> 16;
        if (n == 0) return false;
        f(w[i] & 0xffffu, n, &w[i]);
        i += n;
    }
    return true;
}

Counts count(const std::vector<uint32_t>& w) {
    Counts c;
    forEachInstruction(w, [&](uint32_t op, uint32_t n, const uint32_t* ins) {
        if (op == kOpCapability && ins[1] == kCapDenormPreserve) ++c.capability;
        if (op == kOpExtension && std::strcmp(reinterpret_cast<const char*>(&ins[1]), "SPV_KHR_float_controls") == 0)
            ++c.extension;
        if (op == kOpExecutionMode && n == 4 && ins[2] == kModeDenormPreserve) {
            if (ins[3] == 16) ++c.mode16;
            if (ins[3] == 32) ++c.mode32;
        }
    });
    return c;
}

// Whether the spirv-val found at configure time is on this machine (binaries built here are
// also run on machines without spirv-tools, e.g. a lent GPU machine).
bool haveSpirvVal() {
#ifdef VKSPD_SPIRV_VAL
    static const bool have = std::system((std::string(VKSPD_SPIRV_VAL) + " --version > /dev/null 2>&1").c_str()) == 0;
    return have;
#else
    return false;
#endif
}

// Why the spirv-val checks are skipped where haveSpirvVal() is false.
std::string spirvValMissing() {
    return std::string("spirv-val not found (apt-get install spirv-tools; configured: ") +
#ifdef VKSPD_SPIRV_VAL
           VKSPD_SPIRV_VAL
#else
           "none"
#endif
           + "): counts only";
}

// spirv-val's exit status on `words` for `env`, or -1 where there is no spirv-val.
int spirvVal(const std::vector<uint32_t>& words, const char* env, const std::string& name) {
#ifdef VKSPD_SPIRV_VAL
    if (!haveSpirvVal()) return -1;
    const std::string path = testing::TempDir() + "vkspd_patch_" + name + ".spv";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return -2;
    std::fwrite(words.data(), 4, words.size(), f);
    std::fclose(f);
    const std::string cmd = std::string(VKSPD_SPIRV_VAL) + " --target-env " + env + " " + path;
    const int status = std::system(cmd.c_str());
    std::remove(path.c_str());
    return status;
#else
    (void)words, (void)env, (void)name;
    return -1;
#endif
}

std::vector<uint32_t> words(const vkspd::SpirvBlob& b) { return {b.words, b.words + b.bytes / 4}; }

// Every compute module the library embeds: [reduction][fp16][quad] and the debug-map variants.
struct Module {
    std::string name;
    std::vector<uint32_t> words;
    bool fp16;
};
std::vector<Module> computeModules() {
    std::vector<Module> m;
    const char* reductions[] = {"average", "min", "max", "minmax"};
    for (uint32_t r = 0; r < 4; ++r)
        for (int fp16 = 0; fp16 < 2; ++fp16)
            for (int quad = 0; quad < 2; ++quad)
                m.push_back({std::string(reductions[r]) + (fp16 ? "_fp16" : "_fp32") + (quad ? "_quad" : "_lds"),
                             words(vkspd::embeddedSpirv(r, fp16 != 0, quad != 0)), fp16 != 0});
    for (uint32_t r = 0; r < 4; ++r)
        for (int fp16 = 0; fp16 < 2; ++fp16)
            m.push_back({std::string(reductions[r]) + (fp16 ? "_fp16" : "_fp32") + "_plain",
                         words(vkspd::embeddedPlainSpirv(r, fp16 != 0)), fp16 != 0});
    for (int sm = 0; sm < 2; ++sm)
        for (int fp16 = 0; fp16 < 2; ++fp16)
            for (int quad = 0; quad < 2; ++quad)
                m.push_back({std::string("debug") + (fp16 ? "_fp16" : "_fp32") + (quad ? "_quad" : "_lds") +
                                 (sm ? "_sm" : ""),
                             words(vkspd::embeddedDebugSpirv(fp16 != 0, quad != 0, sm != 0)), fp16 != 0});
    return m;
}

vkspd::DenormSupport allSupport() {
    vkspd::DenormSupport s;
    s.preserve16 = s.preserve32 = true;
    s.independence = 1;  // ALL
    return s;
}

TEST(SpirvPatch, ChoosesModesByIndependenceRules) {
    const vkspd::FloatWidths f32{false, true, false}, f16and32{true, true, false}, f64{false, true, true};
    vkspd::DenormSupport s = allSupport();
    EXPECT_TRUE(vkspd::chooseDenormModes(s, f32).preserve32);
    EXPECT_FALSE(vkspd::chooseDenormModes(s, f32).preserve16);  // no 16-bit type: no 16-bit mode
    EXPECT_TRUE(vkspd::chooseDenormModes(s, f16and32).preserve16);
    s.preserve16 = false;  // ALL: 32 on its own
    EXPECT_TRUE(vkspd::chooseDenormModes(s, f16and32).preserve32);
    EXPECT_FALSE(vkspd::chooseDenormModes(s, f16and32).preserve16);
    s.independence = 2;  // NONE: one mode for all widths used, so none here
    EXPECT_FALSE(vkspd::chooseDenormModes(s, f16and32).any());
    EXPECT_TRUE(vkspd::chooseDenormModes(s, f32).preserve32);
    EXPECT_FALSE(vkspd::chooseDenormModes(s, f64).any());
    s.preserve16 = true;
    EXPECT_TRUE(vkspd::chooseDenormModes(s, f16and32).preserve16);
    EXPECT_TRUE(vkspd::chooseDenormModes(s, f16and32).preserve32);
    s.independence = 0;  // 32_BIT_ONLY: 16 stays with 64 at the default
    EXPECT_TRUE(vkspd::chooseDenormModes(s, f16and32).preserve32);
    EXPECT_FALSE(vkspd::chooseDenormModes(s, f16and32).preserve16);
    s.preserve32 = false;
    EXPECT_FALSE(vkspd::chooseDenormModes(s, f16and32).any());
}

TEST(SpirvPatch, EmbeddedModulesPatchAndValidate) {
    for (const Module& m : computeModules()) {
        SCOPED_TRACE(m.name);
        vkspd::FloatWidths widths;
        ASSERT_TRUE(vkspd::spirvFloatWidths(m.words.data(), m.words.size(), &widths));
        // What denormalsPreserved (describeDispatch) assumes about the variants.
        EXPECT_EQ(widths.f16, m.fp16);
        EXPECT_TRUE(widths.f32);
        EXPECT_FALSE(widths.f64);

        // Not asked: byte-identical.
        std::vector<uint32_t> out;
        ASSERT_TRUE(vkspd::addDenormPreserve(m.words.data(), m.words.size(), vkspd::DenormModes{}, &out));
        EXPECT_EQ(out, m.words);

        const vkspd::DenormModes modes = vkspd::chooseDenormModes(allSupport(), widths);
        ASSERT_TRUE(vkspd::addDenormPreserve(m.words.data(), m.words.size(), modes, &out));
        const Counts c = count(out), before = count(m.words);
        EXPECT_EQ(before.capability + before.mode16 + before.mode32, 0);
        EXPECT_EQ(c.capability, 1);
        EXPECT_EQ(c.mode32, 1);
        EXPECT_EQ(c.mode16, m.fp16 ? 1 : 0);
        EXPECT_EQ(c.extension, 0);  // SPIR-V 1.5: float controls are core
        EXPECT_EQ(out[3], m.words[3]);  // the bound: no new ids
        EXPECT_EQ(out.size(), m.words.size() + 2 + 4 * size_t(m.fp16 ? 2 : 1));

        // Patching the result again adds nothing.
        std::vector<uint32_t> again;
        ASSERT_TRUE(vkspd::addDenormPreserve(out.data(), out.size(), modes, &again));
        EXPECT_EQ(again, out);

        const int status = spirvVal(out, "vulkan1.2", m.name);
        if (status == -1) continue;  // no spirv-val: checked by the counts above only
        EXPECT_EQ(status, 0) << "spirv-val --target-env vulkan1.2 rejects the patched " << m.name;
    }
    if (!haveSpirvVal()) GTEST_SKIP() << spirvValMissing();
}

// A minimal GLCompute module in SPIR-V 1.3 (before float controls became core): void main() {}
// with a 32-bit float type.
std::vector<uint32_t> tinyModule13() {
    auto str = [](const char* s, std::vector<uint32_t>* w) {
        const size_t n = std::strlen(s) + 1, start = w->size();
        w->resize(start + (n + 3) / 4, 0u);
        std::memcpy(w->data() + start, s, n);
    };
    std::vector<uint32_t> w = {0x07230203u, 0x00010300u, 0u, 7u, 0u};
    w.insert(w.end(), {2u << 16 | 17u, 1u});  // OpCapability Shader
    w.push_back(6u << 16 | 11u);              // %1 = OpExtInstImport "GLSL.std.450"
    w.push_back(1u);
    str("GLSL.std.450", &w);
    w.insert(w.end(), {3u << 16 | 14u, 0u, 1u});  // OpMemoryModel Logical GLSL450
    w.insert(w.end(), {5u << 16 | 15u, 5u, 2u});  // OpEntryPoint GLCompute %2 "main"
    str("main", &w);
    w.insert(w.end(), {6u << 16 | 16u, 2u, 17u, 1u, 1u, 1u});  // OpExecutionMode %2 LocalSize 1 1 1
    w.insert(w.end(), {2u << 16 | 19u, 3u});                    // %3 = OpTypeVoid
    w.insert(w.end(), {3u << 16 | 33u, 4u, 3u});                // %4 = OpTypeFunction %3
    w.insert(w.end(), {3u << 16 | 22u, 5u, 32u});               // %5 = OpTypeFloat 32
    w.insert(w.end(), {5u << 16 | 54u, 3u, 2u, 0u, 4u});        // %2 = OpFunction %3 None %4
    w.insert(w.end(), {2u << 16 | 248u, 6u});                   // %6 = OpLabel
    w.push_back(1u << 16 | 253u);                               // OpReturn
    w.push_back(1u << 16 | 56u);                                // OpFunctionEnd
    return w;
}

TEST(SpirvPatch, OlderSpirvGetsTheExtension) {
    const std::vector<uint32_t> in = tinyModule13();
    const int inStatus = spirvVal(in, "vulkan1.1", "tiny_in");
    if (inStatus != -1) {
        ASSERT_EQ(inStatus, 0) << "the hand-made module itself is invalid";
    }
    vkspd::DenormModes modes;
    modes.preserve32 = true;
    std::vector<uint32_t> out;
    ASSERT_TRUE(vkspd::addDenormPreserve(in.data(), in.size(), modes, &out));
    const Counts c = count(out);
    EXPECT_EQ(c.capability, 1);
    EXPECT_EQ(c.extension, 1);
    EXPECT_EQ(c.mode32, 1);
    EXPECT_EQ(c.mode16, 0);
    EXPECT_EQ(out[3], in[3]);
    EXPECT_EQ(out.size(), in.size() + 2 + 7 + 4);  // capability, extension (6 words of name), mode
    const int status = spirvVal(out, "vulkan1.1", "tiny_out");
    if (status != -1) {
        EXPECT_EQ(status, 0) << "spirv-val rejects the patched SPIR-V 1.3 module";
    }
    if (!haveSpirvVal()) GTEST_SKIP() << spirvValMissing();
}

TEST(SpirvPatch, RefusesWhatItDoesNotUnderstand) {
    vkspd::DenormModes modes;
    modes.preserve32 = true;
    const std::vector<uint32_t> good = tinyModule13();
    std::vector<uint32_t> out;

    std::vector<uint32_t> bad = good;
    bad[0] = 0x03022307u;  // the other byte order
    EXPECT_FALSE(vkspd::addDenormPreserve(bad.data(), bad.size(), modes, &out));
    EXPECT_EQ(out, bad);

    bad.assign(good.begin(), good.end() - 3);  // truncated inside OpFunction
    EXPECT_FALSE(vkspd::addDenormPreserve(bad.data(), bad.size(), modes, &out));
    EXPECT_EQ(out, bad);

    bad = good;
    bad[5 + 2] = 0u;  // a word count of zero (OpExtInstImport)
    EXPECT_FALSE(vkspd::addDenormPreserve(bad.data(), bad.size(), modes, &out));

    // A conflicting DenormFlushToZero 32 on the entry point: the module's choice is kept.
    bad = good;
    const std::vector<uint32_t> flush = {4u << 16 | kOpExecutionMode, 2u, kModeDenormFlushToZero, 32u};
    const size_t modeAt = 5 + 2 + 6 + 3 + 5;  // after the entry point
    bad.insert(bad.begin() + long(modeAt), flush.begin(), flush.end());
    EXPECT_FALSE(vkspd::addDenormPreserve(bad.data(), bad.size(), modes, &out));
    EXPECT_EQ(out, bad);

    // Sections out of order: a capability after the memory model.
    bad = good;
    const std::vector<uint32_t> cap = {2u << 16 | kOpCapability, 1u};
    bad.insert(bad.begin() + long(5 + 2 + 6 + 3), cap.begin(), cap.end());
    EXPECT_FALSE(vkspd::addDenormPreserve(bad.data(), bad.size(), modes, &out));

    EXPECT_FALSE(vkspd::addDenormPreserve(good.data(), 3, modes, &out));  // no header
}

}  // namespace

// The level images are an array of storage images; indexing it with anything but a constant needs
// shaderStorageImageArrayDynamicIndexing, which the library does not require (lavapipe lacks it)
// and neither the validation layer nor lavapipe reports. Every access chain into the array
// (binding VKSPD_BINDING_DEST) of every embedded module must have an OpConstant index: the
// kernels store through constant indices (a switch in vkspd.comp, one constant per stage in
// vkspd_plain.comp's STORE_LEVEL).
TEST(EmbeddedSpirv, LevelImagesAreIndexedOnlyByConstants) {
    constexpr uint32_t kOpConstant = 43, kOpDecorate = 71, kOpAccessChain = 65, kOpInBoundsAccessChain = 66;
    constexpr uint32_t kDecorationBinding = 33;
    for (const Module& m : computeModules()) {
        const std::vector<uint32_t>& w = m.words;
        std::vector<uint32_t> constants, levelArrays;
        ASSERT_TRUE(forEachInstruction(w, [&](uint32_t op, uint32_t, const uint32_t* ins) {
            if (op == kOpConstant) constants.push_back(ins[2]);
            if (op == kOpDecorate && ins[2] == kDecorationBinding && ins[3] == VKSPD_BINDING_DEST)
                levelArrays.push_back(ins[1]);
        })) << m.name;
        ASSERT_EQ(levelArrays.size(), 1u) << m.name << ": one variable at the level-image binding";
        int accesses = 0, dynamic = 0;
        forEachInstruction(w, [&](uint32_t op, uint32_t n, const uint32_t* ins) {
            if ((op == kOpAccessChain || op == kOpInBoundsAccessChain) && n >= 5 && ins[3] == levelArrays[0]) {
                ++accesses;
                if (std::find(constants.begin(), constants.end(), ins[4]) == constants.end()) ++dynamic;
            }
        });
        EXPECT_GT(accesses, 0) << m.name << " stores no level at all?";
        EXPECT_EQ(dynamic, 0) << m.name << ": " << dynamic << " of " << accesses
                              << " accesses to the level images use an index that is not a constant";
    }
}

// The specialization constants the library sets (context.cpp) must exist in the modules it sets
// them on, as boolean spec constants (a missing SpecId is silently ignored by Vulkan, and the
// kernel would run its default): VKSPD_SPEC_ONE_SITE in every module of vkspd.comp (the built-in
// reductions' and the debug variants'), VKSPD_SPEC_SRGB in every plain-chain module.
TEST(EmbeddedSpirv, SpecializationConstantsAreDeclared) {
    constexpr uint32_t kOpDecorate = 71, kOpSpecConstantTrue = 48, kOpSpecConstantFalse = 49, kDecorationSpecId = 1;
    for (const Module& m : computeModules()) {
        const std::vector<uint32_t>& w = m.words;
        std::vector<uint32_t> boolSpecs;
        uint32_t target = UINT32_MAX;
        const bool plain = m.name.find("_plain") != std::string::npos;
        const uint32_t wanted = plain ? VKSPD_SPEC_SRGB : VKSPD_SPEC_ONE_SITE;
        ASSERT_TRUE(forEachInstruction(w, [&](uint32_t op, uint32_t n, const uint32_t* ins) {
            if (op == kOpSpecConstantTrue || op == kOpSpecConstantFalse) boolSpecs.push_back(ins[2]);
            if (op == kOpDecorate && n == 4 && ins[2] == kDecorationSpecId && ins[3] == wanted) target = ins[1];
        })) << m.name;
        ASSERT_NE(target, UINT32_MAX) << m.name << ": no SpecId " << wanted;
        EXPECT_NE(std::find(boolSpecs.begin(), boolSpecs.end(), target), boolSpecs.end())
            << m.name << ": SpecId " << wanted << " is not a boolean spec constant";
    }
}

// On a device without relative subgroup shuffles the odd-base module is compiled at run time with
// VKSPD_SHUFFLE_RELATIVE 0: it must not declare the capability (the device could not create it),
// where the embedded one does, and it must be valid SPIR-V for Vulkan 1.2.
TEST(EmbeddedSpirv, OddBaseModuleCompilesWithoutRelativeShuffles) {
    if (!vkspd::runtimeCompilerAvailable()) GTEST_SKIP() << "built without shaderc";
    constexpr uint32_t kCapGroupNonUniformShuffleRelative = 66;
    auto shuffles = [&](const std::vector<uint32_t>& w) {
        int n = 0;
        forEachInstruction(w, [&](uint32_t op, uint32_t, const uint32_t* ins) {
            if (op == kOpCapability && ins[1] == kCapGroupNonUniformShuffleRelative) ++n;
        });
        return n;
    };
    EXPECT_EQ(shuffles(words(vkspd::embeddedPlainSpirv(0, true, true, true))), 1) << "the embedded odd-base module";
    for (int fp16 = 0; fp16 < 2; ++fp16) {
        std::vector<uint32_t> w;
        vkspd::PlainModule module;
        module.fp16 = fp16 != 0;
        module.halo = 2;
        module.shuffleRelative = false;
        const vkspd::Result r = vkspd::compilePlainKernel(nullptr, nullptr, module, &w);
        ASSERT_TRUE(r.ok()) << r.message;
        EXPECT_EQ(shuffles(w), 0) << (fp16 ? "FP16" : "FP32");
        const int status = spirvVal(w, "vulkan1.2", fp16 ? "odd_unshuffled_fp16" : "odd_unshuffled_fp32");
        if (status != -1) {
            EXPECT_EQ(status, 0) << "spirv-val rejects the odd-base module without shuffles";
        }
    }
}
