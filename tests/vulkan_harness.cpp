#include "vulkan_harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

namespace vkspd_test {
namespace {

// Known false positives of Debian 12's validation layers (1.3.239), filtered by exact VUID only.
// None is needed yet; add entries as {"VUID-...", "upstream issue"}.
const char* const kIgnoredVuids[] = {nullptr};

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                         void* user) {
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    for (const char* vuid : kIgnoredVuids) {
        if (vuid && data->pMessageIdName && std::strcmp(vuid, data->pMessageIdName) == 0)
            return VK_FALSE;
    }
    static_cast<Harness*>(user)->recordMessage(data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
}

void check(VkResult r, const char* what) {
    if (r != VK_SUCCESS) {
        std::fprintf(stderr, "%s failed: VkResult %d\n", what, int(r));
        std::abort();
    }
}

uint32_t memoryType(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags flags) {
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & flags) == flags) return i;
    std::fprintf(stderr, "no memory type\n");
    std::abort();
}

bool hasLayer(const char* name) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    for (auto& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

Harness* create() {
    auto* h = new Harness();
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const bool skipValidation = std::getenv("VKSPD_TEST_NO_VALIDATION") != nullptr;
    h->validation = !skipValidation && hasLayer(layer);
    if (!skipValidation && !h->validation) {
        std::fprintf(stderr,
                     "vkspd tests: the Khronos validation layer is not installed "
                     "(apt-get install vulkan-validationlayers), or set VKSPD_TEST_NO_VALIDATION=1\n");
        return nullptr;
    }
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkspd-tests";
    app.apiVersion = VK_API_VERSION_1_3;
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    // The driver's own handle values, as without the layer (which otherwise wraps each handle in a
    // value it never reuses): a destroyed image's handle value comes back for a new image here as it
    // does in applications (tests/gpu_view_cache_test.cpp).
    VkValidationFeatureDisableEXT disables[] = {VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT};
    features.disabledValidationFeatureCount = 1;
    features.pDisabledValidationFeatures = disables;
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = onMessage;
    messenger.pUserData = h;
    features.pNext = &messenger;
    const char* instanceExtensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (h->validation) {
        ici.pNext = &features;
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layer;
        ici.enabledExtensionCount = 1;
        ici.ppEnabledExtensionNames = instanceExtensions;
    }
    check(vkCreateInstance(&ici, nullptr, &h->instance), "vkCreateInstance");
    if (h->validation) {
        auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(h->instance, "vkCreateDebugUtilsMessengerEXT"));
        VkDebugUtilsMessengerEXT m;
        check(createMessenger(h->instance, &messenger, nullptr, &m), "messenger");
    }

    uint32_t count = 0;
    vkEnumeratePhysicalDevices(h->instance, &count, nullptr);
    if (count == 0) {
        std::fprintf(stderr, "vkspd tests: no Vulkan device (apt-get install mesa-vulkan-drivers)\n");
        return nullptr;
    }
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(h->instance, &count, devices.data());
    uint32_t index = 0;
    if (const char* env = std::getenv("VKSPD_TEST_DEVICE")) index = uint32_t(std::atoi(env));
    if (index >= count) index = 0;
    h->physicalDevice = devices[index];
    vkGetPhysicalDeviceProperties(h->physicalDevice, &h->properties);
    std::fprintf(stderr, "vkspd tests: device %s, validation %s\n", h->properties.deviceName,
                 h->validation ? "on (with synchronization validation)" : "OFF");

    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physicalDevice, &qn, nullptr);
    std::vector<VkQueueFamilyProperties> qf(qn);
    vkGetPhysicalDeviceQueueFamilyProperties(h->physicalDevice, &qn, qf.data());
    for (uint32_t i = 0; i < qn; ++i) {
        if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && (qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
            h->queueFamily = i;
            break;
        }
    }

    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.pNext = &f13;
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &f12;
    vkGetPhysicalDeviceFeatures2(h->physicalDevice, &f2);
    VkPhysicalDeviceSubgroupProperties sg{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sg;
    vkGetPhysicalDeviceProperties2(h->physicalDevice, &p2);
    h->quad = (sg.supportedOperations & VK_SUBGROUP_FEATURE_QUAD_BIT) != 0;

    VkPhysicalDeviceVulkan13Features e13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    e13.synchronization2 = f13.synchronization2;
    e13.privateData = f13.privateData;
    VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    e12.pNext = h->properties.apiVersion >= VK_API_VERSION_1_3 ? &e13 : nullptr;
    e12.vulkanMemoryModel = VK_TRUE;
    e12.vulkanMemoryModelDeviceScope = VK_TRUE;
    e12.shaderFloat16 = f12.shaderFloat16;
    h->fp16 = f12.shaderFloat16 == VK_TRUE;
    h->privateData = f13.privateData == VK_TRUE && h->properties.apiVersion >= VK_API_VERSION_1_3;
    VkPhysicalDeviceFeatures2 e2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    e2.pNext = &e12;
    e2.features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = h->queueFamily;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    const char* extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &e2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qi;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = extensions;
    check(vkCreateDevice(h->physicalDevice, &dci, nullptr, &h->device), "vkCreateDevice");
    vkGetDeviceQueue(h->device, h->queueFamily, 0, &h->queue);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = h->queueFamily;
    check(vkCreateCommandPool(h->device, &pci, nullptr, &h->commandPool), "vkCreateCommandPool");

    vkspd::ContextCreateInfo ci;
    ci.instance = h->instance;
    ci.physicalDevice = h->physicalDevice;
    ci.device = h->device;
    ci.functions.vkGetInstanceProcAddr = vkGetInstanceProcAddr;
    ci.apiVersion = h->properties.apiVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3
                                                                     : VK_API_VERSION_1_2;
    ci.shaderFloat16Enabled = h->fp16;
    ci.synchronization2Enabled = e13.synchronization2 == VK_TRUE && e12.pNext != nullptr;
    ci.pushDescriptorEnabled = true;
    h->contextInfo = ci;
    vkspd::Result r = vkspd::createContext(ci, &h->context);
    if (!r.ok()) {
        std::fprintf(stderr, "vkspd tests: createContext: %s\n", r.message.c_str());
        return nullptr;
    }
    return h;
}

}  // namespace

