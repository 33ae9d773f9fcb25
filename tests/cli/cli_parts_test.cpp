// The CLI's host-side parts without a GPU: the KTX2 writer for every format (read back by the
// independent reader, its DFD against the KTX 2.0 / Khronos Data Format tables), level-0
// conversion and level viewing rules, output files that appear whole or not at all, options,
// and the contact sheet layout.
#include "contact_sheet.hpp"
#include "convert.hpp"
#include "debug_maps.hpp"
#include "image_load.hpp"
#include "ktx2.hpp"
#include "ktx2_reader.hpp"
#include "options.hpp"
#include "output_files.hpp"

#include <vkspd/reference.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;
using namespace vkspd_cli;

namespace {

struct Sample {
    uint32_t channel, bitOffset, bitLength, qualifiers, lower, upper;
};

struct Expected {
    VkFormat format;
    uint32_t typeSize;
    uint32_t transfer;  // 1 linear, 2 sRGB
    std::vector<Sample> samples;
};

constexpr uint32_t kF = 0x80, kS = 0x40, kL = 0x10;  // float, signed, linear qualifiers
constexpr uint32_t kOne = 0x3F800000u, kMinusOne = 0xBF800000u;

// Written from the KTX 2.0 specification and the Khronos Data Format basic descriptor, not from
// ktx2.cpp.
const std::vector<Expected>& expectations() {
    static const std::vector<Expected> e = {
        {VK_FORMAT_R8_UNORM, 1, 1, {{0, 0, 8, 0, 0, 255}}},
        {VK_FORMAT_R8G8_UNORM, 1, 1, {{0, 0, 8, 0, 0, 255}, {1, 8, 8, 0, 0, 255}}},
        {VK_FORMAT_R8G8B8A8_UNORM, 1, 1,
         {{0, 0, 8, 0, 0, 255}, {1, 8, 8, 0, 0, 255}, {2, 16, 8, 0, 0, 255}, {15, 24, 8, 0, 0, 255}}},
        {VK_FORMAT_B8G8R8A8_UNORM, 1, 1,
         {{2, 0, 8, 0, 0, 255}, {1, 8, 8, 0, 0, 255}, {0, 16, 8, 0, 0, 255}, {15, 24, 8, 0, 0, 255}}},
        {VK_FORMAT_R8G8B8A8_SRGB, 1, 2,
         {{0, 0, 8, 0, 0, 255}, {1, 8, 8, 0, 0, 255}, {2, 16, 8, 0, 0, 255}, {15, 24, 8, kL, 0, 255}}},
        {VK_FORMAT_B8G8R8A8_SRGB, 1, 2,
         {{2, 0, 8, 0, 0, 255}, {1, 8, 8, 0, 0, 255}, {0, 16, 8, 0, 0, 255}, {15, 24, 8, kL, 0, 255}}},
        {VK_FORMAT_R8_SNORM, 1, 1, {{0, 0, 8, kS, 0xFFFFFF81u, 127}}},
        {VK_FORMAT_R8G8B8A8_SNORM, 1, 1,
         {{0, 0, 8, kS, 0xFFFFFF81u, 127}, {1, 8, 8, kS, 0xFFFFFF81u, 127}, {2, 16, 8, kS, 0xFFFFFF81u, 127},
          {15, 24, 8, kS, 0xFFFFFF81u, 127}}},
        {VK_FORMAT_R16_UNORM, 2, 1, {{0, 0, 16, 0, 0, 65535}}},
        {VK_FORMAT_R16G16_UNORM, 2, 1, {{0, 0, 16, 0, 0, 65535}, {1, 16, 16, 0, 0, 65535}}},
        {VK_FORMAT_R16G16B16A16_UNORM, 2, 1,
         {{0, 0, 16, 0, 0, 65535}, {1, 16, 16, 0, 0, 65535}, {2, 32, 16, 0, 0, 65535}, {15, 48, 16, 0, 0, 65535}}},
        {VK_FORMAT_R16_SFLOAT, 2, 1, {{0, 0, 16, kF | kS, kMinusOne, kOne}}},
        {VK_FORMAT_R16G16_SFLOAT, 2, 1, {{0, 0, 16, kF | kS, kMinusOne, kOne}, {1, 16, 16, kF | kS, kMinusOne, kOne}}},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 2, 1,
         {{0, 0, 16, kF | kS, kMinusOne, kOne}, {1, 16, 16, kF | kS, kMinusOne, kOne},
          {2, 32, 16, kF | kS, kMinusOne, kOne}, {15, 48, 16, kF | kS, kMinusOne, kOne}}},
        {VK_FORMAT_R32_SFLOAT, 4, 1, {{0, 0, 32, kF | kS, kMinusOne, kOne}}},
        {VK_FORMAT_R32G32_SFLOAT, 4, 1, {{0, 0, 32, kF | kS, kMinusOne, kOne}, {1, 32, 32, kF | kS, kMinusOne, kOne}}},
        {VK_FORMAT_R32G32B32A32_SFLOAT, 4, 1,
         {{0, 0, 32, kF | kS, kMinusOne, kOne}, {1, 32, 32, kF | kS, kMinusOne, kOne},
          {2, 64, 32, kF | kS, kMinusOne, kOne}, {15, 96, 32, kF | kS, kMinusOne, kOne}}},
        {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 1,
         {{0, 0, 11, kF, 0, kOne}, {1, 11, 11, kF, 0, kOne}, {2, 22, 10, kF, 0, kOne}}},
        {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 1,
         {{0, 0, 10, 0, 0, 1023}, {1, 10, 10, 0, 0, 1023}, {2, 20, 10, 0, 0, 1023}, {15, 30, 2, 0, 0, 3}}},
    };
    return e;
}

