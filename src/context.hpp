// The Context's internals, shared by context.cpp (lifetime, pipelines, scratch, views),
// capability.cpp (which path runs), custom.cpp (run-time reductions) and record.cpp (validation,
// barriers and the work of each path).
#pragma once

#include "functions.hpp"
#include "planner.hpp"
#include "spirv_patch.hpp"

#include <vkspd/formats.hpp>
#include <vkspd/vkspd.hpp>

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <tuple>
#include <vector>

namespace vkspd {

// SPIR-V of one shader variant, embedded at build time.
struct SpirvBlob {
    const uint32_t* words;
    size_t bytes;
};
// reduction: VKSPD_REDUCTION_* below CUSTOM.
SpirvBlob embeddedSpirv(uint32_t reduction, bool fp16, bool quad);
// The plain-chain kernel (shaders/vkspd_plain.comp, quad only) of a built-in reduction, or with
// `halo` the halo-stage kernel built from it, with `oddBase` the one whose stage 0 reads an odd
// base (VKSPD_HALO=2).
SpirvBlob embeddedPlainSpirv(uint32_t reduction, bool fp16, bool halo = false, bool oddBase = false);
// The summed-levels kernel (vkspd_plain.comp built with VKSPD_SUMS=1) of a built-in reduction.
SpirvBlob embeddedSumsSpirv(uint32_t reduction, bool fp16);
SpirvBlob embeddedLevelShader(bool fragment);  // the render-pass fallback
SpirvBlob embeddedDebugSpirv(bool fp16, bool quad, bool smBuiltins);  // debug.hpp's map variants
const char* embeddedComputeText();             // shaders/vkspd.comp, for shaderc
const char* embeddedPlainText();               // shaders/vkspd_plain.comp, for shaderc
const char* embeddedSharedText();              // shaders/vkspd_shared.h
const char* embeddedSumsText();                // shaders/vkspd_sums.glsl
const char* embeddedCommonText();              // shaders/vkspd_common.glsl

struct OwnedBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
};

// One cached view: (image, format, aspect, view type, usage, level, first layer, layers).
using ViewKey = std::tuple<VkImage, VkFormat, VkImageAspectFlags, VkImageViewType, VkImageUsageFlags, uint32_t,
                           uint32_t, uint32_t>;

struct CachedView {
    VkImageView view = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;  // render-pass path: a framebuffer on the view
};

// A general-kernel pipeline for scratch data in several ranges: (custom reduction or null,
// reduction, fp16, quad, half-denormals flavour, VKSPD_SPEC_ONE_SITE, VKSPD_SPEC_DATA_SHIFT).
using RangedKey = std::tuple<const void*, uint32_t, bool, bool, bool, bool, uint32_t>;

// A scratch range for one dispatch.
struct ScratchRange {
    VkBuffer counters = VK_NULL_HANDLE;
    VkDeviceSize countersOffset = 0;
    VkBuffer data = VK_NULL_HANDLE;
    VkDeviceSize dataOffset = 0;
};

// The debug-map variants (debug.hpp): their own layout, with the map at binding 4, so the normal
// layout and pipelines are untouched by them.
struct DebugPipelines {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipelines[2][2][2] = {};  // [smBuiltins][fp16][quad]
};

// How a request is carried out, decided from the format, usage and flags (capability.cpp).
struct Decision {
    Capability capability;
    FormatInfo format;
    FormatInfo sourceFormat;  // of a SourceImage (format UNDEFINED when there is none)
    uint32_t reduction = VKSPD_REDUCTION_AVERAGE;  // VKSPD_REDUCTION_*
    bool fp16Possible = false;  // the formats and reduction allow the FP16 path (the device may not)
};

}  // namespace vkspd

struct vkspd::CustomReductionT {
    std::string source;
    uint32_t references = 0;
    VkPipeline pipelines[2] = {};  // [quad]; null where the device cannot run it
    // The plain-chain and halo-stage kernels (FP32) with this reduction, compiled on first use:
    // their modules by PlainModule::key, and their pipelines by getPlainPipeline's key (guarded by
    // ContextT::pipelineMutex).
    std::map<uint32_t, std::vector<uint32_t>> plainSpirv;
    std::map<uint32_t, VkPipeline> plainPipelines;
};

struct vkspd::ContextT {
    ContextCreateInfo info;
    VkPipelineCreateFlags pipelineFlags = 0;
    Functions fn;
    VkPhysicalDeviceProperties properties{};
    uint32_t subgroupSize = 0;
    bool quadSupported = false;
    // VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT in compute: the halo-stage kernel's odd-base module
    // takes a base row's third tap from the next lane (subgroupShuffleDown).
    bool shuffleRelativeSupported = false;
    // What the device's float controls allow (all false with ContextTuning::skipDenormPreserve):
    // compute modules get DenormPreserve for the widths chooseDenormModes picks from it.
    DenormSupport denormSupport;

