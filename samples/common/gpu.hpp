// Vulkan device setup shared by the sample CLI and the benchmark (not part of the library): picks a
// device (first discrete GPU, else any GPU, else the CPU implementation), enables what vkspd
// needs and creates one queue. Setup failures print one line and exit with kGpuExitCode (a bad
// device choice with exit code 2); per-image work uses the non-exiting helpers (tryAllocate).
#pragma once

#include <vkspd/vkspd.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace vkspd_tools {

constexpr int kGpuExitCode = 4;
constexpr int kUsageExitCode = 2;

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
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;  // With GpuOptions::validation.
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    bool fp16 = false, sync2 = false;
    bool pipelineStatistics = false;  // VK_KHR_pipeline_executable_properties enabled
    bool smBuiltins = false;          // VK_NV_shader_sm_builtins enabled (shaderSMBuiltins)
    bool smBuiltinsPresent = false;   // The device exposes VK_NV_shader_sm_builtins
    uint32_t smCount = 0, warpsPerSm = 0;  // From VK_NV_shader_sm_builtins' properties, where present
    uint32_t index = 0;                // Position in vkEnumeratePhysicalDevices' list.
    uint32_t timestampValidBits = 0;   // Of the queue family (0: no timestamps).
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

// How to open a device.
struct GpuOptions {
    int index = -1;           // Device index (as --list-devices shows it); -1: the default choice.
    std::string name;         // Else, when not empty: the first device whose name contains this
                              // text (case-insensitive).
    bool pipelineStatistics = false;  // Also enable VK_KHR_pipeline_executable_properties where
                                      // present (Gpu::pipelineStatistics says whether it did).
    bool smBuiltins = false;  // Also enable VK_NV_shader_sm_builtins where present (Gpu::smBuiltins).
    bool validation = false;  // Khronos validation layer with synchronization validation; every
                              // message is printed as "vkspd: validation: ..." and counted.
};

// Validation messages printed so far (GpuOptions::validation).
inline std::atomic<unsigned>& validationMessageCount() {
    static std::atomic<unsigned> count{0};
    return count;
}

inline VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                          VkDebugUtilsMessageTypeFlagsEXT,
                                                          const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                          void*) {
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    ++validationMessageCount();
    std::fprintf(stderr, "vkspd: validation: %s\n", data && data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
}

inline bool hasInstanceLayer(const char* name) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    for (const VkLayerProperties& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

// A Vulkan 1.3 instance, with the validation layer and a messenger when `validation` is set
// (returned in *messenger; destroy it with destroyInstance).
inline VkInstance createInstance(bool validation, VkDebugUtilsMessengerEXT* messengerOut = nullptr) {
    const char* layer = "VK_LAYER_KHRONOS_validation";
    if (validation && !hasInstanceLayer(layer)) {
        std::fprintf(stderr, "vkspd: validation requested but %s is not installed "
                             "(apt-get install vulkan-validationlayers)\n", layer);
        std::exit(kGpuExitCode);
    }
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkspd";
    app.apiVersion = VK_API_VERSION_1_3;
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = onValidationMessage;
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.pNext = &messenger;  // also reports messages from instance creation and destruction
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
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
    VkInstance instance = VK_NULL_HANDLE;
    CHECK_VK(vkCreateInstance(&ici, nullptr, &instance));
    if (validation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
        VkDebugUtilsMessengerEXT m = VK_NULL_HANDLE;
        if (!create || create(instance, &messenger, nullptr, &m) != VK_SUCCESS) {
            std::fprintf(stderr, "vkspd: cannot create the validation messenger\n");
            std::exit(kGpuExitCode);
        }
        if (messengerOut) *messengerOut = m;
    }
    return instance;
}

// Destroys `instance` and its messenger (either may be null).
inline void destroyInstance(VkInstance instance, VkDebugUtilsMessengerEXT messenger) {
    if (!instance) return;
    if (messenger) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy) destroy(instance, messenger, nullptr);
    }
    vkDestroyInstance(instance, nullptr);
}

inline std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance) {
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, nullptr);
    std::vector<VkPhysicalDevice> devices(n);
    vkEnumeratePhysicalDevices(instance, &n, devices.data());
    devices.resize(n);
    return devices;
}

inline const char* deviceTypeName(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

// The default device: the first discrete GPU, else the first integrated or virtual GPU, else the
// first other device (lavapipe is a CPU device). -1 for an empty list.
inline int defaultDeviceIndex(const std::vector<VkPhysicalDevice>& devices) {
    int best = -1, bestRank = 99;
    for (size_t i = 0; i < devices.size(); ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        if (deviceRank(p.deviceType) < bestRank) bestRank = deviceRank(p.deviceType), best = int(i);
    }
    return best;
}

// Index of the device `options` asks for, or -1 with `error` saying why.
inline int chooseDevice(const std::vector<VkPhysicalDevice>& devices, const GpuOptions& options,
                        std::string* error) {
    if (devices.empty()) {
        *error = "no Vulkan device (install mesa-vulkan-drivers for lavapipe)";
        return -1;
    }
    if (options.index >= 0) {
        if (size_t(options.index) < devices.size()) return options.index;
        *error = "--device " + std::to_string(options.index) + ": there are only " +
                 std::to_string(devices.size()) + " device(s) (see --list-devices)";
        return -1;
    }
    if (!options.name.empty()) {
        auto lower = [](std::string t) {
            for (char& ch : t) ch = char(std::tolower(static_cast<unsigned char>(ch)));
            return t;
        };
        for (size_t i = 0; i < devices.size(); ++i) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(devices[i], &p);
            if (lower(p.deviceName).find(lower(options.name)) != std::string::npos) return int(i);
        }
        *error = "--device " + options.name + ": no device name contains it (see --list-devices)";
        return -1;
    }
    return defaultDeviceIndex(devices);
}

