// Bad input records nothing and leaks nothing, measured: the library runs on a counting layer
// (counting_functions.hpp) that counts every vkCmd* call and every object made and destroyed, and
// can make the Nth create or allocate fail.
#include "counting_functions.hpp"
#include "vulkan_harness.hpp"

#include <vkspd/debug.hpp>

#include <climits>
#include <functional>

using namespace vkspd_test;

namespace {

class CountingTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        if (!h) return;
        setRealGetInstanceProcAddr(h->contextInfo.functions.vkGetInstanceProcAddr);
        info = h->contextInfo;
        info.functions.vkGetInstanceProcAddr = &countingGetInstanceProcAddr;
        info.functions.vkGetDeviceProcAddr = nullptr;  // fetched through the counting layer
        callCounts().reset();
    }
    vkspd::ContextCreateInfo info;
};

struct BadRequest {
    const char* what;
    std::function<void(vkspd::MipGenInfo&)> change;
    std::vector<const char*> needles;  // each must appear in the message: the value and the rule
};

}  // namespace

TEST_F(CountingTest, BadRequestsRecordNothingAndLeakNothing) {
    vkspd::Context c = nullptr;
    ASSERT_TRUE(vkspd::createContext(info, &c).ok());
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 100, 60, 7, kChainUsage, 2);
    std::vector<uint8_t> texels = randomTexels(img.format, 100, 120, 5);  // both layers
    h->upload(img, texels.data());
    const vkspd::MipGenInfo good = chainInfo(img);
    const VkBuffer fakeBuffer = reinterpret_cast<VkBuffer>(uintptr_t(0x1000));
    const uint32_t maxLayers = h->properties.limits.maxImageArrayLayers;
    const std::string maxLayersText = std::to_string(maxLayers + 1);
    using I = vkspd::MipGenInfo;
    const std::vector<BadRequest> requests = {
        {"null image", [](I& i) { i.image = VK_NULL_HANDLE; }, {"image is null"}},
        {"zero width", [](I& i) { i.extent = {0, 60}; }, {"0x60", "at least 1"}},
        {"zero height", [](I& i) { i.extent = {100, 0}; }, {"100x0", "at least 1"}},
        {"zero both", [](I& i) { i.extent = {0, 0}; }, {"0x0", "at least 1"}},
        {"past the device limit", [](I& i) { i.extent = {1u << 20, 4}; }, {"1048576x4", "maxImageDimension2D"}},
        {"UINT32_MAX extent", [](I& i) { i.extent = {UINT32_MAX, UINT32_MAX}; }, {"4294967295", "maxImageDimension2D"}},
        {"zero image levels", [](I& i) { i.imageMipLevels = 0; }, {"imageMipLevels 0", "from 1 to 7"}},
        {"more levels than the extent has", [](I& i) { i.imageMipLevels = 8; }, {"imageMipLevels 8", "from 1 to 7"}},
        {"base level past the image", [](I& i) { i.baseMipLevel = 7; }, {"baseMipLevel 7", "7 levels"}},
        {"base level UINT32_MAX", [](I& i) { i.baseMipLevel = UINT32_MAX; }, {"baseMipLevel 4294967295", "7 levels"}},
        {"level count past the image", [](I& i) { i.levelCount = 8; }, {"mip range 0..7", "7 levels"}},
        {"range past the end", [](I& i) { i.baseMipLevel = 3; i.levelCount = 5; }, {"mip range 3..7", "7 levels"}},
        {"level count wraps around", [](I& i) { i.baseMipLevel = 1; i.levelCount = UINT32_MAX; },
         {"mip range 1..4294967295", "7 levels"}},
        {"level count wraps to the base", [](I& i) { i.baseMipLevel = 6; i.levelCount = UINT32_MAX - 4; },
         {"mip range 6..", "7 levels"}},
        {"zero image layers", [](I& i) { i.imageArrayLayers = 0; }, {"imageArrayLayers 0", "maxImageArrayLayers"}},
        {"more layers than the device allows", [&](I& i) { i.imageArrayLayers = maxLayers + 1; i.layerCount = 1; },
         {maxLayersText.c_str(), "maxImageArrayLayers"}},
        {"base layer past the image", [](I& i) { i.baseArrayLayer = 2; }, {"baseArrayLayer 2", "2 layers"}},
        {"layer count past the image", [](I& i) { i.layerCount = 3; }, {"layer range 0..2", "2 layers"}},
        {"layer count wraps around", [](I& i) { i.baseArrayLayer = 1; i.layerCount = UINT32_MAX; },
         {"layer range 1..4294967295", "2 layers"}},
        {"format vkspd does not support", [](I& i) { i.format = VK_FORMAT_R8G8B8_UNORM; },
         {"format 23", "not one vkspd supports"}},
        {"format out of the enum", [](I& i) { i.format = VkFormat(0x7FFFFFF0); }, {"2147483632", "not one vkspd supports"}},
        {"depth format as the destination", [](I& i) { i.format = VK_FORMAT_D32_SFLOAT; },
         {"D32_SFLOAT", "depth format"}},
        {"no storage, attachment or transfer usage", [](I& i) { i.usage = VK_IMAGE_USAGE_SAMPLED_BIT; },
         {"VK_IMAGE_USAGE_STORAGE_BIT", "VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT"}},
        {"storage without sampled usage", [](I& i) { i.usage = VK_IMAGE_USAGE_STORAGE_BIT; },
         {"VK_IMAGE_USAGE_SAMPLED_BIT"}},
        {"sRGB storage image without MUTABLE_FORMAT",
         [](I& i) {
             i.format = VK_FORMAT_R8G8B8A8_SRGB;
             i.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
         },
         {"R8G8B8A8_SRGB", "VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT"}},
        {"before.layout UNDEFINED", [](I& i) { i.before.layout = VK_IMAGE_LAYOUT_UNDEFINED; },
         {"before.layout", "UNDEFINED"}},
        {"before.layout PREINITIALIZED", [](I& i) { i.before.layout = VK_IMAGE_LAYOUT_PREINITIALIZED; },
         {"before.layout", "PREINITIALIZED"}},
        {"after.layout UNDEFINED", [](I& i) { i.after.layout = VK_IMAGE_LAYOUT_UNDEFINED; },
         {"after.layout", "UNDEFINED"}},
        {"reduction out of the enum", [](I& i) { i.reduction = vkspd::Reduction(77); },
         {"reduction 77", "not a vkspd::Reduction"}},
        {"precision out of the enum", [](I& i) { i.precision = vkspd::Precision(9); },
         {"precision 9", "not a vkspd::Precision"}},
        {"subgroup path out of the enum", [](I& i) { i.subgroupPath = vkspd::SubgroupPath(-1); },
         {"subgroupPath -1", "not a vkspd::SubgroupPath"}},
        {"custom reduction missing", [](I& i) { i.reduction = vkspd::Reduction::Custom; },
         {"Reduction::Custom", "customReduction"}},
        {"MinMax into four channels", [](I& i) { i.reduction = vkspd::Reduction::MinMax; },
         {"R8G8B8A8_UNORM", "MinMax writes two channels"}},
        {"FP16 for a 32-bit float format",
         [](I& i) {
             i.format = VK_FORMAT_R32G32B32A32_SFLOAT;
             i.precision = vkspd::Precision::FP16;
         },
         {"R32G32B32A32_SFLOAT", "FP16"}},
        {"misaligned scratch offset", [&](I& i) { i.scratchBuffer = fakeBuffer; i.scratchOffset = 3; },
         {"scratchOffset 3", "minStorageBufferOffsetAlignment"}},
        {"source extent differs from the base level",
         [&](I& i) {
             i.source.image = fakeBuffer ? reinterpret_cast<VkImage>(uintptr_t(0x2000)) : VK_NULL_HANDLE;
             i.source.format = VK_FORMAT_R8G8B8A8_UNORM;
             i.source.extent = {99, 60};
             i.source.before = uploadedState();
             i.source.after = uploadedState();
         },
         {"source.extent 99x60", "100x60"}},
        {"source with a one-level range",
         [](I& i) {
             i.source.image = reinterpret_cast<VkImage>(uintptr_t(0x2000));
             i.source.format = VK_FORMAT_R8G8B8A8_UNORM;
             i.source.extent = {100, 60};
             i.source.before = uploadedState();
             i.source.after = uploadedState();
             i.levelCount = 1;
         },
         {"source", "at least 2 levels"}},
        {"source layout UNDEFINED",
         [](I& i) {
             i.source.image = reinterpret_cast<VkImage>(uintptr_t(0x2000));
             i.source.format = VK_FORMAT_R8G8B8A8_UNORM;
             i.source.extent = {100, 60};
             i.source.after = uploadedState();
         },
         {"source.before.layout", "defined layouts"}},
        {"source format vkspd does not support",
         [](I& i) {
             i.source.image = reinterpret_cast<VkImage>(uintptr_t(0x2000));
             i.source.format = VK_FORMAT_R8G8B8_UNORM;
             i.source.extent = {100, 60};
             i.source.before = i.source.after = uploadedState();
         },
         {"source format 23", "not one vkspd supports"}},
        {"source with other channels than the image",
         [](I& i) {
             i.source.image = reinterpret_cast<VkImage>(uintptr_t(0x2000));
             i.source.format = VK_FORMAT_R8_UNORM;
             i.source.extent = {100, 60};
             i.source.before = i.source.after = uploadedState();
         },
         {"source format R8_UNORM", "channels"}},
    };
    size_t checked = 0;
    for (const BadRequest& bad : requests) {
        SCOPED_TRACE(bad.what);
        vkspd::MipGenInfo request = good;
        bad.change(request);
        const uint64_t createsBefore = callCounts().attempts;
        h->submit([&](VkCommandBuffer cmd) {
            const uint64_t commandsBefore = callCounts().commands;
            vkspd::Result r = vkspd::generateMips(c, cmd, request);
            EXPECT_FALSE(r.ok());
            EXPECT_NE(r.vkResult, VK_SUCCESS);
            for (const char* needle : bad.needles)
                EXPECT_NE(r.message.find(needle), std::string::npos) << "wanted \"" << needle << "\" in: " << r.message;
            EXPECT_EQ(callCounts().commands, commandsBefore) << "recorded commands: " << r.message;
            // describeDispatch and scratchSize reject it the same way.
            vkspd::DispatchDescription d;
            vkspd::Result described = vkspd::describeDispatch(c, request, &d);
            EXPECT_FALSE(described.ok());
            EXPECT_EQ(vkspd::scratchSize(c, request), 0u);
        });
        EXPECT_EQ(callCounts().attempts, createsBefore) << "a rejected request made Vulkan objects";
        ++checked;
    }
    // The handles themselves.
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(nullptr, cmd, good);
        EXPECT_NE(r.message.find("context is null"), std::string::npos) << r.message;
        r = vkspd::generateMips(c, VK_NULL_HANDLE, good);
        EXPECT_NE(r.message.find("command buffer is null"), std::string::npos) << r.message;
        vkspd::Capability cap;
        r = vkspd::queryCapability(c, vkspd::CapabilityQuery{}, nullptr);
        EXPECT_NE(r.message.find("output pointer is null"), std::string::npos) << r.message;
        r = vkspd::queryCapability(nullptr, vkspd::CapabilityQuery{}, &cap);
        EXPECT_NE(r.message.find("context is null"), std::string::npos) << r.message;
        EXPECT_EQ(callCounts().commands, 0u);
    });
    EXPECT_EQ(callCounts().commands, 0u);
    // A good request still works on the same context, then everything it made goes away.
    h->submit([&](VkCommandBuffer cmd) { EXPECT_TRUE(vkspd::generateMips(c, cmd, good).ok()); });
    EXPECT_GT(callCounts().commands, 0u);
    vkspd::forgetImage(c, img.image);
    vkspd::destroyContext(c);
    EXPECT_GT(callCounts().creates, 0u);
    EXPECT_EQ(callCounts().live(), 0) << callCounts().creates << " made, " << callCounts().destroys << " destroyed";
    h->destroyImage(img);
    std::printf("[ counts   ] %zu bad requests rejected with nothing recorded\n", checked);
}

