// Opt-in validation for the examples (not needed to use vkspd): with VKSPD_EXAMPLE_VALIDATION=1
// the instance gets the Khronos validation layer with synchronization validation, and every
// warning or error it reports is printed and counted, so the example can exit non-zero on any.
// The ctests example.minimal and example.engine set the variable.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace example {

struct Validation {
    bool enabled = false;
    unsigned messages = 0;  // warnings and errors reported so far
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;

    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                    void* user) {
        ++static_cast<Validation*>(user)->messages;
        std::fprintf(stderr, "validation: %s\n", data->pMessage ? data->pMessage : "(no text)");
        return VK_FALSE;
    }

    // Adds the layer, its features and a messenger to `ici` when VKSPD_EXAMPLE_VALIDATION=1.
    // Returns false when validation was asked for but the layer is missing.
    bool prepare(VkInstanceCreateInfo& ici) {
        const char* env = std::getenv("VKSPD_EXAMPLE_VALIDATION");
        if (!env || std::strcmp(env, "1") != 0) return true;
        uint32_t n = 0;
        vkEnumerateInstanceLayerProperties(&n, nullptr);
        std::vector<VkLayerProperties> layers(n);
        vkEnumerateInstanceLayerProperties(&n, layers.data());
        for (const VkLayerProperties& l : layers) enabled |= std::strcmp(l.layerName, layer) == 0;
        if (!enabled) {
            std::fprintf(stderr, "VKSPD_EXAMPLE_VALIDATION=1 but %s is not installed "
                                 "(apt-get install vulkan-validationlayers)\n", layer);
            return false;
        }
        features.enabledValidationFeatureCount = 1;
        features.pEnabledValidationFeatures = &sync;
        messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
        messenger.pfnUserCallback = onMessage;
        messenger.pUserData = this;
        features.pNext = &messenger;  // reports during vkCreateInstance / vkDestroyInstance too
        messenger.pNext = ici.pNext;
        ici.pNext = &features;
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layer;
        ici.enabledExtensionCount = 1;
        ici.ppEnabledExtensionNames = &extension;
        return true;
    }

    // Keeps reporting for the instance's lifetime (call after vkCreateInstance).
    void attach(VkInstance instance) {
        if (!enabled) return;
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
        VkDebugUtilsMessengerCreateInfoEXT info = messenger;
        info.pNext = nullptr;
        if (create) create(instance, &info, nullptr, &handle);
    }

    // Call before vkDestroyInstance.
    void detach(VkInstance instance) {
        if (!handle) return;
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy) destroy(instance, handle, nullptr);
        handle = VK_NULL_HANDLE;
    }

    VkDebugUtilsMessengerEXT handle = VK_NULL_HANDLE;
};

}  // namespace example
