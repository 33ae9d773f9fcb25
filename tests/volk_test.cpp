// The library works with volk: this executable is compiled with VK_NO_PROTOTYPES and links no
// Vulkan loader; volk loads it at run time, the test makes every Vulkan call through volk's
// function pointers, and vkspd gets volk's vkGetInstanceProcAddr and vkGetDeviceProcAddr through
// vkspd::VulkanFunctions. Runs under the validation layer (with synchronization validation) like
// the main suite; any validation message fails the test.
#include <volk.h>

#include <vkspd/reference.hpp>
#include <vkspd/vkspd.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifndef VK_NO_PROTOTYPES
#error "volk_test.cpp must be compiled with VK_NO_PROTOTYPES: no call may bypass volk"
#endif

namespace {

std::vector<std::string> g_messages;

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        g_messages.push_back(data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
}

bool hasLayer(const char* name) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    for (const auto& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

class VolkTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(volkInitialize(), VK_SUCCESS) << "volk found no Vulkan loader";
        const char* layer = "VK_LAYER_KHRONOS_validation";
        const bool validation = !std::getenv("VKSPD_TEST_NO_VALIDATION") && hasLayer(layer);
        ASSERT_TRUE(validation || std::getenv("VKSPD_TEST_NO_VALIDATION"))
            << "the validation layer is missing (apt-get install vulkan-validationlayers)";
        VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.apiVersion = VK_API_VERSION_1_2;
        VkValidationFeatureEnableEXT enables[] = {
            VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
        VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
        features.enabledValidationFeatureCount = 1;
        features.pEnabledValidationFeatures = enables;
        VkDebugUtilsMessengerCreateInfoEXT messenger{
            VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
        messenger.pfnUserCallback = onMessage;
        features.pNext = &messenger;
        const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        ici.pApplicationInfo = &app;
        if (validation) {
            ici.pNext = &features;
            ici.enabledLayerCount = 1;
            ici.ppEnabledLayerNames = &layer;
            ici.enabledExtensionCount = 1;
            ici.ppEnabledExtensionNames = &extension;
        }
        ASSERT_EQ(vkCreateInstance(&ici, nullptr, &instance), VK_SUCCESS);
        volkLoadInstanceOnly(instance);
        if (validation) {
            ASSERT_EQ(vkCreateDebugUtilsMessengerEXT(instance, &messenger, nullptr, &debug),
                      VK_SUCCESS);
        }

        uint32_t count = 0;
        vkEnumeratePhysicalDevices(instance, &count, nullptr);
        ASSERT_GT(count, 0u) << "no Vulkan device (apt-get install mesa-vulkan-drivers)";
        std::vector<VkPhysicalDevice> devices(count);
        vkEnumeratePhysicalDevices(instance, &count, devices.data());
        uint32_t index = 0;
        if (const char* env = std::getenv("VKSPD_TEST_DEVICE")) index = uint32_t(std::atoi(env));
        gpu = devices[index < count ? index : 0];
        uint32_t qn = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(gpu, &qn, nullptr);
        std::vector<VkQueueFamilyProperties> qf(qn);
        vkGetPhysicalDeviceQueueFamilyProperties(gpu, &qn, qf.data());
        while (family < qn && !(qf[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
        ASSERT_LT(family, qn);

        VkPhysicalDeviceVulkan12Features supported12{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        supported.pNext = &supported12;
        vkGetPhysicalDeviceFeatures2(gpu, &supported);
        VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        f12.vulkanMemoryModel = VK_TRUE;
        f12.vulkanMemoryModelDeviceScope = VK_TRUE;
        f12.shaderFloat16 = supported12.shaderFloat16;
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        f2.pNext = &f12;
        f2.features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        qi.queueFamilyIndex = family;
        qi.queueCount = 1;
        qi.pQueuePriorities = &priority;
        const char* deviceExtension = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
        VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        dci.pNext = &f2;
        dci.queueCreateInfoCount = 1;
        dci.pQueueCreateInfos = &qi;
        dci.enabledExtensionCount = 1;
        dci.ppEnabledExtensionNames = &deviceExtension;
        ASSERT_EQ(vkCreateDevice(gpu, &dci, nullptr, &device), VK_SUCCESS);
        volkLoadDevice(device);  // device-level calls below go straight to the driver
        vkGetDeviceQueue(device, family, 0, &queue);

        fp16 = supported12.shaderFloat16 == VK_TRUE;
    }

    // A Context reaching Vulkan through volk's vkGetInstanceProcAddr, and volk's
    // vkGetDeviceProcAddr too when `withDeviceProcAddr` (else the library fetches it).
    void createContext(bool withDeviceProcAddr) {
        vkspd::ContextCreateInfo ci;
        ci.instance = instance;
        ci.physicalDevice = gpu;
        ci.device = device;
        ci.functions.vkGetInstanceProcAddr = vkGetInstanceProcAddr;  // volk's pointer
        if (withDeviceProcAddr) ci.functions.vkGetDeviceProcAddr = vkGetDeviceProcAddr;
        ci.pushDescriptorEnabled = true;
        ci.shaderFloat16Enabled = fp16;
        const vkspd::Result r = vkspd::createContext(ci, &context);
        ASSERT_TRUE(r.ok()) << r.message;
    }

    void generateAndCheck();

    void TearDown() override {
        vkspd::destroyContext(context);
        if (device) vkDestroyDevice(device, nullptr);
        if (debug) vkDestroyDebugUtilsMessengerEXT(instance, debug, nullptr);
        if (instance) vkDestroyInstance(instance, nullptr);
        for (const std::string& m : g_messages) ADD_FAILURE() << "validation: " << m;
        g_messages.clear();
    }

    uint32_t memoryType(uint32_t bits, VkMemoryPropertyFlags flags) const {
        VkPhysicalDeviceMemoryProperties mp;
        vkGetPhysicalDeviceMemoryProperties(gpu, &mp);
        for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
            if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & flags) == flags) return i;
        return UINT32_MAX;
    }

    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT debug = VK_NULL_HANDLE;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkQueue queue = VK_NULL_HANDLE;
    vkspd::Context context = nullptr;
    bool fp16 = false;
};

// Uploads a 61x35 RGBA8 image, generates its chain in one command buffer with the copies around
// it, reads every level back and compares it with the CPU reference.
void VolkTest::generateAndCheck() {
    const uint32_t width = 61, height = 35, levels = vkspd::fullMipCount(width, height);
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;

    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = format;
    ii.extent = {width, height, 1};
    ii.mipLevels = levels;
    ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.tiling = VK_IMAGE_TILING_OPTIMAL;
    ii.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
               VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImage image = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateImage(device, &ii, nullptr, &image), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device, image, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkDeviceMemory imageMemory = VK_NULL_HANDLE;
    ASSERT_EQ(vkAllocateMemory(device, &ai, nullptr, &imageMemory), VK_SUCCESS);
    vkBindImageMemory(device, image, imageMemory, 0);

    // One host-visible buffer: level 0 at the start, every level read back after it.
    std::vector<VkDeviceSize> offsets(levels);
    VkDeviceSize total = 0;
    for (uint32_t l = 0; l < levels; ++l) {
        offsets[l] = total;
        total += VkDeviceSize(vkspd::mipExtent(width, l)) * vkspd::mipExtent(height, l) * 4;
    }
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = total;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateBuffer(device, &bi, nullptr, &buffer), VK_SUCCESS);
    vkGetBufferMemoryRequirements(device, buffer, &req);
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDeviceMemory bufferMemory = VK_NULL_HANDLE;
    ASSERT_EQ(vkAllocateMemory(device, &ai, nullptr, &bufferMemory), VK_SUCCESS);
    vkBindBufferMemory(device, buffer, bufferMemory, 0);
    uint8_t* mapped = nullptr;
    ASSERT_EQ(vkMapMemory(device, bufferMemory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&mapped)),
              VK_SUCCESS);
    const size_t level0Bytes = size_t(width) * height * 4;
    for (size_t i = 0; i < level0Bytes; ++i) mapped[i] = uint8_t((i * 91u + i / 5u) & 0xFF);
    std::vector<uint8_t> level0(mapped, mapped + level0Bytes);

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = family;
    VkCommandPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateCommandPool(device, &pci, nullptr, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbi.commandPool = pool;
    cbi.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbi.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    ASSERT_EQ(vkAllocateCommandBuffers(device, &cbi, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);

    VkImageMemoryBarrier toDst{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    toDst.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toDst.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    toDst.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toDst.srcQueueFamilyIndex = toDst.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toDst.image = image;
    toDst.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         0, nullptr, 0, nullptr, 1, &toDst);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {width, height, 1};
    vkCmdCopyBufferToImage(cmd, buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);

    vkspd::MipGenInfo info;
    info.image = image;
    info.format = format;
    info.extent = {width, height};
    info.imageMipLevels = levels;
    info.before = {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT};
    info.after = {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT};
    const vkspd::Result r = vkspd::generateMips(context, cmd, info);
    ASSERT_TRUE(r.ok()) << r.message;

    // Read back level 1 and below; the buffer's level-0 bytes were read by the upload, which the
    // barrier orders before these writes.
    VkBufferMemoryBarrier reuse{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    reuse.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    reuse.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    reuse.srcQueueFamilyIndex = reuse.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    reuse.buffer = buffer;
    reuse.size = VK_WHOLE_SIZE;
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                         nullptr, 1, &reuse, 0, nullptr);
    std::vector<VkBufferImageCopy> copies;
    for (uint32_t l = 1; l < levels; ++l) {
        VkBufferImageCopy c{};
        c.bufferOffset = offsets[l];
        c.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
        c.imageExtent = {vkspd::mipExtent(width, l), vkspd::mipExtent(height, l), 1};
        copies.push_back(c);
    }
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer,
                           uint32_t(copies.size()), copies.data());
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &toHost, 0, nullptr, 0, nullptr);
    vkEndCommandBuffer(cmd);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    ASSERT_EQ(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    ASSERT_EQ(vkQueueWaitIdle(queue), VK_SUCCESS);

    std::vector<float> decoded(level0Bytes);
    vkspd::decodeTexels(format, level0.data(), size_t(width) * height, decoded.data());
    const auto ref = vkspd::referenceChain(decoded.data(), width, height, 4, levels);
    ASSERT_EQ(ref.size(), levels);
    for (uint32_t l = 1; l < levels; ++l) {
        const vkspd::LevelError e = vkspd::compareLevel(format, mapped + offsets[l], ref[l],
                                                        vkspd::toleranceFor(format, true));
        EXPECT_EQ(e.overTolerance, 0u) << "level " << l << " worst " << e.worst;
    }

    vkspd::forgetImage(context, image);
    vkDestroyCommandPool(device, pool, nullptr);
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, bufferMemory, nullptr);
    vkDestroyImage(device, image, nullptr);
    vkFreeMemory(device, imageMemory, nullptr);
}

TEST_F(VolkTest, GenerateMipsThroughVolkMatchesReference) {
    createContext(true);
    if (!HasFatalFailure()) generateAndCheck();
}

TEST_F(VolkTest, OnlyVolksInstanceProcAddr) {
    createContext(false);
    if (!HasFatalFailure()) generateAndCheck();
}

}  // namespace
