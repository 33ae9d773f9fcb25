// The integration example of README.md, compiled and run by readme_example_test.cpp. The text
// between the markers must appear verbatim in README.md (the test checks).
#include <vkspd/vkspd.hpp>

vkspd::Context createMipContext(VkInstance instance, VkPhysicalDevice gpu, VkDevice device,
                                PFN_vkGetInstanceProcAddr getProcAddr, bool fp16) {
    // [readme-begin]
    vkspd::ContextCreateInfo ci;  // once, after device creation
    ci.instance = instance, ci.physicalDevice = gpu, ci.device = device;
    ci.functions.vkGetInstanceProcAddr = getProcAddr;  // or volk's, or your engine's
    ci.pushDescriptorEnabled = true, ci.shaderFloat16Enabled = fp16;
    vkspd::Context mips = nullptr;
    if (vkspd::Result r = vkspd::createContext(ci, &mips); !r.ok()) return nullptr;  // r.message says why
    // [readme-end]
    return mips;
}

vkspd::Result recordMips(vkspd::Context mips, VkCommandBuffer cmd, VkImage image, VkExtent2D extent,
                         uint32_t levels) {
    // [readme-begin]
    vkspd::MipGenInfo info;  // per image, inside your own command buffer
    info.image = image, info.format = VK_FORMAT_R8G8B8A8_UNORM, info.extent = extent;
    info.imageMipLevels = levels;  // writes levels 1..levels-1 from level 0, in one dispatch
    info.before = {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT};
    info.after = {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT};
    vkspd::Result r = vkspd::generateMips(mips, cmd, info);
    // [readme-end]
    return r;
}