TEST(CliKtx2, EveryCliFormatHasAnExpectation) {
    for (const FormatName& n : formatNames()) {
        bool found = false;
        for (const Expected& e : expectations()) found = found || e.format == n.format;
        EXPECT_TRUE(found) << n.name;
    }
}

TEST(CliKtx2, WritesAValidFileForEveryFormat) {
    for (const Expected& e : expectations()) {
        vkspd::FormatInfo fi;
        ASSERT_TRUE(vkspd::getFormatInfo(e.format, &fi)) << formatName(e.format);
        // A 5x3 chain (levels 5x3, 2x1, 1x1) of patterned bytes.
        const uint32_t w = 5, h = 3, levels = 3;
        std::vector<std::vector<uint8_t>> data;
        std::vector<Ktx2Level> spans;
        for (uint32_t l = 0; l < levels; ++l) {
            std::vector<uint8_t> bytes(size_t(vkspd::mipExtent(w, l)) * vkspd::mipExtent(h, l) * fi.bytesPerTexel);
            for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 31 + l * 7 + 1);
            data.push_back(bytes);
        }
        for (const auto& d : data) spans.push_back({d.data(), d.size()});
        std::vector<uint8_t> file;
        std::string why;
        ASSERT_TRUE(writeKtx2(e.format, w, h, spans, "vkspd test", &file, &why)) << why;
        const vkspd_test::Ktx2File k = vkspd_test::parseKtx2(file, fi.bytesPerTexel);
        const std::string name = formatName(e.format);
        EXPECT_TRUE(k.problems.empty()) << name << ": " << ::testing::PrintToString(k.problems);
        EXPECT_EQ(k.vkFormat, uint32_t(e.format)) << name;
        EXPECT_EQ(k.typeSize, e.typeSize) << name;
        EXPECT_EQ(k.transfer, e.transfer) << name;
        EXPECT_EQ(k.colorModel, 1u) << name;
        EXPECT_EQ(k.bytesPlane0, fi.bytesPerTexel) << name;
        EXPECT_EQ(k.levelCount, levels) << name;
        EXPECT_EQ(k.keyValues.at("KTXwriter"), std::string("vkspd test") + std::string(1, '\0')) << name;
        ASSERT_EQ(k.samples.size(), e.samples.size()) << name;
        for (size_t s = 0; s < e.samples.size(); ++s) {
            const Sample& x = e.samples[s];
            const vkspd_test::Ktx2Sample& g = k.samples[s];
            EXPECT_EQ(g.channel, x.channel) << name << " sample " << s;
            EXPECT_EQ(g.bitOffset, x.bitOffset) << name << " sample " << s;
            EXPECT_EQ(g.bitLength, x.bitLength) << name << " sample " << s;
            EXPECT_EQ(g.qualifiers, x.qualifiers) << name << " sample " << s;
            EXPECT_EQ(g.lower, x.lower) << name << " sample " << s;
            EXPECT_EQ(g.upper, x.upper) << name << " sample " << s;
        }
        for (uint32_t l = 0; l < levels && k.problems.empty(); ++l)
            EXPECT_EQ(0, std::memcmp(k.levelData(l), data[l].data(), data[l].size())) << name << " level " << l;
    }
}

