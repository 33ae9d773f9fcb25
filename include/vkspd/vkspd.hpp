/// @file
/// vkspd: every mip level of a Vulkan image in one compute dispatch.
///
/// This handles:
///   - recording one compute dispatch that writes levels base+1 .. base+count-1 of a 2D image, a 2D
///     array, a cube or a cube array (every layer of the range in the same dispatch) from level
///     `base`, with the exact area-weighted box filter (or Min, Max, MinMax, or your own GLSL
///     reduction) at every size up to the device's limit, in every format of docs/FILTER.md
///     (sRGB filtered in linear space), optionally from a separate depth image (Hi-Z pyramids);
///   - for images that cannot be storage images, a render pass per level or a blit chain
///     (queryCapability says which path runs and why);
///   - the barriers that take the image from the state you declare in `before` to the state you
///     declare in `after`;
///   - its own pipelines, image views and scratch memory (counters and tile-edge partial sums).
///
/// The caller is responsible for:
///   - the instance, physical device, device, queues and command buffers, and for submitting;
///   - enabling, at device creation, the features listed in `requiredDeviceFeatures()`;
///   - declaring the image's usage and create flags in MipGenInfo (0 means SAMPLED | STORAGE, the
///     single pass; sRGB images need MUTABLE_FORMAT, and EXTENDED_USAGE to be created with STORAGE);
///   - calling `forgetImage` before destroying an image that was passed to `generateMips`
///     (optional where ContextCreateInfo::privateDataEnabled is set);
///   - keeping the Context alive until every command buffer that used it has finished executing.
///
/// No function here throws (they are noexcept; an allocation failure inside becomes a Result with
/// VK_ERROR_OUT_OF_HOST_MEMORY); failures return a Result whose message names the bad value and rule.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