Harness* Harness::get() {
    static Harness* instance = create();
    return instance;
}

void Harness::recordMessage(const char* message) {
    std::lock_guard<std::mutex> lock(mutex_);
    messages_.push_back(message);
}

std::vector<std::string> Harness::takeMessages() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    out.swap(messages_);
    return out;
}

TestImage Harness::createImage(VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
                               VkImageUsageFlags usage, uint32_t layers, VkImageCreateFlags flags) {
    TestImage t;
    t.format = format;
    t.width = width;
    t.height = height;
    t.levels = levels;
    t.layers = layers;
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.flags = flags;
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = format;
    ii.extent = {width, height, 1};
    ii.mipLevels = levels;
    ii.arrayLayers = layers;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.tiling = VK_IMAGE_TILING_OPTIMAL;
    ii.usage = usage;
    ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    check(vkCreateImage(device, &ii, nullptr, &t.image), "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device, t.image, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memoryType(physicalDevice, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(vkAllocateMemory(device, &ai, nullptr, &t.memory), "vkAllocateMemory");
    check(vkBindImageMemory(device, t.image, t.memory, 0), "vkBindImageMemory");
    return t;
}

void Harness::destroyImage(TestImage& t) {
    vkspd::forgetImage(context, t.image);
    vkDestroyImage(device, t.image, nullptr);
    vkFreeMemory(device, t.memory, nullptr);
    t = TestImage{};
}

void Harness::submit(const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = commandPool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    check(vkAllocateCommandBuffers(device, &ai, &cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &bi);
    record(cmd);
    vkEndCommandBuffer(cmd);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    check(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
    check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
    vkFreeCommandBuffers(device, commandPool, 1, &cmd);
}

HostBuffer makeHostBuffer(Harness* h, VkDeviceSize size, VkBufferUsageFlags usage) {
    HostBuffer b;
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = usage;
    check(vkCreateBuffer(h->device, &bi, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, b.buffer, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memoryType(h->physicalDevice, req.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    check(vkAllocateMemory(h->device, &ai, nullptr, &b.memory), "vkAllocateMemory");
    check(vkBindBufferMemory(h->device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(h->device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
}

void freeHostBuffer(Harness* h, HostBuffer& b) {
    vkDestroyBuffer(h->device, b.buffer, nullptr);
    vkFreeMemory(h->device, b.memory, nullptr);
}

namespace {

}  // namespace

VkImageCreateFlags singlePassFlags(VkFormat format) {
    vkspd::FormatInfo fi;
    if (!vkspd::getFormatInfo(format, &fi) || fi.encoding != vkspd::ChannelEncoding::Srgb8) return 0;
    return VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
}

std::vector<VkFormat> colourFormats() {
    std::vector<VkFormat> out;
    for (VkFormat f : vkspd::supportedFormats()) {
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(f, &fi);
        if (!fi.depth) out.push_back(f);
    }
    return out;
}

VkImageAspectFlags aspectOf(VkFormat format) {
    vkspd::FormatInfo fi;
    return vkspd::getFormatInfo(format, &fi) && fi.depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

size_t levelBytes(const TestImage& t, uint32_t level) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(t.format, &fi);
    return size_t(vkspd::mipExtent(t.width, level)) * vkspd::mipExtent(t.height, level) * fi.bytesPerTexel;
}

void Harness::upload(const TestImage& t, const void* bytes, VkImageLayout layout) {
    std::vector<std::vector<uint8_t>> levels(1);
    const uint8_t* p = static_cast<const uint8_t*>(bytes);
    levels[0].assign(p, p + levelBytes(t, 0) * t.layers);
    uploadLevels(t, levels, layout);
}

void Harness::uploadLevels(const TestImage& t, const std::vector<std::vector<uint8_t>>& levels,
                           VkImageLayout layout) {
    VkDeviceSize total = 0;
    std::vector<VkDeviceSize> offsets;
    for (const auto& l : levels) {
        offsets.push_back(total);
        total += (l.size() + 15) & ~size_t(15);
    }
    HostBuffer staging = makeHostBuffer(this, total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    for (size_t l = 0; l < levels.size(); ++l)
        std::memcpy(static_cast<uint8_t*>(staging.mapped) + offsets[l], levels[l].data(), levels[l].size());
    submit([&](VkCommandBuffer cmd) {
        VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        b.srcAccessMask = 0;
        b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        b.newLayout = layout;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = t.image;
        b.subresourceRange = {aspectOf(t.format), 0, t.levels, 0, t.layers};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                             0, nullptr, 0, nullptr, 1, &b);
        for (uint32_t l = 0; l < levels.size(); ++l) {
            VkBufferImageCopy region{};
            region.bufferOffset = offsets[l];
            region.imageSubresource = {aspectOf(t.format), l, 0, t.layers};
            region.imageExtent = {vkspd::mipExtent(t.width, l), vkspd::mipExtent(t.height, l), 1};
            vkCmdCopyBufferToImage(cmd, staging.buffer, t.image, layout, 1, &region);
        }
    });
    freeHostBuffer(this, staging);
}

std::vector<std::vector<uint8_t>> Harness::readLevels(const TestImage& t, VkImageLayout layout) {
    std::vector<VkDeviceSize> offsets;
    VkDeviceSize total = 0;
    for (uint32_t l = 0; l < t.levels; ++l) {
        offsets.push_back(total);
        total += levelBytes(t, l) * t.layers;
        total = (total + 15) & ~VkDeviceSize(15);
    }
    HostBuffer staging = makeHostBuffer(this, total, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    submit([&](VkCommandBuffer cmd) {
        for (uint32_t l = 0; l < t.levels; ++l) {
            VkBufferImageCopy region{};
            region.bufferOffset = offsets[l];
            region.imageSubresource = {aspectOf(t.format), l, 0, t.layers};
            region.imageExtent = {vkspd::mipExtent(t.width, l), vkspd::mipExtent(t.height, l), 1};
            vkCmdCopyImageToBuffer(cmd, t.image, layout, staging.buffer, 1, &region);
        }
    });
    std::vector<std::vector<uint8_t>> out(t.levels);
    for (uint32_t l = 0; l < t.levels; ++l) {
        const uint8_t* p = static_cast<const uint8_t*>(staging.mapped) + offsets[l];
        out[l].assign(p, p + levelBytes(t, l) * t.layers);
    }
    freeHostBuffer(this, staging);
    return out;
}

double expectChainMatches(const TestImage& t, const std::vector<std::vector<uint8_t>>& gpu,
                          uint32_t base, uint32_t count, uint32_t firstLayer, uint32_t layers,
                          double tolerance, const std::string& what) {
    return expectChainMatches(t, gpu, base, count, firstLayer, layers, tolerance, what, vkspd::ReferenceOptions{});
}

double expectChainMatches(const TestImage& t, const std::vector<std::vector<uint8_t>>& gpu,
                          uint32_t base, uint32_t count, uint32_t firstLayer, uint32_t layers,
                          double tolerance, const std::string& what, const vkspd::ReferenceOptions& options) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(t.format, &fi);
    const uint32_t bw = vkspd::mipExtent(t.width, base), bh = vkspd::mipExtent(t.height, base);
    double worst = 0;
    for (uint32_t layer = firstLayer; layer < firstLayer + layers; ++layer) {
        const uint8_t* src = gpu[base].data() + levelBytes(t, base) * layer;
        std::vector<float> texels(size_t(bw) * bh * fi.channels);
        vkspd::decodeTexels(t.format, src, size_t(bw) * bh, texels.data());
        auto ref = vkspd::referenceChain(texels.data(), bw, bh, fi.channels, count, options);
        if (ref.size() != count) {
            ADD_FAILURE() << what << ": no reference chain";
            return std::numeric_limits<double>::infinity();
        }
        for (uint32_t l = 1; l < count; ++l) {
            const uint8_t* level = gpu[base + l].data() + levelBytes(t, base + l) * layer;
            vkspd::LevelError e = vkspd::compareLevel(t.format, level, ref[l], tolerance);
            worst = std::max(worst, e.worst);
            EXPECT_EQ(e.overTolerance, 0u)
                << what << ": " << fi.name << " " << t.width << "x" << t.height << " layer " << layer
                << " level " << base + l << " (" << ref[l].width << "x" << ref[l].height
                << "): worst " << e.worst << " at texel " << e.worstTexel << " (x "
                << e.worstTexel % ref[l].width << ", y " << e.worstTexel / ref[l].width
                << ") channel " << e.worstChannel << ", " << e.overTolerance << " channels over "
                << tolerance;
            EXPECT_FALSE(e.nanMismatch) << what << " level " << base + l;
        }
    }
    return worst;
}

double expectGeneratedChainMatches(Harness* h, const TestImage& image, const vkspd::MipGenInfo& info, bool fp16,
                                   const std::string& what) {
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result g = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(g.ok()) << what << ": " << g.message;
    });
    const auto gpu = h->readLevels(image);
    vkspd::ReferenceOptions options;
    options.reduction = info.reduction;
    const double tol = info.reduction == vkspd::Reduction::Average ? vkspd::toleranceFor(image.format, fp16) : 0.0;
    const double worst = expectChainMatches(image, gpu, 0, image.levels, 0, image.layers, tol, what, options);
    std::printf("[ worst    ] %s: %g (tolerance %g)\n", what.c_str(), worst, tol);
    return worst;
}

void GpuTest::SetUp() {
    h = Harness::get();
    ASSERT_NE(h, nullptr) << "no usable Vulkan device for GPU tests";
    h->takeMessages();
}

void GpuTest::TearDown() {
    if (!h) return;
    for (const std::string& m : h->takeMessages()) ADD_FAILURE() << "validation: " << m;
}

vkspd::ImageState uploadedState() {
    return {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_WRITE_BIT};
}

vkspd::ImageState readbackState() {
    return {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT};
}

vkspd::MipGenInfo chainInfo(const TestImage& t) {
    vkspd::MipGenInfo info;
    info.image = t.image;
    info.format = t.format;
    info.extent = {t.width, t.height};
    info.imageMipLevels = t.levels;
    info.imageArrayLayers = t.layers;
    info.before = uploadedState();
    info.after = readbackState();
    return info;
}

vkspd::MipGenInfo sourcedChainInfo(const TestImage& image, const TestImage& source) {
    vkspd::MipGenInfo info = chainInfo(image);
    info.before = {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE};
    info.source.image = source.image;
    info.source.format = source.format;
    info.source.extent = {source.width, source.height};
    info.source.before = uploadedState();
    info.source.after = uploadedState();
    return info;
}

void expectDepthPyramid(Harness* h, uint32_t w, uint32_t ht, uint32_t seed, const vkspd::Tuning& tuning,
                        bool vkspd::ScheduleDescription::*chosen, vkspd::Reduction reduction) {
    const bool minMax = reduction == vkspd::Reduction::MinMax;
    const uint32_t levels = vkspd::fullMipCount(w, ht);
    const std::string what = std::string(minMax ? "D32 -> RG32F MinMax " : "D32 -> R32F ") +
                             (minMax ? "" : reduction == vkspd::Reduction::Min ? "Min " : "Max ") +
                             std::to_string(w) + "x" + std::to_string(ht);
    TestImage depth = h->createImage(VK_FORMAT_D32_SFLOAT, w, ht, 1,
                                     VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    TestImage pyramid =
        h->createImage(minMax ? VK_FORMAT_R32G32_SFLOAT : VK_FORMAT_R32_SFLOAT, w, ht, levels, kChainUsage);
    const std::vector<uint8_t> texels = randomTexels(VK_FORMAT_D32_SFLOAT, w, ht, seed);
    h->upload(depth, texels.data(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    vkspd::MipGenInfo info = sourcedChainInfo(pyramid, depth);
    info.reduction = reduction;
    info.tuning = &tuning;
    if (chosen) {
        Described d;
        const vkspd::Result r = describe(h->context, info, &d);
        EXPECT_TRUE(r.ok()) << what << ": " << r.message;
        EXPECT_TRUE(d.*chosen) << what;
        EXPECT_FALSE(d.linearFetch) << what;  // an extreme is loaded, never a bilinear sample
    }
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(r.ok()) << what << ": " << r.message;
    });
    const auto gpu = h->readLevels(pyramid);
    // D32 and R32F hold the same floats: level 0 is the depth bit for bit (with MinMax, each
    // texel twice: a one-channel source starts from (d, d)), the rest its exact reductions.
    std::vector<uint8_t> level0 = texels;
    if (minMax) {
        level0.resize(texels.size() * 2);
        for (size_t i = 0; i < texels.size() / 4; ++i) {
            std::memcpy(&level0[8 * i], &texels[4 * i], 4);
            std::memcpy(&level0[8 * i + 4], &texels[4 * i], 4);
        }
    }
    EXPECT_EQ(gpu[0], level0) << what << ": level 0 is not the depth";
    vkspd::ReferenceOptions o;
    o.reduction = reduction;
    expectChainMatches(pyramid, gpu, 0, levels, 0, 1, 0.0, what, o);
    h->destroyImage(depth);
    h->destroyImage(pyramid);
    vkspd::forgetImage(h->context, depth.image);
    vkspd::forgetImage(h->context, pyramid.image);
}

std::vector<uint8_t> randomTexels(VkFormat format, uint32_t width, uint32_t height, uint32_t seed) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const size_t count = size_t(width) * height;
    std::vector<double> values(count * fi.channels);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0), wide(0.25, 4.0), signedUnit(-1.0, 1.0);
    for (double& v : values) {
        switch (fi.encoding) {
            case vkspd::ChannelEncoding::Float16:
            case vkspd::ChannelEncoding::Float32:
            case vkspd::ChannelEncoding::Ufloat11_10: v = fi.depth ? unit(rng) : wide(rng); break;
            case vkspd::ChannelEncoding::Snorm8: v = signedUnit(rng); break;
            default: v = unit(rng); break;
        }
    }
    std::vector<uint8_t> bytes(count * fi.bytesPerTexel);
    vkspd::encodeTexels(format, values.data(), count, bytes.data());
    return bytes;
}

vkspd::Result describe(vkspd::Context context, const vkspd::MipGenInfo& info, Described* d) {
    *d = Described{};
    vkspd::Result r = vkspd::describeDispatch(context, info, d);
    if (r.ok() && d->path == vkspd::Path::SinglePass) r = vkspd::describeSchedule(context, info, d);
    return r;
}

}  // namespace vkspd_test