TEST(CliKtx2, RefusesLevelsOfTheWrongSize) {
    std::vector<uint8_t> level0(5 * 3 * 4), level1(3 * 4);  // level 1 of 5x3 is 2x1: 8 bytes
    std::vector<uint8_t> file;
    std::string why;
    EXPECT_FALSE(writeKtx2(VK_FORMAT_R8G8B8A8_UNORM, 5, 3, {{level0.data(), level0.size()}, {level1.data(), 12}},
                           "t", &file, &why));
    EXPECT_NE(why.find("level 1 holds 12 bytes, expected 8"), std::string::npos) << why;
}

// A decoded file of `type` with the given RGBA values (one texel per 4 values).
LoadedImage imageOf(SampleType type, const std::vector<double>& rgba) {
    LoadedImage im;
    im.width = uint32_t(rgba.size() / 4);
    im.height = 1;
    im.fileChannels = 4;
    im.type = type;
    const size_t bytes = rgba.size() * (bitsOf(type) / 8);
    void* p = std::malloc(bytes);
    for (size_t i = 0; i < rgba.size(); ++i) {
        if (type == SampleType::U8) static_cast<uint8_t*>(p)[i] = uint8_t(rgba[i]);
        if (type == SampleType::U16) static_cast<uint16_t*>(p)[i] = uint16_t(rgba[i]);
        if (type == SampleType::F32) static_cast<float*>(p)[i] = float(rgba[i]);
    }
    im.pixels = std::unique_ptr<void, void (*)(void*)>(p, std::free);
    return im;
}

TEST(CliConvert, SrgbFilesKeepTheirCodesInSrgbAndUnormFormats) {
    std::vector<double> rgba;
    for (int c = 0; c < 256; ++c) rgba.insert(rgba.end(), {double(c), double(255 - c), double(c / 2), double(c)});
    const LoadedImage im = imageOf(SampleType::U8, rgba);
    for (VkFormat f : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM}) {
        std::vector<uint8_t> out;
        std::string why;
        ASSERT_TRUE(makeLevel0(im, f, true, false, &out, &why)) << why;
        for (size_t i = 0; i < rgba.size(); ++i) ASSERT_EQ(out[i], uint8_t(rgba[i])) << formatName(f) << " " << i;
    }
}

TEST(CliConvert, FloatFormatsTakeLinearValues) {
    const LoadedImage im = imageOf(SampleType::U8, {128, 0, 255, 128});
    std::vector<uint8_t> out;
    std::string why;
    ASSERT_TRUE(makeLevel0(im, VK_FORMAT_R32G32B32A32_SFLOAT, true, false, &out, &why)) << why;
    float v[4];
    std::memcpy(v, out.data(), sizeof v);
    EXPECT_NEAR(v[0], std::pow((128 / 255.0 + 0.055) / 1.055, 2.4), 1e-6);  // sRGB decoded
    EXPECT_EQ(v[1], 0.0f);
    EXPECT_EQ(v[2], 1.0f);
    EXPECT_NEAR(v[3], 128 / 255.0, 1e-6);  // alpha stays linear
    ASSERT_TRUE(makeLevel0(im, VK_FORMAT_R32G32B32A32_SFLOAT, false, false, &out, &why)) << why;  // --linear
    std::memcpy(v, out.data(), sizeof v);
    EXPECT_NEAR(v[0], 128 / 255.0, 1e-6);
}

TEST(CliConvert, HdrIntoSrgbIsEncodedAndSnormSpansMinusOneToOne) {
    std::vector<uint8_t> out;
    std::string why;
    ASSERT_TRUE(makeLevel0(imageOf(SampleType::F32, {0.5, 0.0, 1.0, 1.0}), VK_FORMAT_R8G8B8A8_SRGB, true, false, &out,
                           &why))
        << why;
    EXPECT_EQ(out[0], 188);  // sRGB(0.5) = 0.7354 -> 187.5 -> 188
    EXPECT_EQ(out[1], 0);
    EXPECT_EQ(out[2], 255);
    ASSERT_TRUE(makeLevel0(imageOf(SampleType::U8, {0, 255, 128, 255}), VK_FORMAT_R8G8B8A8_SNORM, false, false, &out,
                           &why))
        << why;
    EXPECT_EQ(int8_t(out[0]), -127);
    EXPECT_EQ(int8_t(out[1]), 127);
    EXPECT_EQ(int8_t(out[2]), 0);  // (2 * 128/255 - 1) * 127 = 0.498 -> 0
    ASSERT_TRUE(makeLevel0(imageOf(SampleType::U16, {65535, 0, 0, 0}), VK_FORMAT_R16_UNORM, true, false, &out, &why));
    EXPECT_EQ(out[0] | out[1] << 8, 65535);
}

