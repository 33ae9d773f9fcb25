// Bad input gets a clear error naming the value and the rule, and records nothing.
#include "vulkan_harness.hpp"

using namespace vkspd_test;

namespace {

// Expects generateMips to fail with a message containing `needle`, recording nothing (the
// command buffer stays empty, which the validation layer would flag if a half-recorded barrier
// left the image in an unexpected layout for the next test).
void expectError(Harness* h, const vkspd::MipGenInfo& info, const char* needle) {
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_FALSE(r.ok());
        EXPECT_NE(r.message.find(needle), std::string::npos) << "message: " << r.message;
    });
}

}  // namespace

TEST_F(GpuTest, BadInputIsRejectedWithAClearMessage) {
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 100, 60, 7,
                                   kChainUsage);
    vkspd::MipGenInfo info = chainInfo(img);

    vkspd::MipGenInfo bad = info;
    bad.image = VK_NULL_HANDLE;
    expectError(h, bad, "image is null");
    bad = info;
    bad.extent = {0, 60};
    expectError(h, bad, "0x60");
    bad = info;
    bad.levelCount = 9;
    expectError(h, bad, "mip range 0..8 exceeds the image's 7 levels");
    bad = info;
    bad.baseMipLevel = 7;
    expectError(h, bad, "baseMipLevel 7");
    bad = info;
    bad.imageMipLevels = 8;
    expectError(h, bad, "imageMipLevels 8");
    bad = info;
    bad.format = VK_FORMAT_R8G8B8_UNORM;
    expectError(h, bad, "format");
    bad = info;
    bad.before.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    expectError(h, bad, "before.layout");
    bad = info;
    bad.after.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    expectError(h, bad, "after.layout");
    bad = info;
    bad.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    bad.precision = vkspd::Precision::FP16;
    expectError(h, bad, "FP16");
    bad = info;
    bad.extent = {1u << 20, 4};
    expectError(h, bad, "maxImageDimension2D");

    vkspd::Result r = vkspd::generateMips(nullptr, VK_NULL_HANDLE, info);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.message.find("null"), std::string::npos);
    r = vkspd::generateMips(h->context, VK_NULL_HANDLE, info);
    EXPECT_NE(r.message.find("command buffer is null"), std::string::npos);
    EXPECT_EQ(vkspd::scratchSize(h->context, bad), 0u);

    // Scratch past what one storage buffer binding may address: a clear error, nothing recorded.
    bad = info;
    bad.extent = {4095, 4095};
    bad.imageMipLevels = 12;
    bad.imageArrayLayers = 2048;
    vkspd::DispatchDescription d;
    r = vkspd::describeDispatch(h->context, bad, &d);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.message.find("fewer layers"), std::string::npos) << r.message;

    // Past what the data binding's ranges hold (up to 4 of maxStorageBufferRange each): refused
    // before anything is made, naming the bytes and the limit; "fewer layers" only where one layer
    // fits. The layer count that passes the limit is the device's: one layer of 4095^2 fits the
    // least range Vulkan allows (2^27 bytes).
    const uint64_t range = h->properties.limits.maxStorageBufferRange;
    const std::string limit = "maxStorageBufferRange " + std::to_string(range);
    bad = info;
    bad.extent = {4095, 4095};
    bad.imageMipLevels = 12;
    bad.imageArrayLayers = 1;
    const uint64_t oneLayer = vkspd::scratchSize(h->context, bad);
    ASSERT_GT(oneLayer, 0u);
    const uint32_t tooMany = uint32_t(4 * range / oneLayer * 5 / 4 + 2);  // well past, counters aside
    if (tooMany <= h->properties.limits.maxImageArrayLayers) {
        bad.imageArrayLayers = tooMany;
        r = vkspd::describeDispatch(h->context, bad, &d);
        EXPECT_FALSE(r.ok());
        // Past 2^31 floats of data the 32-bit indexing limit comes first (NVIDIA's range is 2^32 - 1):
        // that message also says "fewer layers".
        if (uint64_t(tooMany) * oneLayer < (uint64_t(1) << 33)) {
            EXPECT_NE(r.message.find(limit), std::string::npos) << r.message;
            EXPECT_NE(r.message.find(std::to_string(tooMany) + " layer(s) of 4095x4095 needs "), std::string::npos)
                << r.message;
            EXPECT_NE(r.message.find("fewer layers per call (at most "), std::string::npos) << r.message;
        }
        EXPECT_NE(r.message.find("fewer layers per call"), std::string::npos) << r.message;
    }
    // One RGBA layer of 16383^2 has 16 times the tiles of 4095^2 (289 MB of scratch data): past
    // one range of lavapipe and of the least devices, so its data is bound as several ranges.
    bad = info;
    bad.extent = {16383, 16383};
    bad.imageMipLevels = 14;
    bad.imageArrayLayers = 1;
    if (h->properties.limits.maxImageDimension2D >= 16383 && oneLayer * 16 > range) {
        r = vkspd::describeDispatch(h->context, bad, &d);
        ASSERT_TRUE(r.ok()) << r.message;
        EXPECT_GT(d.scratchBytes, range);
        EXPECT_EQ(d.scratchBytes, vkspd::scratchSize(h->context, bad));
        EXPECT_GE(d.scratchDataRanges, 2u);
        EXPECT_LE(d.scratchDataRanges, 4u);
        // Two such layers are past 4 ranges of 2^27 bytes: "at most 1" layer per call.
        bad.imageArrayLayers = 2;
        if (range < (uint64_t(1) << 28)) {
            r = vkspd::describeDispatch(h->context, bad, &d);
            EXPECT_FALSE(r.ok());
            EXPECT_NE(r.message.find("2 layer(s) of 16383x16383 needs "), std::string::npos) << r.message;
            EXPECT_NE(r.message.find(limit), std::string::npos) << r.message;
            EXPECT_NE(r.message.find("fewer layers per call (at most 1)"), std::string::npos) << r.message;
            h->submit([&](VkCommandBuffer cmd) { EXPECT_FALSE(vkspd::generateMips(h->context, cmd, bad).ok()); });
        }
    }
    h->destroyImage(img);
}

