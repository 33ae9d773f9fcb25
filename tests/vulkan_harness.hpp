// Test harness: one Vulkan device per test process, created with the Khronos validation layer and
// synchronization validation; every validation message is recorded and fails the running test.
#pragma once

#include <vkspd/reference.hpp>
#include <vkspd/tuning.hpp>
#include <vkspd/vkspd.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace vkspd_test {

struct TestImage {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    uint32_t width = 0, height = 0, levels = 0, layers = 1;
};

class Harness {
public:
    // The process-wide harness; created on first use. Fails the test (and returns null) if no
    // device could be created.
    static Harness* get();

    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    VkCommandPool commandPool = VK_NULL_HANDLE;
    vkspd::Context context = nullptr;
    vkspd::ContextCreateInfo contextInfo;  // as used for `context`
    VkPhysicalDeviceProperties properties{};
    bool validation = false;   // the validation layer is active
    bool fp16 = false;         // shaderFloat16 enabled
    bool quad = false;         // quad subgroup operations available
    bool privateData = false;  // Vulkan 1.3 privateData enabled (`context` does not use it)

    // Validation messages since the last takeMessages().
    std::vector<std::string> takeMessages();

    TestImage createImage(VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
                          VkImageUsageFlags usage, uint32_t layers = 1, VkImageCreateFlags flags = 0);
    void destroyImage(TestImage& image);

    // Records with `record` into a fresh primary command buffer, submits and waits.
    void submit(const std::function<void(VkCommandBuffer)>& record);

    // Uploads `bytes` (tightly packed level 0 of every layer, layer after layer) and leaves every
    // level and layer in `layout` (TRANSFER_DST_OPTIMAL or GENERAL).
    void upload(const TestImage& image, const void* bytes,
                VkImageLayout layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    // Uploads every level (levels[l]: level l of every layer, packed) and leaves the image in
    // `layout` (TRANSFER_DST_OPTIMAL or GENERAL).
    void uploadLevels(const TestImage& image, const std::vector<std::vector<uint8_t>>& levels,
                      VkImageLayout layout);
    // Reads every level of every layer from an image in `layout` (TRANSFER_SRC_OPTIMAL or
    // GENERAL); result[level] holds the packed texels of every layer, layer after layer.
    std::vector<std::vector<uint8_t>> readLevels(
        const TestImage& image, VkImageLayout layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);

    void recordMessage(const char* message);

private:
    std::mutex mutex_;
    std::vector<std::string> messages_;
};

// Base for tests that use the GPU: fails a test that produced any validation message.
class GpuTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    Harness* h = nullptr;
};

// The usage every test image with a chain needs: generated, uploaded and read back.
constexpr VkImageUsageFlags kChainUsage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                          VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                          VK_IMAGE_USAGE_TRANSFER_DST_BIT;

// The request for every level and layer of `image`, from uploadedState() to readbackState().
vkspd::MipGenInfo chainInfo(const TestImage& image);
// chainInfo(image) reading level 0 from `source` (MipGenInfo::source, uploadedState() before and
// after), which the dispatch copies into the base level: the image's old contents are not read.
vkspd::MipGenInfo sourcedChainInfo(const TestImage& image, const TestImage& source);

// A Hi-Z pyramid with `tuning`: a `w` x `ht` D32 depth image of random depth (`seed`) as the
// source of every level of an R32F image with `reduction` (Min or Max), or of an RG32F image with
// MinMax; expects level 0 to be the depth bit for bit (with MinMax in both channels) and every
// level below its exact reductions (the CPU reference). With `chosen`, expects describeSchedule to
// report that kernel, through loads, first.
void expectDepthPyramid(Harness* h, uint32_t w, uint32_t ht, uint32_t seed, const vkspd::Tuning& tuning,
                        bool vkspd::ScheduleDescription::*chosen = nullptr,
                        vkspd::Reduction reduction = vkspd::Reduction::Min);

// A host-visible, host-coherent buffer of `size` bytes with `usage`, mapped (failures abort the
// test through the harness's checks); freeHostBuffer releases it.
struct HostBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
};
HostBuffer makeHostBuffer(Harness* h, VkDeviceSize size, VkBufferUsageFlags usage);
void freeHostBuffer(Harness* h, HostBuffer& b);

// describeDispatch and, on the single pass, describeSchedule (zero otherwise): what the tests read.
struct Described : vkspd::DispatchDescription, vkspd::ScheduleDescription {};
vkspd::Result describe(vkspd::Context context, const vkspd::MipGenInfo& info, Described* d);

// The caller-side state of an image that was just uploaded, and the state tests read it in.
vkspd::ImageState uploadedState();
vkspd::ImageState readbackState();

// Deterministic pseudo-random level-0 bytes for `format`: UNORM and sRGB uniform in [0, 1], SNORM
// in [-1, 1], colour floats in [0.25, 4) so relative errors stay meaningful, depth in [0, 1].
std::vector<uint8_t> randomTexels(VkFormat format, uint32_t width, uint32_t height, uint32_t seed);

// Bytes of one level of one layer.
size_t levelBytes(const TestImage& image, uint32_t level);

// Expects every level below `base` + 1 .. `base` + `count` - 1 of each layer in [firstLayer,
// firstLayer + layers) of `gpu` (as read by readLevels) to match the CPU reference made from
// level `base` of that layer; returns the worst error seen.
double expectChainMatches(const TestImage& image, const std::vector<std::vector<uint8_t>>& gpu,
                          uint32_t base, uint32_t count, uint32_t firstLayer, uint32_t layers,
                          double tolerance, const std::string& what);
// The same against a reference made with `options` (reductions, rounding at every level).
double expectChainMatches(const TestImage& image, const std::vector<std::vector<uint8_t>>& gpu,
                          uint32_t base, uint32_t count, uint32_t firstLayer, uint32_t layers,
                          double tolerance, const std::string& what, const vkspd::ReferenceOptions& options);
// Runs generateMips(info) on `image` (level 0 already uploaded), reads every level back and
// expects every layer's chain to match the CPU reference made with info.reduction (a built-in
// one): Average within toleranceFor(format, fp16), Min, Max and MinMax bit-exact. Prints the worst
// error ("[ worst    ] what: ...") and returns it.
double expectGeneratedChainMatches(Harness* h, const TestImage& image, const vkspd::MipGenInfo& info, bool fp16,
                                   const std::string& what);

// Create flags an image of `format` needs for the single pass: sRGB images are written through a
// UNORM view (MUTABLE_FORMAT), and their STORAGE usage only applies to such views (EXTENDED_USAGE).
VkImageCreateFlags singlePassFlags(VkFormat format);

// The supported formats an image can have (every one but the depth formats, which are sources).
std::vector<VkFormat> colourFormats();

// The aspect of images of `format`: DEPTH for depth formats, else COLOR.
VkImageAspectFlags aspectOf(VkFormat format);

}  // namespace vkspd_test
