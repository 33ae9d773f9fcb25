#include "functions.hpp"

namespace vkspd {

bool loadFunctions(VkInstance instance, VkDevice device, PFN_vkGetInstanceProcAddr getInstanceProcAddr,
                   PFN_vkGetDeviceProcAddr getDeviceProcAddr, uint32_t apiVersion,
                   bool pushDescriptor, bool synchronization2, bool privateData, Functions* f,
                   std::string* missing) {
    *f = Functions{};
    if (!getDeviceProcAddr) {
        getDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(
            getInstanceProcAddr(instance, "vkGetDeviceProcAddr"));
    }
    if (!getDeviceProcAddr) {
        *missing = "vkGetDeviceProcAddr";
        return false;
    }
    f->vkGetDeviceProcAddr = getDeviceProcAddr;
#define VKSPD_LOAD_INSTANCE(name)                                                     \
    f->name = reinterpret_cast<PFN_##name>(getInstanceProcAddr(instance, #name));     \
    if (!f->name) {                                                                   \
        *missing = #name;                                                             \
        return false;                                                                 \
    }
#define VKSPD_LOAD_DEVICE(name)                                                       \
    f->name = reinterpret_cast<PFN_##name>(getDeviceProcAddr(device, #name));         \
    if (!f->name) {                                                                   \
        *missing = #name;                                                             \
        return false;                                                                 \
    }
    VKSPD_INSTANCE_FUNCTIONS(VKSPD_LOAD_INSTANCE)
    VKSPD_DEVICE_FUNCTIONS(VKSPD_LOAD_DEVICE)
#undef VKSPD_LOAD_INSTANCE
#undef VKSPD_LOAD_DEVICE
    if (pushDescriptor) {
        f->vkCmdPushDescriptorSetKHR = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
            getDeviceProcAddr(device, "vkCmdPushDescriptorSetKHR"));
        if (!f->vkCmdPushDescriptorSetKHR) {
            *missing = "vkCmdPushDescriptorSetKHR (VK_KHR_push_descriptor)";
            return false;
        }
    }
    if (synchronization2) {
        const char* name = apiVersion >= VK_API_VERSION_1_3 ? "vkCmdPipelineBarrier2"
                                                              : "vkCmdPipelineBarrier2KHR";
        f->vkCmdPipelineBarrier2 =
            reinterpret_cast<PFN_vkCmdPipelineBarrier2>(getDeviceProcAddr(device, name));
        if (!f->vkCmdPipelineBarrier2) {
            *missing = name;
            return false;
        }
    }
    if (privateData) {
        const char* suffix = apiVersion >= VK_API_VERSION_1_3 ? "" : "EXT";
#define VKSPD_LOAD_PRIVATE(name)                                                                  \
        {                                                                                         \
            const std::string full = std::string(#name) + suffix;                                 \
            f->name = reinterpret_cast<PFN_##name>(getDeviceProcAddr(device, full.c_str()));      \
            if (!f->name) {                                                                       \
                *missing = full;                                                                  \
                return false;                                                                     \
            }                                                                                     \
        }
        VKSPD_LOAD_PRIVATE(vkCreatePrivateDataSlot)
        VKSPD_LOAD_PRIVATE(vkDestroyPrivateDataSlot)
        VKSPD_LOAD_PRIVATE(vkSetPrivateData)
        VKSPD_LOAD_PRIVATE(vkGetPrivateData)
#undef VKSPD_LOAD_PRIVATE
    }
    return true;
}

}  // namespace vkspd
