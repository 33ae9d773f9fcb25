// vkspd-pipeline-stats: compiles each embedded vkspd shader variant with
// VK_KHR_pipeline_executable_properties and prints the driver's statistics (registers, shared
// memory, spills, ...), the input for occupancy work (bench/NOTES.md). A developer tool.
#include "../samples/common/gpu.hpp"
#include "../src/context.hpp"  // vkspd::embeddedSpirv: the library's own SPIR-V

#include <cstring>

using namespace vkspd_tools;

int main() {
    // A device with pipelineExecutableInfo enabled (openGpu enables only what vkspd needs).
    Gpu g = openGpu(-1);
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(g.physical, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> exts(n);
    vkEnumerateDeviceExtensionProperties(g.physical, nullptr, &n, exts.data());
    bool have = false;
    for (auto& e : exts) have = have || std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0;
    if (!have) {
        std::printf("%s: VK_KHR_pipeline_executable_properties not available\n", g.properties.deviceName);
        return 0;
    }
    vkDestroyDevice(g.device, nullptr);
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pe{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    pe.pipelineExecutableInfo = VK_TRUE;
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.pNext = &pe;
    f12.vulkanMemoryModel = f12.vulkanMemoryModelDeviceScope = VK_TRUE;
    f12.shaderFloat16 = g.fp16;
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &f12;
    f2.features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    float priority = 1;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = g.family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    const char* names[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &f2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qi;
    dci.enabledExtensionCount = 2;
    dci.ppEnabledExtensionNames = names;
    VkDevice device;
    CHECK_VK(vkCreateDevice(g.physical, &dci, nullptr, &device));
    auto getProps = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
    auto getStats = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));

    // The library's pipeline layout, rebuilt here (same bindings as src/context.cpp).
    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    VkSampler sampler;
    CHECK_VK(vkCreateSampler(device, &si, nullptr, &sampler));
    VkDescriptorSetLayoutBinding b[4] = {
        {VKSPD_BINDING_SOURCE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, &sampler},
        {VKSPD_BINDING_DEST, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VKSPD_MAX_LEVELS, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {VKSPD_BINDING_COUNTERS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {VKSPD_BINDING_DATA, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    li.bindingCount = 4;
    li.pBindings = b;
    VkDescriptorSetLayout setLayout;
    CHECK_VK(vkCreateDescriptorSetLayout(device, &li, nullptr, &setLayout));
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(vkspd::shader::PushConstants)};
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &setLayout;
    pli.pushConstantRangeCount = 1;
    pli.pPushConstantRanges = &range;
    VkPipelineLayout layout;
    CHECK_VK(vkCreatePipelineLayout(device, &pli, nullptr, &layout));

    std::printf("%s\n", g.properties.deviceName);
    for (int fp16 = 0; fp16 < 2; ++fp16)
        for (int quad = 0; quad < 2; ++quad) {
            vkspd::SpirvBlob blob = vkspd::embeddedSpirv(fp16, quad);
            VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
            mi.codeSize = blob.bytes;
            mi.pCode = blob.words;
            VkShaderModule module;
            CHECK_VK(vkCreateShaderModule(device, &mi, nullptr, &module));
            VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
            ci.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
            ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
            ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
            ci.stage.module = module;
            ci.stage.pName = "main";
            ci.layout = layout;
            VkPipeline pipeline;
            CHECK_VK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline));
            VkPipelineInfoKHR pinfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
            pinfo.pipeline = pipeline;
            uint32_t count = 0;
            getProps(device, &pinfo, &count, nullptr);
            for (uint32_t e = 0; e < count; ++e) {
                VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
                ei.pipeline = pipeline;
                ei.executableIndex = e;
                uint32_t sc = 0;
                getStats(device, &ei, &sc, nullptr);
                std::vector<VkPipelineExecutableStatisticKHR> stats(sc, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
                getStats(device, &ei, &sc, stats.data());
                std::printf("%s %s:", fp16 ? "fp16" : "fp32", quad ? "quad" : "lds");
                for (auto& s : stats) {
                    std::printf(" [%s=", s.name);
                    switch (s.format) {
                    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: std::printf("%u", s.value.b32); break;
                    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: std::printf("%lld", (long long)s.value.i64); break;
                    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: std::printf("%llu", (unsigned long long)s.value.u64); break;
                    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: std::printf("%g", s.value.f64); break;
                    default: break;
                    }
                    std::printf("]");
                }
                std::printf("\n");
            }
            vkDestroyPipeline(device, pipeline, nullptr);
            vkDestroyShaderModule(device, module, nullptr);
        }
    return 0;
}
