// Vulkan device setup shared by the sample and the benchmark (not part of the library): picks a
// device (first discrete GPU, else any GPU, else the CPU implementation), enables what vkspd
// needs and creates one queue. Failures print one line and exit with kGpuExitCode.
#pragma once

#include <vkspd/vkspd.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace vkspd_tools {

constexpr int kGpuExitCode = 4;

#define CHECK_VK(call)                                                                    \
    do {                                                                                  \
        VkResult r_ = (call);                                                             \
        if (r_ != VK_SUCCESS) {                                                           \
            std::fprintf(stderr, "vkspd: %s failed (VkResult %d)\n", #call, int(r_)); \
            std::exit(kGpuExitCode);                                                      \
        }                                                                                 \
    } while (0)

struct Gpu {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    bool fp16 = false, sync2 = false;
    bool pipelineStatistics = false;  // VK_KHR_pipeline_executable_properties enabled
    VkPhysicalDeviceProperties properties{};
};

inline int deviceRank(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

// `pipelineStatistics`: also enable VK_KHR_pipeline_executable_properties where the device has it
// (Gpu::pipelineStatistics says whether it did).
inline Gpu openGpu(int requested, bool pipelineStatistics = false) {
    Gpu g;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkspd-sample";
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    CHECK_VK(vkCreateInstance(&ici, nullptr, &g.instance));
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(g.instance, &n, nullptr);
    std::vector<VkPhysicalDevice> devices(n);
    vkEnumeratePhysicalDevices(g.instance, &n, devices.data());
    if (n == 0) {
        std::fprintf(stderr, "vkspd: no Vulkan device (install mesa-vulkan-drivers for lavapipe)\n");
        std::exit(kGpuExitCode);
    }
    if (requested >= 0) {
        if (uint32_t(requested) >= n) {
            std::fprintf(stderr, "vkspd: --device %d: only %u device(s)\n", requested, n);
            std::exit(2);
        }
        g.physical = devices[size_t(requested)];
    } else {
        int best = 99;
        for (VkPhysicalDevice d : devices) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(d, &p);
            if (deviceRank(p.deviceType) < best) best = deviceRank(p.deviceType), g.physical = d;
        }
    }
    vkGetPhysicalDeviceProperties(g.physical, &g.properties);
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(g.physical, &qn, nullptr);
    std::vector<VkQueueFamilyProperties> qf(qn);
    vkGetPhysicalDeviceQueueFamilyProperties(g.physical, &qn, qf.data());
    for (uint32_t i = 0; i < qn; ++i)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            g.family = i;
            break;
        }
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    const bool v13 = g.properties.apiVersion >= VK_API_VERSION_1_3;
    f12.pNext = v13 ? &f13 : nullptr;
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &f12;
    vkGetPhysicalDeviceFeatures2(g.physical, &f2);
    if (!f12.vulkanMemoryModel || !f12.vulkanMemoryModelDeviceScope ||
        !f2.features.shaderStorageImageWriteWithoutFormat) {
        std::fprintf(stderr, "vkspd: %s lacks features vkspd needs: %s\n",
                     g.properties.deviceName, vkspd::requiredDeviceFeatures());
        std::exit(kGpuExitCode);
    }
    VkPhysicalDeviceVulkan13Features e13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    e13.synchronization2 = f13.synchronization2;
    if (pipelineStatistics) {
        uint32_t extensionCount = 0;
        vkEnumerateDeviceExtensionProperties(g.physical, nullptr, &extensionCount, nullptr);
        std::vector<VkExtensionProperties> exts(extensionCount);
        vkEnumerateDeviceExtensionProperties(g.physical, nullptr, &extensionCount, exts.data());
        for (const VkExtensionProperties& e : exts)
            g.pipelineStatistics = g.pipelineStatistics ||
                std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0;
    }
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR ePipe{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    ePipe.pNext = v13 ? &e13 : nullptr;
    ePipe.pipelineExecutableInfo = VK_TRUE;
    VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    e12.pNext = g.pipelineStatistics ? static_cast<void*>(&ePipe) : (v13 ? static_cast<void*>(&e13) : nullptr);
    e12.vulkanMemoryModel = e12.vulkanMemoryModelDeviceScope = VK_TRUE;
    e12.shaderFloat16 = f12.shaderFloat16;
    g.fp16 = f12.shaderFloat16;
    g.sync2 = v13 && f13.synchronization2;
    VkPhysicalDeviceFeatures2 e2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    e2.pNext = &e12;
    e2.features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = g.family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    const char* exts[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &e2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qi;
    dci.enabledExtensionCount = g.pipelineStatistics ? 2 : 1;
    dci.ppEnabledExtensionNames = exts;
    CHECK_VK(vkCreateDevice(g.physical, &dci, nullptr, &g.device));
    vkGetDeviceQueue(g.device, g.family, 0, &g.queue);
    return g;
}

inline uint32_t memoryType(const Gpu& g, uint32_t bits, VkMemoryPropertyFlags flags) {
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(g.physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & flags) == flags) return i;
    std::fprintf(stderr, "vkspd: no suitable memory type\n");
    std::exit(kGpuExitCode);
}

inline VkDeviceMemory allocate(const Gpu& g, VkMemoryRequirements req, VkMemoryPropertyFlags flags) {
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memoryType(g, req.memoryTypeBits, flags);
    VkDeviceMemory m;
    CHECK_VK(vkAllocateMemory(g.device, &ai, nullptr, &m));
    return m;
}

// What vkspd needs to know about `g`.
inline vkspd::ContextCreateInfo contextInfoFor(const Gpu& g) {
    vkspd::ContextCreateInfo ci;
    ci.instance = g.instance;
    ci.physicalDevice = g.physical;
    ci.device = g.device;
    ci.functions.vkGetInstanceProcAddr = vkGetInstanceProcAddr;
    ci.apiVersion = g.properties.apiVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
    ci.shaderFloat16Enabled = g.fp16;
    ci.synchronization2Enabled = g.sync2;
    ci.pushDescriptorEnabled = true;
    return ci;
}

// The vkspd context for `g`, or exit with a message.
inline vkspd::Context createContext(const Gpu& g) {
    vkspd::Context context = nullptr;
    if (vkspd::Result r = vkspd::createContext(contextInfoFor(g), &context); !r.ok()) {
        std::fprintf(stderr, "vkspd: %s\n", r.message.c_str());
        std::exit(kGpuExitCode);
    }
    return context;
}

// A barrier for every level of layer 0 of `image`.
inline void imageBarrier(VkCommandBuffer cmd, VkImage image, uint32_t levels, VkImageLayout from,
                         VkImageLayout to, VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                         VkPipelineStageFlags dstStage, VkAccessFlags dstAccess) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
    vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

// Ends `cmd`, submits it to the queue of `g` and waits for the queue to be idle.
inline void endSubmitWait(const Gpu& g, VkCommandBuffer cmd) {
    CHECK_VK(vkEndCommandBuffer(cmd));
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    CHECK_VK(vkQueueSubmit(g.queue, 1, &si, VK_NULL_HANDLE));
    CHECK_VK(vkQueueWaitIdle(g.queue));
}

}  // namespace vkspd_tools
