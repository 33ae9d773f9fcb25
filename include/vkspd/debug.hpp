/// @file
/// vkspd developer tools: seeing the GPU at work.
///
/// This handles:
///   - an occupancy report per single-pass variant: registers per thread, shared memory per group,
///     subgroup size, and the groups and subgroups (warps, waves) that fit on one SM / CU, with the
///     resource that limits them (the analysis of Sebastian Aaltonen, "Occupancy and Resource Usage
///     Optimization with Large Thread Groups", GPUOpen, done by the library);
///   - a debug variant of the dispatch that records, for every 64x64 tile of the base level, the
///     order in which its group finished it (an atomic counter) and, where the device enabled
///     VK_NV_shader_sm_builtins, the SM and warp that ran it.
///
/// The debug variants are separate pipelines built from the same shader with VKSPD_DEBUG_MAP
/// defined: generateMips never uses them and its SPIR-V is unchanged by them.
#pragma once

#include <vkspd/vkspd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd {

/// What one group of a pipeline uses of an SM (NVIDIA) or CU (AMD).
struct PipelineResources {
    uint32_t registersPerThread = 0;    ///< 32-bit registers per thread; 0 = unknown.
    uint32_t sharedMemoryPerGroup = 0;  ///< Bytes of shared memory per workgroup.
    uint32_t threadsPerGroup = 0;       ///< Invocations per workgroup (vkspd: 256).
    uint32_t subgroupSize = 0;          ///< Threads per subgroup (warp / wave).
};

/// What one SM / CU holds. Zero members are unknown and are not counted as a limit.
struct SmLimits {
    uint32_t registersPerSm = 0;        ///< 32-bit registers in the register file.
    uint32_t registerGranularity = 1;   ///< Registers per thread are rounded up to a multiple of this.
    uint32_t sharedMemoryPerSm = 0;     ///< Bytes of shared memory usable by workgroups.
    uint32_t sharedGranularity = 1;     ///< Shared memory per group is rounded up to a multiple of this.
    uint32_t threadsPerSm = 0;          ///< Resident threads.
    uint32_t groupsPerSm = 0;           ///< Resident workgroups.
};

/// The resource that stops one more group from fitting on an SM.
enum class OccupancyLimiter {
    Unknown,       ///< Nothing to compute from (no threads-per-SM figure).
    Registers,     ///< The register file.
    SharedMemory,  ///< Shared memory.
    Threads,       ///< Resident threads per SM.
    Groups,        ///< Resident workgroups per SM.
};

/// The outcome of computeOccupancy.
struct Occupancy {
    uint32_t groupsPerSm = 0;        ///< Workgroups resident on one SM at once (0: none fits).
    uint32_t subgroupsPerSm = 0;     ///< Their subgroups (warps / waves).
    uint32_t maxSubgroupsPerSm = 0;  ///< Subgroups an SM holds at most (threadsPerSm / subgroupSize).
    float occupancy = 0.0f;          ///< subgroupsPerSm / maxSubgroupsPerSm, 0..1.
    OccupancyLimiter limiter = OccupancyLimiter::Unknown;  ///< What limits groupsPerSm.
};

/// Groups per SM that `resources` allow under `limits`: the minimum over registers
/// (registersPerSm / (registersPerThread rounded up to registerGranularity * threadsPerGroup)),
/// shared memory (sharedMemoryPerSm / sharedMemoryPerGroup rounded up to sharedGranularity),
/// threads (threadsPerSm / threadsPerGroup) and groups (groupsPerSm); an unknown (zero) figure on
/// either side is skipped. Ties name the first of registers, shared memory, threads, groups.
/// A pure function. Preconditions: threadsPerGroup and subgroupSize non-zero, else the result is
/// all zero with limiter Unknown; likewise when limits.threadsPerSm is zero.
Occupancy computeOccupancy(const PipelineResources& resources, const SmLimits& limits) noexcept;

/// The name of a limiter: "registers", "shared memory", "threads per SM", "groups per SM",
/// "unknown".
const char* limiterName(OccupancyLimiter limiter) noexcept;

/// Where an OccupancyRecord's figures come from.
enum class OccupancySource {
    Driver,        ///< Registers and shared memory from VK_KHR_pipeline_executable_properties.
    Computed,      ///< Shared memory from the shader's declarations and per-SM limits from the
                   ///< device's properties and a vendor table (see OccupancyRecord::limitsSource).
    NotAvailable,  ///< Neither: the per-SM limits are unknown (for example a CPU implementation).
};