TEST_F(CountingTest, CreateContextFailuresLeakNothing) {
    vkspd::ContextCreateInfo bad = info;
    bad.instance = VK_NULL_HANDLE;
    vkspd::Context c = reinterpret_cast<vkspd::Context>(uintptr_t(1));
    vkspd::Result r = vkspd::createContext(bad, &c);
    EXPECT_EQ(c, nullptr) << "the output is nulled on failure";
    EXPECT_NE(r.message.find("instance"), std::string::npos) << r.message;
    bad = info;
    bad.physicalDevice = VK_NULL_HANDLE;
    EXPECT_NE(vkspd::createContext(bad, &c).message.find("physicalDevice"), std::string::npos);
    bad = info;
    bad.pushDescriptorEnabled = false;
    EXPECT_NE(vkspd::createContext(bad, &c).message.find("VK_KHR_push_descriptor"), std::string::npos);
    EXPECT_NE(vkspd::createContext(info, nullptr).message.find("output pointer is null"), std::string::npos);
    EXPECT_EQ(callCounts().attempts, 0u);
}

// Every create and allocate of createContext and of a first generateMips (views, pipeline,
// scratch) fails in turn: each failure is reported, records nothing, and leaks nothing.
TEST_F(CountingTest, EveryInjectedAllocationFailureIsCleanedUp) {
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 100, 60, 7, kChainUsage);
    std::vector<uint8_t> texels = randomTexels(img.format, 100, 60, 6);
    h->upload(img, texels.data());
    vkspd::MipGenInfo request = chainInfo(img);
    request.subgroupPath = vkspd::SubgroupPath::LdsOnly;
    request.precision = vkspd::Precision::FP32;
    uint64_t injected = 0;
    for (uint64_t n = 1; n < 200; ++n) {
        SCOPED_TRACE("failing create number " + std::to_string(n));
        callCounts().reset();
        callCounts().failAt = n;
        vkspd::Context c = nullptr;
        vkspd::Result r = vkspd::createContext(info, &c);
        bool failed = !r.ok();
        if (failed) {
            EXPECT_EQ(c, nullptr);
            EXPECT_EQ(r.vkResult, VK_ERROR_OUT_OF_DEVICE_MEMORY) << r.message;
            EXPECT_NE(r.message.find("failed"), std::string::npos) << r.message;
        } else {
            h->submit([&](VkCommandBuffer cmd) {
                vkspd::Result g = vkspd::generateMips(c, cmd, request);
                if (g.ok()) request.before = request.after;
                if (!g.ok()) {
                    failed = true;
                    EXPECT_EQ(g.vkResult, VK_ERROR_OUT_OF_DEVICE_MEMORY) << g.message;
                    EXPECT_EQ(callCounts().commands, 0u) << g.message;
                }
            });
            if (failed) {
                // The same context recovers: the next call makes what failed.
                h->submit([&](VkCommandBuffer cmd) { EXPECT_TRUE(vkspd::generateMips(c, cmd, request).ok()); });
                request.before = request.after;
            }
            vkspd::forgetImage(c, img.image);
            vkspd::destroyContext(c);
        }
        EXPECT_EQ(callCounts().live(), 0) << callCounts().creates << " made, " << callCounts().destroys << " destroyed";
        if (!failed) break;  // n is past every create the two calls make
        ++injected;
    }
    EXPECT_GT(injected, 10u);
    std::printf("[ counts   ] %llu injected failures, each cleaned up\n", (unsigned long long)injected);
    h->destroyImage(img);
}