inline Gpu openGpu(const GpuOptions& options) {
    Gpu g;
    g.instance = createInstance(options.validation, &g.messenger);
    const std::vector<VkPhysicalDevice> devices = physicalDevices(g.instance);
    std::string error;
    const int chosen = chooseDevice(devices, options, &error);
    if (chosen < 0) {
        std::fprintf(stderr, "vkspd: %s\n", error.c_str());
        std::exit(devices.empty() ? kGpuExitCode : kUsageExitCode);
    }
    g.physical = devices[size_t(chosen)];
    g.index = uint32_t(chosen);
    const bool pipelineStatistics = options.pipelineStatistics;
    vkGetPhysicalDeviceProperties(g.physical, &g.properties);
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(g.physical, &qn, nullptr);
    std::vector<VkQueueFamilyProperties> qf(qn);
    vkGetPhysicalDeviceQueueFamilyProperties(g.physical, &qn, qf.data());
    // A graphics and compute family where there is one (the library's fallback paths need
    // graphics), else the first compute family.
    g.family = UINT32_MAX;
    for (uint32_t i = 0; i < qn && g.family == UINT32_MAX; ++i)
        if ((qf[i].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) ==
            (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT))
            g.family = i;
    for (uint32_t i = 0; i < qn && g.family == UINT32_MAX; ++i)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) g.family = i;
    if (g.family == UINT32_MAX) {
        std::fprintf(stderr, "vkspd: %s has no compute queue\n", g.properties.deviceName);
        std::exit(kGpuExitCode);
    }
    g.timestampValidBits = qf[g.family].timestampValidBits;
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
    {
        uint32_t extensionCount = 0;
        vkEnumerateDeviceExtensionProperties(g.physical, nullptr, &extensionCount, nullptr);
        std::vector<VkExtensionProperties> exts(extensionCount);
        vkEnumerateDeviceExtensionProperties(g.physical, nullptr, &extensionCount, exts.data());
        for (const VkExtensionProperties& e : exts) {
            g.pipelineStatistics = g.pipelineStatistics || (pipelineStatistics &&
                std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0);
            g.smBuiltinsPresent = g.smBuiltinsPresent ||
                std::strcmp(e.extensionName, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME) == 0;
        }
    }
    VkPhysicalDeviceShaderSMBuiltinsFeaturesNV smFeatures{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_FEATURES_NV};
    if (g.smBuiltinsPresent) {
        VkPhysicalDeviceShaderSMBuiltinsPropertiesNV smProps{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
        VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        p2.pNext = &smProps;
        vkGetPhysicalDeviceProperties2(g.physical, &p2);
        g.smCount = smProps.shaderSMCount;
        g.warpsPerSm = smProps.shaderWarpsPerSM;
        VkPhysicalDeviceFeatures2 q{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        q.pNext = &smFeatures;
        vkGetPhysicalDeviceFeatures2(g.physical, &q);
        g.smBuiltins = options.smBuiltins && smFeatures.shaderSMBuiltins;
    }
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR ePipe{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceShaderSMBuiltinsFeaturesNV eSm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_FEATURES_NV};
    eSm.shaderSMBuiltins = VK_TRUE;
    eSm.pNext = v13 ? &e13 : nullptr;
    void* afterPipe = g.smBuiltins ? static_cast<void*>(&eSm) : (v13 ? static_cast<void*>(&e13) : nullptr);
    ePipe.pNext = afterPipe;
    ePipe.pipelineExecutableInfo = VK_TRUE;
    VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    e12.pNext = g.pipelineStatistics ? static_cast<void*>(&ePipe) : afterPipe;
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
    std::vector<const char*> exts = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    if (g.pipelineStatistics) exts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (g.smBuiltins) exts.push_back(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &e2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qi;
    dci.enabledExtensionCount = uint32_t(exts.size());
    dci.ppEnabledExtensionNames = exts.data();
    CHECK_VK(vkCreateDevice(g.physical, &dci, nullptr, &g.device));
    vkGetDeviceQueue(g.device, g.family, 0, &g.queue);
    return g;
}

// The device at index `requested` (-1: the default choice), as the benchmark tools open it.
inline Gpu openGpu(int requested, bool pipelineStatistics = false) {
    GpuOptions options;
    options.index = requested;
    options.pipelineStatistics = pipelineStatistics;
    return openGpu(options);
}

inline uint32_t memoryType(const Gpu& g, uint32_t bits, VkMemoryPropertyFlags flags) {
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(g.physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & flags) == flags) return i;
    std::fprintf(stderr, "vkspd: no suitable memory type\n");
    std::exit(kGpuExitCode);
}

// Like allocate, but returns the failure (VK_ERROR_OUT_OF_DEVICE_MEMORY where no memory type fits)
// instead of exiting; *memory is null on failure.
inline VkResult tryAllocate(const Gpu& g, VkMemoryRequirements req, VkMemoryPropertyFlags flags,
                            VkDeviceMemory* memory) {
    *memory = VK_NULL_HANDLE;
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(g.physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
        if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & flags) == flags) {
            VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
            ai.allocationSize = req.size;
            ai.memoryTypeIndex = i;
            return vkAllocateMemory(g.device, &ai, nullptr, memory);
        }
    }
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
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

// Destroys the device and the instance of `g` (the caller destroys what it made first).
inline void closeGpu(Gpu& g) {
    if (g.device) vkDestroyDevice(g.device, nullptr);
    destroyInstance(g.instance, g.messenger);
    g.device = VK_NULL_HANDLE;
    g.instance = VK_NULL_HANDLE;
    g.messenger = VK_NULL_HANDLE;
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