/// The occupancy of one single-pass variant on this device.
struct OccupancyRecord {
    std::string variant;               ///< For example "average fp32 quad".
    Reduction reduction = Reduction::Average;  ///< The variant's reduction.
    bool fp16 = false;                 ///< The FP16 variant.
    bool quad = false;                 ///< The quad subgroup variant.
    bool plainChain = false;           ///< The plain-chain kernel (Kernel::PlainChain; always quad).
    bool haloStages = false;           ///< The halo-stage kernel (Kernel::HaloStages; always quad).
    bool summedLevels = false;         ///< The summed-levels kernel (Kernel::SummedLevels; always
                                       ///< quad).
    /// An FP16 variant as generateMips builds it for formats with half-float denormals (16-bit
    /// float formats, B10G11R11): with 16-bit DenormPreserve, which can cost registers. Reported
    /// as a second FP16 record where the device preserves half denormals; false for every other
    /// record (the flavour 8-bit formats get).
    bool halfDenormals = false;
    /// The channels per texel the record's pipeline computes: OccupancyQueryInfo::channels for
    /// halo-stage records, 4 for the others (they compute four whatever the format).
    uint32_t channels = 4;
    /// The plain-chain, halo-stage and summed-levels kernels' level-1 fetch:
    /// OccupancyQueryInfo::linearFetch for their records (the linear sampler, else texel loads),
    /// false for the general kernel's (one pipeline for both).
    bool linearFetch = false;
    /// The same kernels' level 1 by textureGather (Fetch::Gather, formats of one channel):
    /// OccupancyQueryInfo::gatherFetch for their records, false for the general kernel's.
    bool gatherFetch = false;
    /// The halo-stage kernel whose stage 0 reads tiles of the base with a halo (where the base or
    /// its level 1 has an odd side): OccupancyQueryInfo::oddBase for halo-stage records, false
    /// for the others.
    bool oddBase = false;
    /// The halo-stage kernel as generateMips builds it for normalized values (UNORM, SNORM and sRGB
    /// formats read from the image itself: usesNormalizedFlavour; its FP16 passes add a weight-0
    /// tap instead of testing it): OccupancyQueryInfo::normalizedValues for halo-stage records,
    /// false for the others.
    bool normalizedValues = false;
    OccupancySource source = OccupancySource::NotAvailable;  ///< Where the resources come from.
    PipelineResources resources;       ///< What one group uses (registers 0: unknown).
    SmLimits limits;                   ///< What one SM holds (zero members: unknown).
    std::string limitsSource;          ///< Where `limits` come from, assumptions named.
    uint32_t smCount = 0;              ///< SMs / CUs of the device; 0 = unknown.
    Occupancy occupancy;               ///< computeOccupancy(resources, limits).
    std::string driverStatistics;      ///< Every statistic the driver reported, "name=value; ...".
};

/// What queryOccupancy may use.
struct OccupancyQueryInfo {
    /// The device was created with VK_KHR_pipeline_executable_properties enabled and the feature
    /// pipelineExecutableInfo: the variants are then compiled once more, into temporary pipelines
    /// created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, and the driver's statistics read.
    bool pipelineExecutableInfoEnabled = false;
    /// Reductions to report (every built-in variant the device can run of each). Empty: Average.
    std::vector<Reduction> reductions;
    /// The channels per texel (1 to 4) the halo-stage records' temporary pipelines are specialized
    /// for: generateMips makes that kernel per channel count of the format (2 for MinMax), and it
    /// computes only those. The other kernels compute four whatever the format.
    uint32_t channels = 4;
    /// The plain-chain and halo-stage records' level-1 fetch: true for the pipelines that fetch
    /// through the linear sampler (what Fetch::Auto takes on NVIDIA; they carry no load path),
    /// false for those that load texels. generateMips makes those kernels per fetch; the general
    /// kernel has one pipeline for both.
    bool linearFetch = false;
    /// The plain-chain, halo-stage and summed-levels records' level-1 fetch by textureGather: true
    /// for the pipelines that gather (Fetch::Gather, what Fetch::Auto takes on NVIDIA for formats
    /// of one channel where the linear sampler is not allowed; they carry no load path). Not with
    /// linearFetch or oddBase, nor for the general kernel or MinMax: those records are not made.
    bool gatherFetch = false;
    /// The halo-stage records' stage 0: true for the pipelines whose stage 0 reads tiles of the
    /// base with a halo (generateMips takes them where the base or its level 1 has an odd side;
    /// they load texels, so with linearFetch their records are not made, nor on a device without
    /// relative subgroup shuffles, which runs a module compiled at run time), false for those with a
    /// plain prefix.
    bool oddBase = false;
    /// The halo-stage records: true for the pipelines made for normalized values (the flavour
    /// usesNormalizedFlavour names; the other kernels have no such flavour, so their records are
    /// not made), false for those of every other format.
    bool normalizedValues = false;
};

