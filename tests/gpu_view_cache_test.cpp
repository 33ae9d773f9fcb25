// The image-view cache: an image destroyed without forgetImage whose handle value comes back for a
// new image (drivers reuse freed handles; the harness keeps the driver's own values).
#include "vulkan_harness.hpp"

using namespace vkspd_test;

namespace {

// Uploads random level-0 texels to every layer of `img`, generates its chain with `context` and checks every
// level against the CPU reference.
void generateAndCheck(Harness* h, vkspd::Context context, const TestImage& img, uint32_t seed, const std::string& what) {
    const std::vector<uint8_t> level0 = randomTexels(img.format, img.width, img.height * img.layers, seed);
    h->upload(img, level0.data());
    vkspd::MipGenInfo info = chainInfo(img);
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(context, cmd, info);
        EXPECT_TRUE(r.ok()) << what << ": " << r.message;
    });
    auto gpu = h->readLevels(img);
    vkspd::DispatchDescription d;
    ASSERT_TRUE(vkspd::describeDispatch(context, info, &d).ok());
    expectChainMatches(img, gpu, 0, img.levels, 0, img.layers, vkspd::toleranceFor(img.format, d.fp16), what);
}

}  // namespace

// With ContextCreateInfo::privateDataEnabled, no forgetImage: a new image of another size that
// gets the destroyed one's handle value is written through fresh views of its own, not the
// destroyed image's (which the cache would otherwise find under the same keys).
TEST_F(GpuTest, ReusedImageHandleWithoutForgetImageGetsItsOwnViews) {
    if (!h->privateData) GTEST_SKIP() << "the device has no Vulkan 1.3 privateData";
    vkspd::ContextCreateInfo ci = h->contextInfo;
    ci.privateDataEnabled = true;
    vkspd::Context context = nullptr;
    vkspd::Result r = vkspd::createContext(ci, &context);
    ASSERT_TRUE(r.ok()) << r.message;
    bool reused = false;
    for (uint32_t attempt = 0; attempt < 20 && !reused; ++attempt) {
        TestImage first = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 97, 61, vkspd::fullMipCount(97, 61), kChainUsage);
        generateAndCheck(h, context, first, attempt, "first image");
        const VkImage old = first.image;
        h->destroyImage(first);  // the device is idle: the views' work has completed
        // The same format and layer count, so the cache's keys (handle, format, level, layers) match.
        TestImage second = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 200, 33, vkspd::fullMipCount(200, 33), kChainUsage);
        if (second.image == old) {
            reused = true;
            generateAndCheck(h, context, second, 100 + attempt, "new image with the old handle value");
            // The cache knows it again as one image: a second call reuses its views.
            generateAndCheck(h, context, second, 200 + attempt, "new image, second call");
        }
        vkspd::forgetImage(context, second.image);
        h->destroyImage(second);
    }
    vkspd::destroyContext(context);
    if (!reused) GTEST_SKIP() << "the driver never gave a new image a destroyed image's handle value in 20 tries";
}
