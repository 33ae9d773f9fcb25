// Context lifetime: function loading, device capability checks, pipelines, the scratch ring and
// the image-view cache.
#include "context.hpp"

#include <vkspd/reference.hpp>

#include <cstring>
#include <new>

namespace vkspd {
namespace {

Result fail(VkResult code, std::string message) {
    Result r;
    r.vkResult = code == VK_SUCCESS ? VK_ERROR_UNKNOWN : code;
    r.message = std::move(message);
    return r;
}

Result vkFail(VkResult code, const char* what) {
    return fail(code, std::string(what) + " failed with VkResult " + std::to_string(int(code)));
}

uint32_t findMemoryType(const Functions& fn, VkPhysicalDevice physicalDevice, uint32_t typeBits,
                        VkMemoryPropertyFlags wanted) {
    VkPhysicalDeviceMemoryProperties mp;
    fn.vkGetPhysicalDeviceMemoryProperties(physicalDevice, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
        if ((typeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    }
    return UINT32_MAX;
}

// Creates a storage buffer. Data buffers are device-local. Counter buffers (`hostZeroed`) are
// filled with zeros from the host, in host-visible memory that is device-local where the device
// has such a type (resizable BAR, integrated GPUs, lavapipe): the library owns no queue, and a
// clear recorded into a caller's command buffer would be unordered against other command buffers
// recorded on other threads that use the same slot.
Result createBuffer(ContextT* c, VkDeviceSize size, bool hostZeroed, OwnedBuffer* out) {
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    OwnedBuffer b;
    b.size = size;
    VkResult r = c->fn.vkCreateBuffer(c->device(), &bi, c->allocator(), &b.buffer);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateBuffer (scratch)");
    VkMemoryRequirements req;
    c->fn.vkGetBufferMemoryRequirements(c->device(), b.buffer, &req);
    const VkPhysicalDevice pd = c->info.physicalDevice;
    const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = findMemoryType(c->fn, pd, req.memoryTypeBits, hostZeroed ? host | local : local);
    if (type == UINT32_MAX) type = findMemoryType(c->fn, pd, req.memoryTypeBits, hostZeroed ? host : 0);
    if (type == UINT32_MAX) {
        c->fn.vkDestroyBuffer(c->device(), b.buffer, c->allocator());
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "no memory type fits the scratch buffer");
    }
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    r = c->fn.vkAllocateMemory(c->device(), &ai, c->allocator(), &b.memory);
    if (r == VK_SUCCESS) r = c->fn.vkBindBufferMemory(c->device(), b.buffer, b.memory, 0);
    if (r == VK_SUCCESS && hostZeroed) {
        void* mapped = nullptr;
        r = c->fn.vkMapMemory(c->device(), b.memory, 0, VK_WHOLE_SIZE, 0, &mapped);
        if (r == VK_SUCCESS) {
            std::memset(mapped, 0, size_t(size));
            c->fn.vkUnmapMemory(c->device(), b.memory);
        }
    }
    if (r != VK_SUCCESS) {
        c->fn.vkDestroyBuffer(c->device(), b.buffer, c->allocator());
        c->fn.vkFreeMemory(c->device(), b.memory, c->allocator());
        return vkFail(r, "allocating scratch memory");
    }
    *out = b;
    return {};
}

void destroyBuffer(ContextT* c, OwnedBuffer& b) {
    c->fn.vkDestroyBuffer(c->device(), b.buffer, c->allocator());
    c->fn.vkFreeMemory(c->device(), b.memory, c->allocator());
    b = OwnedBuffer{};
}

void destroyViews(ContextT* c, ImageViews& v) {
    c->fn.vkDestroyImageView(c->device(), v.source, c->allocator());
    for (VkImageView view : v.levels) c->fn.vkDestroyImageView(c->device(), view, c->allocator());
    v = ImageViews{};
}

Result createPipelines(ContextT* c, VkPipelineCreateFlags flags) {
    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    si.magFilter = VK_FILTER_NEAREST;
    si.minFilter = VK_FILTER_NEAREST;
    si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    si.maxLod = 0.0f;
    VkResult r = c->fn.vkCreateSampler(c->device(), &si, c->allocator(), &c->sampler);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateSampler");

    VkDescriptorSetLayoutBinding bindings[4] = {};
    bindings[0] = {VKSPD_BINDING_SOURCE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, &c->sampler};
    bindings[1] = {VKSPD_BINDING_DEST, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VKSPD_MAX_LEVELS,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    bindings[2] = {VKSPD_BINDING_COUNTERS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    bindings[3] = {VKSPD_BINDING_DATA, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    li.bindingCount = 4;
    li.pBindings = bindings;
    r = c->fn.vkCreateDescriptorSetLayout(c->device(), &li, c->allocator(), &c->setLayout);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateDescriptorSetLayout");

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(shader::PushConstants)};
    VkPipelineLayoutCreateInfo pi{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pi.setLayoutCount = 1;
    pi.pSetLayouts = &c->setLayout;
    pi.pushConstantRangeCount = 1;
    pi.pPushConstantRanges = &range;
    r = c->fn.vkCreatePipelineLayout(c->device(), &pi, c->allocator(), &c->pipelineLayout);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreatePipelineLayout");

    for (int fp16 = 0; fp16 < 2; ++fp16) {
        for (int quad = 0; quad < 2; ++quad) {
            if (fp16 && !c->info.shaderFloat16Enabled) continue;
            if (quad && !c->quadSupported) continue;
            SpirvBlob blob = embeddedSpirv(fp16 != 0, quad != 0);
            VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
            mi.codeSize = blob.bytes;
            mi.pCode = blob.words;
            VkShaderModule module = VK_NULL_HANDLE;
            r = c->fn.vkCreateShaderModule(c->device(), &mi, c->allocator(), &module);
            if (r != VK_SUCCESS) return vkFail(r, "vkCreateShaderModule");
            VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
            ci.flags = flags;
            ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
            ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
            ci.stage.module = module;
            ci.stage.pName = "main";
            ci.layout = c->pipelineLayout;
            r = c->fn.vkCreateComputePipelines(c->device(), c->info.pipelineCache, 1, &ci,
                                               c->allocator(), &c->pipelines[fp16][quad]);
            c->fn.vkDestroyShaderModule(c->device(), module, c->allocator());
            if (r != VK_SUCCESS) return vkFail(r, "vkCreateComputePipelines");
        }
    }
    return {};
}

}  // namespace

VkDeviceSize alignUp(VkDeviceSize value, VkDeviceSize alignment) {
    return alignment ? (value + alignment - 1) / alignment * alignment : value;
}

const char* requiredDeviceFeatures() noexcept {
    return "Vulkan 1.2 or later with VkPhysicalDeviceVulkan12Features::vulkanMemoryModel and "
           "vulkanMemoryModelDeviceScope enabled (required), "
           "VkPhysicalDeviceFeatures::shaderStorageImageWriteWithoutFormat (required), "
           "VkPhysicalDeviceVulkan12Features::shaderFloat16 (recommended: FP16 path), "
           "VK_KHR_push_descriptor (required in this version), "
           "VK_KHR_synchronization2 or Vulkan 1.3 synchronization2 (optional)";
}

namespace {
Result createContextImpl(const ContextCreateInfo& createInfo, VkPipelineCreateFlags pipelineFlags,
                         Context* out);
}

Result createContext(const ContextCreateInfo& createInfo, Context* out) noexcept {
    return guarded([&] { return createContextImpl(createInfo, 0, out); });
}

Result createContextWithPipelineFlags(const ContextCreateInfo& createInfo,
                                      VkPipelineCreateFlags pipelineFlags, Context* out) noexcept {
    return guarded([&] { return createContextImpl(createInfo, pipelineFlags, out); });
}

namespace {
Result createContextImpl(const ContextCreateInfo& createInfo, VkPipelineCreateFlags pipelineFlags,
                         Context* out) {
    if (!out) return fail(VK_ERROR_UNKNOWN, "createContext: the output pointer is null");
    *out = nullptr;
    if (!createInfo.instance || !createInfo.physicalDevice || !createInfo.device)
        return fail(VK_ERROR_UNKNOWN,
                    "createContext: instance, physicalDevice and device must all be non-null");
    if (!createInfo.functions.vkGetInstanceProcAddr)
        return fail(VK_ERROR_UNKNOWN,
                    "createContext: functions.vkGetInstanceProcAddr is required (the library "
                    "never calls a global Vulkan symbol)");
    if (!createInfo.pushDescriptorEnabled)
        return fail(VK_ERROR_EXTENSION_NOT_PRESENT,
                    "createContext: this version needs VK_KHR_push_descriptor enabled on the device "
                    "and pushDescriptorEnabled = true");

    auto* c = new (std::nothrow) ContextT();
    if (!c) return fail(VK_ERROR_OUT_OF_HOST_MEMORY, "createContext: out of host memory");
    c->info = createInfo;
    if (!c->info.apiVersion) c->info.apiVersion = VK_API_VERSION_1_2;
    std::string missing;
    if (!loadFunctions(createInfo.instance, createInfo.device,
                       createInfo.functions.vkGetInstanceProcAddr,
                       createInfo.functions.vkGetDeviceProcAddr, c->info.apiVersion,
                       createInfo.pushDescriptorEnabled, createInfo.synchronization2Enabled, &c->fn,
                       &missing)) {
        delete c;
        return fail(VK_ERROR_INITIALIZATION_FAILED, "createContext: Vulkan function " + missing +
                                                        " could not be loaded");
    }

    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &subgroup;
    c->fn.vkGetPhysicalDeviceProperties2(createInfo.physicalDevice, &p2);
    c->properties = p2.properties;
    c->subgroupSize = subgroup.subgroupSize;
    if (c->properties.apiVersion < VK_API_VERSION_1_2 || c->info.apiVersion < VK_API_VERSION_1_2) {
        delete c;
        return fail(VK_ERROR_INCOMPATIBLE_DRIVER,
                    "createContext: vkspd needs a Vulkan 1.2 device (for the memory model)");
    }
    if (c->subgroupSize < 4 || c->subgroupSize > 128 || VKSPD_GROUP_SIZE % c->subgroupSize != 0 ||
        !(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
        const uint32_t size = c->subgroupSize;
        delete c;
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "createContext: subgroup size " + std::to_string(size) +
                        " is not a power of two from 4 to 128 usable in compute shaders");
    }
    c->quadSupported = (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_QUAD_BIT) != 0;

    Result r = createPipelines(c, pipelineFlags);
    if (r.ok()) {
        c->slotCount = createInfo.scratchSlots ? createInfo.scratchSlots : 16;
        c->counterSlots.resize(c->slotCount);
        c->dataSlots.resize(c->slotCount);
    }
    if (!r.ok()) {
        destroyContext(c);
        return r;
    }
    *out = c;
    return {};
}

}  // namespace

void destroyContext(Context c) noexcept {
    if (!c) return;
    for (auto& entry : c->views) destroyViews(c, entry.second);
    for (auto& b : c->counterSlots) destroyBuffer(c, b);
    for (auto& b : c->dataSlots) destroyBuffer(c, b);
    for (auto& b : c->retiredBuffers) destroyBuffer(c, b);
    for (auto& row : c->pipelines)
        for (VkPipeline p : row) c->fn.vkDestroyPipeline(c->device(), p, c->allocator());
    if (c->fn.vkDestroyPipelineLayout) {
        c->fn.vkDestroyPipelineLayout(c->device(), c->pipelineLayout, c->allocator());
        c->fn.vkDestroyDescriptorSetLayout(c->device(), c->setLayout, c->allocator());
        c->fn.vkDestroySampler(c->device(), c->sampler, c->allocator());
    }
    delete c;
}

bool isFormatSupported(Context c, VkFormat format, std::string* reason) noexcept {
    try {
    FormatInfo fi;
    if (!c) {
        if (reason) *reason = "the context is null";
        return false;
    }
    if (!getFormatInfo(format, &fi)) {
        if (reason) *reason = "format " + std::to_string(int(format)) + " is not one vkspd supports";
        return false;
    }
    VkFormatProperties fp;
    c->fn.vkGetPhysicalDeviceFormatProperties(c->info.physicalDevice, format, &fp);
    const VkFormatFeatureFlags need =
        VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if ((fp.optimalTilingFeatures & need) != need) {
        if (reason)
            *reason = std::string(fi.name) +
                      " lacks STORAGE_IMAGE or SAMPLED_IMAGE support for optimal tiling on this device";
        return false;
    }
    return true;
    } catch (...) {
        return false;  // only an allocation for `reason` can throw
    }
}

Result getImageViews(Context c, const MipGenInfo& info, uint32_t levelsBelowBase, uint32_t layers,
                     ImageViews* out) {
    ViewKey key{info.image, info.format, info.baseMipLevel, levelsBelowBase, info.baseArrayLayer, layers};
    std::lock_guard<std::mutex> lock(c->mutex);
    auto it = c->views.find(key);
    if (it != c->views.end()) {
        *out = it->second;
        return {};
    }
    ImageViews v;
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = info.image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;  // also for 2D images and cube faces
    vi.format = info.format;
    vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, info.baseMipLevel, 1, info.baseArrayLayer, layers};
    VkResult r = c->fn.vkCreateImageView(c->device(), &vi, c->allocator(), &v.source);
    for (uint32_t i = 0; r == VK_SUCCESS && i < levelsBelowBase; ++i) {
        vi.subresourceRange.baseMipLevel = info.baseMipLevel + 1 + i;
        r = c->fn.vkCreateImageView(c->device(), &vi, c->allocator(), &v.levels[i]);
    }
    if (r != VK_SUCCESS) {
        destroyViews(c, v);
        return vkFail(r, "vkCreateImageView");
    }
    c->views.emplace(key, v);
    *out = v;
    return {};
}

void forgetImage(Context c, VkImage image) noexcept {
    if (!c || !image) return;
    std::lock_guard<std::mutex> lock(c->mutex);
    for (auto it = c->views.begin(); it != c->views.end();) {
        if (std::get<0>(it->first) == image) {
            destroyViews(c, it->second);
            it = c->views.erase(it);
        } else {
            ++it;
        }
    }
}

namespace {

// Makes `slot` hold at least `bytes`: a new buffer of the next power of two of at least 64 KiB.
// The outgrown one may still be used by recorded work, so it is kept until destroyContext.
Result growSlot(ContextT* c, OwnedBuffer& slot, VkDeviceSize bytes, bool hostZeroed) {
    if (slot.size >= bytes) return {};
    VkDeviceSize size = 64 << 10;
    while (size < bytes) size *= 2;
    OwnedBuffer grown;
    Result r = createBuffer(c, size, hostZeroed, &grown);
    if (!r.ok()) return r;
    if (slot.buffer) c->retiredBuffers.push_back(slot);
    slot = grown;
    return {};
}

}  // namespace

Result acquireScratch(Context c, const Plan& plan, ScratchRange* range) {
    uint32_t slot = c->nextSlot.fetch_add(1, std::memory_order_relaxed) % c->slotCount;
    std::lock_guard<std::mutex> lock(c->mutex);
    // Counters start at zero (host-filled) and every dispatch leaves them at zero.
    Result r = growSlot(c, c->counterSlots[slot], plan.counterBytes, true);
    if (r.ok()) r = growSlot(c, c->dataSlots[slot], plan.dataBytes, false);
    if (!r.ok()) return r;
    range->counters = c->counterSlots[slot].buffer;
    range->countersOffset = 0;
    range->data = c->dataSlots[slot].buffer;
    range->dataOffset = 0;
    return {};
}

}  // namespace vkspd
