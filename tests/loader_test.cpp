// The library works with the application's loader: here the system loader (libvulkan, linked by
// this test), whose exported entry points the application hands over through
// vkspd::VulkanFunctions. The volk twin is volk_test.cpp (its own executable, VK_NO_PROTOTYPES).
#include "vulkan_harness.hpp"

#include <cstdint>
#include <vector>

namespace vkspd_test {
namespace {

// Generates the chain of a 45x29 RGBA8 image (odd at every level) with `context` and compares
// every level with the CPU reference.
void expectChainMatchesReference(Harness* h, vkspd::Context context) {
    const uint32_t width = 45, height = 29;
    const uint32_t levels = vkspd::fullMipCount(width, height);
    TestImage image = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, width, height, levels,
                                     VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                         VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    std::vector<uint8_t> texels(size_t(width) * height * 4);
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t((i * 37u + i / 7u) & 0xFF);
    h->upload(image, texels.data());
    vkspd::MipGenInfo info;
    info.image = image.image;
    info.format = image.format;
    info.extent = {width, height};
    info.imageMipLevels = levels;
    info.before = {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT};
    info.after = {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT};
    vkspd::Result r;
    h->submit([&](VkCommandBuffer cmd) { r = vkspd::generateMips(context, cmd, info); });
    ASSERT_TRUE(r.ok()) << r.message;
    const auto gpu = h->readLevels(image);
    std::vector<float> level0(texels.size());
    vkspd::decodeTexels(image.format, texels.data(), size_t(width) * height, level0.data());
    const auto ref = vkspd::referenceChain(level0.data(), width, height, 4, levels);
    ASSERT_EQ(ref.size(), levels);
    for (uint32_t l = 1; l < levels; ++l) {
        const vkspd::LevelError e = vkspd::compareLevel(image.format, gpu[l].data(), ref[l],
                                                        vkspd::toleranceFor(image.format, true));
        EXPECT_EQ(e.overTolerance, 0u) << "level " << l << " worst " << e.worst;
    }
    vkspd::forgetImage(context, image.image);
    h->destroyImage(image);
}

// Only vkGetInstanceProcAddr, the loader's exported symbol: everything else is fetched from it.
TEST_F(GpuTest, SystemLoaderInstanceProcAddrOnly) {
    vkspd::ContextCreateInfo ci = h->contextInfo;
    ci.functions = {};
    ci.functions.vkGetInstanceProcAddr = &::vkGetInstanceProcAddr;
    vkspd::Context context = nullptr;
    const vkspd::Result r = vkspd::createContext(ci, &context);
    ASSERT_TRUE(r.ok()) << r.message;
    expectChainMatchesReference(h, context);
    vkspd::destroyContext(context);
}

// Both entry points from the loader's exports (device-level functions through vkGetDeviceProcAddr).
TEST_F(GpuTest, SystemLoaderBothProcAddrs) {
    vkspd::ContextCreateInfo ci = h->contextInfo;
    ci.functions.vkGetInstanceProcAddr = &::vkGetInstanceProcAddr;
    ci.functions.vkGetDeviceProcAddr = &::vkGetDeviceProcAddr;
    vkspd::Context context = nullptr;
    const vkspd::Result r = vkspd::createContext(ci, &context);
    ASSERT_TRUE(r.ok()) << r.message;
    expectChainMatchesReference(h, context);
    vkspd::destroyContext(context);
}

// Without vkGetInstanceProcAddr nothing can be fetched: an error naming it, no context.
TEST_F(GpuTest, SystemLoaderMissingInstanceProcAddrIsAnError) {
    vkspd::ContextCreateInfo ci = h->contextInfo;
    ci.functions = {};
    vkspd::Context context = reinterpret_cast<vkspd::Context>(uintptr_t(1));
    const vkspd::Result r = vkspd::createContext(ci, &context);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.message.find("vkGetInstanceProcAddr"), std::string::npos) << r.message;
    EXPECT_EQ(context, nullptr);
}

}  // namespace
}  // namespace vkspd_test
