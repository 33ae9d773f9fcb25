// Vulkan device setup shared by the sample and the benchmark (not part of the library): picks a
// device (first discrete GPU, else any GPU, else the CPU implementation), enables what vkspd
// needs and creates one queue. Failures print one line and exit with kGpuExitCode.
#pragma once

#include <vkspd/vkspd.hpp>

#include <cstdio>
#include <cstdlib>
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

inline Gpu openGpu(int requested) {
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
    VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    e12.pNext = v13 ? &e13 : nullptr;
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
    const char* ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &e2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qi;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = &ext;
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

// The vkspd context for `g`, or exit with a message.
inline vkspd::Context createContext(const Gpu& g) {
    vkspd::ContextCreateInfo ci;
    ci.instance = g.instance;
    ci.physicalDevice = g.physical;
    ci.device = g.device;
    ci.functions.vkGetInstanceProcAddr = vkGetInstanceProcAddr;
    ci.apiVersion = g.properties.apiVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
    ci.shaderFloat16Enabled = g.fp16;
    ci.synchronization2Enabled = g.sync2;
    ci.pushDescriptorEnabled = true;
    vkspd::Context context = nullptr;
    if (vkspd::Result r = vkspd::createContext(ci, &context); !r.ok()) {
        std::fprintf(stderr, "vkspd: %s\n", r.message.c_str());
        std::exit(kGpuExitCode);
    }
    return context;
}

}  // namespace vkspd_tools
