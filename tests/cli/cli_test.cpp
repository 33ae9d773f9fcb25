// The vkspd CLI end to end: runs the real binary (under the validation layer unless
// VKSPD_TEST_NO_VALIDATION=1), then checks what it wrote: PNG/HDR levels decoded with stb_image,
// the KTX2 file parsed by an independent reader (ktx2_reader.hpp), every level compared with the
// library's CPU reference, the JSON report read by Python's json module, exit codes and messages
// for bad input, and that a failed input leaves none of its files behind.
#include "ktx2_reader.hpp"

#include <vkspd/reference.hpp>

#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using vkspd_test::Ktx2File;
using vkspd_test::parseKtx2;

namespace {

const std::string kSample = std::string(VKSPD_SOURCE_DIR) + "/samples/data/vkspd-sample.png";
const std::string kCorpus = std::string(VKSPD_SOURCE_DIR) + "/tests/fuzz/corpus";
constexpr uint32_t kSampleWidth = 333, kSampleHeight = 187, kSampleLevels = 9;

struct CliRun {
    int code = -1;
    std::string out, err;
};

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string readText(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<uint8_t> readBytes(const fs::path& p) {
    const std::string s = readText(p);
    return std::vector<uint8_t>(s.begin(), s.end());
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream ss(text);
    for (std::string line; std::getline(ss, line);) out.push_back(line);
    return out;
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::path(VKSPD_CLI_TEST_DIR) / info->name();
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }

    // Runs the CLI in the test's folder; standard input is empty, standard error not a terminal.
    CliRun run(const std::vector<std::string>& args) {
        std::string cli = quote(VKSPD_CLI);
        for (const std::string& a : args) cli += " " + quote(a);
        return runShell(cli + " < /dev/null");
    }

    // Runs `script` with sh in the test's folder, VKSPD_VALIDATION set as for run(); "$CLI" names
    // the binary.
    CliRun runShell(const std::string& script) {
        const bool validation = std::getenv("VKSPD_TEST_NO_VALIDATION") == nullptr;
        const std::string cmd = "cd " + quote(dir_.string()) + " && " + (validation ? "VKSPD_VALIDATION=1 " : "") +
                                "CLI=" + quote(VKSPD_CLI) + " sh -c " + quote(script) +
                                " < /dev/null > stdout.txt 2> stderr.txt";
        const int status = std::system(cmd.c_str());
        CliRun r;
        r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        r.out = readText(dir_ / "stdout.txt");
        r.err = readText(dir_ / "stderr.txt");
        fs::remove(dir_ / "stdout.txt");
        fs::remove(dir_ / "stderr.txt");
        // Any validation message fails the test (the CLI prints them as "vkspd: validation: ...").
        EXPECT_EQ(r.err.find("validation:"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("validation message"), std::string::npos) << r.err;
        return r;
    }

    // Evaluates a Python expression over the JSON report `d` (json.load of `file`).
    bool json(const std::string& file, const std::string& expression) {
        const fs::path script = dir_ / "check.py";
        std::ofstream(script) << "import json, sys\nd = json.load(open(sys.argv[1]))\nsys.exit(0 if (" << expression
                              << ") else 1)\n";
        const std::string cmd = "python3 " + quote(script.string()) + " " + quote((dir_ / file).string());
        return std::system(cmd.c_str()) == 0;
    }

    std::vector<std::string> filesIn(const fs::path& p) {
        std::vector<std::string> names;
        if (fs::exists(p))
            for (const auto& e : fs::directory_iterator(p)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

    fs::path dir_;
};

std::string levelName(uint32_t l, uint32_t w, uint32_t h, const char* ext = ".png") {
    char buf[64];
    std::snprintf(buf, sizeof buf, "level_%02u_%ux%u%s", l, w, h, ext);
    return buf;
}

// The sample as the CLI's level 0 of `format` sees it with --linear: its 8-bit RGBA codes.
std::vector<uint8_t> sampleRgba8() {
    int w = 0, h = 0, c = 0;
    stbi_uc* p = stbi_load(kSample.c_str(), &w, &h, &c, 4);
    EXPECT_TRUE(p);
    EXPECT_EQ(uint32_t(w), kSampleWidth);
    EXPECT_EQ(uint32_t(h), kSampleHeight);
    std::vector<uint8_t> v(p, p + size_t(w) * h * 4);
    stbi_image_free(p);
    return v;
}

// The reference chain of `format` from level 0 as stored (`level0`, tightly packed texels).
std::vector<vkspd::ReferenceLevel> referenceFor(VkFormat format, const uint8_t* level0, uint32_t w, uint32_t h,
                                                uint32_t levels,
                                                vkspd::Reduction reduction = vkspd::Reduction::Average) {
    vkspd::FormatInfo fi;
    EXPECT_TRUE(vkspd::getFormatInfo(format, &fi));
    std::vector<float> values(size_t(w) * h * fi.channels);
    EXPECT_TRUE(vkspd::decodeTexels(format, level0, size_t(w) * h, values.data()));
    uint32_t channels = fi.channels;
    if (reduction == vkspd::Reduction::MinMax) {
        for (size_t t = 0; t < size_t(w) * h; ++t) values[t] = values[t * fi.channels];
        channels = 1;
    }
    vkspd::ReferenceOptions options;
    options.reduction = reduction;
    return vkspd::referenceChain(values.data(), w, h, channels, levels, options);
}

// Checks the header, DFD and level index of a KTX2 file of the sample's chain.
Ktx2File checkKtx2(const fs::path& path, VkFormat format, uint32_t width, uint32_t height, uint32_t levels) {
    vkspd::FormatInfo fi;
    EXPECT_TRUE(vkspd::getFormatInfo(format, &fi));
    Ktx2File k = parseKtx2(readBytes(path), fi.bytesPerTexel);
    EXPECT_TRUE(k.problems.empty()) << ::testing::PrintToString(k.problems);
    EXPECT_EQ(k.vkFormat, uint32_t(format));
    EXPECT_EQ(k.pixelWidth, width);
    EXPECT_EQ(k.pixelHeight, height);
    EXPECT_EQ(k.pixelDepth, 0u);
    EXPECT_EQ(k.layerCount, 0u);
    EXPECT_EQ(k.faceCount, 1u);
    EXPECT_EQ(k.levelCount, levels);
    EXPECT_EQ(k.supercompression, 0u);
    EXPECT_EQ(k.sgdOffset, 0u);
    EXPECT_EQ(k.sgdLength, 0u);
    EXPECT_EQ(k.vendorId, 0u);        // Khronos
    EXPECT_EQ(k.descriptorType, 0u);  // basic
    EXPECT_EQ(k.versionNumber, 2u);
    EXPECT_EQ(k.colorModel, 1u);      // RGBSDA
    EXPECT_EQ(k.colorPrimaries, 1u);  // BT.709
    EXPECT_EQ(k.texelBlockDimensions, 0u);
    EXPECT_EQ(k.bytesPlane0, fi.bytesPerTexel);
    EXPECT_EQ(k.bytesPlanes1to7, 0u);
    EXPECT_EQ(k.keyValues.count("KTXwriter"), 1u);
    return k;
}

// Expects a KTX2 DFD of `channels` unpacked samples of `bits` bits in R G B A order.
void expectUnpackedSamples(const Ktx2File& k, uint32_t channels, uint32_t bits, uint32_t qualifiers, uint32_t lower,
                           uint32_t upper) {
    ASSERT_EQ(k.samples.size(), channels);
    static const uint32_t ids[4] = {0, 1, 2, 15};
    for (uint32_t i = 0; i < channels; ++i) {
        EXPECT_EQ(k.samples[i].channel, ids[i]) << "sample " << i;
        EXPECT_EQ(k.samples[i].bitOffset, bits * i) << "sample " << i;
        EXPECT_EQ(k.samples[i].bitLength, bits) << "sample " << i;
        EXPECT_EQ(k.samples[i].qualifiers, qualifiers) << "sample " << i;
        EXPECT_EQ(k.samples[i].lower, lower) << "sample " << i;
        EXPECT_EQ(k.samples[i].upper, upper) << "sample " << i;
    }
}

void expectWithinReference(VkFormat format, const uint8_t* gpu, const vkspd::ReferenceLevel& ref, double tolerance,
                           uint32_t level) {
    const vkspd::LevelError e = vkspd::compareLevel(format, gpu, ref, tolerance);
    EXPECT_EQ(e.overTolerance, 0u) << "level " << level << ": worst error " << e.worst << " at texel " << e.worstTexel;
    EXPECT_FALSE(e.nanMismatch) << "level " << level;
}

TEST_F(Cli, BundledImageLinearRgba8) {
    const CliRun r = run({kSample, "-o", "out", "--linear", "--verify", "--json", "report.json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("verified: every level within 1 ulp"), std::string::npos) << r.out;

    // One PNG per level, named and sized by the mip rule; level 0 is the input unchanged.
    const std::vector<uint8_t> level0 = sampleRgba8();
    const auto ref = referenceFor(VK_FORMAT_R8G8B8A8_UNORM, level0.data(), kSampleWidth, kSampleHeight, kSampleLevels);
    ASSERT_EQ(ref.size(), kSampleLevels);
    const Ktx2File k = checkKtx2(dir_ / "out/vkspd-sample.ktx2", VK_FORMAT_R8G8B8A8_UNORM, kSampleWidth, kSampleHeight,
                                 kSampleLevels);
    EXPECT_EQ(k.typeSize, 1u);
    EXPECT_EQ(k.transfer, 1u);  // linear
    expectUnpackedSamples(k, 4, 8, 0, 0, 255);
    ASSERT_EQ(k.levels.size(), kSampleLevels);
    for (uint32_t l = 0; l < kSampleLevels; ++l) {
        const uint32_t w = vkspd::mipExtent(kSampleWidth, l), h = vkspd::mipExtent(kSampleHeight, l);
        const fs::path png = dir_ / "out" / levelName(l, w, h);
        int pw = 0, ph = 0, pc = 0;
        stbi_uc* p = stbi_load(png.c_str(), &pw, &ph, &pc, 0);
        ASSERT_TRUE(p) << png;
        EXPECT_EQ(uint32_t(pw), w);
        EXPECT_EQ(uint32_t(ph), h);
        EXPECT_EQ(pc, 4);
        const size_t bytes = size_t(w) * h * 4;
        if (l == 0) EXPECT_EQ(0, std::memcmp(p, level0.data(), bytes));
        else expectWithinReference(VK_FORMAT_R8G8B8A8_UNORM, p, ref[l], 1.0, l);
        // The KTX2 level holds the same bytes.
        EXPECT_EQ(0, std::memcmp(p, k.levelData(l), bytes)) << "level " << l;
        stbi_image_free(p);
    }

    // The contact sheet: every level left to right, 4 columns apart, level 0 at the left.
    int sw = 0, sh = 0, sc = 0;
    stbi_uc* sheet = stbi_load((dir_ / "out/contact_sheet.png").c_str(), &sw, &sh, &sc, 4);
    ASSERT_TRUE(sheet);
    uint32_t expectWidth = 0;
    for (uint32_t l = 0; l < kSampleLevels; ++l) expectWidth += vkspd::mipExtent(kSampleWidth, l) + (l ? 4 : 0);
    EXPECT_EQ(uint32_t(sw), expectWidth);
    EXPECT_EQ(uint32_t(sh), kSampleHeight);
    EXPECT_EQ(0, std::memcmp(sheet, level0.data(), 4 * kSampleWidth));  // first row of level 0
    EXPECT_EQ(0, std::memcmp(sheet + 4 * (kSampleWidth + 4), k.levelData(1), 4 * (kSampleWidth / 2)));
    stbi_image_free(sheet);

    // Nothing else in the folder (no temporaries).
    EXPECT_EQ(filesIn(dir_ / "out").size(), kSampleLevels + 2);

    EXPECT_TRUE(json("report.json",
                     "d['exitCode'] == 0 and d['device']['name'] and len(d['files']) == 1 and "
                     "d['files'][0]['format'] == 'rgba8' and d['files'][0]['levels'] == 9 and "
                     "d['files'][0]['width'] == 333 and d['files'][0]['verify']['ok'] and "
                     "len(d['files'][0]['verify']['levels']) == 8 and "
                     "all(l['worstError'] <= 1 for l in d['files'][0]['verify']['levels']) and "
                     "d['files'][0]['dispatch']['groups'] == [6, 3, 1] and len(d['files'][0]['outputs']) == 11"));
}

TEST_F(Cli, HalfFloatChainWritesHdrLevelsAndMatchesTheReference) {
    const CliRun r = run({kSample, "-o", "out", "--linear", "--format", "rgba16f", "--verify"});
    ASSERT_EQ(r.code, 0) << r.err;
    const VkFormat f = VK_FORMAT_R16G16B16A16_SFLOAT;
    const Ktx2File k = checkKtx2(dir_ / "out/vkspd-sample.ktx2", f, kSampleWidth, kSampleHeight, kSampleLevels);
    EXPECT_EQ(k.typeSize, 2u);
    expectUnpackedSamples(k, 4, 16, 0x80 | 0x40, 0xBF800000u, 0x3F800000u);  // float, signed, -1..1
    // Level 0 holds the 8-bit codes as linear values; the others are within the FP16 path's 4 ulp.
    const std::vector<uint8_t> codes = sampleRgba8();
    std::vector<float> values(k.levels[0].length / 2);
    ASSERT_TRUE(vkspd::decodeTexels(f, k.levelData(0), kSampleWidth * kSampleHeight, values.data()));
    for (size_t i = 0; i < values.size(); i += 97) EXPECT_NEAR(values[i], codes[i] / 255.0, 1e-3) << i;
    const auto ref = referenceFor(f, k.levelData(0), kSampleWidth, kSampleHeight, kSampleLevels);
    for (uint32_t l = 1; l < kSampleLevels; ++l)
        expectWithinReference(f, k.levelData(l), ref[l], vkspd::toleranceFor(f, true), l);
    // Radiance HDR files of the same values, to RGBE's 8-bit shared-exponent precision.
    for (uint32_t l = 0; l < kSampleLevels; ++l) {
        const uint32_t w = vkspd::mipExtent(kSampleWidth, l), h = vkspd::mipExtent(kSampleHeight, l);
        int hw = 0, hh = 0, hc = 0;
        float* hdr = stbi_loadf((dir_ / "out" / levelName(l, w, h, ".hdr")).c_str(), &hw, &hh, &hc, 4);
        ASSERT_TRUE(hdr) << "level " << l;
        EXPECT_EQ(uint32_t(hw), w);
        EXPECT_EQ(uint32_t(hh), h);
        std::vector<float> stored(size_t(w) * h * 4);
        ASSERT_TRUE(vkspd::decodeTexels(f, k.levelData(l), size_t(w) * h, stored.data()));
        for (size_t t = 0; t < size_t(w) * h; ++t) {
            const float peak = std::max({stored[4 * t], stored[4 * t + 1], stored[4 * t + 2]});
            for (int c = 0; c < 3; ++c)
                ASSERT_NEAR(hdr[4 * t + c], stored[4 * t + c], peak / 128 + 1e-6) << "level " << l << " texel " << t;
        }
        stbi_image_free(hdr);
    }
}

TEST_F(Cli, SixteenBitUnormChainWritesSixteenBitPngs) {
    const CliRun r = run({kSample, "-o", "out", "--linear", "--format", "rgba16", "--verify"});
    ASSERT_EQ(r.code, 0) << r.err;
    const VkFormat f = VK_FORMAT_R16G16B16A16_UNORM;
    const Ktx2File k = checkKtx2(dir_ / "out/vkspd-sample.ktx2", f, kSampleWidth, kSampleHeight, kSampleLevels);
    EXPECT_EQ(k.typeSize, 2u);
    expectUnpackedSamples(k, 4, 16, 0, 0, 65535);
    const auto ref = referenceFor(f, k.levelData(0), kSampleWidth, kSampleHeight, kSampleLevels);
    const std::vector<uint8_t> codes = sampleRgba8();
    for (uint32_t l = 0; l < kSampleLevels; ++l) {
        const uint32_t w = vkspd::mipExtent(kSampleWidth, l), h = vkspd::mipExtent(kSampleHeight, l);
        const std::string png = (dir_ / "out" / levelName(l, w, h)).string();
        EXPECT_TRUE(stbi_is_16_bit(png.c_str())) << png;
        int pw = 0, ph = 0, pc = 0;
        stbi_us* p = stbi_load_16(png.c_str(), &pw, &ph, &pc, 0);
        ASSERT_TRUE(p) << png;
        EXPECT_EQ(uint32_t(pw), w);
        EXPECT_EQ(uint32_t(ph), h);
        EXPECT_EQ(pc, 4);
        // The PNG holds exactly the stored 16-bit values (the KTX2 bytes are little-endian).
        EXPECT_EQ(0, std::memcmp(p, k.levelData(l), size_t(w) * h * 8)) << "level " << l;
        if (l == 0)
            for (size_t i = 0; i < codes.size(); i += 101) EXPECT_EQ(p[i], codes[i] * 257u) << i;
        else
            expectWithinReference(f, k.levelData(l), ref[l], 1.0, l);
        stbi_image_free(p);
    }
}

// Needs the sRGB single pass from the library.
TEST_F(Cli, EightBitColourDefaultsToSrgb) {
    const CliRun r = run({kSample, "-o", "out", "--verify"});
    ASSERT_EQ(r.code, 0) << r.err;
    const VkFormat f = VK_FORMAT_R8G8B8A8_SRGB;
    const Ktx2File k = checkKtx2(dir_ / "out/vkspd-sample.ktx2", f, kSampleWidth, kSampleHeight, kSampleLevels);
    EXPECT_EQ(k.transfer, 2u);  // sRGB
    ASSERT_EQ(k.samples.size(), 4u);
    EXPECT_EQ(k.samples[0].qualifiers, 0u);
    EXPECT_EQ(k.samples[3].qualifiers, 0x10u);  // alpha is linear
    const std::vector<uint8_t> codes = sampleRgba8();
    EXPECT_EQ(0, std::memcmp(k.levelData(0), codes.data(), codes.size()));  // sRGB codes as in the file
    const auto ref = referenceFor(f, k.levelData(0), kSampleWidth, kSampleHeight, kSampleLevels);
    for (uint32_t l = 1; l < kSampleLevels; ++l) expectWithinReference(f, k.levelData(l), ref[l], 1.0, l);
}

// Needs the MinMax reduction on the GPU from the library.
TEST_F(Cli, MinMaxChainHoldsMinimumAndMaximumOfTheFirstChannel) {
    const CliRun r = run({kSample, "-o", "out", "--reduction", "minmax", "--verify"});
    ASSERT_EQ(r.code, 0) << r.err;
    const VkFormat f = VK_FORMAT_R8G8_UNORM;
    const Ktx2File k = checkKtx2(dir_ / "out/vkspd-sample.ktx2", f, kSampleWidth, kSampleHeight, kSampleLevels);
    expectUnpackedSamples(k, 2, 8, 0, 0, 255);
    const std::vector<uint8_t> codes = sampleRgba8();
    for (size_t t = 0; t < size_t(kSampleWidth) * kSampleHeight; ++t) {
        ASSERT_EQ(k.levelData(0)[2 * t], codes[4 * t]) << t;
        ASSERT_EQ(k.levelData(0)[2 * t + 1], codes[4 * t]) << t;
    }
    const auto ref =
        referenceFor(f, k.levelData(0), kSampleWidth, kSampleHeight, kSampleLevels, vkspd::Reduction::MinMax);
    ASSERT_EQ(ref.size(), kSampleLevels);
    for (uint32_t l = 1; l < kSampleLevels; ++l) expectWithinReference(f, k.levelData(l), ref[l], 0.0, l);
    // Two-channel levels are written as RGB PNGs with blue 0.
    int pw = 0, ph = 0, pc = 0;
    stbi_uc* p = stbi_load((dir_ / "out" / levelName(1, 166, 93)).c_str(), &pw, &ph, &pc, 0);
    ASSERT_TRUE(p);
    EXPECT_EQ(pc, 3);
    EXPECT_EQ(p[0], k.levelData(1)[0]);
    EXPECT_EQ(p[1], k.levelData(1)[1]);
    EXPECT_EQ(p[2], 0);
    stbi_image_free(p);
}

// Needs the Max reduction on the GPU from the library.
TEST_F(Cli, MaxChainIsBitExact) {
    const CliRun r = run({kSample, "-o", "out", "--reduction", "max", "--linear", "--verify"});
    ASSERT_EQ(r.code, 0) << r.err;
    const VkFormat f = VK_FORMAT_R8G8B8A8_UNORM;
    const Ktx2File k = checkKtx2(dir_ / "out/vkspd-sample.ktx2", f, kSampleWidth, kSampleHeight, kSampleLevels);
    const auto ref = referenceFor(f, k.levelData(0), kSampleWidth, kSampleHeight, kSampleLevels, vkspd::Reduction::Max);
    ASSERT_EQ(ref.size(), kSampleLevels);
    for (uint32_t l = 1; l < kSampleLevels; ++l) expectWithinReference(f, k.levelData(l), ref[l], 0.0, l);
}

// The PNG CRC-32 of `n` bytes.
uint32_t pngCrc(const uint8_t* d, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        c ^= d[i];
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

// A chain the device cannot make is refused from the file's header, before anything is decoded
// or uploaded. The general kernel binds scratch data in up to 4 ranges, so every one-layer chain
// lavapipe can hold (maxImageDimension2D 16384) fits; the halo-stage kernel binds its kept level
// as one range, and at 16384x16380 that level (4096x4095 texels of 16 bytes, 268 MB) is past
// lavapipe's maxStorageBufferRange of 128 MiB. The header is a 16384x16380 8-bit RGBA PNG's (then
// a 5x3 image's data, which cannot be decoded at that size). Decoding first failed on the data
// ("truncated" or "corrupt"); --random first made 1 GiB of texels and uploaded them.
TEST_F(Cli, ChainTooLargeForTheDeviceIsRefusedFromTheHeader) {
    std::vector<uint8_t> png = readBytes(kCorpus + "/png_huge_header_20000x1.png");
    ASSERT_GE(png.size(), 33u);
    auto put32 = [&](size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i) png[at + i] = uint8_t(v >> (24 - 8 * i));
    };
    put32(16, 16384);  // IHDR width and height
    put32(20, 16380);
    put32(29, pngCrc(png.data() + 12, 17));
    std::ofstream(dir_ / "big.png", std::ios::binary).write(reinterpret_cast<const char*>(png.data()), png.size());

    const auto start = std::chrono::steady_clock::now();
    const CliRun random = run({"--random", "16384x16380", "--kernel", "halo", "--no-write"});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (random.code == 0) GTEST_SKIP() << "the halo-stage kernel's scratch of 16384x16380 fits this device";
    EXPECT_EQ(random.code, 3) << random.err;
    EXPECT_NE(random.err.find("random-16384x16380: mip range 0..14 of 1 layer(s) of 16384x16380 needs "),
              std::string::npos)
        << random.err;
    EXPECT_NE(random.err.find("maxStorageBufferRange"), std::string::npos) << random.err;
    EXPECT_NE(random.err.find("Kernel::General"), std::string::npos) << random.err;
    // Refused before the 1 GiB of random texels is made and uploaded (several seconds here).
    EXPECT_LT(seconds, 3.0);

    const CliRun file = run({"big.png", "-o", "out", "--kernel", "halo"});
    EXPECT_EQ(file.code, 3) << file.err;
    EXPECT_NE(file.err.find("vkspd: big.png: mip range 0..14 of 1 layer(s) of 16384x16380 needs "), std::string::npos)
        << file.err;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "nothing to write, so no folder";
}

// --kernel halo runs the halo-stage kernel, whose chain --verify compares with the CPU reference,
// and the summary line says how its stage 0 runs (a plain prefix, or tiles of an odd base); a
// size it does not take is refused with the library's reason.
TEST_F(Cli, HaloKernelVerifiesAndIsNamed) {
    const CliRun r = run({"--random", "260x132", "--kernel", "halo", "--verify", "--no-write"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("halo-stage kernel, "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("a prefix of 2 levels"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("verified: every level within"), std::string::npos) << r.out;
    const CliRun odd = run({"--random", "131x63", "--kernel", "halo", "--verify", "--no-write"});
    ASSERT_EQ(odd.code, 0) << odd.err;
    EXPECT_NE(odd.out.find("halo-stage kernel, 2 stages, the first of 3 levels in 64x64 tiles of the base with a "
                           "halo"),
              std::string::npos)
        << odd.out;
    EXPECT_NE(odd.out.find("verified: every level within"), std::string::npos) << odd.out;
    const CliRun plain = run({"--random", "256x256", "--kernel", "halo", "--no-write"});
    EXPECT_NE(plain.code, 0);
    EXPECT_NE(plain.err.find("Kernel::HaloStages: the mip range does not suit it: the chain is plain"),
              std::string::npos)
        << plain.err;
}

// --kernel summed runs the summed-levels kernel (a plain prefix, the later levels summed), whose
// chain --verify compares with the CPU reference, named on the summary line; the average of a
// format whose values leave [0, 1] is refused with the library's reason and a non-zero exit, its
// maximum pyramid is not.
TEST_F(Cli, SummedLevelsKernelVerifiesAndIsNamed) {
    const CliRun r = run({"--random", "200x120", "--kernel", "summed", "--verify", "--no-write"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("summed-levels kernel, a prefix of 3 levels in strips of"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("verified: every level within"), std::string::npos) << r.out;
    const CliRun hdr = run({"--random", "200x120", "--kernel", "summed", "--format", "rgba16f", "--no-write"});
    EXPECT_NE(hdr.code, 0);
    EXPECT_NE(hdr.err.find("Kernel::SummedLevels: it sums averages of values in [0, 1]"), std::string::npos)
        << hdr.err;
    // The same format's maximum pyramid: any format's Min and Max are combined bit for bit.
    const CliRun max = run({"--random", "200x120", "--kernel", "summed", "--format", "rgba16f", "--reduction", "max",
                            "--verify", "--no-write"});
    ASSERT_EQ(max.code, 0) << max.err;
    EXPECT_NE(max.out.find("summed-levels kernel"), std::string::npos) << max.out;
    EXPECT_NE(max.out.find("verified: every level within"), std::string::npos) << max.out;
}

struct BadCase {
    std::vector<std::string> args;
    int code;
    std::string message;  // Part of the one error line.
};

TEST_F(Cli, BadInputGivesOneLineAndTheDocumentedExitCode) {
    std::ofstream(dir_ / "a-file") << "x";
    const std::vector<BadCase> cases = {
        {{"missing.png"}, 3, "vkspd: missing.png: cannot read: No such file or directory"},
        {{"."}, 3, "vkspd: .: cannot read: Is a directory"},
        {{kCorpus + "/png_truncated_in_idat.png"}, 3, "png_truncated_in_idat.png: truncated PNG"},
        {{kCorpus + "/png_corrupt_zlib.png"}, 3, "png_corrupt_zlib.png: cannot decode PNG"},
        {{kCorpus + "/png_inflates_past_image.png"}, 3,
         "png_inflates_past_image.png: corrupt PNG: its compressed data inflates past the 1x1 image"},
        {{kCorpus + "/png_huge_header_20000x1.png"}, 3, "20000x1 exceeds this device's maxImageDimension2D"},
        {{kCorpus + "/png_huge_header_100000x100000.png"}, 3,
         "png_huge_header_100000x100000.png: 100000x100000 exceeds this device's maxImageDimension2D"},
        // A valid header stb_image cannot decode: 2 GiB decoded is past its 32-bit sizes.
        {{kCorpus + "/png_16bit_rgba_16384x16384.png"}, 3,
         "png_16bit_rgba_16384x16384.png: 16384x16384 16-bit RGBA is 2048 MiB decoded; the image decoder "
         "(stb_image) decodes at most 2 GiB - 1 byte"},
        {{kCorpus + "/bmp_negative_width.bmp"}, 3, "bmp_negative_width.bmp: BMP of zero size"},
        {{kCorpus + "/jpeg_dht_over_256_symbols.jpg"}, 3, "a Huffman table of"},
        {{kCorpus + "/jpeg_17_scans.jpg"}, 3,
         "jpeg_17_scans.jpg: unsupported JPEG: component 1 is in more than 16 scans"},
        {{kCorpus + "/jpeg_undefined_huffman_table.jpg"}, 3,
         "jpeg_undefined_huffman_table.jpg: corrupt JPEG: scan 1 uses Huffman table AC 2"},
        {{kCorpus + "/text_file.png"}, 3, "text_file.png: not an image of a supported type"},
        // PNM is not a documented format (stb's PNM reader is compiled out: its header parser
        // overflowed a signed int in the fuzz test).
        {{kCorpus + "/pnm_header_number_overflow.ppm"}, 3,
         "pnm_header_number_overflow.ppm: not an image of a supported type"},
        {{kCorpus + "/empty_file.png"}, 3, "empty_file.png: empty file"},
        {{kSample, "--bogus"}, 2, "vkspd: unknown option --bogus"},
        {{kSample, "--format", "rgb9"}, 2, "vkspd: --format rgb9: unknown format"},
        {{kSample, "--reduction", "median"}, 2, "expected avg, min, max or minmax"},
        {{kSample, "--reduction", "minmax", "--format", "rgba8"}, 2, "needs a two-channel --format"},
        {{kSample, "--bench", "0"}, 2, "--bench 0: expected a run count"},
        {{kSample, "--bench-cold", "101"}, 2, "--bench-cold 101: expected a run count from 1 to 100"},
        {{kSample, "--fp16", "--fp32"}, 2, "contradict"},
        {{kSample, "-o"}, 2, "-o needs a value"},
        {{}, 2, "no input image"},
        {{kSample, "--device", "99"}, 2, "--device 99: there are only"},
        {{kSample, "--device", "no-such-gpu-name"}, 2, "no device name contains it"},
        {{kSample, "-o", "a-file/sub"}, 5, "vkspd: a-file/sub: cannot create folder: Not a directory"},
    };
    for (const BadCase& c : cases) {
        std::vector<std::string> args = c.args;
        if (std::find(args.begin(), args.end(), "-o") == args.end() && c.code != 2) {
            args.push_back("-o");
            args.push_back("out");
        }
        fs::remove_all(dir_ / "out");
        const CliRun r = run(args);
        const std::string what = ::testing::PrintToString(c.args);
        EXPECT_EQ(r.code, c.code) << what << "\n" << r.err;
        const auto errLines = lines(r.err);
        ASSERT_EQ(errLines.size(), 1u) << what << "\n" << r.err;
        EXPECT_EQ(errLines[0].rfind("vkspd: ", 0), 0u) << errLines[0];
        EXPECT_NE(errLines[0].find(c.message), std::string::npos) << what << "\n" << errLines[0];
        EXPECT_FALSE(fs::exists(dir_ / "out")) << what;  // no output folder for inputs that all failed
    }
}

TEST_F(Cli, FailedWriteLeavesNothingHalfWritten) {
    // A folder where the contact sheet must go: the last renames fail, after the levels were
    // written and some renamed; every new file of the input must be gone again.
    fs::create_directories(dir_ / "out/contact_sheet.png");
    const CliRun r = run({kSample, "-o", "out", "--linear"});
    EXPECT_EQ(r.code, 5) << r.err;
    const auto errLines = lines(r.err);
    ASSERT_EQ(errLines.size(), 1u) << r.err;
    EXPECT_NE(errLines[0].find("contact_sheet.png"), std::string::npos) << errLines[0];
    EXPECT_EQ(filesIn(dir_ / "out"), std::vector<std::string>{"contact_sheet.png"});

    // Same for the KTX2 file, the last one added.
    fs::remove_all(dir_ / "out");
    fs::create_directories(dir_ / "out/vkspd-sample.ktx2");
    EXPECT_EQ(run({kSample, "-o", "out", "--linear"}).code, 5);
    EXPECT_EQ(filesIn(dir_ / "out"), std::vector<std::string>{"vkspd-sample.ktx2"});
}

TEST_F(Cli, BatchGoesOnPastBadFilesAndExitsNonZero) {
    fs::create_directories(dir_ / "a");
    fs::create_directories(dir_ / "b");
    fs::copy_file(kCorpus + "/png_valid_5x3_rgba.png", dir_ / "a/x.png");
    fs::copy_file(kCorpus + "/png_valid_5x3_rgba.png", dir_ / "b/x.png");
    const CliRun r = run({kSample, "missing.png", "a/x.png", kCorpus + "/png_truncated_in_idat.png", "b/x.png", "-o",
                          "out", "--linear", "--verify", "--json", "report.json"});
    EXPECT_EQ(r.code, 3) << r.err;  // the first failure's code
    // Outputs for the good inputs only, in a folder each (x and x-2 for the two x.png).
    EXPECT_EQ(filesIn(dir_ / "out"), (std::vector<std::string>{"vkspd-sample", "x", "x-2"}));
    EXPECT_EQ(filesIn(dir_ / "out/vkspd-sample").size(), kSampleLevels + 2);
    EXPECT_EQ(filesIn(dir_ / "out/x"), (std::vector<std::string>{"contact_sheet.png", "level_00_5x3.png",
                                                                 "level_01_2x1.png", "level_02_1x1.png", "x.ktx2"}));
    EXPECT_EQ(filesIn(dir_ / "out/x-2").size(), 5u);
    // One error line per bad input, plain progress lines (standard error is not a terminal), a total.
    EXPECT_NE(r.err.find("vkspd: missing.png: cannot read"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("png_truncated_in_idat.png: truncated PNG"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("vkspd: [1/5] " + kSample + ": ok"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("vkspd: [2/5] missing.png: failed (exit code 3)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("vkspd: [5/5] b/x.png: ok"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("vkspd: 2 of 5 inputs failed"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos);  // no bar drawing when not a terminal
    EXPECT_TRUE(json("report.json", "d['exitCode'] == 3 and [f['exitCode'] for f in d['files']] == [0, 3, 0, 3, 0] "
                                    "and d['files'][1]['error'].startswith('cannot read')"));
}

TEST_F(Cli, CorpusThroughTheCli) {
    // Every hand-made corpus file in one batch: the valid ones give chains, the others one line
    // each and exit code 3; nothing crashes.
    std::vector<std::string> args;
    std::vector<std::pair<std::string, bool>> expected;  // name, loads
    std::ifstream list(std::string(VKSPD_SOURCE_DIR) + "/tests/fuzz/expected.txt");
    for (std::string line; std::getline(list, line);) {
        if (line.empty() || line[0] == '#') continue;
        const std::string name = line.substr(0, line.find(' '));
        args.push_back(kCorpus + "/" + name);
        expected.push_back({name, line.find(" ok ") != std::string::npos});
    }
    ASSERT_GT(expected.size(), 30u);
    args.insert(args.end(), {"-o", "out", "--linear", "--verify", "--quiet"});
    const CliRun r = run(args);
    EXPECT_EQ(r.code, 3);
    size_t errors = 0;
    for (const auto& e : expected) {
        const bool reported = r.err.find("/" + e.first + ": ") != std::string::npos;
        EXPECT_EQ(reported, !e.second) << e.first << "\n" << r.err;
        const std::string folder = e.first.substr(0, e.first.rfind('.'));
        EXPECT_EQ(fs::exists(dir_ / "out" / folder), e.second) << e.first;
        errors += e.second ? 0 : 1;
    }
    EXPECT_EQ(lines(r.err).size(), errors) << r.err;  // --quiet: the error lines only
}

TEST_F(Cli, ProgressBarOnATerminal) {
    // script(1) gives the CLI a terminal; its output (standard output and error) is the typescript.
    if (std::system("command -v script > /dev/null") != 0) GTEST_SKIP() << "script(1) not installed";
    fs::copy_file(kCorpus + "/png_valid_5x3_rgba.png", dir_ / "a.png");
    const bool validation = std::getenv("VKSPD_TEST_NO_VALIDATION") == nullptr;
    const std::string cli = std::string(validation ? "VKSPD_VALIDATION=1 " : "") + quote(VKSPD_CLI) + " " +
                            quote(kSample) + " a.png missing.png --linear -o out";
    const std::string cmd = "cd " + quote(dir_.string()) + " && script -qec " + quote(cli) +
                            " /dev/null < /dev/null > typescript.txt 2>&1";
    const int status = std::system(cmd.c_str());
    const std::string typescript = readText(dir_ / "typescript.txt");
    EXPECT_EQ(WEXITSTATUS(status), 3) << typescript;
    EXPECT_NE(typescript.find("\r\033[K["), std::string::npos) << typescript;  // redrawn in place
    EXPECT_NE(typescript.find("] 100%  3/3 missing.png: failed"), std::string::npos) << typescript;
    EXPECT_NE(typescript.find("2/3 a.png: generating"), std::string::npos) << typescript;
    EXPECT_NE(typescript.find("vkspd: missing.png: cannot read"), std::string::npos) << typescript;
    EXPECT_EQ(typescript.find("vkspd: [1/3]"), std::string::npos);  // no plain lines on a terminal
    EXPECT_EQ(typescript.find("validation:"), std::string::npos) << typescript;
}

TEST_F(Cli, HelpExplainsEveryOption) {
    const CliRun r = run({"--help"});
    ASSERT_EQ(r.code, 0);
    for (const char* option : {"-o, --output", "--format", "--reduction", "--srgb", "--linear", "--fp16", "--fp32",
                               "--path quad|lds", "--device N|NAME", "--list-devices", "--verify", "--json", "--bench",
                               "--bench-cold N",
                               "--fetch F", "--group-columns N", "--no-write", "--random", "--quiet", "--help",
                               "VKSPD_VALIDATION", "exit codes",
                               "examples:"})
        EXPECT_NE(r.out.find(option), std::string::npos) << option;
    for (const char* format : {"rgba8-srgb", "bgra8", "r8-snorm", "rgba16", "rgba16f", "r32f", "rgba32f", "b10g11r11f",
                               "a2b10g10r10"})
        EXPECT_NE(r.out.find(std::string("    ") + format + " "), std::string::npos) << format;
    for (const char* option : {"--occupancy", "--order-map FILE", "--sm-map FILE", "--pipeline-cache FILE"})
        EXPECT_NE(r.out.find(option), std::string::npos) << option;
    for (int code = 0; code <= 6; ++code)
        EXPECT_NE(r.out.find("\n  " + std::to_string(code) + "  "), std::string::npos) << "exit code " << code;
    EXPECT_NE(r.out.find("\n  130, 143  stopped by SIGINT, SIGTERM"), std::string::npos);
}

TEST_F(Cli, ListsDevicesAndPicksOneByName) {
    const CliRun list = run({"--list-devices"});
    ASSERT_EQ(list.code, 0) << list.err;
    ASSERT_EQ(list.out.rfind("0: ", 0), 0u) << list.out;
    EXPECT_NE(list.out.find("<- chosen"), std::string::npos) << list.out;
    // The first word of device 0's name picks it.
    const std::string first = list.out.substr(3, list.out.find_first_of(" (", 3) - 3);
    const CliRun r = run({kSample, "--device", first, "--linear", "--no-write", "--json", "r.json"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(json("r.json", "d['device']['index'] == 0 and d['device']['name'].startswith('" + first + "')"));
    EXPECT_TRUE(filesIn(dir_ / "vkspd-out").empty());  // --no-write
}

// --bench warms the GPU up first and says what it did, with the SM clock where NVML can read it
// (else why not: this machine's device is not one NVML knows), on the terminal and in --json;
// then it times the runs.
TEST_F(Cli, BenchReportsTimestamps) {
    const CliRun r = run({kSample, "--linear", "--bench", "3", "--no-write", "--json", "r.json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("bench: 3 runs after the warm-up: median"), std::string::npos) << r.out;
    EXPECT_TRUE(json("r.json", "d['files'][0]['bench']['runs'] == 3 and d['files'][0]['bench']['medianUs'] > 0 and "
                               "0 < d['files'][0]['bench']['minUs'] <= d['files'][0]['bench']['medianUs'] and "
                               "d['files'][0]['bench']['effectiveGBps'] > 0"));
    const size_t warm = r.out.find("  bench: warmed up for ");
    ASSERT_NE(warm, std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" calls (GPU work ", warm), std::string::npos) << r.out;
    const bool clock = r.out.find("  bench: SM clock ") != std::string::npos &&
                       r.out.find(" before the warm-up, ") != std::string::npos;
    const bool noClock = r.out.find("  bench: SM clock: not available (") != std::string::npos;
    EXPECT_TRUE(clock != noClock) << r.out;
    EXPECT_LT(warm, r.out.find("bench: 3 runs after the warm-up")) << r.out;  // in that order
    const std::string b = "d['files'][0]['bench']";
    EXPECT_TRUE(json("r.json", b + "['warmup']['calls'] >= 4 and " + b + "['warmupRuns'] == " + b +
                                   "['warmup']['calls'] and " + b + "['warmup']['batches'] >= 1 and " + b +
                                   "['warmup']['gpuWorkMs'] > 0 and " + b + "['warmup']['spanMs'] >= " + b +
                                   "['warmup']['gpuWorkMs'] * 0.999 and " + b +
                                   "['warmup']['ruleMinGpuWorkMs'] == 500 and " + b +
                                   "['warmup']['ruleAgreeingGpuWorkMs'] == 250 and " + b +
                                   "['warmup']['agreeingBatches'] >= 1"));
    // Steady, or stopped at the cap: a CPU device shared with other work may not settle within 3%.
    EXPECT_TRUE(json("r.json", b + "['warmup']['steady'] or " + b + "['warmup']['wallMs'] >= 3000"));
    EXPECT_TRUE(json("r.json", "d['files'][0]['smClock']['available'] == ('smClockMhz' in " + b +
                                   ") and (d['files'][0]['smClock']['available'] or "
                                   "len(d['files'][0]['smClock']['note']) > 0)"));
}

// --bench-cold times single dispatches on an idle GPU, reported as cold (and no warm-up).
TEST_F(Cli, BenchColdTimesAnIdleGpu) {
    const CliRun r = run({"--random", "64x64", "--linear", "--bench-cold", "1", "--no-write", "--json", "r.json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("  bench (cold): 1 run, each alone after 1000 ms with the GPU idle: median "),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  bench (cold): SM clock"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("warmed up"), std::string::npos) << r.out;
    EXPECT_TRUE(json("r.json", "d['files'][0]['benchCold']['runs'] == 1 and "
                               "d['files'][0]['benchCold']['idleMsBeforeEach'] == 1000 and "
                               "0 < d['files'][0]['benchCold']['minUs'] == d['files'][0]['benchCold']['medianUs'] == "
                               "d['files'][0]['benchCold']['maxUs'] and 'bench' not in d['files'][0]"));
}

TEST_F(Cli, TailStripsAreDescribedAndKeepTheOutput) {
    // --tail T/P reaches the library: 512x256 is 8x4 tiles, strips of 4, the last row (8 tiles) in
    // strips of 1 taken by four rows of groups; the line names them, and every level verifies.
    const CliRun r = run({"--random", "512x256", "--linear", "--no-write", "--verify", "--tiles-per-group", "4",
                          "--tail", "8/1"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("one dispatch of 2x7 groups (FP16, quad, plain-chain kernel, 4 tiles per group "
                         "(1 from tile row 3))"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("verified: every level"), std::string::npos) << r.out;
}

TEST_F(Cli, ReadsStandardInput) {
    const std::string cmd = "cd " + quote(dir_.string()) + " && " + quote(VKSPD_CLI) + " - --linear -o out < " +
                            quote(kSample) + " > /dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const Ktx2File k = checkKtx2(dir_ / "out/stdin.ktx2", VK_FORMAT_R8G8B8A8_UNORM, kSampleWidth, kSampleHeight,
                                 kSampleLevels);
    const std::vector<uint8_t> codes = sampleRgba8();
    EXPECT_EQ(0, std::memcmp(k.levelData(0), codes.data(), codes.size()));
}

TEST_F(Cli, JsonToStandardOutputIsTheOnlyOutput) {
    const CliRun r = run({kSample, "--linear", "--no-write", "--verify", "--json", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    std::ofstream(dir_ / "stdout.json") << r.out;
    EXPECT_TRUE(json("stdout.json", "d['files'][0]['verify']['ok']"));
}

}  // namespace

// Seeing the GPU at work (docs/TOOLS.md).
TEST_F(Cli, OrderMapIsAPictureOfEveryTile) {
    // 333x187: 6x3 tiles of 64x64.
    const CliRun r = run({kSample, "--linear", "--no-write", "--order-map", "order.png"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("order map: order.png: 6x3 tiles of 64x64"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("yellow last (17)"), std::string::npos) << r.out;
    int w = 0, h = 0, c = 0;
    stbi_uc* p = stbi_load((dir_ / "order.png").string().c_str(), &w, &h, &c, 4);
    ASSERT_TRUE(p) << "order.png does not decode";
    // Cells of 16 pixels with an 8-pixel margin, a legend below.
    EXPECT_GE(w, 6 * 16 + 16);
    EXPECT_GT(h, 3 * 16 + 16);
    // Every tile cell is coloured (not the grey of a tile without an entry, not the white ground).
    for (int ty = 0; ty < 3; ++ty)
        for (int tx = 0; tx < 6; ++tx) {
            const stbi_uc* px = p + (size_t(8 + ty * 16 + 8) * w + 8 + tx * 16 + 8) * 4;
            const bool grey = px[0] == 96 && px[1] == 96 && px[2] == 96;
            const bool white = px[0] == 255 && px[1] == 255 && px[2] == 255;
            EXPECT_FALSE(grey || white) << "tile " << tx << "," << ty;
        }
    stbi_image_free(p);
    EXPECT_TRUE(filesIn(dir_ / "vkspd-out").empty());  // --no-write
}

TEST_F(Cli, SmMapNeedsTheNvidiaExtension) {
    const CliRun list = run({"--list-devices"});
    const bool lavapipe = list.out.find("llvmpipe") != std::string::npos;
    const CliRun r = run({kSample, "--linear", "--no-write", "--sm-map", "sm.png"});
    if (lavapipe || r.code != 0) {
        // Without VK_NV_shader_sm_builtins (lavapipe never has it): a clear message and exit code 6.
        EXPECT_EQ(r.code, 6) << r.err;
        EXPECT_NE(r.err.find("VK_NV_shader_sm_builtins"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("--order-map works on every device"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir_ / "sm.png"));
        return;
    }
    // With it (NVIDIA): the picture and the tiles per SM.
    EXPECT_NE(r.out.find("SM map: sm.png: 6x3 tiles over "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("tiles per SM min "), std::string::npos) << r.out;
    int w = 0, h = 0, c = 0;
    stbi_uc* p = stbi_load((dir_ / "sm.png").string().c_str(), &w, &h, &c, 4);
    ASSERT_TRUE(p) << "sm.png does not decode";
    stbi_image_free(p);
}

TEST_F(Cli, OccupancyTableNeedsNoInput) {
    const CliRun r = run({"--occupancy"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("limited by"), std::string::npos) << r.out;
    for (const char* variant : {"average fp32 lds", "min fp32 lds", "max fp32 lds", "minmax fp32 lds"})
        EXPECT_NE(r.out.find(variant), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("per-SM limits: "), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir_ / "vkspd-out"));
}

// --pipeline-cache FILE: written at the end as this device's Vulkan pipeline cache (a header of
// version one with its vendor), read by the next run without a word; one another device made is
// replaced (with a note); a file that is not a pipeline cache is refused (exit code 2) and left as
// it was; a missing folder fails before any work (exit code 5).
TEST_F(Cli, PipelineCacheIsKeptInItsFile) {
    const CliRun first = run({"--random", "64x64", "--no-write", "--pipeline-cache", "cache.bin"});
    ASSERT_EQ(first.code, 0) << first.err;
    std::vector<uint8_t> bytes = readBytes(dir_ / "cache.bin");
    ASSERT_GE(bytes.size(), 32u);
    uint32_t header[3];
    std::memcpy(header, bytes.data(), sizeof header);
    EXPECT_EQ(header[0], 32u);
    EXPECT_EQ(header[1], 1u);
    const uint32_t vendor = header[2];
    const CliRun second = run({"--random", "64x64", "--no-write", "-q", "--pipeline-cache", "cache.bin"});
    EXPECT_EQ(second.code, 0) << second.err;
    EXPECT_EQ(second.err, "");

    bytes[8] ^= 1;  // another vendor's
    std::ofstream(dir_ / "other.bin", std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                               std::streamsize(bytes.size()));
    const CliRun other = run({"--random", "64x64", "--no-write", "--pipeline-cache", "other.bin"});
    EXPECT_EQ(other.code, 0) << other.err;
    EXPECT_NE(other.err.find("made by another device or driver; starting empty"), std::string::npos) << other.err;
    const std::vector<uint8_t> replaced = readBytes(dir_ / "other.bin");
    ASSERT_GE(replaced.size(), 32u);
    std::memcpy(header, replaced.data(), sizeof header);
    EXPECT_EQ(header[2], vendor);

    std::ofstream(dir_ / "notes.txt") << "not a pipeline cache, and longer than its header would be\n";
    const CliRun refused = run({"--random", "64x64", "--pipeline-cache", "notes.txt"});
    EXPECT_EQ(refused.code, 2);
    EXPECT_NE(refused.err.find("not a Vulkan pipeline cache"), std::string::npos) << refused.err;
    EXPECT_EQ(readText(dir_ / "notes.txt"), "not a pipeline cache, and longer than its header would be\n");
    EXPECT_FALSE(fs::exists(dir_ / "vkspd-out"));

    const CliRun nowhere = run({"--random", "64x64", "--pipeline-cache", "no-such-folder/cache.bin"});
    EXPECT_EQ(nowhere.code, 5);
    EXPECT_NE(nowhere.err.find("its folder does not exist"), std::string::npos) << nowhere.err;
    EXPECT_FALSE(fs::exists(dir_ / "vkspd-out"));
    EXPECT_EQ(run({kSample, "--pipeline-cache", ""}).code, 2);
}

TEST_F(Cli, MapsTakeOneAverageInput) {
    EXPECT_EQ(run({kSample, kSample, "--order-map", "o.png"}).code, 2);
    EXPECT_EQ(run({kSample, "--reduction", "max", "--order-map", "o.png"}).code, 2);
    EXPECT_EQ(run({kSample, "--sm-map", ""}).code, 2);
}

// Every file the CLI writes stays inside -o, whatever the inputs are named: an input "...png" has
// the stem "..", "..png" the stem ".", and neither may name the output folder's parent or itself.
TEST_F(Cli, OutputStaysInsideTheOutputFolderWhateverTheInputNames) {
    fs::create_directories(dir_ / "in");
    for (const char* name : {"...png", "..png", ".png", "x.png"})
        fs::copy_file(kCorpus + "/png_valid_5x3_rgba.png", dir_ / "in" / name);
    const CliRun r = run({"in/...png", "in/..png", "in/.png", "in/x.png", "-o", "a/out", "--linear", "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(filesIn(dir_ / "a"), std::vector<std::string>{"out"});
    // One folder per input, each named after its stem, "." and ".." made safe.
    EXPECT_EQ(filesIn(dir_ / "a/out"), (std::vector<std::string>{".png", "_", "__", "x"}));
    for (const auto& [folder, ktx2] : std::vector<std::pair<std::string, std::string>>{
             {"__", "__.ktx2"}, {"_", "_.ktx2"}, {".png", ".png.ktx2"}, {"x", "x.ktx2"}}) {
        std::vector<std::string> expected = {ktx2, "contact_sheet.png", "level_00_5x3.png", "level_01_2x1.png",
                                             "level_02_1x1.png"};
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(filesIn(dir_ / "a/out" / folder), expected) << folder;
    }
    // Nothing anywhere else in the test's folder.
    size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
        if (!e.is_regular_file()) continue;
        const std::string rel = fs::relative(e.path(), dir_).string();
        EXPECT_TRUE(rel.rfind("in/", 0) == 0 || rel.rfind("a/out/", 0) == 0) << rel;
        ++files;
    }
    EXPECT_EQ(files, 4u + 4u * 5u);

    // One input: its files go straight into -o, the KTX2 file under the safe name.
    const CliRun one = run({"in/...png", "-o", "one", "--linear", "--quiet"});
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_EQ(filesIn(dir_ / "one"), (std::vector<std::string>{"__.ktx2", "contact_sheet.png", "level_00_5x3.png",
                                                                "level_01_2x1.png", "level_02_1x1.png"}));
}

// Temporary files are created new (never opened through an existing name) under names that cannot
// be guessed, so links planted where a temporary might go are left alone; a link at a final name is
// replaced by the file, its target untouched.
TEST_F(Cli, TemporaryFilesNeverWriteThroughALink) {
    fs::copy_file(kCorpus + "/png_valid_5x3_rgba.png", dir_ / "x.png");
    fs::create_directories(dir_ / "out");
    const std::vector<std::string> outputs = {"level_00_5x3.png", "level_01_2x1.png", "level_02_1x1.png",
                                              "contact_sheet.png", "x.ktx2"};
    // Links at the names the CLI once used for its temporaries (".NAME.vkspd-tmp-PID": the shell's
    // PID is the CLI's after exec), each to a file of its own outside -o.
    std::string script;
    for (size_t i = 0; i < outputs.size(); ++i) {
        std::ofstream(dir_ / ("victim" + std::to_string(i))) << "precious";
        script += "ln -s ../victim" + std::to_string(i) + " out/." + outputs[i] + ".vkspd-tmp-$$ && ";
    }
    // A link at a final name too.
    std::ofstream(dir_ / "victim-final") << "precious";
    fs::create_symlink("../victim-final", dir_ / "out/x.ktx2");
    const CliRun r = runShell(script + "exec \"$CLI\" x.png -o out --linear");
    ASSERT_EQ(r.code, 0) << r.err;
    for (size_t i = 0; i < outputs.size(); ++i)
        EXPECT_EQ(readText(dir_ / ("victim" + std::to_string(i))), "precious") << outputs[i];
    EXPECT_EQ(readText(dir_ / "victim-final"), "precious");
    // The outputs are files, whole; the planted links are still links to the untouched files.
    for (const std::string& name : outputs) EXPECT_FALSE(fs::is_symlink(dir_ / "out" / name)) << name;
    checkKtx2(dir_ / "out/x.ktx2", VK_FORMAT_R8G8B8A8_UNORM, 5, 3, 3);
    size_t links = 0;
    for (const auto& e : fs::directory_iterator(dir_ / "out")) {
        const std::string name = e.path().filename().string();
        if (name.find("vkspd-tmp") == std::string::npos) continue;
        EXPECT_TRUE(fs::is_symlink(e.path())) << name;  // ours are gone
        ++links;
    }
    EXPECT_EQ(links, outputs.size());
}

namespace {

// Whether any name under `dir` contains `part`.
bool anyNameContains(const fs::path& dir, const std::string& part) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().find(part) != std::string::npos) return true;
    return false;
}

// Runs the CLI on `args` in `dir` (standard output and error to files there) and sends it
// `signal` once `ready(dir)` holds (checked every millisecond). Returns the wait status, or -1 if
// `ready` never held within a minute (the CLI is then killed).
int runAndSignal(const fs::path& dir, const std::vector<std::string>& args, int signal,
                 const std::function<bool()>& ready) {
    const pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir.c_str()) != 0) _exit(127);
        const int in = open("/dev/null", O_RDONLY), out = open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644),
                  err = open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
        if (std::getenv("VKSPD_TEST_NO_VALIDATION") == nullptr) setenv("VKSPD_VALIDATION", "1", 1);
        std::vector<char*> argv = {const_cast<char*>(VKSPD_CLI)};
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(VKSPD_CLI, argv.data());
        _exit(127);
    }
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (!ready()) {
        if (waitpid(pid, &status, WNOHANG) == pid) return status;  // finished before it was ready
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    kill(pid, signal);
    waitpid(pid, &status, 0);
    return status;
}

}  // namespace

// SIGINT or SIGTERM in a batch: the input in flight is finished or removed, no temporary file or
// partial folder is left, every completed output is whole, and the exit code is 128 + the signal.
// The signal comes while a temporary file exists (a write in flight), then after the first input's
// files are all in place.
TEST_F(Cli, InterruptedBatchLeavesNoDebris) {
    constexpr int kInputs = 20;
    std::vector<std::string> args = {"-o", "out", "--linear"};
    for (int i = 0; i < kInputs; ++i) args.insert(args.end(), {"--random", "300x200"});
    const uint32_t levels = 9;
    const fs::path out = dir_ / "out";
    struct Case {
        int signal;
        std::function<bool()> ready;
    };
    const std::vector<Case> cases = {
        {SIGINT, [&] { return anyNameContains(out, "vkspd-tmp"); }},
        {SIGTERM, [&] { return fs::exists(out / "random-300x200/random-300x200.ktx2"); }},
    };
    for (const Case& c : cases) {
        fs::remove_all(out);
        const int status = runAndSignal(dir_, args, c.signal, c.ready);
        const std::string err = readText(dir_ / "stderr.txt");
        ASSERT_NE(status, -1) << "no output appeared within a minute\n" << err;
        ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        EXPECT_EQ(WEXITSTATUS(status), 128 + c.signal) << err;
        EXPECT_NE(err.find(c.signal == SIGINT ? "interrupted (SIGINT)" : "interrupted (SIGTERM)"), std::string::npos)
            << err;
        EXPECT_EQ(err.find("validation"), std::string::npos) << err;
        EXPECT_FALSE(anyNameContains(dir_, "vkspd-tmp"));
        // Every folder is whole: its levels, contact sheet and KTX2 file, all readable.
        const std::vector<std::string> folders = fs::exists(out) ? filesIn(out) : std::vector<std::string>{};
        EXPECT_LT(folders.size(), size_t(kInputs)) << "the batch was not stopped";
        if (c.signal == SIGTERM) {
            EXPECT_GE(folders.size(), 1u);
        }
        for (const std::string& folder : folders) {
            const fs::path f = out / folder;
            EXPECT_EQ(filesIn(f).size(), levels + 2) << folder;
            for (uint32_t l = 0; l < levels; ++l) {
                const fs::path png = f / levelName(l, vkspd::mipExtent(300, l), vkspd::mipExtent(200, l));
                int w = 0, h = 0, n = 0;
                stbi_uc* p = stbi_load(png.c_str(), &w, &h, &n, 4);
                EXPECT_TRUE(p) << png;
                stbi_image_free(p);
            }
            int w = 0, h = 0, n = 0;
            stbi_uc* sheet = stbi_load((f / "contact_sheet.png").c_str(), &w, &h, &n, 4);
            EXPECT_TRUE(sheet) << folder;
            stbi_image_free(sheet);
            checkKtx2(f / "random-300x200.ktx2", VK_FORMAT_R8G8B8A8_UNORM, 300, 200, levels);
        }
    }
}

// Standard input is checked for an image signature in its first bytes before the rest is read: an
// endless stream of text is refused at once (it used to be read up to 2 GiB first).
TEST_F(Cli, StandardInputIsRefusedFromItsFirstBytes) {
    const auto start = std::chrono::steady_clock::now();
    const CliRun r = runShell("yes | \"$CLI\" - -o out");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.err.find("vkspd: -: not an image of a supported type"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out"));
    EXPECT_LT(seconds, 30.0);
}

// A batch whose inputs all fail creates no output folder; one with a good input creates only that
// input's folder.
TEST_F(Cli, OutputFolderIsCreatedForTheFirstOutputOnly) {
    fs::copy_file(kCorpus + "/png_valid_5x3_rgba.png", dir_ / "x.png");
    const CliRun bad = run({"missing.png", kCorpus + "/text_file.png", "-o", "a/out", "--linear"});
    EXPECT_EQ(bad.code, 3) << bad.err;
    EXPECT_FALSE(fs::exists(dir_ / "a")) << "an empty output folder was left";
    const CliRun mixed = run({"missing.png", "x.png", "-o", "a/out", "--linear"});
    EXPECT_EQ(mixed.code, 3) << mixed.err;
    EXPECT_EQ(filesIn(dir_ / "a/out"), std::vector<std::string>{"x"});
}