    VkSampler sampler = VK_NULL_HANDLE;        // NEAREST: texelFetch, and the render-pass fallback
    // Unnormalized coordinates, for VKSPD_BINDING_SOURCE_TEXELS: LINEAR for Fetch::LinearSampler,
    // NEAREST elsewhere.
    VkSampler linearTexelSampler = VK_NULL_HANDLE;
    VkSampler texelSampler = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
    uint32_t dataRangeSlots = 1;  // elements of the data binding (dataRangeSlots(limits))
    // The most bytes one of them binds: maxStorageBufferRange, or less by ContextTuning.
    uint64_t dataRangeLimit = 0;

    // Pipelines are created on first use (guarded by pipelineMutex).
    std::mutex pipelineMutex;
    // [reduction][fp16][quad][half denormals preserved where the device can: 1 for formats with
    // half-float denormals, 0 for 8-bit ones][one call site of runStage: VKSPD_SPEC_ONE_SITE]
    VkPipeline pipelines[VKSPD_REDUCTION_CUSTOM][2][2][2][2] = {};
    // The plain-chain and halo-stage kernels (quad only), by a key getPlainPipeline packs:
    // reduction, fp16, half denormals and the specialization constants of the module
    // (VKSPD_SPEC_SRGB, VKSPD_SPEC_COPY_BASE, VKSPD_SPEC_FINITE, VKSPD_SPEC_CHANNELS,
    // VKSPD_SPEC_LINEAR), and the halo-stage module (VKSPD_HALO=1 or 2) or the summed-levels one.
    std::map<uint32_t, VkPipeline> plainPipelines;
    // The modules of vkspd_plain.comp compiled at run time on first use (by PlainModule::key):
    // without quad operations (the LDS path), and the odd-base module on a device without
    // relative subgroup shuffles.
    std::map<uint32_t, std::vector<uint32_t>> compiledPlainSpirv;
    // The general kernel with its data in dataRangeSlots ranges, compiled at run time on first use
    // (custom reductions' entries go with them).
    std::map<RangedKey, VkPipeline> rangedPipelines;
    std::map<std::string, std::unique_ptr<CustomReductionT>> customReductions;
    // Debug-map variants (debug.hpp, src/debug.cpp), created on first use.
    DebugPipelines debug;
    // Render-pass fallback: one render pass and pipeline per attachment format.
    VkDescriptorSetLayout levelSetLayout = VK_NULL_HANDLE;
    VkPipelineLayout levelPipelineLayout = VK_NULL_HANDLE;
    std::map<VkFormat, std::pair<VkRenderPass, VkPipeline>> levelPipelines;

    // Internal scratch ring: per slot, a host-zeroed counter buffer and a device-local data
    // buffer, each growing to the largest dispatch seen (outgrown ones are kept until
    // destruction, since recorded work may still use them).
    uint32_t slotCount = 0;
    std::vector<OwnedBuffer> counterSlots;
    std::vector<OwnedBuffer> dataSlots;
    std::vector<OwnedBuffer> retiredBuffers;
    std::atomic<uint32_t> nextSlot{0};

    std::mutex mutex;  // guards views, imageTags, dataSlots and retiredBuffers
    std::map<ViewKey, CachedView> views;
    // ContextCreateInfo::privateDataEnabled: each image with cached views carries, in this private
    // data slot, the tag imageTags holds for its handle. An image created later with the same
    // handle value reads 0 there, so its handle's views (of a destroyed image) are dropped.
    VkPrivateDataSlot privateSlot = VK_NULL_HANDLE;
    std::map<VkImage, uint64_t> imageTags;
    uint64_t lastImageTag = 0;

    VkDevice device() const { return info.device; }
    const VkAllocationCallbacks* allocator() const { return info.allocationCallbacks; }
};

namespace vkspd {

// The smallest ContextTuning::maxDataRangeBytes: ranges of at least 4096 texels, so a range is a
// multiple of any minStorageBufferOffsetAlignment.
constexpr uint64_t kMinDataRangeBytes = 65536;

// PCI vendor IDs (VkPhysicalDeviceProperties::vendorID) the library tunes or reports for.
constexpr uint32_t kVendorNvidia = 0x10DE;
constexpr uint32_t kVendorAmd = 0x1002;

// Runs `body` (returning Result) and turns any exception into an error Result: no exception
// leaves the API. The message is short enough not to allocate.
template <typename Body>
Result guarded(Body&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        Result r;
        r.vkResult = VK_ERROR_OUT_OF_HOST_MEMORY;
        r.message = "out of memory";
        return r;
    } catch (...) {
        Result r;
        r.vkResult = VK_ERROR_UNKNOWN;
        r.message = "internal error";
        return r;
    }
}

