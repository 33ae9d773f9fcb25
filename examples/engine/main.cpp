// vkspd inside an engine frame: the texture lives in SHADER_READ_ONLY_OPTIMAL, owned by the
// graphics queue family; its mips are generated on an async compute queue (a compute-only family
// where the device has one) inside a command buffer the engine already records, with the
// queue-family ownership transfers and semaphores such a hand-off needs:
//
//   graphics: [release to compute] --S1--> compute: [acquire, generateMips, release to graphics]
//   --S2--> graphics: [acquire, then sample it; here: read it back and check it]
//
// Where the device has a single queue family (lavapipe) both sides run on it and the ownership
// transfers are left out, as Vulkan requires; the semaphores stay. Exit code 1 on a mismatch
// against the CPU reference, 2 on a Vulkan or vkspd error, 3 on a validation message.
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

namespace {

struct Engine {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t graphicsFamily = 0, computeFamily = 0;
    VkQueue graphicsQueue = VK_NULL_HANDLE, computeQueue = VK_NULL_HANDLE;
    VkCommandPool graphicsPool = VK_NULL_HANDLE, computePool = VK_NULL_HANDLE;

    uint32_t memoryType(uint32_t bits, VkMemoryPropertyFlags flags) const {
        VkPhysicalDeviceMemoryProperties mp;
        vkGetPhysicalDeviceMemoryProperties(gpu, &mp);
        for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
            if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & flags) == flags) return i;
        std::fprintf(stderr, "no suitable memory type\n");
        std::exit(2);
    }
    VkCommandBuffer begin(VkCommandPool pool) const {
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pool, ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, ai.commandBufferCount = 1;
        VkCommandBuffer cmd;
        CHECK(vkAllocateCommandBuffers(device, &ai, &cmd));
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        CHECK(vkBeginCommandBuffer(cmd, &bi));
        return cmd;
    }
    void submit(VkQueue queue, VkCommandBuffer cmd, VkSemaphore wait, VkPipelineStageFlags waitStage,
                VkSemaphore signal, VkFence fence) const {
        CHECK(vkEndCommandBuffer(cmd));
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.waitSemaphoreCount = wait ? 1 : 0, si.pWaitSemaphores = &wait;
        si.pWaitDstStageMask = &waitStage;
        si.commandBufferCount = 1, si.pCommandBuffers = &cmd;
        si.signalSemaphoreCount = signal ? 1 : 0, si.pSignalSemaphores = &signal;
        CHECK(vkQueueSubmit(queue, 1, &si, fence));
    }
};

// A whole-image barrier; with two different families, one half of an ownership transfer (the
// release on the old family's queue, the acquire on the new one's, with the same layouts). An
// acquire's source stage is the stage its submission's semaphore wait names, so it chains after
// the wait.
void imageBarrier(VkCommandBuffer cmd, VkImage image, uint32_t levels, VkImageLayout oldLayout,
                  VkImageLayout newLayout, VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                  VkPipelineStageFlags dstStage, VkAccessFlags dstAccess, uint32_t srcFamily,
                  uint32_t dstFamily) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess, b.dstAccessMask = dstAccess;
    b.oldLayout = oldLayout, b.newLayout = newLayout;
    b.srcQueueFamilyIndex = srcFamily, b.dstQueueFamilyIndex = dstFamily;
    b.image = image, b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
    vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

