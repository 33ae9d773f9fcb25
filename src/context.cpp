// Context lifetime: function loading, device capability checks, pipelines, the scratch ring and
// the image-view cache.
#include "context.hpp"

#include <vkspd/formats.hpp>
#include <vkspd/tuning.hpp>

#include <cassert>
#include <cstdio>
#include <cstring>
#include <new>
#include <set>
#include <type_traits>

namespace vkspd {

uint32_t dataRangeSlots(const VkPhysicalDeviceLimits& limits) {
    // The counters, the data ranges and a debug map within the per-stage storage-buffer limit
    // (at least 4 on every device, so at least 2 ranges).
    const uint32_t perStage = std::min(limits.maxPerStageDescriptorStorageBuffers, limits.maxDescriptorSetStorageBuffers);
    return std::max(1u, std::min<uint32_t>(VKSPD_MAX_DATA_RANGES, perStage > 2 ? perStage - 2 : 1));
}

static_assert(VKSPD_BINDING_SOURCE_TEXELS >= VKSPD_BINDING_DATA_RANGE1 + VKSPD_MAX_DATA_RANGES - 1,
              "the texel-coordinate source binding past the data ranges'");

uint32_t singlePassBindings(VkDescriptorSetLayoutBinding* bindings, uint32_t dataRanges) {
    // The base level for texelFetch (the NEAREST sampler, pushed with the view).
    bindings[0] = {VKSPD_BINDING_SOURCE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    bindings[1] = {VKSPD_BINDING_DEST, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VKSPD_MAX_LEVELS + 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    bindings[2] = {VKSPD_BINDING_COUNTERS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    bindings[3] = {VKSPD_BINDING_DATA, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    for (uint32_t k = 1; k < dataRanges; ++k)
        bindings[3 + k] = {VKSPD_BINDING_DATA_RANGE1 + k - 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                           VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    // Not immutable either: the LINEAR texel-coordinate sampler only where the dispatch fetches
    // through it, else the NEAREST one (no filtering feature asked of the view's format).
    bindings[3 + dataRanges] = {VKSPD_BINDING_SOURCE_TEXELS, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    return 4 + dataRanges;
}

Result fail(VkResult code, std::string message) {
    Result r;
    r.vkResult = code == VK_SUCCESS ? VK_ERROR_UNKNOWN : code;
    r.message = std::move(message);
    return r;
}

Result vkFail(VkResult code, const char* what) {
    return fail(code, std::string(what) + " failed with VkResult " + std::to_string(int(code)));
}

namespace {

// The contexts createContext made and destroyContext has not destroyed yet: every entry point
// looks its Context up here (one lock and one set lookup per call, in every build), so a
// destroyed one passed again is an error instead of a use after free.
std::mutex gRegistryMutex;
std::set<const ContextT*> gLiveContexts;

void registerContext(const ContextT* c, bool live) {
    std::lock_guard<std::mutex> lock(gRegistryMutex);
    if (live) {
        gLiveContexts.insert(c);
    } else {
        gLiveContexts.erase(c);
    }
}

}  // namespace

bool contextIsLive(Context c) {
    std::lock_guard<std::mutex> lock(gRegistryMutex);
    return gLiveContexts.count(c) != 0;
}

std::string deadContextMessage(Context c) {
    char address[32];
    std::snprintf(address, sizeof address, "%p", static_cast<const void*>(c));
    return std::string("the context ") + address +
           " is not live: it was destroyed by destroyContext or never made by createContext";
}

namespace {

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

void destroyView(ContextT* c, CachedView& v) {
    c->fn.vkDestroyFramebuffer(c->device(), v.framebuffer, c->allocator());
    c->fn.vkDestroyImageView(c->device(), v.view, c->allocator());
    v = CachedView{};
}

// The sampler and layouts; pipelines are made on first use (getComputePipeline, getLevelPipeline).
Result createLayouts(ContextT* c) {
    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    si.magFilter = VK_FILTER_NEAREST;
    si.minFilter = VK_FILTER_NEAREST;
    si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    si.maxLod = 0.0f;
    VkResult r = c->fn.vkCreateSampler(c->device(), &si, c->allocator(), &c->sampler);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateSampler");
    // Texel coordinates: the corner of a 2x2 block is (2x + 1, 2y + 1) exactly, so the filter's
    // weights are exactly 1/2 on any device (a normalized corner is rounded: docs/DESIGN.md).
    si.magFilter = si.minFilter = VK_FILTER_LINEAR;
    si.unnormalizedCoordinates = VK_TRUE;
    r = c->fn.vkCreateSampler(c->device(), &si, c->allocator(), &c->linearTexelSampler);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateSampler (linear, texel coordinates)");
    si.magFilter = si.minFilter = VK_FILTER_NEAREST;
    r = c->fn.vkCreateSampler(c->device(), &si, c->allocator(), &c->texelSampler);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateSampler (texel coordinates)");

    VkDescriptorSetLayoutBinding bindings[kSinglePassBindings] = {};
    // Ranges past the first only where the library can build the kernel that uses them.
    c->dataRangeSlots = runtimeCompilerAvailable() ? dataRangeSlots(c->properties.limits) : 1;
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    li.bindingCount = singlePassBindings(bindings, c->dataRangeSlots);
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


    // The render-pass fallback: the level above as a combined image sampler, and its push constants.
    VkDescriptorSetLayoutBinding levelBinding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                              VK_SHADER_STAGE_FRAGMENT_BIT, &c->sampler};
    li.bindingCount = 1;
    li.pBindings = &levelBinding;
    r = c->fn.vkCreateDescriptorSetLayout(c->device(), &li, c->allocator(), &c->levelSetLayout);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateDescriptorSetLayout");
    VkPushConstantRange levelRange{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 5 * sizeof(uint32_t)};
    pi.pSetLayouts = &c->levelSetLayout;
    pi.pPushConstantRanges = &levelRange;
    r = c->fn.vkCreatePipelineLayout(c->device(), &pi, c->allocator(), &c->levelPipelineLayout);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreatePipelineLayout");
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
           "VK_KHR_synchronization2 or Vulkan 1.3 synchronization2 (optional), "
           "VK_EXT_private_data or Vulkan 1.3 privateData (optional: forgetImage no longer required)";
}

namespace {
Result createContextImpl(const ContextCreateInfo& createInfo, VkPipelineCreateFlags pipelineFlags,
                         Context* out);
void destroyContextObject(ContextT* c);
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
    c->info.tuning = nullptr;  // read here only: the caller's struct need not outlive the call
    if (!c->info.apiVersion) c->info.apiVersion = VK_API_VERSION_1_2;
    std::string missing;
    if (!loadFunctions(createInfo.instance, createInfo.device,
                       createInfo.functions.vkGetInstanceProcAddr,
                       createInfo.functions.vkGetDeviceProcAddr, c->info.apiVersion,
                       createInfo.pushDescriptorEnabled, createInfo.synchronization2Enabled,
                       createInfo.privateDataEnabled, &c->fn, &missing)) {
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
    c->shuffleRelativeSupported = (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT) != 0;

    // Float controls (core in Vulkan 1.2, checked above): which denormal modes a shader may declare.
    if (!(createInfo.tuning && createInfo.tuning->skipDenormPreserve)) {
        VkPhysicalDeviceFloatControlsProperties floatControls{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
        VkPhysicalDeviceProperties2 fp2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        fp2.pNext = &floatControls;
        c->fn.vkGetPhysicalDeviceProperties2(createInfo.physicalDevice, &fp2);
        c->denormSupport.preserve16 = floatControls.shaderDenormPreserveFloat16 == VK_TRUE;
        c->denormSupport.preserve32 = floatControls.shaderDenormPreserveFloat32 == VK_TRUE;
        switch (floatControls.denormBehaviorIndependence) {
            case VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY: c->denormSupport.independence = 0; break;
            case VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL: c->denormSupport.independence = 1; break;
            default: c->denormSupport.independence = 2; break;
        }
    }

    // The largest range of scratch data bound as one descriptor (ContextTuning::maxDataRangeBytes).
    c->dataRangeLimit = c->properties.limits.maxStorageBufferRange;
    if (createInfo.tuning && createInfo.tuning->maxDataRangeBytes) {
        const uint64_t tuned = createInfo.tuning->maxDataRangeBytes;
        if (tuned < kMinDataRangeBytes) {
            delete c;
            return fail(VK_ERROR_UNKNOWN, "createContext: ContextTuning::maxDataRangeBytes " + std::to_string(tuned) +
                                              " must be 0 (the device's maxStorageBufferRange) or at least " +
                                              std::to_string(kMinDataRangeBytes));
        }
        c->dataRangeLimit = std::min(c->dataRangeLimit, tuned);
    }

    c->pipelineFlags = pipelineFlags;
    Result r = createLayouts(c);
    if (r.ok() && createInfo.privateDataEnabled) {
        VkPrivateDataSlotCreateInfo pi{VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
        const VkResult v = c->fn.vkCreatePrivateDataSlot(c->device(), &pi, c->allocator(), &c->privateSlot);
        if (v != VK_SUCCESS) r = vkFail(v, "createContext: vkCreatePrivateDataSlot");
    }
    if (r.ok()) {
        c->slotCount = createInfo.scratchSlots ? createInfo.scratchSlots : 16;
        c->counterSlots.resize(c->slotCount);
        c->dataSlots.resize(c->slotCount);
    }
    if (!r.ok()) {
        destroyContextObject(c);  // not registered yet
        return r;
    }
    registerContext(c, true);
    *out = c;
    return {};
}

}  // namespace

void destroyContext(Context c) noexcept {
    if (!c) return;
    if (!contextIsLive(c)) {
        // A second destroy is reported, not a double free.
        std::fprintf(stderr, "vkspd: destroyContext: %s\n", deadContextMessage(c).c_str());
        return;
    }
    registerContext(c, false);
    destroyContextObject(c);
}

namespace {

void destroyContextObject(ContextT* c) {
    for (auto& entry : c->views) destroyView(c, entry.second);
    if (c->privateSlot) c->fn.vkDestroyPrivateDataSlot(c->device(), c->privateSlot, c->allocator());
    for (auto& b : c->counterSlots) destroyBuffer(c, b);
    for (auto& b : c->dataSlots) destroyBuffer(c, b);
    for (auto& b : c->retiredBuffers) destroyBuffer(c, b);
    for (auto& byReduction : c->pipelines)
        for (auto& byPrecision : byReduction)
            for (auto& byPath : byPrecision)
                for (auto& byFlavour : byPath)
                    for (VkPipeline p : byFlavour) c->fn.vkDestroyPipeline(c->device(), p, c->allocator());
    for (auto& entry : c->plainPipelines) c->fn.vkDestroyPipeline(c->device(), entry.second, c->allocator());
    // Each custom reduction's pipelines (its ranged ones leave rangedPipelines), then the rest.
    for (auto& entry : c->customReductions) destroyCustomPipelines(c, entry.second.get());
    for (auto& entry : c->rangedPipelines) c->fn.vkDestroyPipeline(c->device(), entry.second, c->allocator());
    for (auto& entry : c->levelPipelines) {
        c->fn.vkDestroyPipeline(c->device(), entry.second.second, c->allocator());
        c->fn.vkDestroyRenderPass(c->device(), entry.second.first, c->allocator());
    }
    destroyDebugPipelines(c);
    if (c->fn.vkDestroyPipelineLayout) {
        c->fn.vkDestroyPipelineLayout(c->device(), c->pipelineLayout, c->allocator());
        c->fn.vkDestroyDescriptorSetLayout(c->device(), c->setLayout, c->allocator());
        c->fn.vkDestroyPipelineLayout(c->device(), c->levelPipelineLayout, c->allocator());
        c->fn.vkDestroyDescriptorSetLayout(c->device(), c->levelSetLayout, c->allocator());
        c->fn.vkDestroySampler(c->device(), c->sampler, c->allocator());
        c->fn.vkDestroySampler(c->device(), c->linearTexelSampler, c->allocator());
        c->fn.vkDestroySampler(c->device(), c->texelSampler, c->allocator());
    }
    delete c;
}

}  // namespace

bool isFormatSupported(Context c, VkFormat format, std::string* reason) noexcept {
    try {
        if (!c || !contextIsLive(c)) {
            if (reason) *reason = c ? deadContextMessage(c) : "the context is null";
            return false;
        }
        const Decision d = decide(c, format, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT,
                                  VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT, Reduction::Average,
                                  VK_FORMAT_UNDEFINED, false);
        if (d.capability.path == Path::SinglePass) return true;
        if (reason) *reason = d.capability.reason;
        return false;
    } catch (...) {
        return false;  // only an allocation for `reason` can throw
    }
}

bool halfDenormalsMatter(const FormatInfo& format) {
    return format.encoding != ChannelEncoding::Unorm8 && format.encoding != ChannelEncoding::Snorm8 &&
           format.encoding != ChannelEncoding::Srgb8;
}

bool normalizedEncoding(const FormatInfo& format) {
    switch (format.encoding) {
    case ChannelEncoding::Unorm8:
    case ChannelEncoding::Snorm8:
    case ChannelEncoding::Srgb8:
    case ChannelEncoding::Unorm16:
    case ChannelEncoding::Unorm10_2:
        return true;
    default:
        return false;
    }
}

bool halfDenormalFlavourDiffers(Context c, bool fp16) { return fp16 && c->denormSupport.preserve16; }

bool denormalsPreserved(Context c, bool fp16, bool halfDenormals) {
    FloatWidths widths;
    widths.f16 = fp16;
    widths.f32 = true;
    DenormSupport support = c->denormSupport;
    support.preserve16 = support.preserve16 && halfDenormals;
    const DenormModes m = chooseDenormModes(support, widths);
    if (fp16 && !halfDenormals) return m.preserve32;  // 8-bit data: no half denormal can matter
    return m.preserve32 && (!fp16 || m.preserve16);
}

Result createComputePipeline(Context c, const uint32_t* words, size_t bytes, VkPipeline* out,
                             VkPipelineLayout layout, VkPipelineCreateFlags flags, bool halfDenormals,
                             const VkSpecializationInfo* specialization) {
    // DenormPreserve where the device allows it (docs/FILTER.md: IEEE results, which NVIDIA's
    // default flushes for FP32 denormals). A module the patcher refuses is used as built.
    std::vector<uint32_t> patched;
    FloatWidths widths;
    DenormSupport support = c->denormSupport;
    support.preserve16 = support.preserve16 && halfDenormals;
    if ((support.preserve16 || support.preserve32) && spirvFloatWidths(words, bytes / 4, &widths)) {
        const DenormModes modes = chooseDenormModes(support, widths);
        if (modes.any() && addDenormPreserve(words, bytes / 4, modes, &patched)) {
            words = patched.data();
            bytes = patched.size() * 4;
        }
    }
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = bytes;
    mi.pCode = words;
    VkShaderModule module = VK_NULL_HANDLE;
    VkResult r = c->fn.vkCreateShaderModule(c->device(), &mi, c->allocator(), &module);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateShaderModule");
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.flags = layout ? flags : c->pipelineFlags;
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = specialization;
    ci.layout = layout ? layout : c->pipelineLayout;
    r = c->fn.vkCreateComputePipelines(c->device(), c->info.pipelineCache, 1, &ci, c->allocator(), out);
    c->fn.vkDestroyShaderModule(c->device(), module, c->allocator());
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateComputePipelines");
    return {};
}

namespace {

// The pipeline of an embedded module in its cache slot, created on first use. The caller holds
// pipelineMutex and picked `slot` for `half` (embeddedFlavour) and `specialization`.
Result cachedEmbeddedPipeline(Context c, VkPipeline& slot, const SpirvBlob& blob, bool half, VkPipeline* out,
                              const VkSpecializationInfo* specialization = nullptr) {
    if (!slot) {
        Result r = createComputePipeline(c, blob.words, blob.bytes, &slot, VK_NULL_HANDLE, 0, half, specialization);
        if (!r.ok()) return r;
    }
    *out = slot;
    return {};
}

// A VkSpecializationInfo of up to kMax 32-bit constants (booleans as VkBool32). It points into
// itself: not copyable; it lives as long as the pipeline creation that reads it.
struct Specialization {
    static constexpr uint32_t kMax = 8;
    uint32_t values[kMax] = {};
    VkSpecializationMapEntry entries[kMax] = {};
    VkSpecializationInfo info{};
    Specialization() { info.pMapEntries = entries, info.pData = values; }
    Specialization& add(uint32_t id, uint32_t value) {
        assert(info.mapEntryCount < kMax);
        const uint32_t n = info.mapEntryCount++;
        values[n] = value;
        entries[n] = {id, uint32_t(n * sizeof(uint32_t)), sizeof(uint32_t)};
        info.dataSize = info.mapEntryCount * sizeof(uint32_t);
        return *this;
    }
    Specialization(const Specialization&) = delete;
    Specialization& operator=(const Specialization&) = delete;
};

// Whether a built-in variant takes its half-denormals flavour: one pipeline serves both flavours
// where they are the same module (FP32 variants have no 16-bit floats; devices that flush half
// denormals anyway).
bool embeddedFlavour(Context c, bool fp16, bool halfDenormals) {
    return !halfDenormalFlavourDiffers(c, fp16) || halfDenormals;
}

}  // namespace

Result getComputePipeline(Context c, uint32_t reduction, bool fp16, bool quad, CustomReduction custom,
                          VkPipeline* out, bool halfDenormals, bool oneSite, uint32_t dataShift) {
    if (fp16 && !c->info.shaderFloat16Enabled)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the FP16 variant needs shaderFloat16");
    if (quad && !c->quadSupported)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the quad variant needs quad subgroup operations");
    if (dataShift != 0) return getRangedPipeline(c, reduction, fp16, quad, custom, halfDenormals, oneSite, dataShift, out);
    std::lock_guard<std::mutex> lock(c->pipelineMutex);
    if (reduction == VKSPD_REDUCTION_CUSTOM) {
        *out = custom ? custom->pipelines[quad ? 1 : 0] : VK_NULL_HANDLE;
        if (!*out) return fail(VK_ERROR_FEATURE_NOT_PRESENT, "no pipeline for this custom reduction");
        return {};
    }
    const bool half = embeddedFlavour(c, fp16, halfDenormals);
    Specialization specialization;
    specialization.add(VKSPD_SPEC_ONE_SITE, oneSite);
    return cachedEmbeddedPipeline(c, c->pipelines[reduction][fp16 ? 1 : 0][quad ? 1 : 0][half ? 1 : 0][oneSite ? 1 : 0],
                                  embeddedSpirv(reduction, fp16, quad), half, out, &specialization.info);
}

Result getRangedPipeline(Context c, uint32_t reduction, bool fp16, bool quad, CustomReduction custom,
                         bool halfDenormals, bool oneSite, uint32_t dataShift, VkPipeline* out) {
    const bool isCustom = reduction == VKSPD_REDUCTION_CUSTOM;
    if (isCustom && !custom) return fail(VK_ERROR_FEATURE_NOT_PRESENT, "no pipeline for this custom reduction");
    // Custom reductions: FP32, VKSPD_SPEC_ONE_SITE left at its default, half flavour irrelevant.
    const bool half = isCustom || embeddedFlavour(c, fp16, halfDenormals);
    if (isCustom) oneSite = false;
    const RangedKey key{isCustom ? static_cast<const void*>(custom) : nullptr, reduction, fp16, quad, half, oneSite,
                        dataShift};
    {
        std::lock_guard<std::mutex> lock(c->pipelineMutex);
        auto it = c->rangedPipelines.find(key);
        if (it != c->rangedPipelines.end()) {
            *out = it->second;
            return {};
        }
    }
    // Compiled outside the lock (seconds): made only for requests whose data one range cannot hold.
    std::vector<uint32_t> words;
    Result r = compileSinglePass(c, isCustom ? &custom->source : nullptr, reduction, fp16, quad, c->dataRangeSlots,
                                 &words);
    if (!r.ok()) return r;
    Specialization specialization;
    if (!isCustom) specialization.add(VKSPD_SPEC_ONE_SITE, oneSite);
    specialization.add(VKSPD_SPEC_DATA_SHIFT, dataShift);
    VkPipeline pipeline = VK_NULL_HANDLE;
    r = createComputePipeline(c, words.data(), words.size() * 4, &pipeline, VK_NULL_HANDLE, 0, half,
                              &specialization.info);
    if (!r.ok()) return r;
    std::lock_guard<std::mutex> lock(c->pipelineMutex);
    auto inserted = c->rangedPipelines.emplace(key, pipeline);
    if (!inserted.second) c->fn.vkDestroyPipeline(c->device(), pipeline, c->allocator());  // another thread's first
    *out = inserted.first->second;
    return {};
}

Result getPlainPipeline(Context c, uint32_t reduction, bool fp16, VkPipeline* out, bool halfDenormals, bool srgb,
                        bool copyBase, bool halo, bool finiteValues, uint32_t channels, bool linearFetch,
                        bool oddBase, bool sums, CustomReduction custom, bool gatherFetch, bool quad) {
    if (fp16 && !c->info.shaderFloat16Enabled)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the FP16 variant needs shaderFloat16");
    if (quad && !c->quadSupported)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "the quad variant of the plain-chain kernel needs quad subgroup operations");
    if (reduction > VKSPD_REDUCTION_CUSTOM) return fail(VK_ERROR_UNKNOWN, "unknown reduction");
    const bool isCustom = reduction == VKSPD_REDUCTION_CUSTOM;
    if (isCustom && (sums || fp16))
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "custom reductions run on the FP32 variants of the plain-chain and halo-stage kernels only, not "
                    "the summed-levels kernel");
    if (isCustom && !custom) return fail(VK_ERROR_FEATURE_NOT_PRESENT, "no pipeline for this custom reduction");
    if (channels < 1 || channels > 4) return fail(VK_ERROR_UNKNOWN, "a texel has 1 to 4 channels");
    if (sums && halo) return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the summed-levels kernel is not a halo-stage kernel");
    std::unique_lock<std::mutex> lock(c->pipelineMutex);
    const bool half = isCustom || embeddedFlavour(c, fp16, halfDenormals);
    Specialization specialization;
    const bool finite = halo && finiteValues;
    const uint32_t specialChannels = halo ? channels : 0;  // the plain-chain kernel computes four
    specialization.add(VKSPD_SPEC_SRGB, srgb).add(VKSPD_SPEC_COPY_BASE, copyBase).add(VKSPD_SPEC_LINEAR, linearFetch)
        .add(VKSPD_SPEC_GATHER, gatherFetch);
    const bool odd = halo && oddBase;
    if (halo) specialization.add(VKSPD_SPEC_FINITE, finite).add(VKSPD_SPEC_CHANNELS, channels);
    // One bit per flag, then the reduction, the channel count, the fetch, the odd base, the sums,
    // the gather and the LDS path.
    const uint32_t key = uint32_t(fp16) | uint32_t(half) << 1 | uint32_t(srgb) << 2 | uint32_t(copyBase) << 3 |
                         uint32_t(halo) << 4 | uint32_t(finite) << 5 | reduction << 6 | specialChannels << 10 |
                         uint32_t(linearFetch) << 13 | uint32_t(odd) << 14 | uint32_t(sums) << 15 |
                         uint32_t(gatherFetch) << 16 | uint32_t(!quad) << 17;
    PlainModule module;
    module.reduction = reduction;
    module.fp16 = fp16;
    module.halo = halo ? (odd ? 2u : 1u) : 0u;
    module.sums = sums;
    module.quad = quad;
    // A device without relative shuffles runs the odd-base module compiled without them.
    module.shuffleRelative = !odd || c->shuffleRelativeSupported;
    if (!isCustom && module.quad && module.shuffleRelative) {
        const SpirvBlob blob =
            sums ? embeddedSumsSpirv(reduction, fp16) : embeddedPlainSpirv(reduction, fp16, halo, odd);
        return cachedEmbeddedPipeline(c, c->plainPipelines[key], blob, half, out, &specialization.info);
    }
    // A module the library does not embed (a custom reduction's, the LDS path's, the odd base's
    // without relative shuffles): compiled on first use (seconds), outside the lock; a race
    // compiles or creates twice and keeps the first.
    std::map<uint32_t, VkPipeline>& pipelines = isCustom ? custom->plainPipelines : c->plainPipelines;
    auto found = pipelines.find(key);
    if (found != pipelines.end() && found->second) {
        *out = found->second;
        return {};
    }
    std::map<uint32_t, std::vector<uint32_t>>& modules = isCustom ? custom->plainSpirv : c->compiledPlainSpirv;
    std::vector<uint32_t> words = modules[module.key()];
    lock.unlock();
    if (words.empty()) {
        Result r = compilePlainKernel(c, isCustom ? &custom->source : nullptr, module, &words);
        if (!r.ok()) return r;
    }
    VkPipeline pipeline = VK_NULL_HANDLE;
    Result r = createComputePipeline(c, words.data(), words.size() * 4, &pipeline, VK_NULL_HANDLE, 0, half,
                                     &specialization.info);
    if (!r.ok()) return r;
    lock.lock();
    std::vector<uint32_t>& cached = modules[module.key()];
    if (cached.empty()) cached = std::move(words);
    VkPipeline& slot = pipelines[key];
    if (slot)
        c->fn.vkDestroyPipeline(c->device(), pipeline, c->allocator());  // another thread's first
    else
        slot = pipeline;
    *out = slot;
    return {};
}

Result getLevelPipeline(Context c, VkFormat format, VkRenderPass* renderPass, VkPipeline* pipeline) {
    std::lock_guard<std::mutex> lock(c->pipelineMutex);
    auto it = c->levelPipelines.find(format);
    if (it != c->levelPipelines.end()) {
        *renderPass = it->second.first;
        *pipeline = it->second.second;
        return {};
    }
    // One colour attachment whose contents are replaced; the caller's barriers put it in
    // COLOR_ATTACHMENT_OPTIMAL before and take it out after.
    VkAttachmentDescription attachment{};
    attachment.format = format;
    attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &ref;
    VkRenderPassCreateInfo rpi{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rpi.attachmentCount = 1;
    rpi.pAttachments = &attachment;
    rpi.subpassCount = 1;
    rpi.pSubpasses = &subpass;
    VkRenderPass rp = VK_NULL_HANDLE;
    VkResult r = c->fn.vkCreateRenderPass(c->device(), &rpi, c->allocator(), &rp);
    if (r != VK_SUCCESS) return vkFail(r, "vkCreateRenderPass");

    VkShaderModule modules[2] = {};
    for (int i = 0; i < 2 && r == VK_SUCCESS; ++i) {
        const SpirvBlob blob = embeddedLevelShader(i == 1);
        VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        mi.codeSize = blob.bytes;
        mi.pCode = blob.words;
        r = c->fn.vkCreateShaderModule(c->device(), &mi, c->allocator(), &modules[i]);
    }
    VkPipeline p = VK_NULL_HANDLE;
    if (r == VK_SUCCESS) {
        VkPipelineShaderStageCreateInfo stages[2] = {};
        for (int i = 0; i < 2; ++i) {
            stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
            stages[i].stage = i == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
            stages[i].module = modules[i];
            stages[i].pName = "main";
        }
        VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
        VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
        assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
        viewport.viewportCount = 1;
        viewport.scissorCount = 1;
        VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
        raster.polygonMode = VK_POLYGON_MODE_FILL;
        raster.cullMode = VK_CULL_MODE_NONE;
        raster.lineWidth = 1.0f;
        VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
        multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
        VkPipelineColorBlendAttachmentState blendAttachment{};
        blendAttachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                         VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
        VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
        blend.attachmentCount = 1;
        blend.pAttachments = &blendAttachment;
        const VkDynamicState dynamicStates[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
        VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
        dynamic.dynamicStateCount = 2;
        dynamic.pDynamicStates = dynamicStates;
        VkGraphicsPipelineCreateInfo gi{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
        gi.stageCount = 2;
        gi.pStages = stages;
        gi.pVertexInputState = &vertexInput;
        gi.pInputAssemblyState = &assembly;
        gi.pViewportState = &viewport;
        gi.pRasterizationState = &raster;
        gi.pMultisampleState = &multisample;
        gi.pColorBlendState = &blend;
        gi.pDynamicState = &dynamic;
        gi.layout = c->levelPipelineLayout;
        gi.renderPass = rp;
        r = c->fn.vkCreateGraphicsPipelines(c->device(), c->info.pipelineCache, 1, &gi, c->allocator(), &p);
    }
    for (VkShaderModule m : modules) c->fn.vkDestroyShaderModule(c->device(), m, c->allocator());
    if (r != VK_SUCCESS) {
        c->fn.vkDestroyRenderPass(c->device(), rp, c->allocator());
        return vkFail(r, "creating the render-pass fallback pipeline");
    }
    c->levelPipelines.emplace(format, std::make_pair(rp, p));
    *renderPass = rp;
    *pipeline = p;
    return {};
}

namespace {

// The 64-bit value of a non-dispatchable handle (a pointer or a uint64_t, by platform).
template <typename Handle>
uint64_t handleValue(Handle h) {
    if constexpr (std::is_pointer_v<Handle>) {
        return uint64_t(reinterpret_cast<uintptr_t>(h));
    } else {
        return uint64_t(h);
    }
}

// Destroys the cached views of `image` (c->mutex held).
void dropViews(ContextT* c, VkImage image) {
    for (auto it = c->views.begin(); it != c->views.end();) {
        if (std::get<0>(it->first) == image) {
            destroyView(c, it->second);
            it = c->views.erase(it);
        } else {
            ++it;
        }
    }
    c->imageTags.erase(image);
}

// With private data (c->mutex held): whether `image` is the image the cached views of its handle
// were made for. A different one (the handle value of an image destroyed without forgetImage,
// reused) has lost the tag: those views are destroyed (the destroyed image's work has completed,
// as vkDestroyImage requires) and the image is tagged afresh.
Result checkImageTag(ContextT* c, VkImage image) {
    uint64_t value = 0;
    c->fn.vkGetPrivateData(c->device(), VK_OBJECT_TYPE_IMAGE, handleValue(image), c->privateSlot, &value);
    auto it = c->imageTags.find(image);
    if (it != c->imageTags.end() && it->second == value) return {};
    if (it != c->imageTags.end()) dropViews(c, image);
    const uint64_t tag = ++c->lastImageTag;
    const VkResult r = c->fn.vkSetPrivateData(c->device(), VK_OBJECT_TYPE_IMAGE, handleValue(image), c->privateSlot, tag);
    if (r != VK_SUCCESS) return vkFail(r, "vkSetPrivateData");
    c->imageTags[image] = tag;
    return {};
}

}  // namespace

Result getView(Context c, VkImage image, VkFormat format, VkImageAspectFlags aspect, VkImageViewType type,
               VkImageUsageFlags usage, uint32_t level, uint32_t baseLayer, uint32_t layers, VkImageView* view,
               VkRenderPass renderPass, const VkExtent2D* framebufferExtent, VkFramebuffer* framebuffer) {
    const ViewKey key{image, format, aspect, type, usage, level, baseLayer, layers};
    std::lock_guard<std::mutex> lock(c->mutex);
    if (c->privateSlot) {
        Result r = checkImageTag(c, image);
        if (!r.ok()) return r;
    }
    CachedView& v = c->views[key];
    if (!v.view) {
        VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vi.image = image;
        vi.viewType = type;
        vi.format = format;
        vi.subresourceRange = {aspect, level, 1, baseLayer, layers};
        // Only the usage this view serves: an sRGB view of an image that also has STORAGE usage
        // (for its UNORM views) must not claim STORAGE itself.
        VkImageViewUsageCreateInfo viewUsage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
        viewUsage.usage = usage;
        vi.pNext = &viewUsage;
        VkResult r = c->fn.vkCreateImageView(c->device(), &vi, c->allocator(), &v.view);
        if (r != VK_SUCCESS) {
            c->views.erase(key);
            return vkFail(r, "vkCreateImageView");
        }
    }
    *view = v.view;
    if (framebufferExtent) {
        // A view is only ever used with render passes of its own format, which are compatible.
        if (!v.framebuffer) {
            VkFramebufferCreateInfo fi{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
            fi.renderPass = renderPass;
            fi.attachmentCount = 1;
            fi.pAttachments = &v.view;
            fi.width = framebufferExtent->width;
            fi.height = framebufferExtent->height;
            fi.layers = 1;
            VkResult r = c->fn.vkCreateFramebuffer(c->device(), &fi, c->allocator(), &v.framebuffer);
            if (r != VK_SUCCESS) return vkFail(r, "vkCreateFramebuffer");
        }
        *framebuffer = v.framebuffer;
    }
    return {};
}

void forgetImage(Context c, VkImage image) noexcept {
    if (!c || !image || !contextIsLive(c)) return;
    std::lock_guard<std::mutex> lock(c->mutex);
    dropViews(c, image);
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