TEST(CliConvert, MinMaxLevel0IsTheFirstChannelTwice) {
    std::vector<uint8_t> out;
    std::string why;
    ASSERT_TRUE(makeLevel0(imageOf(SampleType::U8, {10, 20, 30, 40, 50, 60, 70, 80}), VK_FORMAT_R8G8_UNORM, true, true,
                           &out, &why));
    EXPECT_EQ(out, (std::vector<uint8_t>{10, 10, 50, 50}));
    EXPECT_FALSE(makeLevel0(imageOf(SampleType::U8, {1, 2, 3, 4}), VK_FORMAT_R8G8B8A8_UNORM, true, true, &out, &why));
    EXPECT_NE(why.find("two-channel"), std::string::npos) << why;
}

TEST(CliConvert, ViewsSwizzleBgraAndShowTwoChannelsAsRgb) {
    ViewImage v;
    const uint8_t bgra[4] = {1, 2, 3, 4};
    ASSERT_TRUE(viewLevel(VK_FORMAT_B8G8R8A8_SRGB, bgra, 1, 1, &v));
    EXPECT_EQ(v.channels, 4u);
    EXPECT_EQ(v.u8, (std::vector<uint8_t>{3, 2, 1, 4}));
    const uint8_t rg[2] = {9, 200};
    ASSERT_TRUE(viewLevel(VK_FORMAT_R8G8_UNORM, rg, 1, 1, &v));
    EXPECT_EQ(v.channels, 3u);
    EXPECT_EQ(v.u8, (std::vector<uint8_t>{9, 200, 0}));
    const uint8_t snorm[1] = {0x81};  // -1
    ASSERT_TRUE(viewLevel(VK_FORMAT_R8_SNORM, snorm, 1, 1, &v));
    EXPECT_EQ(v.u8, (std::vector<uint8_t>{0}));
    const uint32_t a2 = 1023u | (512u << 10) | (3u << 30);  // R 1.0, G ~0.5, B 0, A 1.0
    ASSERT_TRUE(viewLevel(VK_FORMAT_A2B10G10R10_UNORM_PACK32, reinterpret_cast<const uint8_t*>(&a2), 1, 1, &v));
    EXPECT_EQ(v.bits, 16u);
    EXPECT_EQ(v.u16[0], 65535);
    EXPECT_EQ(v.u16[1], uint16_t(std::lround(512 / 1023.0 * 65535)));
    EXPECT_EQ(v.u16[3], 65535);
}

TEST(CliOutput, FilesAppearWholeOrNotAtAll) {
    const fs::path dir = fs::path(VKSPD_CLI_TEST_DIR) / "CliOutput";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::vector<uint8_t> bytes = {1, 2, 3};
    std::string why;
    {
        OutputSet set;
        ASSERT_TRUE(set.add((dir / "a.bin").string(), bytes, &why)) << why;
        ASSERT_TRUE(set.add((dir / "b.bin").string(), bytes, &why)) << why;
        EXPECT_FALSE(fs::exists(dir / "a.bin"));  // only temporaries until commit
        EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
    }  // never committed
    EXPECT_TRUE(fs::is_empty(dir));
    {
        OutputSet set;
        ASSERT_TRUE(set.add((dir / "a.bin").string(), bytes, &why)) << why;
        // A folder in the way of the second file: the commit fails and undoes the first rename.
        fs::create_directories(dir / "b.bin");
        ASSERT_TRUE(set.add((dir / "b.bin").string(), bytes, &why)) << why;
        EXPECT_FALSE(set.commit(&why));
        EXPECT_NE(why.find("b.bin"), std::string::npos) << why;
    }
    EXPECT_FALSE(fs::exists(dir / "a.bin"));
    fs::remove(dir / "b.bin");
    EXPECT_TRUE(fs::is_empty(dir));
    ASSERT_TRUE(writeFileAtomically((dir / "c.bin").string(), bytes, &why)) << why;
    EXPECT_EQ(fs::file_size(dir / "c.bin"), 3u);
    EXPECT_FALSE(writeFileAtomically((dir / "missing/c.bin").string(), bytes, &why));
    EXPECT_NE(why.find("missing/c.bin: No such file or directory"), std::string::npos) << why;
    EXPECT_EQ(fileStem("a/b/photo.final.jpg"), "photo.final");
    EXPECT_EQ(fileStem(".hidden"), ".hidden");
}

