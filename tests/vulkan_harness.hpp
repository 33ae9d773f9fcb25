// Test harness: one Vulkan device per test process, created with the Khronos validation layer and
// synchronization validation; every validation message is recorded and fails the running test.
#pragma once

#include <vkspd/reference.hpp>
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
    uint32_t width = 0, height = 0, levels = 0;
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

    // Validation messages since the last takeMessages().
    std::vector<std::string> takeMessages();

    TestImage createImage(VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
                          VkImageUsageFlags usage);
    void destroyImage(TestImage& image);

    // Records with `record` into a fresh primary command buffer, submits and waits.
    void submit(const std::function<void(VkCommandBuffer)>& record);

    // Uploads `bytes` (tightly packed level 0) and leaves every level in TRANSFER_DST_OPTIMAL.
    void upload(const TestImage& image, const void* bytes);
    // Reads every level (expects TRANSFER_SRC_OPTIMAL); result[level] holds packed texels.
    std::vector<std::vector<uint8_t>> readLevels(const TestImage& image);

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

// The caller-side state of an image that was just uploaded, and the state tests read it in.
vkspd::ImageState uploadedState();
vkspd::ImageState readbackState();

// Deterministic pseudo-random level-0 bytes for `format`: UNORM uniform in [0, 1], floats in
// [0.25, 4) so relative errors stay meaningful.
std::vector<uint8_t> randomTexels(VkFormat format, uint32_t width, uint32_t height, uint32_t seed);

}  // namespace vkspd_test
