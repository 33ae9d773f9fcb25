// Adds float-controls execution modes (DenormPreserve) to a compiled SPIR-V module without
// recompiling it: the embedded variants stay exactly as glslc built them, and a Context whose
// device can preserve denormals gets a patched copy (see DispatchDescription::denormalsPreserved
// and ContextTuning::skipDenormPreserve).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vkspd {

// What the device allows (VkPhysicalDeviceFloatControlsProperties), as plain values so the rules
// can be tested without a device.
struct DenormSupport {
    bool preserve16 = false;  // shaderDenormPreserveFloat16
    bool preserve32 = false;  // shaderDenormPreserveFloat32
    // denormBehaviorIndependence: 0 = 32_BIT_ONLY, 1 = ALL, 2 = NONE (VkShaderFloatControlsIndependence).
    uint32_t independence = 2;
};

// The float widths a module declares (OpTypeFloat).
struct FloatWidths {
    bool f16 = false;
    bool f32 = false;
    bool f64 = false;
};

// Which widths get `OpExecutionMode DenormPreserve`, following the Vulkan rules on
// denormBehaviorIndependence: ALL, any width the device supports; 32_BIT_ONLY, 32 only (16 and 64
// must then share the default); NONE, every width the module uses or none at all.
struct DenormModes {
    bool preserve16 = false;
    bool preserve32 = false;
    bool any() const { return preserve16 || preserve32; }
};
DenormModes chooseDenormModes(const DenormSupport& support, const FloatWidths& widths);

// Reads the float widths of a module; false if the word stream is malformed.
bool spirvFloatWidths(const uint32_t* words, size_t wordCount, FloatWidths* widths);

// Copies the module into *out adding, for the single GLCompute entry point, `OpCapability
// DenormPreserve`, `OpExecutionMode %main DenormPreserve 16/32` as `modes` asks, and
// `OpExtension "SPV_KHR_float_controls"` for SPIR-V before 1.4. No new ids (the bound is kept).
// Returns false and leaves *out equal to the input on anything unexpected: a malformed stream,
// another byte order, no or several GLCompute entry points, a conflicting DenormFlushToZero mode,
// or sections out of the logical layout order. With no mode asked for, *out is the input.
bool addDenormPreserve(const uint32_t* words, size_t wordCount, const DenormModes& modes,
                       std::vector<uint32_t>* out);

}  // namespace vkspd