TEST(CliOutput, StemsNameAnEntryInsideTheOutputFolder) {
    // "." and ".." would name the folder itself or its parent; a stem is never empty and has no
    // separator or control character.
    EXPECT_EQ(fileStem("in/...png"), "__");
    EXPECT_EQ(fileStem("in/..png"), "_");
    EXPECT_EQ(fileStem(".."), "_");  // the stem of "..": "."
    EXPECT_EQ(fileStem("."), "_");
    EXPECT_EQ(fileStem("in/"), "image");
    EXPECT_EQ(fileStem(""), "image");
    EXPECT_EQ(fileStem("in/...x.png"), "...x");
    EXPECT_EQ(fileStem("in/a\nb\tc.png"), "a_b_c");
    EXPECT_EQ(fileStem("in/caf\xc3\xa9.png"), "caf\xc3\xa9");  // UTF-8 kept
    // Long names are cut (at a character boundary) so that NAME-2.ktx2 still fits a file name.
    const std::string longName = std::string(300, 'a') + "\xc3\xa9.png";
    const std::string stem = fileStem(longName);
    EXPECT_LE(stem.size(), 200u);
    EXPECT_EQ(stem, std::string(200, 'a'));
    EXPECT_EQ(fileStem(std::string(199, 'a') + "\xc3\xa9.png"), std::string(199, 'a'));
}