TEST_F(CountingTest, DestroyedContextIsReportedNotDereferenced) {
    vkspd::Context c = nullptr;
    ASSERT_TRUE(vkspd::createContext(info, &c).ok());
    vkspd::destroyContext(c);
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 7, kChainUsage);
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(c, cmd, chainInfo(img));
        EXPECT_FALSE(r.ok());
        EXPECT_NE(r.message.find("destroyed by destroyContext"), std::string::npos) << r.message;
    });
    vkspd::Capability cap;
    EXPECT_NE(vkspd::queryCapability(c, vkspd::CapabilityQuery{}, &cap).message.find("not live"), std::string::npos);
    std::string reason;
    EXPECT_FALSE(vkspd::isFormatSupported(c, VK_FORMAT_R8G8B8A8_UNORM, &reason));
    EXPECT_NE(reason.find("not live"), std::string::npos) << reason;
    vkspd::DispatchDescription d;
    EXPECT_NE(vkspd::describeDispatch(c, chainInfo(img), &d).message.find("not live"), std::string::npos);
    EXPECT_EQ(vkspd::scratchSize(c, chainInfo(img)), 0u);
    std::vector<vkspd::OccupancyRecord> records;
    EXPECT_NE(vkspd::queryOccupancy(c, vkspd::OccupancyQueryInfo{}, &records).message.find("not live"),
              std::string::npos);
    vkspd::DebugMapInfo map;
    map.buffer = reinterpret_cast<VkBuffer>(uintptr_t(1));
    h->submit([&](VkCommandBuffer cmd) {
        EXPECT_NE(vkspd::generateMipsDebugMap(c, cmd, chainInfo(img), map).message.find("not live"),
                  std::string::npos);
    });
    vkspd::CustomReduction custom = nullptr;
    EXPECT_FALSE(vkspd::createCustomReduction(c, "", &custom).ok());
    vkspd::forgetImage(c, img.image);  // ignored
    vkspd::destroyContext(c);          // reported on stderr, not a double free
    EXPECT_EQ(callCounts().commands, 0u);
    EXPECT_EQ(callCounts().live(), 0);
    h->destroyImage(img);
}