/// Fills `records` with one record per single-pass variant (FP32/FP16 x LDS/quad, those the
/// Context can run, then FP32/FP16 of the plain-chain and halo-stage kernels where the device has
/// quad operations, and of the summed-levels kernel; their names say "plain", "halo" and
/// "summed", and end in "linear" for the linear fetch, "gather" for OccupancyQueryInfo::gatherFetch
/// (those three kernels only), "odd base" for OccupancyQueryInfo::oddBase and "normalized" for
/// OccupancyQueryInfo::normalizedValues) of each requested reduction, and for
/// each FP16 variant a
/// second record with halfDenormals set where the device preserves 16-bit denormals (the flavour
/// 16-bit float formats get). The normal pipelines are not touched: driver
/// statistics come from temporary pipelines destroyed before returning. Errors: a null context
/// or output, Reduction::Custom in the list, channels outside 1 to 4, a Vulkan error creating a
/// pipeline.
Result queryOccupancy(Context context, const OccupancyQueryInfo& info,
                      std::vector<OccupancyRecord>* records) noexcept;

/// Whether FP16 single-pass pipelines for images of `format` are the `halfDenormals` flavour of
/// queryOccupancy's records on this Context: 16-bit float and B10G11R11 formats on a device that
/// preserves 16-bit denormals. False for every other format, for a null context, and where both
/// flavours are one module.
bool usesHalfDenormalFlavour(Context context, VkFormat format) noexcept;

/// Whether halo-stage pipelines for images of `format` are the `normalizedValues` flavour of
/// queryOccupancy's records: UNORM, SNORM and sRGB formats whose base level is the image itself
/// (`fromSource` false; a MipGenInfo::source may hold any value of its format). False for every
/// other format.
bool usesNormalizedFlavour(VkFormat format, bool fromSource) noexcept;

/// One tile's entry in a debug map (the layout of the buffer after its header).
struct DebugMapTile {
    uint32_t order;  ///< The finish counter's value when the tile's group finished it: 0..n-1.
    uint32_t smId;   ///< gl_SMIDNV of the group (with VK_NV_shader_sm_builtins), else 0.
    uint32_t warpId; ///< gl_WarpIDNV of the group's first thread (likewise), else 0.
    uint32_t flags;  ///< Bit 0: written; bit 1: smId and warpId are valid.
};

/// Where the debug dispatch records its map.
struct DebugMapInfo {
    /// A buffer with STORAGE_BUFFER and TRANSFER_DST usage holding debugMapSize() bytes from
    /// `offset` (a multiple of minStorageBufferOffsetAlignment and of 4). generateMipsDebugMap zero-fills it
    /// first (TRANSFER, TRANSFER_WRITE): the caller orders earlier accesses of the range before that,
    /// and makes the dispatch's writes (COMPUTE_SHADER, SHADER_WRITE) visible before reading it.
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;  ///< Where the map starts in `buffer`.
    /// The device was created with VK_NV_shader_sm_builtins and its feature shaderSMBuiltins
    /// enabled: the map then records SM and warp ids. Leave false otherwise.
    bool smBuiltinsEnabled = false;
};

/// Bytes before the first DebugMapTile: the finish counter and three reserved words.
constexpr VkDeviceSize kDebugMapHeaderBytes = 16;

/// Bytes of the debug map for `info`: kDebugMapHeaderBytes plus one DebugMapTile per group of the
/// dispatch (DispatchDescription::groupsX * groupsY * groupsZ; tile (x, y) of layer z at index
/// (z * groupsY + y) * groupsX + x). 0 if `info` is invalid or does not take the single pass.
VkDeviceSize debugMapSize(Context context, const MipGenInfo& info) noexcept;

/// Records what generateMips records, with the debug variant of the dispatch: the same levels,
/// plus the map in `map`. The variant (FP16 or FP32, quad or LDS-only) is the one generateMips
/// would choose for `info`; only Reduction::Average has debug variants. Errors: those of
/// generateMips, a path other than SinglePass or another reduction (VK_ERROR_FEATURE_NOT_PRESENT),
/// a null map buffer, or a range with no level to write. On error nothing is recorded.
Result generateMipsDebugMap(Context context, VkCommandBuffer commandBuffer, const MipGenInfo& info,
                            const DebugMapInfo& map) noexcept;

}  // namespace vkspd