TEST(CliOutput, TemporariesAreUniqueAndFoldersAreUndone) {
    const fs::path dir = fs::path(VKSPD_CLI_TEST_DIR) / "CliOutputTemporaries";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::string why;
    // Two sets writing the same file at once (two processes, or two runs) each keep their own
    // temporary: each commit puts its own bytes in place.
    {
        OutputSet first, second;
        ASSERT_TRUE(first.add((dir / "a.bin").string(), {1}, &why)) << why;
        ASSERT_TRUE(second.add((dir / "a.bin").string(), {2, 2}, &why)) << why;
        ASSERT_TRUE(first.commit(&why)) << why;
        EXPECT_EQ(fs::file_size(dir / "a.bin"), 1u);
        ASSERT_TRUE(second.commit(&why)) << why;
        EXPECT_EQ(fs::file_size(dir / "a.bin"), 2u);
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
    // Folders a set creates for its files are removed again when it is not committed; folders
    // that were there stay.
    {
        OutputSet set;
        ASSERT_TRUE(set.makeFolder((dir / "new/sub").string(), &why)) << why;
        ASSERT_TRUE(set.add((dir / "new/sub/b.bin").string(), {3}, &why)) << why;
        EXPECT_TRUE(fs::exists(dir / "new/sub"));
    }
    EXPECT_FALSE(fs::exists(dir / "new"));
    {
        OutputSet set;
        ASSERT_TRUE(set.makeFolder(dir.string(), &why)) << why;
        ASSERT_TRUE(set.makeFolder((dir / "kept").string(), &why)) << why;
        ASSERT_TRUE(set.add((dir / "kept/c.bin").string(), {3}, &why)) << why;
        ASSERT_TRUE(set.commit(&why)) << why;
    }
    EXPECT_TRUE(fs::exists(dir / "kept/c.bin"));
    // The check made before any work creates nothing.
    EXPECT_TRUE(canCreateFolder((dir / "x/y/z").string(), &why)) << why;
    EXPECT_FALSE(fs::exists(dir / "x"));
    EXPECT_FALSE(canCreateFolder((dir / "a.bin/sub").string(), &why));
    EXPECT_NE(why.find("a.bin/sub: cannot create folder: Not a directory"), std::string::npos) << why;
}

TEST(CliOptions, ParsesValuesAndRefusesBadOnes) {
    auto parse = [](std::vector<const char*> args, Options* o, std::string* why) {
        args.insert(args.begin(), "vkspd");
        return parseOptions(int(args.size()), const_cast<char**>(args.data()), o, why);
    };
    Options o;
    std::string why;
    ASSERT_TRUE(parse({"a.png", "--format=rgba16f", "--reduction", "minmax", "-o", "x", "--device", "llvm", "--bench",
                       "3", "--path", "lds", "--fp32", "--linear", "--fetch", "linear", "--group-columns", "4", "--",
                       "-b.png"},
                      &o, &why))
        << why;
    EXPECT_EQ(o.inputs, (std::vector<std::string>{"a.png", "-b.png"}));
    EXPECT_EQ(o.format, VK_FORMAT_R16G16B16A16_SFLOAT);
    EXPECT_EQ(o.reduction, vkspd::Reduction::MinMax);
    EXPECT_EQ(o.outDir, "x");
    EXPECT_EQ(o.device.index, -1);
    EXPECT_EQ(o.device.name, "llvm");
    EXPECT_EQ(o.benchRuns, 3u);
    EXPECT_EQ(o.benchColdRuns, 0u);
    EXPECT_EQ(o.subgroupPath, vkspd::SubgroupPath::LdsOnly);
    EXPECT_EQ(o.precision, vkspd::Precision::FP32);
    EXPECT_EQ(o.transfer, Transfer::Linear);
    EXPECT_EQ(o.fetch, vkspd::Fetch::LinearSampler);
    EXPECT_EQ(o.tuning.groupColumns, 4u);
    Options cold;
    ASSERT_TRUE(parse({"--bench-cold", "2", "--bench=30"}, &cold, &why)) << why;
    EXPECT_EQ(cold.benchColdRuns, 2u);
    EXPECT_EQ(cold.benchRuns, 30u);
    Options d;
    ASSERT_TRUE(parse({"--device", "1"}, &d, &why));
    EXPECT_EQ(d.device.index, 1);
    EXPECT_EQ(d.fetch, vkspd::Fetch::Auto);  // the default: the library's pick
    Options load, autoFetch;
    ASSERT_TRUE(parse({"--fetch", "load"}, &load, &why)) << why;
    EXPECT_EQ(load.fetch, vkspd::Fetch::Load);
    ASSERT_TRUE(parse({"--fetch", "linear", "--fetch", "auto"}, &autoFetch, &why)) << why;
    EXPECT_EQ(autoFetch.fetch, vkspd::Fetch::Auto);
    Options gather;
    ASSERT_TRUE(parse({"--fetch", "gather"}, &gather, &why)) << why;
    EXPECT_EQ(gather.fetch, vkspd::Fetch::Gather);
    // The kernel and the plain-chain kernel's tiles per group (defaults: the library's choice).
    EXPECT_EQ(d.tuning.kernel, vkspd::Kernel::Auto);
    EXPECT_EQ(d.tuning.tilesPerGroup, 0u);
    Options plain, general;
    ASSERT_TRUE(parse({"--kernel", "plain", "--tiles-per-group", "16"}, &plain, &why)) << why;
    EXPECT_EQ(plain.tuning.kernel, vkspd::Kernel::PlainChain);
    EXPECT_EQ(plain.tuning.tilesPerGroup, 16u);
    Options halo;
    ASSERT_TRUE(parse({"--kernel", "halo"}, &halo, &why)) << why;
    EXPECT_EQ(halo.tuning.kernel, vkspd::Kernel::HaloStages);
    Options summed;
    ASSERT_TRUE(parse({"--kernel", "summed", "--tiles-per-group", "2"}, &summed, &why)) << why;
    EXPECT_EQ(summed.tuning.kernel, vkspd::Kernel::SummedLevels);
    EXPECT_EQ(summed.tuning.tilesPerGroup, 2u);
    ASSERT_TRUE(parse({"--kernel", "general", "--tiles-per-group", "0", "--kernel=auto"}, &general, &why)) << why;
    EXPECT_EQ(general.tuning.kernel, vkspd::Kernel::Auto);
    EXPECT_EQ(general.tuning.tilesPerGroup, 0u);
    EXPECT_EQ(d.tuning.tailTiles, 0u);  // the tail: the library's rule
    EXPECT_EQ(d.tuning.tailTilesPerGroup, 0u);
    Options tail;
    ASSERT_TRUE(parse({"--tail", "2048/1"}, &tail, &why)) << why;
    EXPECT_EQ(tail.tuning.tailTiles, 2048u);
    EXPECT_EQ(tail.tuning.tailTilesPerGroup, 1u);
    Options most;  // 32 tiles, the most (a strip stays in one quadrant of a 64x64 block of tiles)
    ASSERT_TRUE(parse({"--tiles-per-group", "32", "--tail", "16/32"}, &most, &why)) << why;
    EXPECT_EQ(most.tuning.tilesPerGroup, 32u);
    EXPECT_EQ(most.tuning.tailTilesPerGroup, 32u);
    for (std::vector<const char*> bad : {std::vector<const char*>{"--format", "rgb5"}, {"--bench", "x"}, {"--device"},
                                         {"--verify=yes"}, {"--srgb", "--linear"}, {"--random", "0x4"}, {"-x"},
                                         {"--fetch", "bilinear"}, {"--group-columns", "-1"}, {"--kernel", "fast"},
                                         {"--kernel"}, {"--tiles-per-group", "3"}, {"--tiles-per-group", "128"},
                                         {"--tiles-per-group", "-4"}, {"--tail", "2048"}, {"--tail", "2048/3"},
                                         {"--tail", "x/2"}, {"--tail", "16/0"}, {"--tail", "16/128"},
                                         {"--bench-cold", "0"}, {"--bench-cold", "101"}, {"--bench-cold"},
                                         {"--tiles-per-group", "64"}, {"--tail", "16/64"}}) {  // 32 at most
        Options b;
        EXPECT_FALSE(parse(bad, &b, &why)) << bad[0];
        EXPECT_FALSE(why.empty());
    }
}

// Fills a stretch of the stack below this call with a pattern, so that an uncleared local of a
// call made next reads it, not zeros left by earlier calls.
__attribute__((noinline)) void dirtyStack() {
    volatile uint8_t junk[64 << 10];
    for (size_t i = 0; i < sizeof(junk); ++i) junk[i] = uint8_t(0xA5 ^ i);
}

// stb_image looks a BMP's pixel indices up in a 256-entry palette on the stack, filled only as far
// as the file's palette goes; stb_impl.cpp is compiled with zeroed locals (cmake/StbFlags.cmake),
// so entries past it are black, the same on every run, not whatever the stack held.
TEST(CliLoad, BmpPixelsPastThePaletteAreBlack) {
    std::vector<uint8_t> bytes;
    std::string reason;
    ASSERT_TRUE(readFile(std::string(VKSPD_SOURCE_DIR) + "/tests/fuzz/corpus/bmp_pixels_past_palette.bmp", &bytes,
                         &reason))
        << reason;
    for (int run = 0; run < 2; ++run) {
        dirtyStack();
        LoadedImage image;
        ASSERT_TRUE(loadImage(bytes.data(), bytes.size(), LoadLimits{}, &image, &reason)) << reason;
        ASSERT_EQ(image.width, 4u);
        ASSERT_EQ(image.height, 1u);
        ASSERT_EQ(image.type, SampleType::U8);
        const auto* p = static_cast<const uint8_t*>(image.pixels.get());
        const std::vector<uint8_t> texels(p, p + 16);
        // Index 0 is the palette's entry (BGR 10, 20, 30); 200, 255 and 17 are past it.
        EXPECT_EQ(texels, std::vector<uint8_t>({30, 20, 10, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255}));
    }
}

TEST(CliContactSheet, LaysLevelsOutSideBySide) {
    const ContactSheet s = planContactSheet(333, 187, 9);
    EXPECT_EQ(s.firstLevel, 0u);
    EXPECT_EQ(s.width, 333u + 166 + 83 + 41 + 20 + 10 + 5 + 2 + 1 + 8 * kContactSheetGap);
    EXPECT_EQ(s.height, 187u);
    EXPECT_EQ(s.x[1], 333u + kContactSheetGap);
    // Levels over 4096 are left out: 10000x10 starts at level 2 (2500x2).
    const ContactSheet big = planContactSheet(10000, 10, vkspd::fullMipCount(10000, 10));
    EXPECT_EQ(big.firstLevel, 2u);
    EXPECT_EQ(big.height, 2u);
}

}  // namespace

