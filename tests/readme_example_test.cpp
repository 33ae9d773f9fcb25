// README.md's integration example compiles (readme_example.cpp), appears verbatim in the README,
// and produces a correct chain.
#include "vulkan_harness.hpp"

#include <fstream>
#include <sstream>

using namespace vkspd_test;

vkspd::Context createMipContext(VkInstance, VkPhysicalDevice, VkDevice, PFN_vkGetInstanceProcAddr, bool);
vkspd::Result recordMips(vkspd::Context, VkCommandBuffer, VkImage, VkExtent2D, uint32_t);

namespace {

std::string readFile(const char* path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// A file of the source tree: at the path the build was configured with, else relative to the
// working directory (a build carried to another machine and run from a checkout's root).
std::string readSourceFile(const char* configured, const char* relative) {
    std::string text = readFile(configured);
    return text.empty() ? readFile(relative) : text;
}

// The example's lines between the markers, each stripped of its first 4 spaces of indentation.
std::vector<std::string> exampleBlocks() {
    std::istringstream in(readSourceFile(VKSPD_README_EXAMPLE, "tests/readme_example.cpp"));
    std::vector<std::string> blocks;
    std::string line, block;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.find("[readme-begin]") != std::string::npos) {
            inside = true;
            block.clear();
        } else if (line.find("[readme-end]") != std::string::npos) {
            inside = false;
            blocks.push_back(block);
        } else if (inside) {
            block += line.substr(line.compare(0, 4, "    ") == 0 ? 4 : 0) + "\n";
        }
    }
    return blocks;
}

}  // namespace

TEST(Readme, IntegrationExampleIsVerbatimInReadme) {
    const std::string readme = readSourceFile(VKSPD_README, "README.md");
    ASSERT_FALSE(readme.empty()) << VKSPD_README << " (nor README.md in the working directory)";
    auto blocks = exampleBlocks();
    ASSERT_EQ(blocks.size(), 2u);
    size_t lines = 0;
    for (const auto& b : blocks) {
        EXPECT_NE(readme.find(b), std::string::npos) << "README.md lacks:\n" << b;
        for (char c : b) lines += c == '\n';
    }
    EXPECT_LE(lines, 12u) << "the integration example should stay about ten lines";
}

TEST_F(GpuTest, ReadmeExampleMakesACorrectChain) {
    vkspd::Context mips = createMipContext(h->instance, h->physicalDevice, h->device,
                                           vkGetInstanceProcAddr, h->fp16);
    ASSERT_NE(mips, nullptr);
    const uint32_t w = 333, ht = 187, levels = vkspd::fullMipCount(w, ht);
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, w, ht, levels, kChainUsage);
    auto level0 = randomTexels(VK_FORMAT_R8G8B8A8_UNORM, w, ht, 333);
    h->upload(img, level0.data());
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = recordMips(mips, cmd, img.image, {w, ht}, levels);
        EXPECT_TRUE(r.ok()) << r.message;
    });
    auto gpu = h->readLevels(img);
    EXPECT_EQ(gpu[0], level0) << "level 0 changed";
    expectChainMatches(img, gpu, 0, levels, 0, 1, 1.0, "README example");
    vkspd::forgetImage(mips, img.image);
    h->destroyImage(img);
    vkspd::destroyContext(mips);
}