namespace vkspd {

struct ContextTuning;  // vkspd/tuning.hpp
struct Tuning;         // vkspd/tuning.hpp

/// Outcome of a call. `ok()` is true on success; otherwise `message` says what was wrong.
struct Result {
    VkResult vkResult = VK_SUCCESS;  ///< VK_ERROR_* from Vulkan, or VK_ERROR_FEATURE_NOT_PRESENT /
                                     ///< VK_ERROR_FORMAT_NOT_SUPPORTED / VK_ERROR_UNKNOWN for misuse.
    std::string message;             ///< Empty on success.
    /// True when the call succeeded (vkResult is VK_SUCCESS).
    bool ok() const { return vkResult == VK_SUCCESS; }
};

/// Which arithmetic the shader uses for levels inside a tile.
enum class Precision {
    Auto,  ///< FP16 where the format's precision allows it and the device enabled shaderFloat16;
           ///< but FP32 for Min and Max on NVIDIA GPUs where the plain-chain or summed-levels
           ///< kernel runs the chain (measured faster there: docs/PERFORMANCE.md).
    FP16,  ///< 16-bit shared memory and quad exchanges (quad averages in 16-bit arithmetic; weighted
           ///< sums accumulate in 32-bit, see docs/DESIGN.md); an error for formats it cannot hold.
    FP32,  ///< 32-bit arithmetic everywhere.
};

/// How the first 2x2 reduction inside a tile is exchanged between threads.
enum class SubgroupPath {
    Auto,     ///< Quad subgroup operations where the device supports them, else LdsOnly.
    Quad,     ///< Quad subgroup operations; an error where the device lacks the quad feature.
    LdsOnly,  ///< Shared memory only. The plain-chain, halo-stage and summed-levels kernels'
              ///< modules for it are compiled at run time on first use (seconds; a library built
              ///< without shaderc runs it on the general kernel).
};

/// How the single pass reads the base level where a level-1 texel is a plain 2x2 average. Load is
/// exact everywhere; LinearSampler samples at exact corners (weights exactly 1/2 per axis) but
/// leans on the filter's arithmetic, which Vulkan leaves to the device (on the devices tested it
/// stays within docs/FILTER.md's tolerance; a device that filters 8-bit formats coarsely may not:
/// docs/RELIABILITY.md).
enum class Fetch {
    Auto,           ///< On NVIDIA GPUs LinearSampler where its rules below allow it, else Gather
                    ///< where its rules allow it (faster there: docs/PERFORMANCE.md); Load
                    ///< everywhere else (never an error).
    Load,           ///< Four texel loads per level-1 texel, reduced in the shader.
    /// One bilinear sample at the shared corner of the four texels (FidelityFX SPD's
    /// linear-sampler load), on the quad path's tiles whose base and level 1 are even (odd levels
    /// keep the exact loads), in texel coordinates, whose corners are exact at every size. Rules:
    /// Reduction::Average, the quad path, one layer (texel coordinates allow no array view), and a
    /// sampled format that the FP16 path holds (FormatInfo::fp16Capable), is not sRGB and has
    /// SAMPLED_IMAGE_FILTER_LINEAR; elsewhere generateMips returns an error naming the rule
    /// (VK_ERROR_FEATURE_NOT_PRESENT, or VK_ERROR_FORMAT_NOT_SUPPORTED for the format).
    LinearSampler,
    /// Four texel loads in one: a textureGather of R per 2x2 block (exact: it returns the four
    /// texels, which the shader reduces as it reduces four loads), in texel coordinates, for
    /// level 1 of the plain-chain, halo-stage and summed-levels kernels. Rules: a format of one
    /// channel read from the image itself (no MipGenInfo::source), the quad path, one layer, and
    /// a kernel that gathers (not the general kernel, nor an odd base's stage 0); elsewhere
    /// generateMips returns an error naming the rule. Average, Min, Max and Custom (MinMax writes
    /// images of two channels).
    Gather,
};

/// How each texel of a level is made from the texels of the level above (docs/FILTER.md).
enum class Reduction {
    Average,  ///< The exact area-weighted box filter (three taps per axis on odd sizes).
    Min,      ///< Per channel, the minimum over every source texel with a non-zero weight: a
              ///< conservative result at any size (Hi-Z with reversed depth uses Max).
    Max,      ///< Per channel, the maximum, likewise.
    MinMax,   ///< A two-channel image: R holds the minimum and G the maximum of the one-channel
              ///< source (a depth `source`, or the R channel of a source that is the image's own
              ///< base level, whose G channel is then taken as the maximum so far).
    Custom,   ///< MipGenInfo::customReduction (createCustomReduction).
};

/// Which way a request is carried out; see queryCapability.
enum class Path {
    SinglePass,  ///< One compute dispatch (STORAGE usage): the exact filter (docs/FILTER.md).
    RenderPass,  ///< One render pass per level and layer (COLOR_ATTACHMENT usage): the same exact
                 ///< filter, reading the level above as stored, so values are rounded to the format
                 ///< at every level (within 1 ulp of a reference rounded the same way).
    BlitChain,   ///< vkCmdBlitImage level by level with a linear filter (TRANSFER_SRC | TRANSFER_DST
                 ///< usage, Average only): exact at even sizes, approximate at odd sizes (the blit
                 ///< samples bilinearly and does not weight the three-tap footprint).
    None,        ///< Nothing can run; the reason names what is missing.
};

/// Layout, pipeline stages and accesses of the image's mip range at one point in time.
/// Stage and access flags use the synchronization2 bit values (they are identical to the legacy
/// ones for every legacy bit).
///
/// `before` describes the last use of the range by the caller's earlier work (the library makes
/// its first barrier wait on those stages and accesses); `after` describes the next use (the
/// library's last barrier makes the result visible to those stages and accesses). Queue family
/// ownership is not part of the state: a caller that moves the image between queue families
/// records the release and acquire barriers itself, around generateMips (see examples/engine).
struct ImageState {
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;  ///< Layout of every subresource of the range.
                                                       ///< UNDEFINED in `before` discards the
                                                       ///< contents (not allowed where the base
                                                       ///< level must be read).
    VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;  ///< Stages of the earlier (before) or
                                                              ///< later (after) use; NONE for none.
    VkAccessFlags2 access = VK_ACCESS_2_NONE;  ///< Accesses of that use; NONE for none.
};

/// Vulkan functions the library needs. Give `vkGetInstanceProcAddr` (required) and optionally
/// `vkGetDeviceProcAddr`; every other pointer is fetched from them (the VMA model), and
/// createContext fails naming the first one that cannot be fetched. The library never calls a
/// global Vulkan symbol, so it works with the system loader (pass its exported
/// `vkGetInstanceProcAddr`), with volk (pass volk's `vkGetInstanceProcAddr` after volkInitialize)
/// or with an engine's own table.
struct VulkanFunctions {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;  ///< Required.
    PFN_vkGetDeviceProcAddr vkGetDeviceProcAddr = nullptr;      ///< Optional: fetched if null.
};

/// Everything needed to create a Context. Zero or null members mean "the default".
struct ContextCreateInfo {
    VkInstance instance = VK_NULL_HANDLE;              ///< Required; must outlive the Context.
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;  ///< Required.
    VkDevice device = VK_NULL_HANDLE;                  ///< Required; must outlive the Context.
    VulkanFunctions functions;                         ///< Required: vkGetInstanceProcAddr.
    uint32_t apiVersion = 0;          ///< Version the device was created with; 0 = VK_API_VERSION_1_2.
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;     ///< Optional, used for pipeline creation.
    const VkAllocationCallbacks* allocationCallbacks = nullptr;  ///< Optional.
    /// Device features the caller enabled (Vulkan cannot report them back). See
    /// requiredDeviceFeatures(): vulkanMemoryModel and vulkanMemoryModelDeviceScope are required.
    bool shaderFloat16Enabled = false;       ///< VkPhysicalDeviceVulkan12Features::shaderFloat16.
    bool synchronization2Enabled = false;    ///< VK_KHR_synchronization2 or Vulkan 1.3 feature.
    bool pushDescriptorEnabled = false;      ///< VK_KHR_push_descriptor extension enabled.
    /// VkPhysicalDeviceVulkan13Features::privateData or VK_EXT_private_data enabled. Then the
    /// library tags each image it caches views for (one private data slot), so a new image that
    /// gets the handle value of one destroyed without forgetImage is seen as new: the stale views
    /// are destroyed and new ones made. Without it the views are keyed by the handle alone (Vulkan
    /// has no other identity for an image), so forgetImage before vkDestroyImage is required.
    bool privateDataEnabled = false;
    /// Number of scratch slots in the internal ring (0 = 16). generateMips calls without their own
    /// scratch buffer take the slots in turn, counted over all threads: the n-th takes slot
    /// n mod scratchSlots, so two such calls share a slot exactly when a multiple of scratchSlots
    /// calls apart. The library cannot see when recorded work runs, so the rule is: two of these
    /// dispatches may execute without an ordering between them (different queues, unsynchronized
    /// submissions) only if their calls were fewer than scratchSlots such calls apart; order any
    /// others (one queue orders them all). A slot's buffers grow to the largest dispatch it has
    /// served; outgrown buffers are freed by destroyContext.
    uint32_t scratchSlots = 0;
    /// Optional context-wide overrides for measuring (vkspd/tuning.hpp; null = none). Read by
    /// createContext only.
    const ContextTuning* tuning = nullptr;
};

struct ContextT;
/// The library's state for one VkDevice: function table, pipelines (created on first use and
/// cached), image views, scratch ring. Made by createContext, freed by destroyContext. Thread-safe
/// for generateMips and the queries; create and destroy it from one thread.
using Context = ContextT*;

struct CustomReductionT;
/// A user-supplied reduction compiled for this device (createCustomReduction), freed by
/// destroyCustomReduction; valid only with the Context that made it.
using CustomReduction = CustomReductionT*;

/// A separate image to read the source level from: a depth buffer (D16_UNORM or D32_SFLOAT, depth
/// aspect) for Min / Max / MinMax pyramids, read through a sampled view. When given, the image's
/// level `baseMipLevel` receives a copy of it (for MinMax, the value in both R and G) and the
/// levels above are reduced from it, all in the same dispatch.
struct SourceImage {
    VkImage image = VK_NULL_HANDLE;         ///< SAMPLED usage.
    VkFormat format = VK_FORMAT_UNDEFINED;  ///< D16_UNORM, D32_SFLOAT, or a supported colour format.
    VkExtent2D extent = {0, 0};             ///< Extent of `mipLevel`: must equal the extent of the
                                            ///< destination's baseMipLevel.
    uint32_t mipLevel = 0;                  ///< The level read.
    uint32_t baseArrayLayer = 0;            ///< Layer read for the destination's first layer; one
                                            ///< source layer per destination layer.
    ImageState before;  ///< State of the read subresources before; they are left in `after`.
    ImageState after;   ///< State the read subresources are left in (a read-only layout).
};

/// What to generate. Zero members mean "the default" where one is given.
struct MipGenInfo {
    VkImage image = VK_NULL_HANDLE;         ///< Required: VK_IMAGE_TYPE_2D (2D, 2D array, cube or
                                            ///< cube array).
    VkFormat format = VK_FORMAT_UNDEFINED;  ///< Required: the image's format.
    /// The usage and create flags the image was created with: they choose the path (Path,
    /// queryCapability). usage 0 means SAMPLED | STORAGE, and for an sRGB format also a
    /// MUTABLE_FORMAT image: an image made for the single pass.
    VkImageUsageFlags usage = 0;
    VkImageCreateFlags createFlags = 0;     ///< The image's create flags (see `usage`).
    VkExtent2D extent = {0, 0};             ///< Required: extent of mip level 0, each axis at most
                                            ///< maxImageDimension2D.
    uint32_t imageMipLevels = 0;            ///< Required: the mipLevels the image was created with.
    uint32_t imageArrayLayers = 1;          ///< The arrayLayers the image was created with (6 per
                                            ///< cube).
    uint32_t baseMipLevel = 0;              ///< Source level; the levels below it in the range are
                                            ///< written, the others are left untouched.
    uint32_t levelCount = 0;                ///< Levels in the range including the base; 0 = all.
    uint32_t baseArrayLayer = 0;            ///< First layer of the range (cube faces are layers).
    uint32_t layerCount = 0;                ///< Layers in the range; 0 = all from baseArrayLayer.
    ImageState before;  ///< State of the whole range before; its contents of `baseMipLevel` are read.
    ImageState after;   ///< State the whole range is left in.
    Reduction reduction = Reduction::Average;   ///< How each level is made from the one above.
    CustomReduction customReduction = nullptr;  ///< Required with Reduction::Custom.
    SourceImage source;  ///< Optional: read the base level from another image (depth pyramids).
    Precision precision = Precision::Auto;           ///< Single pass only; FP16 is an error where
                                                     ///< the format or the device cannot take it.
    SubgroupPath subgroupPath = SubgroupPath::Auto;  ///< Single pass only.
    Fetch fetch = Fetch::Auto;  ///< Single pass only: how the base level is read (tuning; see Fetch).
    /// Optional scheduling overrides (vkspd/tuning.hpp: measured defaults that may change between
    /// versions; null = the defaults). Read during the call only. The output does not depend on it.
    const Tuning* tuning = nullptr;
    /// Optional caller-owned scratch: a buffer with STORAGE_BUFFER and TRANSFER_DST usage holding
    /// at least scratchSize(context, info) bytes from scratchOffset (a multiple of
    /// minStorageBufferOffsetAlignment and of 4). Its contents need no initialisation and are
    /// undefined after the call: the recorded work clears the counters (the first bytes; other
    /// requests keep data there) with vkCmdFillBuffer behind one more barrier, and the dispatch
    /// writes every data byte before reading it. Dispatches that share it must be ordered (one
    /// queue, or semaphores). Give it to run more unordered dispatches than the ring holds.
    VkBuffer scratchBuffer = VK_NULL_HANDLE;
    VkDeviceSize scratchOffset = 0;  ///< Byte offset of the scratch in `scratchBuffer`.
};

/// What a call would record; filled by describeDispatch (vkspd/tuning.hpp's describeSchedule
/// tells how the single pass is scheduled).
struct DispatchDescription {
    Path path = Path::None;              ///< The path generateMips records (the fields below
                                         ///< describe the single pass; zero for the others).
    uint32_t groupsX = 0;                ///< Workgroups across (64x64 tiles of level base, one
                                         ///< or a strip of them per workgroup).
    uint32_t groupsY = 0;                ///< Workgroups down.
    uint32_t groupsZ = 0;                ///< One per layer.
    uint32_t levelsWritten = 0;          ///< Levels written by the dispatch.
    bool fp16 = false;                   ///< FP16 path (16-bit shared memory).
    bool quad = false;                   ///< Quad subgroup operations.
    bool linearFetch = false;            ///< Fetch::LinearSampler is used (Fetch).
    bool gatherFetch = false;            ///< Fetch::Gather is used (Fetch).
    /// Denormals are kept as IEEE arithmetic keeps them: the shader declares DenormPreserve for
    /// every float width it computes in (32; 16 on the FP16 path of 16-bit float and B10G11R11
    /// formats). False: the device may flush 32-bit float denormals to zero (it cannot be asked
    /// not to, or ContextTuning::skipDenormPreserve is set); normal values are not affected.
    bool denormalsPreserved = false;
    VkDeviceSize scratchBytes = 0;       ///< Scratch bytes the call needs.
    /// Ranges the scratch data is bound as: 1, or up to 4 where it exceeds the device's
    /// maxStorageBufferRange (one RGBA layer of 16383x16383 needs 289 MB; ContextTuning::
    /// maxDataRangeBytes can lower the range).
    uint32_t scratchDataRanges = 0;
};

/// What the caller must enable when creating the device, as a human-readable list (a static
/// string; never null): Vulkan 1.2 or later with VkPhysicalDeviceVulkan12Features::
/// vulkanMemoryModel and vulkanMemoryModelDeviceScope and VkPhysicalDeviceFeatures::
/// shaderStorageImageWriteWithoutFormat (required); the VK_KHR_push_descriptor extension (required
/// in this version: createContext fails without it); shaderFloat16 (recommended: the FP16 path);
/// VK_KHR_synchronization2 or Vulkan 1.3 synchronization2 (optional); VK_EXT_private_data or
/// Vulkan 1.3 privateData (optional: forgetImage no longer required). Vulkan cannot report what was
/// enabled, so say it in ContextCreateInfo.
const char* requiredDeviceFeatures() noexcept;

/// Creates a Context for `info.device`: fetches and checks the Vulkan functions, reads the device's
/// properties and allocates nothing on the GPU yet (pipelines and scratch come on first use).
/// Before: create the device with the features of requiredDeviceFeatures() and say in `info` which
/// optional ones you enabled. After: destroyContext once the device is idle with respect to every
/// command buffer that used the Context. On failure `*context` is null and the Result names the
/// missing handle, function, feature or extension (VK_ERROR_UNKNOWN for null inputs,
/// VK_ERROR_INITIALIZATION_FAILED for a function that cannot be fetched,
/// VK_ERROR_INCOMPATIBLE_DRIVER / VK_ERROR_FEATURE_NOT_PRESENT for a device that cannot run it).
Result createContext(const ContextCreateInfo& info, Context* context) noexcept;

/// Destroys the Context and everything it created. Accepts null. The device must be idle with
/// respect to every command buffer that used the Context. In every build, every function then
/// reports the destroyed Context as an error instead of using it (a registry lookup per call),
/// and a second destroyContext is reported on stderr instead of freeing twice; only a Context
/// created later at the same address is taken for the new one.
void destroyContext(Context context) noexcept;

/// Whether this device can run the single pass on images of `format` (with STORAGE usage, and
/// MUTABLE_FORMAT for sRGB); on false, `reason` (if given) says why.
bool isFormatSupported(Context context, VkFormat format, std::string* reason = nullptr) noexcept;

/// A question for queryCapability: an image's format, usage and create flags, and what to do.
struct CapabilityQuery {
    VkFormat format = VK_FORMAT_UNDEFINED;  ///< The image's format.
    VkImageUsageFlags usage = 0;          ///< As the image was created (0 is not a default here).
    VkImageCreateFlags createFlags = 0;   ///< As the image was created.
    Reduction reduction = Reduction::Average;  ///< The reduction to run.
    VkFormat sourceFormat = VK_FORMAT_UNDEFINED;  ///< Format of a SourceImage, if one is used.
};

/// The answer: the path generateMips takes for such an image on this device, and why.
struct Capability {
    Path path = Path::None;         ///< The path generateMips takes; None when nothing can run.
    std::string reason;             ///< Why this path, and why not the faster ones; for None, the
                                    ///< missing usage flag, create flag or format feature.
    bool exact = false;             ///< Within docs/FILTER.md's tolerance at every size (SinglePass).
    bool fp16 = false;              ///< Precision::Auto can take the FP16 path (SinglePass); it
                                    ///< does, but for Min and Max on NVIDIA GPUs where the
                                    ///< plain-chain or summed-levels kernel runs the chain
                                    ///< (Precision::Auto; describeDispatch says per request).
    VkFormat storageFormat = VK_FORMAT_UNDEFINED;  ///< Format of the storage views (SinglePass:
                                                   ///< the UNORM twin of an sRGB format).
};

/// Answers `query` for this device: which Path generateMips would take for such an image, and why
/// not the faster ones. Records nothing and needs no image; call it before creating the image to
/// choose its usage and create flags. An error only for a null context or output; a request that
/// cannot run is a success with Path::None and a reason.
Result queryCapability(Context context, const CapabilityQuery& query, Capability* capability) noexcept;

/// Compiles a reduction written in GLSL (docs/FILTER.md, "Custom") with shaderc at run time into
/// single-pass pipelines for this device; the same source text is compiled once per Context.
/// `glsl` defines three functions over vec4 values in 32-bit float (the FP32 path):
/// @code{.glsl}
///   vec4 vkspdIdentity();                                      // the empty reduction
///   vec4 vkspdAccumulate(vec4 acc, vec4 value, float weight);  // add one weighted value
///   vec4 vkspdCombine(vec4 a, vec4 b);                         // merge two partial results
/// @endcode
/// A texel is made separably: for each source row with a non-zero weight wy, a row result starts
/// at vkspdIdentity() and accumulates that row's texels with their weights wx; the texel starts at
/// vkspdIdentity() and accumulates the row results with weights wy. Weights of a texel sum to 1 per
/// axis; on an axis of one texel that texel is the only tap, with weight 1. Where a footprint
/// crosses a tile edge, two or four partial results made that way from
/// disjoint parts of it are merged with vkspdCombine, which must therefore agree with accumulating
/// everything at once (for example: weighted sums with +, minima with min).
/// On a compile error the Result's message carries the compiler's message. Needs a library built
/// with shaderc (VKSPD_WITH_SHADERC, on by default where libshaderc is found); without it the
/// call returns VK_ERROR_FEATURE_NOT_PRESENT. On failure `*reduction` is null. After: pass it in
/// MipGenInfo::customReduction with Reduction::Custom; destroyCustomReduction when no pending
/// command buffer uses it, and before destroyContext.
Result createCustomReduction(Context context, const char* glsl, CustomReduction* reduction) noexcept;

/// Destroys a custom reduction. Accepts null. No pending command buffer may use it.
void destroyCustomReduction(Context context, CustomReduction reduction) noexcept;

/// Checks `info` exactly as generateMips does and describes what it would record (path, group
/// counts, variant, scratch bytes). Records nothing, creates no pipeline. On error
/// `*description` is left unchanged and the Result is the one generateMips would return.
Result describeDispatch(Context context, const MipGenInfo& info,
                        DispatchDescription* description) noexcept;

/// Scratch bytes generateMips needs for `info` (0 if `info` is invalid or takes a fallback path,
/// which needs none).
VkDeviceSize scratchSize(Context context, const MipGenInfo& info) noexcept;

/// Records into `commandBuffer` (recording): a barrier from info.before, the work that writes
/// every level of the range above the base, and a barrier to info.after. The work is the path
/// queryCapability reports for the image's usage and flags: one compute dispatch (SinglePass: a
/// compute-capable queue family), a render pass per level and layer (RenderPass: a graphics queue
/// family, outside a render pass instance), or a blit per level (BlitChain: a graphics queue
/// family). Never submits or waits. On error nothing is recorded. Thread-safe: may be called
/// concurrently with different command buffers.
///
/// Before: `commandBuffer` is in the recording state on a queue family that can run the path;
/// the base level holds the data (written by work that `info.before` describes, or by a
/// `source`); the image belongs to this queue family (acquire it first if another family owns it).
/// After: submit the command buffer; the range is in `info.after` once it has executed. Keep the
/// Context, the image and any custom reduction alive until then; a command buffer that recorded
/// this call may be submitted again (the dispatch leaves the ring's counters at zero, and a
/// caller's scratch is cleared by the recorded work). Dispatches without their own scratch may
/// run unordered only as ContextCreateInfo::scratchSlots says (calls fewer than scratchSlots
/// such calls apart).
/// Limits: extent up to maxImageDimension2D per axis, any layer count, one dispatch, where the
/// scratch data fits 4 ranges of maxStorageBufferRange (fewer where the device's
/// maxPerStageDescriptorStorageBuffers is under 6): 276 texels of the format's channels as floats
/// per 64x64 tile and layer where some level is odd. One RGBA layer of 16383x16383 needs 289 MB,
/// 3 ranges on a device with the least range Vulkan allows (2^27 bytes); one layer of any size up
/// to 16384x16384 fits there. The plain-chain and halo-stage kernels bind their data (the kept
/// levels, 1/4096 of the base's texels per layer) as one range.
/// Errors (nothing recorded): null context, command buffer or image; zero or oversized extent;
/// mip or layer ranges past the image (the message names the range and the image's count); a
/// format or usage/create flags with no path (VK_ERROR_FORMAT_NOT_SUPPORTED, naming the missing
/// flag); a requested precision or subgroup path the device or format lacks
/// (VK_ERROR_FEATURE_NOT_PRESENT); Vulkan failures creating pipelines, views or scratch; enum
/// values outside their enums; imageArrayLayers past maxImageArrayLayers; scratch past
/// maxStorageBufferRange (VK_ERROR_FEATURE_NOT_PRESENT, naming the bytes and the limit; also from
/// describeDispatch, and scratchSize returns 0); a destroyed Context. Not checked, since Vulkan cannot report it: whether
/// `commandBuffer` is recording (the validation layer reports that).
Result generateMips(Context context, VkCommandBuffer commandBuffer, const MipGenInfo& info) noexcept;

/// Releases the image views the Context cached for `image`. Call it before destroying an image that
/// was passed to generateMips, once no pending command buffer uses them (with
/// ContextCreateInfo::privateDataEnabled it only frees them sooner). Accepts null.
void forgetImage(Context context, VkImage image) noexcept;

}  // namespace vkspd