Result fail(VkResult code, std::string message);

// Handle checks, in every build: every live Context is registered, so a destroyed one passed
// again is reported instead of being dereferenced.
bool contextIsLive(Context context);
std::string deadContextMessage(Context context);
Result vkFail(VkResult code, const char* what);

// createContext with extra flags for its pipelines (for developer tools: for example
// VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, with pipelineExecutableInfo enabled).
Result createContextWithPipelineFlags(const ContextCreateInfo& createInfo,
                                      VkPipelineCreateFlags pipelineFlags, Context* context) noexcept;

// The single-pass pipeline of a variant (custom: the reduction's own), created on first use.
// `halfDenormals`: whether the FP16 variant declares DenormPreserve for 16-bit floats where the
// device can (halfDenormalsMatter).
// `oneSite`: the built-in reductions' VKSPD_SPEC_ONE_SITE (custom reductions keep its default).
// `dataShift`: Plan::dataRangeShift (0: the data is one range).
Result getComputePipeline(Context context, uint32_t reduction, bool fp16, bool quad,
                          CustomReduction custom, VkPipeline* pipeline, bool halfDenormals = true,
                          bool oneSite = false, uint32_t dataShift = 0);
// The same built at run time for scratch data in Context::dataRangeSlots ranges of 2^dataShift
// texels (dataShift > 0; getComputePipeline calls it).
Result getRangedPipeline(Context context, uint32_t reduction, bool fp16, bool quad, CustomReduction custom,
                         bool halfDenormals, bool oneSite, uint32_t dataShift, VkPipeline* pipeline);
// Compiles vkspd.comp at run time (shaderc) for a reduction (with `customSource` for
// VKSPD_REDUCTION_CUSTOM), FP16 or FP32, quad or not, its data in `dataRanges` bindings
// (VKSPD_DATA_RANGES; 1: the embedded variants' one). Fails where the library has no shaderc.
Result compileSinglePass(Context context, const std::string* customSource, uint32_t reduction, bool fp16, bool quad,
                         uint32_t dataRanges, std::vector<uint32_t>* words);
// A module of vkspd_plain.comp by its build-time switches: the reduction (VKSPD_REDUCTION), FP16
// or FP32, the plain-chain kernel (halo 0), the halo-stage kernel (VKSPD_HALO 1, or 2 for its
// odd-base module) or the summed-levels kernel (sums: VKSPD_SUMS), with quad operations or
// without (VKSPD_QUAD: the LDS path), with relative subgroup shuffles or without
// (VKSPD_SHUFFLE_RELATIVE, the odd-base module's).
struct PlainModule {
    uint32_t reduction = 0;
    bool fp16 = false;
    uint32_t halo = 0;
    bool sums = false;
    bool quad = true;
    bool shuffleRelative = true;
    uint32_t key() const {
        return reduction | uint32_t(fp16) << 3 | halo << 4 | uint32_t(sums) << 6 | uint32_t(quad) << 7 |
               uint32_t(shuffleRelative) << 8;
    }
};
// Compiles `module` at run time (shaderc), with `customSource` for VKSPD_REDUCTION_CUSTOM (whose
// variants are FP32). Fails where the library has no shaderc.
Result compilePlainKernel(Context context, const std::string* customSource, const PlainModule& module,
                          std::vector<uint32_t>* words);
// Destroys a custom reduction's pipelines: its general-kernel ones, its plain and halo kernels' and
// its entries of rangedPipelines (src/custom.cpp). The caller holds pipelineMutex, or is the
// context's destruction.
void destroyCustomPipelines(Context context, CustomReductionT* reduction);
// Whether compileSinglePass can run (the library was built with shaderc).
bool runtimeCompilerAvailable();
// The plain-chain pipeline of a built-in reduction (quad), created on first use; `halfDenormals`
// as for getComputePipeline; `srgb`: whether its stores encode to sRGB (formats whose encoding is
// ChannelEncoding::Srgb8, written through their UNORM views); `copyBase`: the dispatch reads a
// MipGenInfo::source and copies it into the base level; `halo`: the halo-stage kernel, whose
// `finiteValues` is VKSPD_SPEC_FINITE and `channels` (1 to 4, Plan::channels) VKSPD_SPEC_CHANNELS,
// with which the halo-stage kernel computes only those (the plain-chain kernel uses neither);
// `linearFetch`: level 1 through the linear sampler, else texel loads (VKSPD_SPEC_LINEAR);
// `gatherFetch`: level 1 by textureGather (VKSPD_SPEC_GATHER, one-channel formats);
// `oddBase`: the halo-stage kernel whose stage 0 reads tiles of the base with a halo (its module
// built with VKSPD_HALO=2, HaloPlan::oddBase); `sums`: the summed-levels kernel (not `halo`;
// embeddedSumsSpirv). A custom reduction (`custom`) runs on the plain-chain and halo-stage kernels
// only, FP32, its module compiled on first use (compilePlainKernel).
Result getPlainPipeline(Context context, uint32_t reduction, bool fp16, VkPipeline* pipeline,
                        bool halfDenormals = true, bool srgb = false, bool copyBase = false,
                        bool halo = false, bool finiteValues = false, uint32_t channels = 4,
                        bool linearFetch = false, bool oddBase = false, bool sums = false,
                        CustomReduction custom = nullptr, bool gatherFetch = false, bool quad = true);
