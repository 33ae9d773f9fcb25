// The Vulkan entry points vkspd calls, fetched from the caller's vkGetInstanceProcAddr /
// vkGetDeviceProcAddr: the library never links a global Vulkan symbol.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace vkspd {

#define VKSPD_INSTANCE_FUNCTIONS(X)           \
    X(vkGetPhysicalDeviceProperties2)         \
    X(vkGetPhysicalDeviceFormatProperties)    \
    X(vkGetPhysicalDeviceMemoryProperties)    \
    X(vkEnumerateDeviceExtensionProperties)

#define VKSPD_DEVICE_FUNCTIONS(X)  \
    X(vkCreateShaderModule)        \
    X(vkDestroyShaderModule)       \
    X(vkCreateDescriptorSetLayout) \
    X(vkDestroyDescriptorSetLayout)\
    X(vkCreatePipelineLayout)      \
    X(vkDestroyPipelineLayout)     \
    X(vkCreateComputePipelines)    \
    X(vkDestroyPipeline)           \
    X(vkCreateSampler)             \
    X(vkDestroySampler)            \
    X(vkCreateImageView)           \
    X(vkDestroyImageView)          \
    X(vkCreateBuffer)              \
    X(vkDestroyBuffer)             \
    X(vkGetBufferMemoryRequirements) \
    X(vkAllocateMemory)            \
    X(vkFreeMemory)                \
    X(vkBindBufferMemory)          \
    X(vkMapMemory)                 \
    X(vkUnmapMemory)               \
    X(vkCmdBindPipeline)           \
    X(vkCmdPushConstants)          \
    X(vkCmdDispatch)               \
    X(vkCmdPipelineBarrier)        \
    X(vkCreateGraphicsPipelines)   \
    X(vkCreateRenderPass)          \
    X(vkDestroyRenderPass)         \
    X(vkCreateFramebuffer)         \
    X(vkDestroyFramebuffer)        \
    X(vkCmdBeginRenderPass)        \
    X(vkCmdEndRenderPass)          \
    X(vkCmdDraw)                   \
    X(vkCmdSetViewport)            \
    X(vkCmdSetScissor)             \
    X(vkCmdBlitImage)              \
    X(vkCmdFillBuffer)

struct Functions {
#define VKSPD_DECLARE(name) PFN_##name name = nullptr;
    VKSPD_INSTANCE_FUNCTIONS(VKSPD_DECLARE)
    VKSPD_DEVICE_FUNCTIONS(VKSPD_DECLARE)
#undef VKSPD_DECLARE
    PFN_vkGetDeviceProcAddr vkGetDeviceProcAddr = nullptr;
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR = nullptr;  // if enabled
    PFN_vkCmdPipelineBarrier2 vkCmdPipelineBarrier2 = nullptr;          // if enabled
    // Private data (Vulkan 1.3 or VK_EXT_private_data), if enabled: tags images whose views are cached.
    PFN_vkCreatePrivateDataSlot vkCreatePrivateDataSlot = nullptr;
    PFN_vkDestroyPrivateDataSlot vkDestroyPrivateDataSlot = nullptr;
    PFN_vkSetPrivateData vkSetPrivateData = nullptr;
    PFN_vkGetPrivateData vkGetPrivateData = nullptr;
};

// Fetches every pointer; returns false with the name of the first one missing.
bool loadFunctions(VkInstance instance, VkDevice device, PFN_vkGetInstanceProcAddr getInstanceProcAddr,
                   PFN_vkGetDeviceProcAddr getDeviceProcAddr, uint32_t apiVersion,
                   bool pushDescriptor, bool synchronization2, bool privateData, Functions* functions,
                   std::string* missing);

}  // namespace vkspd