// The scratch ring's rule (ContextCreateInfo::scratchSlots): calls without their own scratch take
// the slots in turn, over all threads, so any scratchSlots consecutive calls have distinct
// counters and calls a multiple of scratchSlots apart share them.
TEST_F(CountingTest, RingSlotsGoInTurnOverCalls) {
    const uint32_t slots = 3, calls = 10;
    info.scratchSlots = slots;
    vkspd::Context c = nullptr;
    ASSERT_TRUE(vkspd::createContext(info, &c).ok());
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 100, 60, 7, kChainUsage);
    std::vector<uint8_t> texels = randomTexels(img.format, 100, 60, 9);
    h->upload(img, texels.data());
    vkspd::MipGenInfo mip = chainInfo(img);
    takePushedCounterBuffers();
    h->submit([&](VkCommandBuffer cmd) {
        for (uint32_t i = 0; i < calls; ++i) {
            ASSERT_TRUE(vkspd::generateMips(c, cmd, mip).ok());
            mip.before = mip.after;
        }
    });
    const std::vector<VkBuffer> taken = takePushedCounterBuffers();
    ASSERT_EQ(taken.size(), calls);
    for (uint32_t i = 0; i < calls; ++i) {
        for (uint32_t j = i + 1; j < calls; ++j) {
            if ((j - i) % slots == 0) {
                EXPECT_EQ(taken[i], taken[j]) << "calls " << i << " and " << j;
            } else {
                EXPECT_NE(taken[i], taken[j]) << "calls " << i << " and " << j;
            }
        }
    }
    auto gpu = h->readLevels(img);
    expectChainMatches(img, gpu, 0, img.levels, 0, 1, vkspd::toleranceFor(img.format, true), "ring");
    vkspd::forgetImage(c, img.image);
    vkspd::destroyContext(c);
    h->destroyImage(img);
}