// A pipeline from SPIR-V with the Context's layout and flags, or with `layout` and `flags` where
// given (layout non-null); `specialization` as in VkPipelineShaderStageCreateInfo.
Result createComputePipeline(Context context, const uint32_t* words, size_t bytes, VkPipeline* pipeline,
                             VkPipelineLayout layout = VK_NULL_HANDLE, VkPipelineCreateFlags flags = 0,
                             bool halfDenormals = true, const VkSpecializationInfo* specialization = nullptr);
// Whether the single-pass module of a variant declares DenormPreserve for every float width it
// uses (FP32 variants: 32; FP16 variants: 16 and 32).
bool denormalsPreserved(Context context, bool fp16, bool halfDenormals = true);
// Whether half-float denormals can change a result of this format on the FP16 path. Not for 8-bit
// formats: a half denormal is below 6.2e-5, under half a step of an 8-bit channel (and under 0.2
// of a step after sRGB encoding), so flushing it cannot change a stored texel. DenormPreserve for
// 16-bit floats cost NVIDIA's FP16 variant 12 registers (48 -> 60, a group per SM) and 10-16% of
// its time (docs/PERFORMANCE.md), so only formats whose results it can change pay for it.
bool halfDenormalsMatter(const FormatInfo& format);
// Whether every value of this format is finite and within [-1, 1] (UNORM, SNORM, sRGB): read from
// the image itself, the halo-stage kernel's normalized flavour (VKSPD_SPEC_FINITE).
bool normalizedEncoding(const FormatInfo& format);
// Whether a variant's half-denormal flavour (halfDenormals above) is a module of its own on this
// Context: FP16 variants on a device that preserves 16-bit denormals. Elsewhere both flavours are
// the same module (one pipeline, one occupancy record).
bool halfDenormalFlavourDiffers(Context context, bool fp16);
// The bindings of the single pass's push-descriptor layout (source, levels, counters, data, data
// ranges 1 .. dataRanges - 1, then the source in texel coordinates) into `bindings`
// (kSinglePassBindings at most); returns how many.
constexpr uint32_t kSinglePassBindings = 4 + VKSPD_MAX_DATA_RANGES;
uint32_t singlePassBindings(VkDescriptorSetLayoutBinding* bindings, uint32_t dataRanges);
// How many data ranges (elements of the data binding) a device's storage-buffer limits allow, up
// to VKSPD_MAX_DATA_RANGES.
uint32_t dataRangeSlots(const VkPhysicalDeviceLimits& limits);
// The debug-map variant (debug.hpp), created with its layout on first use (src/debug.cpp).
Result getDebugPipeline(Context context, bool fp16, bool quad, bool smBuiltins, VkPipeline* pipeline);
// Destroys what getDebugPipeline created (destroyContext).
void destroyDebugPipelines(Context context);
// The render-pass fallback's render pass and pipeline for attachments of `format`.
Result getLevelPipeline(Context context, VkFormat format, VkRenderPass* renderPass, VkPipeline* pipeline);

// A cached view of one level, restricted to `usage` (and, with `framebufferExtent` non-null, a
// framebuffer of `renderPass` on it).
Result getView(Context context, VkImage image, VkFormat format, VkImageAspectFlags aspect,
               VkImageViewType type, VkImageUsageFlags usage, uint32_t level, uint32_t baseLayer, uint32_t layers,
               VkImageView* view, VkRenderPass renderPass = VK_NULL_HANDLE,
               const VkExtent2D* framebufferExtent = nullptr, VkFramebuffer* framebuffer = nullptr);
Result acquireScratch(Context context, const Plan& plan, ScratchRange* range);
VkDeviceSize alignUp(VkDeviceSize value, VkDeviceSize alignment);

// The path for a format, usage, create flags, reduction and source format (capability.cpp).
Decision decide(Context context, VkFormat format, VkImageUsageFlags usage, VkImageCreateFlags flags,
                Reduction reduction, VkFormat sourceFormat, bool customAvailable);

}  // namespace vkspd