TEST_F(GpuTest, CreateContextNamesWhatIsMissing) {
    vkspd::Context c = nullptr;
    vkspd::ContextCreateInfo ci = h->contextInfo;
    ci.functions.vkGetInstanceProcAddr = nullptr;
    vkspd::Result r = vkspd::createContext(ci, &c);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(c, nullptr);
    EXPECT_NE(r.message.find("vkGetInstanceProcAddr"), std::string::npos) << r.message;
    ci = h->contextInfo;
    ci.device = VK_NULL_HANDLE;
    r = vkspd::createContext(ci, &c);
    EXPECT_NE(r.message.find("device"), std::string::npos) << r.message;
    vkspd::destroyContext(nullptr);      // accepted
    vkspd::forgetImage(nullptr, VK_NULL_HANDLE);
}

TEST_F(GpuTest, DescribeDispatchReportsTheVariant) {
    TestImage img = h->createImage(VK_FORMAT_R16G16B16A16_SFLOAT, 1920, 1080, 11,
                                   VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT);
    vkspd::MipGenInfo info = chainInfo(img);
    // The general kernel (Auto takes the halo-stage kernel at this size where it can).
    vkspd::Tuning general;
    general.kernel = vkspd::Kernel::General;
    info.tuning = &general;
    vkspd::DispatchDescription d;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, info, &d).ok());
    EXPECT_EQ(d.path, vkspd::Path::SinglePass);
    EXPECT_EQ(d.groupsX, 30u);
    EXPECT_EQ(d.groupsY, 17u);
    EXPECT_EQ(d.levelsWritten, 10u);
    EXPECT_EQ(d.fp16, h->fp16);
    EXPECT_GT(d.scratchBytes, 0u);
    // The schedule (vkspd/tuning.hpp): the general kernel, one tile per group, two stages (levels
    // 1-6 and 7-10), odd levels.
    vkspd::ScheduleDescription s;
    ASSERT_TRUE(vkspd::describeSchedule(h->context, info, &s).ok());
    EXPECT_FALSE(s.plainChain);
    EXPECT_EQ(s.stages, 2u);
    EXPECT_EQ(s.tilesPerGroup, 1u);
    EXPECT_EQ(s.tailRow, 17u);
    EXPECT_TRUE(s.exactOddEdges);
    EXPECT_EQ(s.groupColumns, 0u);
    vkspd::Tuning tuning;
    tuning.groupColumns = 1000;  // capped at the workgroups across
    info.tuning = &tuning;
    ASSERT_TRUE(vkspd::describeSchedule(h->context, info, &s).ok());
    EXPECT_EQ(s.groupColumns, 30u);
    h->destroyImage(img);
    // A fallback path has no schedule: an error, and the output is left as it was.
    TestImage blit = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 7,
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    info = chainInfo(blit);
    info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    s.stages = 77;
    vkspd::Result r = vkspd::describeSchedule(h->context, info, &s);
    EXPECT_EQ(r.vkResult, VK_ERROR_FEATURE_NOT_PRESENT) << r.message;
    EXPECT_NE(r.message.find("fallback path"), std::string::npos) << r.message;
    EXPECT_EQ(s.stages, 77u);
    h->destroyImage(blit);
}