// A device without relative subgroup shuffles (hidden by the counting functions) runs odd bases on
// the halo-stage kernel all the same: its odd-base module compiled at run time without them
// (EmbeddedSpirv.OddBaseModuleCompilesWithoutRelativeShuffles), asked for or under Kernel::Auto,
// with the texels of the reference: RGBA8, and RGBA16F, whose module takes a row's third tap from
// the next lane where the device has the shuffles; a custom reduction too. The plain prefix's
// module needs none.
TEST_F(CountingTest, OddBasesWithoutRelativeShufflesTakeAModuleWithoutThem) {
    if (!h->quad) GTEST_SKIP() << "written for a device with quad operations (the LDS-only path: LdsOnlyPathRunsThePlainHaloAndSummedKernels)";
    // Hidden for the whole test: every module the context creates is checked for the capability.
    struct Hidden {
        Hidden() { hideSubgroupOperations(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT); }
        ~Hidden() { hideSubgroupOperations(0); }
    } hidden;
    callCounts().reset();
    vkspd::Context c = nullptr;
    const vkspd::Result created = vkspd::createContext(info, &c);
    ASSERT_TRUE(created.ok()) << created.message;
    // An average written as a custom reduction: the reference's texels, on the FP32 variant.
    vkspd::CustomReduction average = nullptr;
    const vkspd::Result madeCustom = vkspd::createCustomReduction(c, R"(
vec4 vkspdIdentity() { return vec4(0.0); }
vec4 vkspdAccumulate(vec4 acc, vec4 v, float w) { return acc + w * v; }
vec4 vkspdCombine(vec4 a, vec4 b) { return a + b; }
)", &average);
    if (!madeCustom.ok() && madeCustom.message.find("without shaderc") != std::string::npos) {
        vkspd::destroyContext(c);
        GTEST_SKIP() << "built without shaderc, which compiles the module without relative shuffles";
    }
    ASSERT_TRUE(madeCustom.ok()) << madeCustom.message;
    struct Case {
        VkFormat format;
        vkspd::Kernel kernel;
        bool custom;
        const char* what;
    };
    const Case cases[] = {
        {VK_FORMAT_R8G8B8A8_UNORM, vkspd::Kernel::HaloStages, false, "RGBA8, HaloStages"},
        {VK_FORMAT_R8G8B8A8_UNORM, vkspd::Kernel::Auto, false, "RGBA8, Auto"},
        {VK_FORMAT_R16G16B16A16_SFLOAT, vkspd::Kernel::HaloStages, false, "RGBA16F, HaloStages"},
        {VK_FORMAT_R16G16B16A16_SFLOAT, vkspd::Kernel::Auto, false, "RGBA16F, Auto"},
        {VK_FORMAT_R16G16B16A16_SFLOAT, vkspd::Kernel::HaloStages, true, "RGBA16F averaged by a custom reduction"},
    };
    for (const Case& k : cases) {
        TestImage img = h->createImage(k.format, 255, 131, vkspd::fullMipCount(255, 131), kChainUsage);
        const std::vector<uint8_t> texels = randomTexels(img.format, 255, 131, 11);
        h->upload(img, texels.data());
        vkspd::MipGenInfo mip = chainInfo(img);
        vkspd::Tuning tuning;
        tuning.kernel = k.kernel;
        mip.tuning = &tuning;
        if (k.custom) {
            mip.reduction = vkspd::Reduction::Custom;
            mip.customReduction = average;
        }
        Described d;
        const vkspd::Result r = describe(c, mip, &d);
        ASSERT_TRUE(r.ok()) << k.what << ": " << r.message;
        EXPECT_TRUE(d.haloStages) << k.what;
        EXPECT_TRUE(d.oddBaseStage) << k.what;
        h->submit([&](VkCommandBuffer cmd) {
            const vkspd::Result g = vkspd::generateMips(c, cmd, mip);
            EXPECT_TRUE(g.ok()) << k.what << ": " << g.message;
        });
        expectChainMatches(img, h->readLevels(img), 0, img.levels, 0, 1, vkspd::toleranceFor(img.format, d.fp16),
                           std::string(k.what) + " 255x131 without relative shuffles");
        vkspd::forgetImage(c, img.image);
        h->destroyImage(img);
    }
    vkspd::destroyCustomReduction(c, average);
    // The same context on the odd-base module's counterpart, a plain prefix of two levels (RGBA16F,
    // whose averages the summed-levels kernel, which Auto takes for RGBA8 there, does not sum).
    TestImage prefix =
        h->createImage(VK_FORMAT_R16G16B16A16_SFLOAT, 260, 132, vkspd::fullMipCount(260, 132), kChainUsage);
    vkspd::MipGenInfo prefixMip = chainInfo(prefix);
    Described d;
    ASSERT_TRUE(describe(c, prefixMip, &d).ok());
    EXPECT_TRUE(d.haloStages);
    EXPECT_FALSE(d.oddBaseStage);
    vkspd::forgetImage(c, prefix.image);
    h->destroyImage(prefix);
    vkspd::destroyContext(c);
    EXPECT_EQ(callCounts().hiddenSubgroupModules.load(), 0u)
        << "a module declared relative shuffles, which the device (as the context saw it) lacks";
}