// The debug-map pictures and per-SM counts, from a made-up map.
namespace {
std::vector<vkspd::DebugMapTile> madeUpMap(uint32_t tiles, uint32_t sms) {
    std::vector<vkspd::DebugMapTile> map(tiles);
    for (uint32_t t = 0; t < tiles; ++t) map[t] = {tiles - 1 - t, t % sms, t % 7, 3u};
    return map;
}
}  // namespace

TEST(DebugMaps, CompletenessCheck) {
    std::vector<vkspd::DebugMapTile> map = madeUpMap(12, 5);
    std::string why;
    EXPECT_TRUE(mapIsComplete(map, &why)) << why;
    map[3].flags = 0;
    EXPECT_FALSE(mapIsComplete(map, &why));
    EXPECT_NE(why.find("tile 3"), std::string::npos) << why;
    map = madeUpMap(12, 5);
    map[4].order = map[5].order;
    EXPECT_FALSE(mapIsComplete(map, &why));
}

TEST(DebugMaps, TilesPerSm) {
    // 12 tiles round-robin over 5 SMs: 3, 3, 2, 2, 2; with 8 SMs known, three got none.
    const SmTileCounts c = countTilesPerSm(madeUpMap(12, 5), 8);
    EXPECT_EQ(c.sms, 8u);
    EXPECT_EQ(c.idle, 3u);
    EXPECT_EQ(c.min, 0u);
    EXPECT_EQ(c.max, 3u);
    EXPECT_DOUBLE_EQ(c.median, 2.0);
    const SmTileCounts d = countTilesPerSm(madeUpMap(12, 5), 0);  // count from the ids seen
    EXPECT_EQ(d.sms, 5u);
    EXPECT_EQ(d.min, 2u);
}

