// The smallest complete vkspd program: create a device, an image, generate its mips in one
// dispatch, read every level back and check it against the CPU reference (exit code 1 on any
// mismatch, 2 on a Vulkan or vkspd error, 3 on a validation message).
#include "example_validation.hpp"

#include <vkspd/reference.hpp>
#include <vkspd/vkspd.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                   \
    do {                                                                              \
        if (VkResult r_ = (call); r_ != VK_SUCCESS) {                                 \
            std::fprintf(stderr, "%s failed: VkResult %d\n", #call, int(r_));         \
            std::exit(2);                                                             \
        }                                                                             \
    } while (0)

static uint32_t findMemory(VkPhysicalDevice gpu, uint32_t bits, VkMemoryPropertyFlags flags) {
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(gpu, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & flags) == flags) return i;
    std::fprintf(stderr, "no suitable memory type\n");
    std::exit(2);
}

int main() {
    // 1. Instance and device, with what vkspd::requiredDeviceFeatures() lists.
    example::Validation validation;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (!validation.prepare(ici)) return 2;
    VkInstance instance;
    CHECK(vkCreateInstance(&ici, nullptr, &instance));
    validation.attach(instance);
    uint32_t count = 1;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    if (vkEnumeratePhysicalDevices(instance, &count, &gpu) < 0 || count == 0) {
        std::fprintf(stderr, "no Vulkan device\n");
        return 2;
    }
    uint32_t family = 0, families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &families, props.data());
    while (!(props[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;  // Vulkan guarantees one

    VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    features12.vulkanMemoryModel = VK_TRUE;
    features12.vulkanMemoryModelDeviceScope = VK_TRUE;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features12};
    features.features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family, qci.queueCount = 1, qci.pQueuePriorities = &priority;
    const char* extension = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    dci.queueCreateInfoCount = 1, dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 1, dci.ppEnabledExtensionNames = &extension;
    VkDevice device;
    CHECK(vkCreateDevice(gpu, &dci, nullptr, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);

    // 2. The vkspd context: the library reaches Vulkan only through the pointer given here.
    vkspd::ContextCreateInfo ci;
    ci.instance = instance, ci.physicalDevice = gpu, ci.device = device;
    ci.functions.vkGetInstanceProcAddr = vkGetInstanceProcAddr;
    ci.pushDescriptorEnabled = true;
    vkspd::Context mips = nullptr;
    if (vkspd::Result r = vkspd::createContext(ci, &mips); !r.ok()) {
        std::fprintf(stderr, "vkspd: %s\n", r.message.c_str());
        return 2;
    }

    // 3. An image with every level (odd sizes on purpose), and one host-visible buffer that holds
    //    level 0 on the way in and every level on the way out.
    const uint32_t width = 100, height = 61, levels = vkspd::fullMipCount(width, height);
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D, ii.format = format, ii.extent = {width, height, 1};
    ii.mipLevels = levels, ii.arrayLayers = 1, ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |  // the single pass
               VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImage image;
    CHECK(vkCreateImage(device, &ii, nullptr, &image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device, image, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = findMemory(gpu, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkDeviceMemory imageMemory;
    CHECK(vkAllocateMemory(device, &ai, nullptr, &imageMemory));
    CHECK(vkBindImageMemory(device, image, imageMemory, 0));

    std::vector<VkBufferImageCopy> regions(levels);
    VkDeviceSize bytes = 0;
    for (uint32_t l = 0; l < levels; ++l) {
        regions[l] = {};
        regions[l].bufferOffset = bytes;
        regions[l].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
        regions[l].imageExtent = {vkspd::mipExtent(width, l), vkspd::mipExtent(height, l), 1};
        bytes += VkDeviceSize(regions[l].imageExtent.width) * regions[l].imageExtent.height * 4;
    }
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer;
    CHECK(vkCreateBuffer(device, &bci, nullptr, &buffer));
    vkGetBufferMemoryRequirements(device, buffer, &req);
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = findMemory(gpu, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDeviceMemory bufferMemory;
    CHECK(vkAllocateMemory(device, &ai, nullptr, &bufferMemory));
    CHECK(vkBindBufferMemory(device, buffer, bufferMemory, 0));
    uint8_t* texels = nullptr;
    CHECK(vkMapMemory(device, bufferMemory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&texels)));
    std::vector<float> level0(size_t(width) * height * 4);  // a gradient with a pattern
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            uint8_t* t = texels + (size_t(y) * width + x) * 4;
            t[0] = uint8_t(x * 255 / (width - 1)), t[1] = uint8_t(y * 255 / (height - 1));
            t[2] = uint8_t(((x ^ y) & 8) ? 255 : 0), t[3] = 255;
        }
    vkspd::decodeTexels(format, texels, size_t(width) * height, level0.data());

    // 4. One command buffer: upload level 0, generate the mips, read every level back.
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = family;
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(device, &pci, nullptr, &pool));
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = pool, cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(device, &cai, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CHECK(vkBeginCommandBuffer(cmd, &begin));
    VkImageMemoryBarrier toCopy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    toCopy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toCopy.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    toCopy.srcQueueFamilyIndex = toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toCopy.image = image, toCopy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         0, nullptr, 0, nullptr, 1, &toCopy);
    vkCmdCopyBufferToImage(cmd, buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &regions[0]);

    vkspd::MipGenInfo info;
    info.image = image, info.format = format, info.extent = {width, height};
    info.imageMipLevels = levels;
    info.before = {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT};  // what the copy above left
    info.after = {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT};    // what the read-back below needs
    if (vkspd::Result r = vkspd::generateMips(mips, cmd, info); !r.ok()) {
        std::fprintf(stderr, "vkspd: %s\n", r.message.c_str());
        return 2;
    }

    VkMemoryBarrier reuse{VK_STRUCTURE_TYPE_MEMORY_BARRIER};  // the buffer's level 0 was read
    reuse.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT, reuse.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                         &reuse, 0, nullptr, 0, nullptr);
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, levels,
                           regions.data());
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &toHost, 0, nullptr, 0, nullptr);
    CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1, submit.pCommandBuffers = &cmd;
    CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));

    // 5. Every level against the CPU reference (docs/FILTER.md: at most 1 ulp for 8-bit UNORM).
    const auto reference = vkspd::referenceChain(level0.data(), width, height, 4, levels);
    size_t bad = 0;
    for (uint32_t l = 1; l < levels; ++l) {
        const vkspd::LevelError e = vkspd::compareLevel(
            format, texels + regions[l].bufferOffset, reference[l], vkspd::toleranceFor(format, false));
        std::printf("level %2u %4ux%-4u worst error %.2f ulp\n", l, reference[l].width,
                    reference[l].height, e.worst);
        bad += e.overTolerance;
    }

    vkspd::forgetImage(mips, image);  // before the image goes
    vkspd::destroyContext(mips);      // the device is idle
    vkDestroyCommandPool(device, pool, nullptr);
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, bufferMemory, nullptr);
    vkDestroyImage(device, image, nullptr);
    vkFreeMemory(device, imageMemory, nullptr);
    vkDestroyDevice(device, nullptr);
    validation.detach(instance);
    vkDestroyInstance(instance, nullptr);
    if (validation.messages) return 3;
    std::printf("%s\n", bad ? "MISMATCH against the CPU reference" : "all levels match the CPU reference");
    return bad ? 1 : 0;
}