Engine createEngine(example::Validation& validation) {
    Engine e;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (!validation.prepare(ici)) std::exit(2);
    CHECK(vkCreateInstance(&ici, nullptr, &e.instance));
    validation.attach(e.instance);
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(e.instance, &count, nullptr);
    std::vector<VkPhysicalDevice> gpus(count);
    vkEnumeratePhysicalDevices(e.instance, &count, gpus.data());
    uint32_t index = 0;
    if (const char* env = std::getenv("VKSPD_EXAMPLE_DEVICE")) index = uint32_t(std::atoi(env));
    if (count == 0) {
        std::fprintf(stderr, "no Vulkan device\n");
        std::exit(2);
    }
    e.gpu = gpus[index < count ? index : 0];

    // A graphics family, and a compute-only family for async compute if there is one.
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(e.gpu, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(e.gpu, &n, families.data());
    e.graphicsFamily = e.computeFamily = UINT32_MAX;
    for (uint32_t i = 0; i < n; ++i) {
        const VkQueueFlags f = families[i].queueFlags;
        if ((f & VK_QUEUE_GRAPHICS_BIT) && (f & VK_QUEUE_COMPUTE_BIT) && e.graphicsFamily == UINT32_MAX)
            e.graphicsFamily = i;
        if ((f & VK_QUEUE_COMPUTE_BIT) && !(f & VK_QUEUE_GRAPHICS_BIT) && e.computeFamily == UINT32_MAX)
            e.computeFamily = i;
    }
    if (e.graphicsFamily == UINT32_MAX) {
        std::fprintf(stderr, "no graphics queue family\n");
        std::exit(2);
    }
    if (e.computeFamily == UINT32_MAX) e.computeFamily = e.graphicsFamily;

    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.vulkanMemoryModel = VK_TRUE, f12.vulkanMemoryModelDeviceScope = VK_TRUE;
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
    f2.features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queues[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                         {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
    queues[0].queueFamilyIndex = e.graphicsFamily, queues[0].queueCount = 1;
    queues[0].pQueuePriorities = &priority;
    queues[1] = queues[0], queues[1].queueFamilyIndex = e.computeFamily;
    const char* extension = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f2};
    dci.queueCreateInfoCount = e.computeFamily != e.graphicsFamily ? 2 : 1;
    dci.pQueueCreateInfos = queues;
    dci.enabledExtensionCount = 1, dci.ppEnabledExtensionNames = &extension;
    CHECK(vkCreateDevice(e.gpu, &dci, nullptr, &e.device));
    vkGetDeviceQueue(e.device, e.graphicsFamily, 0, &e.graphicsQueue);
    vkGetDeviceQueue(e.device, e.computeFamily, 0, &e.computeQueue);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = e.graphicsFamily;
    CHECK(vkCreateCommandPool(e.device, &pci, nullptr, &e.graphicsPool));
    pci.queueFamilyIndex = e.computeFamily;
    CHECK(vkCreateCommandPool(e.device, &pci, nullptr, &e.computePool));
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(e.gpu, &props);
    std::printf("device %s: graphics family %u, mips on family %u (%s)\n", props.deviceName,
                e.graphicsFamily, e.computeFamily,
                e.computeFamily != e.graphicsFamily ? "async compute, ownership transfers"
                                                    : "the same family: no ownership transfer");
    return e;
}

}  // namespace

int main() {
    example::Validation validation;
    Engine e = createEngine(validation);
    const bool transfer = e.computeFamily != e.graphicsFamily;

    // The engine's mip generator, made once.
    vkspd::ContextCreateInfo ci;
    ci.instance = e.instance, ci.physicalDevice = e.gpu, ci.device = e.device;
    ci.functions.vkGetInstanceProcAddr = vkGetInstanceProcAddr;
    ci.pushDescriptorEnabled = true;
    vkspd::Context mips = nullptr;
    if (vkspd::Result r = vkspd::createContext(ci, &mips); !r.ok()) {
        std::fprintf(stderr, "vkspd: %s\n", r.message.c_str());
        return 2;
    }

    // A texture of the engine: loaded earlier, every level in SHADER_READ_ONLY_OPTIMAL, owned by
    // the graphics family. Here: a 257x130 RGBA8 image whose level 0 is uploaded once.
    const uint32_t width = 257, height = 130, levels = vkspd::fullMipCount(width, height);
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D, ii.format = format, ii.extent = {width, height, 1};
    ii.mipLevels = levels, ii.arrayLayers = 1, ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
               VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ii.sharingMode = VK_SHARING_MODE_EXCLUSIVE;  // hence the ownership transfers
    VkImage image;
    CHECK(vkCreateImage(e.device, &ii, nullptr, &image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(e.device, image, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = e.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkDeviceMemory imageMemory;
    CHECK(vkAllocateMemory(e.device, &ai, nullptr, &imageMemory));
    CHECK(vkBindImageMemory(e.device, image, imageMemory, 0));

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
    bci.size = bytes, bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer;
    CHECK(vkCreateBuffer(e.device, &bci, nullptr, &buffer));
    vkGetBufferMemoryRequirements(e.device, buffer, &req);
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = e.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                              VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDeviceMemory bufferMemory;
    CHECK(vkAllocateMemory(e.device, &ai, nullptr, &bufferMemory));
    CHECK(vkBindBufferMemory(e.device, buffer, bufferMemory, 0));
    uint8_t* texels = nullptr;
    CHECK(vkMapMemory(e.device, bufferMemory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&texels)));
    for (size_t i = 0; i < size_t(width) * height * 4; ++i) texels[i] = uint8_t((i * 2654435761u) >> 24);
    std::vector<float> level0(size_t(width) * height * 4);
    vkspd::decodeTexels(format, texels, size_t(width) * height, level0.data());

    VkFence fence;
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    CHECK(vkCreateFence(e.device, &fci, nullptr, &fence));
    VkCommandBuffer load = e.begin(e.graphicsPool);
    imageBarrier(load, image, levels, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED);
    vkCmdCopyBufferToImage(load, buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &regions[0]);
    imageBarrier(load, image, levels, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT, VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED);
    e.submit(e.graphicsQueue, load, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, fence);
    CHECK(vkWaitForFences(e.device, 1, &fence, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(e.device, 1, &fence));

    // --- One frame. ---
    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore toCompute, toGraphics;
    CHECK(vkCreateSemaphore(e.device, &sci, nullptr, &toCompute));
    CHECK(vkCreateSemaphore(e.device, &sci, nullptr, &toGraphics));

    // Graphics: the frame's last sampling of the texture, then release it to the compute family.
    VkCommandBuffer graphics = e.begin(e.graphicsPool);
    if (transfer)
        imageBarrier(graphics, image, levels, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0,
                     VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, e.graphicsFamily, e.computeFamily);
    e.submit(e.graphicsQueue, graphics, VK_NULL_HANDLE, 0, toCompute, VK_NULL_HANDLE);

    // Compute: the engine's async compute command buffer (other work may precede and follow).
    // Acquire, then vkspd records its barriers from `before` to `after` around the one dispatch.
    VkCommandBuffer compute = e.begin(e.computePool);
    if (transfer)
        imageBarrier(compute, image, levels, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, e.graphicsFamily, e.computeFamily);
    vkspd::MipGenInfo info;
    info.image = image, info.format = format, info.extent = {width, height};
    info.imageMipLevels = levels;
    // Before: the acquire (or the semaphore wait) ended in the compute stage; level 0's data was
    // made visible by the semaphore. After: the release (or the semaphore signal) starts there.
    info.before = {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_NONE};
    info.after = {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_NONE};
    if (vkspd::Result r = vkspd::generateMips(mips, compute, info); !r.ok()) {
        std::fprintf(stderr, "vkspd: %s\n", r.message.c_str());
        return 2;
    }
    if (transfer)
        imageBarrier(compute, image, levels, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                     VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, e.computeFamily, e.graphicsFamily);
    e.submit(e.computeQueue, compute, toCompute, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, toGraphics,
             VK_NULL_HANDLE);

    // Graphics, next frame: acquire, and use the mips (here: copy every level back to check it).
    VkCommandBuffer next = e.begin(e.graphicsPool);
    if (transfer)
        imageBarrier(next, image, levels, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, e.computeFamily, e.graphicsFamily);
    imageBarrier(next, image, levels, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                 VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED);
    vkCmdCopyImageToBuffer(next, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, levels,
                           regions.data());
    imageBarrier(next, image, levels, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                 VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT,
                 VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(next, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &toHost, 0, nullptr, 0, nullptr);
    e.submit(e.graphicsQueue, next, toGraphics, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_NULL_HANDLE, fence);
    CHECK(vkWaitForFences(e.device, 1, &fence, VK_TRUE, UINT64_MAX));

    const auto reference = vkspd::referenceChain(level0.data(), width, height, 4, levels);
    size_t bad = 0;
    for (uint32_t l = 1; l < levels; ++l)
        bad += vkspd::compareLevel(format, texels + regions[l].bufferOffset, reference[l],
                                   vkspd::toleranceFor(format, false)).overTolerance;

    CHECK(vkDeviceWaitIdle(e.device));
    vkspd::forgetImage(mips, image);
    vkspd::destroyContext(mips);
    vkDestroySemaphore(e.device, toCompute, nullptr);
    vkDestroySemaphore(e.device, toGraphics, nullptr);
    vkDestroyFence(e.device, fence, nullptr);
    vkDestroyCommandPool(e.device, e.graphicsPool, nullptr);
    vkDestroyCommandPool(e.device, e.computePool, nullptr);
    vkDestroyBuffer(e.device, buffer, nullptr);
    vkFreeMemory(e.device, bufferMemory, nullptr);
    vkDestroyImage(e.device, image, nullptr);
    vkFreeMemory(e.device, imageMemory, nullptr);
    vkDestroyDevice(e.device, nullptr);
    validation.detach(e.instance);
    vkDestroyInstance(e.instance, nullptr);
    if (validation.messages) return 3;
    std::printf("%u levels: %s\n", levels, bad ? "MISMATCH against the CPU reference"
                                               : "all match the CPU reference");
    return bad ? 1 : 0;
}