TEST(DebugMaps, PicturesColourEveryTileAndDrawALegend) {
    const uint32_t tx = 4, ty = 3, cell = cellSize(tx, ty);
    EXPECT_EQ(cell, 16u);
    EXPECT_EQ(cellSize(1024, 10), 1u);
    const std::vector<vkspd::DebugMapTile> map = madeUpMap(tx * ty, 5);
    const Picture order = renderOrderMap(map, tx, ty);
    const Picture sm = renderSmMap(map, tx, ty, 5);
    for (const Picture* p : {&order, &sm}) {
        ASSERT_EQ(p->rgba.size(), size_t(p->width) * p->height * 4);
        EXPECT_GT(p->height, ty * cell + 16);  // room for the legend
    }
    // The SM map's tile (0, 0) has SM 0's colour; tile (1, 0) SM 1's.
    for (uint32_t t = 0; t < 2; ++t) {
        uint8_t rgb[3];
        smColour(map[t].smId, rgb);
        const uint8_t* px = &sm.rgba[(size_t(8 + cell / 2) * sm.width + 8 + t * cell + cell / 2) * 4];
        EXPECT_EQ(px[0], rgb[0]);
        EXPECT_EQ(px[1], rgb[1]);
        EXPECT_EQ(px[2], rgb[2]);
    }
    // Distinct colours for the first 132 SMs (an H100 / H200).
    std::set<uint32_t> colours;
    for (uint32_t id = 0; id < 132; ++id) {
        uint8_t rgb[3];
        smColour(id, rgb);
        colours.insert(uint32_t(rgb[0]) << 16 | uint32_t(rgb[1]) << 8 | rgb[2]);
    }
    EXPECT_EQ(colours.size(), 132u);
    // The order map's first tile to finish (the last tile here) is darker than the last to finish.
    const uint8_t* first = &order.rgba[(size_t(8 + 2 * cell + cell / 2) * order.width + 8 + 3 * cell + cell / 2) * 4];
    const uint8_t* last = &order.rgba[(size_t(8 + cell / 2) * order.width + 8 + cell / 2) * 4];
    EXPECT_LT(first[0] + first[1] + first[2], last[0] + last[1] + last[2]);
}

TEST(DebugMaps, OccupancyTableRows) {
    vkspd::OccupancyRecord r;
    r.variant = "average fp32 quad";
    r.source = vkspd::OccupancySource::Driver;
    r.resources = {72, 14412, 256, 32};
    r.limits.registersPerSm = 65536;
    r.limits.registerGranularity = 8;
    r.limits.threadsPerSm = 2048;
    r.limits.sharedMemoryPerSm = 228 * 1024;
    r.limits.groupsPerSm = 32;
    r.limitsSource = "test table";
    r.smCount = 132;
    r.occupancy = vkspd::computeOccupancy(r.resources, r.limits);
    const std::string table = occupancyTable({r}, "Test GPU");
    EXPECT_NE(table.find("occupancy on Test GPU (132 SMs)"), std::string::npos) << table;
    EXPECT_NE(table.find("24/64"), std::string::npos) << table;
    EXPECT_NE(table.find("37.5%"), std::string::npos) << table;
    EXPECT_NE(table.find("registers"), std::string::npos) << table;
    EXPECT_EQ(occupancyShort(r), "37.5% (3 groups, registers)");
    r.source = vkspd::OccupancySource::NotAvailable;
    EXPECT_EQ(occupancyShort(r), "n/a");
    EXPECT_NE(occupancyTable({r}, "CPU").find("not available"), std::string::npos);
}
