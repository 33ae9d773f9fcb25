// The occupancy report (include/vkspd/debug.hpp): what one group of each single-pass variant uses,
// what one SM / CU holds, and how many groups fit (Sebastian Aaltonen, "Occupancy and Resource
// Usage Optimization with Large Thread Groups", GPUOpen). The debug map's recording is in
// record.cpp, next to the dispatch it extends.
#include "context.hpp"

#include <vkspd/debug.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

namespace vkspd {

static_assert(sizeof(DebugMapTile) == VKSPD_DEBUG_TILE_WORDS * 4, "DebugMapTile mirrors the shader's record");
static_assert(kDebugMapHeaderBytes == VKSPD_DEBUG_HEADER_WORDS * 4, "the header mirrors the shader's");

namespace {

uint32_t roundUp(uint32_t value, uint32_t multiple) {
    if (multiple <= 1) return value;
    return (value + multiple - 1) / multiple * multiple;
}

// Shared memory of one group as shaders/vkspd.comp declares it: ldsA (33 x 18) and ldsB (17 x 17)
// texels of 4 x 32-bit (FP32) or 4 x 16-bit (FP16) values, plus sFinalize, sMipCount[4],
// sElectedCount[2] and sElected[2][16] (ivec2). Keep in step with the shader.
uint32_t declaredSharedBytes(bool fp16) {
    const uint32_t texels = 33 * 18 + 17 * 17;
    return texels * (fp16 ? 8u : 16u) + 4u + 16u + 8u + 2u * 16u * 8u;
}

// The same for shaders/vkspd_plain.comp: sLevel2[2][256] and sLevel5[2][4] texels, sElected[2].
// Keep in step with the shader.
uint32_t declaredPlainSharedBytes(bool fp16) { return (2u * 256u + 2u * 4u) * (fp16 ? 8u : 16u) + 2u * 4u; }

// The same built with VKSPD_SUMS: the plain kernel's, then the block of level-P texels (sBlock)
// and the shares of the later levels (sShares, floats). Keep in step with the shader.
uint32_t declaredSumsSharedBytes(bool fp16) {
    return declaredPlainSharedBytes(fp16) + VKSPD_SUM_BLOCK * (fp16 ? 8u : 16u) +
           (fp16 ? VKSPD_SUM_SHARES_FP16 : VKSPD_SUM_SHARES_FP32) * 16u;
}

// The same built with VKSPD_HALO: sPool (the prefix's levels 2 and 4 share it), sElected[2] and
// sElectedTile[4]. Keep in step with the shader.
uint32_t declaredHaloSharedBytes(bool fp16) {
    const uint32_t pool = (fp16 ? VKSPD_HALO_FIRST_FP16 : VKSPD_HALO_FIRST_FP32) + VKSPD_HALO_SECOND;
    return pool * (fp16 ? 8u : 16u) + 2u * 4u + 4u * 4u;
}

bool hasExtension(Context c, const char* name) {
    uint32_t n = 0;
    if (c->fn.vkEnumerateDeviceExtensionProperties(c->info.physicalDevice, nullptr, &n, nullptr) != VK_SUCCESS)
        return false;
    std::vector<VkExtensionProperties> all(n);
    if (c->fn.vkEnumerateDeviceExtensionProperties(c->info.physicalDevice, nullptr, &n, all.data()) != VK_SUCCESS)
        return false;
    for (uint32_t i = 0; i < n; ++i)
        if (std::strcmp(all[i].extensionName, name) == 0) return true;
    return false;
}

std::string lower(std::string s) {
    for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

// Per-SM limits of this device, from its properties and, where Vulkan has no query, a vendor
// table whose figures are named as assumptions in *source.
SmLimits deviceLimits(Context c, uint32_t* smCount, std::string* source) {
    SmLimits l;
    *smCount = 0;
    const VkPhysicalDeviceProperties& p = c->properties;
    if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        *source = "CPU implementation: no SMs or CUs to occupy";
        return l;
    }
    const std::string name = lower(p.deviceName);
    if (p.vendorID == kVendorNvidia) {
        uint32_t warpsPerSm = 0;
        if (hasExtension(c, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
            VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{
                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
            VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
            p2.pNext = &sm;
            c->fn.vkGetPhysicalDeviceProperties2(c->info.physicalDevice, &p2);
            *smCount = sm.shaderSMCount;
            warpsPerSm = sm.shaderWarpsPerSM;
        }
        // 64K 32-bit registers per SM on every architecture since Kepler, allocated per warp in
        // units of 256 (8 per thread): CUDA Programming Guide, "Compute capabilities" table.
        l.registersPerSm = 65536;
        l.registerGranularity = 8;
        l.sharedGranularity = 128;
        const bool hopper = name.find("h100") != std::string::npos || name.find("h200") != std::string::npos ||
                            name.find("h800") != std::string::npos || name.find("gh200") != std::string::npos;
        const bool ga100 = name.find("a100") != std::string::npos || name.find("a800") != std::string::npos ||
                           name.find("a30") != std::string::npos;
        if (hopper) {
            l.sharedMemoryPerSm = 228 * 1024;
            l.threadsPerSm = 2048;
            l.groupsPerSm = 32;
            *source = "NVIDIA Hopper (compute capability 9.0) table, assumed from the device name: 64K registers, "
                      "228 KiB shared memory, 2048 threads, 32 groups per SM";
        } else if (ga100) {
            l.sharedMemoryPerSm = 164 * 1024;
            l.threadsPerSm = 2048;
            l.groupsPerSm = 32;
            *source = "NVIDIA GA100 (compute capability 8.0) table, assumed from the device name: 64K registers, "
                      "164 KiB shared memory, 2048 threads, 32 groups per SM";
        } else {
            // Unknown NVIDIA architecture: the threads from shaderWarpsPerSM where known, the
            // per-group shared-memory limit as a lower bound for the SM's, 16 groups (the lowest of
            // the architectures since Maxwell).
            l.sharedMemoryPerSm = p.limits.maxComputeSharedMemorySize;
            l.threadsPerSm = warpsPerSm ? warpsPerSm * 32 : 0;
            l.groupsPerSm = 16;
            *source = "NVIDIA, architecture not in the table: 64K registers and 16 groups per SM assumed, shared "
                      "memory per SM assumed equal to maxComputeSharedMemorySize, threads " +
                      std::string(warpsPerSm ? "from shaderWarpsPerSM" : "unknown (no VK_NV_shader_sm_builtins)");
        }
        if (*smCount && warpsPerSm) {
            *source += "; " + std::to_string(*smCount) + " SMs and " + std::to_string(warpsPerSm) +
                       " warps per SM from VK_NV_shader_sm_builtins";
            if (l.threadsPerSm != warpsPerSm * 32) l.threadsPerSm = warpsPerSm * 32;
        }
        return l;
    }
    if (p.vendorID == kVendorAmd && hasExtension(c, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
        VkPhysicalDeviceShaderCorePropertiesAMD core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
        VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        p2.pNext = &core;
        c->fn.vkGetPhysicalDeviceProperties2(c->info.physicalDevice, &p2);
        *smCount = core.shaderEngineCount * core.shaderArraysPerEngineCount * core.computeUnitsPerShaderArray;
        // A CU's SIMDs hold vgprsPerSimd registers per lane each; the model counts them as one
        // register file of the CU (per-SIMD placement is not modelled).
        l.registersPerSm = core.vgprsPerSimd * core.simdPerComputeUnit * core.wavefrontSize;
        l.registerGranularity = core.vgprAllocationGranularity ? core.vgprAllocationGranularity : 1;
        l.sharedMemoryPerSm = 64 * 1024;
        l.threadsPerSm = core.wavefrontsPerSimd * core.simdPerComputeUnit * core.wavefrontSize;
        l.groupsPerSm = 0;
        *source = "VK_AMD_shader_core_properties (registers and waves per SIMD x SIMDs per CU); 64 KiB LDS per CU "
                  "assumed";
        return l;
    }
    *source = std::string("no per-SM figures for vendor 0x") + [&] {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%04X", p.vendorID);
        return std::string(hex);
    }() + " (Vulkan has no query for them)";
    return l;
}

const char* reductionKey(Reduction r) {
    switch (r) {
    case Reduction::Average: return "average";
    case Reduction::Min: return "min";
    case Reduction::Max: return "max";
    case Reduction::MinMax: return "minmax";
    case Reduction::Custom: return "custom";
    }
    return "?";
}

uint32_t reductionIndex(Reduction r) {
    switch (r) {
    case Reduction::Min: return VKSPD_REDUCTION_MIN;
    case Reduction::Max: return VKSPD_REDUCTION_MAX;
    case Reduction::MinMax: return VKSPD_REDUCTION_MINMAX;
    default: return VKSPD_REDUCTION_AVERAGE;
    }
}

// Reads the driver's statistics of a temporary pipeline of the variant into `record`.
Result readDriverStatistics(Context c, uint32_t reduction, bool fp16, bool quad, bool plain, bool halo,
                            bool sums, bool halfDenormals, uint32_t channels, bool linearFetch, bool gatherFetch,
                            bool oddBase, bool normalizedValues, OccupancyRecord* record) {
    auto getProperties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        c->fn.vkGetDeviceProcAddr(c->device(), "vkGetPipelineExecutablePropertiesKHR"));
    auto getStatistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        c->fn.vkGetDeviceProcAddr(c->device(), "vkGetPipelineExecutableStatisticsKHR"));
    if (!getProperties || !getStatistics)
        return fail(VK_ERROR_EXTENSION_NOT_PRESENT, "vkGetPipelineExecutableStatisticsKHR could not be loaded");
    const SpirvBlob blob = sums            ? embeddedSumsSpirv(reduction, fp16)
                           : plain || halo ? embeddedPlainSpirv(reduction, fp16, halo, oddBase)
                                           : embeddedSpirv(reduction, fp16, quad);
    // The plain kernel's flavour without sRGB encoding (VKSPD_SPEC_SRGB false), the one every
    // format but the sRGB ones gets, with `linearFetch` (VKSPD_SPEC_LINEAR) and `gatherFetch`
    // (VKSPD_SPEC_GATHER); the halo-stage kernel's also for `channels` (VKSPD_SPEC_CHANNELS) and
    // `normalizedValues` (VKSPD_SPEC_FINITE), from its odd-base module with `oddBase`.
    const uint32_t values[4] = {uint32_t(linearFetch), uint32_t(gatherFetch), channels, uint32_t(normalizedValues)};
    const VkSpecializationMapEntry entries[4] = {{VKSPD_SPEC_LINEAR, 0, sizeof(uint32_t)},
                                                 {VKSPD_SPEC_GATHER, sizeof(uint32_t), sizeof(uint32_t)},
                                                 {VKSPD_SPEC_CHANNELS, 2 * sizeof(uint32_t), sizeof(uint32_t)},
                                                 {VKSPD_SPEC_FINITE, 3 * sizeof(uint32_t), sizeof(uint32_t)}};
    const VkSpecializationInfo specialization{halo ? 4u : 2u, entries, sizeof values, values};
    VkPipeline pipeline = VK_NULL_HANDLE;
    Result r = createComputePipeline(c, blob.words, blob.bytes, &pipeline, c->pipelineLayout,
                                     VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, halfDenormals,
                                     plain || halo || sums ? &specialization : nullptr);
    if (!r.ok()) return r;
    VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pipelineInfo.pipeline = pipeline;
    uint32_t executables = 0;
    getProperties(c->device(), &pipelineInfo, &executables, nullptr);
    for (uint32_t e = 0; e < executables; ++e) {
        VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        ei.pipeline = pipeline;
        ei.executableIndex = e;
        uint32_t n = 0;
        getStatistics(c->device(), &ei, &n, nullptr);
        std::vector<VkPipelineExecutableStatisticKHR> stats(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
        getStatistics(c->device(), &ei, &n, stats.data());
        for (uint32_t i = 0; i < n; ++i) {
            const VkPipelineExecutableStatisticKHR& s = stats[i];
            double value = 0;
            switch (s.format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: value = s.value.b32; break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = double(s.value.i64); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = double(s.value.u64); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: value = s.value.f64; break;
            default: break;
            }
            char text[64];
            std::snprintf(text, sizeof text, "%g", value);
            if (!record->driverStatistics.empty()) record->driverStatistics += "; ";
            record->driverStatistics += std::string(s.name) + "=" + text;
            // NVIDIA: "Register Count"; RADV and AMD: "VGPRs" (per lane). Spill counts and uniform
            // (per-warp) registers are not the per-thread allocation.
            const std::string key = lower(s.name);
            const bool spill = key.find("spill") != std::string::npos || key.find("uniform") != std::string::npos;
            if (!spill && (key.find("register") != std::string::npos || key == "vgprs"))
                record->resources.registersPerThread = uint32_t(value);
            if (!spill && (key.find("shared") != std::string::npos || key.find("lds") != std::string::npos) &&
                value > 0)
                record->resources.sharedMemoryPerGroup = uint32_t(value);
        }
    }
    c->fn.vkDestroyPipeline(c->device(), pipeline, c->allocator());
    return {};
}

}  // namespace

Occupancy computeOccupancy(const PipelineResources& res, const SmLimits& lim) noexcept {
    Occupancy o;
    if (!res.threadsPerGroup || !res.subgroupSize || !lim.threadsPerSm) return o;
    const uint32_t unknown = UINT32_MAX;
    const uint32_t byRegisters =
        res.registersPerThread && lim.registersPerSm
            ? lim.registersPerSm / (roundUp(res.registersPerThread, lim.registerGranularity) * res.threadsPerGroup)
            : unknown;
    const uint32_t byShared = res.sharedMemoryPerGroup && lim.sharedMemoryPerSm
                                  ? lim.sharedMemoryPerSm / roundUp(res.sharedMemoryPerGroup, lim.sharedGranularity)
                                  : unknown;
    const uint32_t byThreads = lim.threadsPerSm / res.threadsPerGroup;
    const uint32_t byGroups = lim.groupsPerSm ? lim.groupsPerSm : unknown;
    const uint32_t bounds[4] = {byRegisters, byShared, byThreads, byGroups};
    const OccupancyLimiter names[4] = {OccupancyLimiter::Registers, OccupancyLimiter::SharedMemory,
                                       OccupancyLimiter::Threads, OccupancyLimiter::Groups};
    uint32_t best = 0;
    for (uint32_t i = 1; i < 4; ++i)
        if (bounds[i] < bounds[best]) best = i;
    o.groupsPerSm = bounds[best];
    o.limiter = names[best];
    const uint32_t subgroupsPerGroup = (res.threadsPerGroup + res.subgroupSize - 1) / res.subgroupSize;
    o.subgroupsPerSm = o.groupsPerSm * subgroupsPerGroup;
    o.maxSubgroupsPerSm = lim.threadsPerSm / res.subgroupSize;
    o.occupancy = o.maxSubgroupsPerSm ? float(o.subgroupsPerSm) / float(o.maxSubgroupsPerSm) : 0.0f;
    return o;
}

const char* limiterName(OccupancyLimiter limiter) noexcept {
    switch (limiter) {
    case OccupancyLimiter::Registers: return "registers";
    case OccupancyLimiter::SharedMemory: return "shared memory";
    case OccupancyLimiter::Threads: return "threads per SM";
    case OccupancyLimiter::Groups: return "groups per SM";
    case OccupancyLimiter::Unknown: break;
    }
    return "unknown";
}

Result getDebugPipeline(Context c, bool fp16, bool quad, bool smBuiltins, VkPipeline* out) {
    if (fp16 && !c->info.shaderFloat16Enabled)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the FP16 variant needs shaderFloat16");
    if (quad && !c->quadSupported)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the quad variant needs quad subgroup operations");
    std::lock_guard<std::mutex> lock(c->pipelineMutex);
    if (!c->debug.setLayout) {
        // The normal bindings plus the map; a layout of its own so the normal one is untouched.
        VkDescriptorSetLayoutBinding bindings[kSinglePassBindings + 1] = {};
        const uint32_t n = singlePassBindings(bindings, 1);
        bindings[n] = {VKSPD_BINDING_DEBUG_MAP, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                       VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
        VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
        li.bindingCount = n + 1;
        li.pBindings = bindings;
        VkResult r = c->fn.vkCreateDescriptorSetLayout(c->device(), &li, c->allocator(), &c->debug.setLayout);
        if (r != VK_SUCCESS) return vkFail(r, "vkCreateDescriptorSetLayout");
    }
    if (!c->debug.layout) {
        VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(shader::PushConstants)};
        VkPipelineLayoutCreateInfo pi{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        pi.setLayoutCount = 1;
        pi.pSetLayouts = &c->debug.setLayout;
        pi.pushConstantRangeCount = 1;
        pi.pPushConstantRanges = &range;
        VkResult r = c->fn.vkCreatePipelineLayout(c->device(), &pi, c->allocator(), &c->debug.layout);
        if (r != VK_SUCCESS) return vkFail(r, "vkCreatePipelineLayout");
    }
    VkPipeline& p = c->debug.pipelines[smBuiltins ? 1 : 0][fp16 ? 1 : 0][quad ? 1 : 0];
    if (!p) {
        const SpirvBlob blob = embeddedDebugSpirv(fp16, quad, smBuiltins);
        Result r = createComputePipeline(c, blob.words, blob.bytes, &p, c->debug.layout, c->pipelineFlags);
        if (!r.ok()) return r;
    }
    *out = p;
    return {};
}

void destroyDebugPipelines(Context c) {
    for (auto& bySm : c->debug.pipelines)
        for (auto& row : bySm)
            for (VkPipeline p : row) c->fn.vkDestroyPipeline(c->device(), p, c->allocator());
    if (c->fn.vkDestroyPipelineLayout) {
        c->fn.vkDestroyPipelineLayout(c->device(), c->debug.layout, c->allocator());
        c->fn.vkDestroyDescriptorSetLayout(c->device(), c->debug.setLayout, c->allocator());
    }
}

bool usesHalfDenormalFlavour(Context c, VkFormat format) noexcept {
    FormatInfo fi;
    if (!c || !getFormatInfo(format, &fi)) return false;
    return halfDenormalFlavourDiffers(c, true) && halfDenormalsMatter(fi);
}

bool usesNormalizedFlavour(VkFormat format, bool fromSource) noexcept {
    FormatInfo fi;
    return !fromSource && getFormatInfo(format, &fi) && normalizedEncoding(fi);
}

Result queryOccupancy(Context c, const OccupancyQueryInfo& info, std::vector<OccupancyRecord>* records) noexcept {
    return guarded([&]() -> Result {
        if (!c) return fail(VK_ERROR_UNKNOWN, "queryOccupancy: the context is null");
        if (!contextIsLive(c)) return fail(VK_ERROR_UNKNOWN, "queryOccupancy: " + deadContextMessage(c));
        if (!records) return fail(VK_ERROR_UNKNOWN, "queryOccupancy: the output pointer is null");
        records->clear();
        std::vector<Reduction> reductions = info.reductions;
        if (reductions.empty()) reductions.push_back(Reduction::Average);
        for (Reduction red : reductions)
            if (red == Reduction::Custom)
                return fail(VK_ERROR_UNKNOWN, "queryOccupancy: Reduction::Custom has no built-in variant to report");
        if (info.channels < 1 || info.channels > 4)
            return fail(VK_ERROR_UNKNOWN, "queryOccupancy: channels must be 1 to 4");
        uint32_t smCount = 0;
        std::string limitsSource;
        const SmLimits limits = deviceLimits(c, &smCount, &limitsSource);
        for (Reduction red : reductions)
            // kind 0..1: the general kernel's LDS and quad variants; 2: the plain-chain kernel; 3:
            // the halo-stage kernel; 4: the summed-levels kernel.
            for (int kind = 0; kind < 5; ++kind)
                for (int fp16 = 0; fp16 < 2; ++fp16)
                for (int half = 0; half < 2; ++half) {
                    const bool quad = kind != 0, plain = kind == 2, halo = kind == 3, sums = kind == 4;
                    if (fp16 && !c->info.shaderFloat16Enabled) continue;
                    if (quad && !c->quadSupported) continue;
                    if (half && !halfDenormalFlavourDiffers(c, fp16 != 0)) continue;
                    // The odd-base flavour is the halo-stage kernel's only, and loads only.
                    if (info.oddBase && (!halo || info.linearFetch || !c->shuffleRelativeSupported)) continue;
                    // So is the normalized flavour.
                    if (info.normalizedValues && !halo) continue;
                    const bool perFetch = plain || halo || sums;
                    // The gather: those three kernels, neither with the sampler nor on an odd base,
                    // and not MinMax (its images have two channels).
                    if (info.gatherFetch &&
                        (!perFetch || info.linearFetch || info.oddBase || red == Reduction::MinMax))
                        continue;
                    OccupancyRecord rec;
                    rec.variant = std::string(reductionKey(red)) + (fp16 ? " fp16" : " fp32") +
                                  (plain ? " plain" : halo ? " halo" : sums ? " summed" : quad ? " quad" : " lds") +
                                  (half ? " half-denormals" : "") +
                                  (halo && info.channels != 4 ? " channels " + std::to_string(info.channels) : "") +
                                  (perFetch && info.linearFetch ? " linear" : "") +
                                  (info.gatherFetch ? " gather" : "") +
                                  (info.oddBase ? " odd base" : "") + (info.normalizedValues ? " normalized" : "");
                    rec.reduction = red;
                    rec.fp16 = fp16 != 0;
                    rec.quad = quad;
                    rec.plainChain = plain;
                    rec.haloStages = halo;
                    rec.summedLevels = sums;
                    rec.halfDenormals = half != 0;
                    rec.channels = halo ? info.channels : 4;
                    rec.linearFetch = perFetch && info.linearFetch;
                    rec.gatherFetch = info.gatherFetch;
                    rec.oddBase = info.oddBase;
                    rec.normalizedValues = info.normalizedValues;
                    rec.resources.threadsPerGroup = VKSPD_GROUP_SIZE;
                    rec.resources.subgroupSize = c->subgroupSize;
                    rec.resources.sharedMemoryPerGroup =
                        plain  ? declaredPlainSharedBytes(rec.fp16)
                        : halo ? declaredHaloSharedBytes(rec.fp16)
                        : sums ? declaredSumsSharedBytes(rec.fp16)
                               : declaredSharedBytes(rec.fp16);
                    if (info.pipelineExecutableInfoEnabled) {
                        Result r = readDriverStatistics(c, reductionIndex(red), rec.fp16, rec.quad, plain, halo, sums,
                                                        rec.halfDenormals, info.channels, rec.linearFetch,
                                                        rec.gatherFetch, rec.oddBase, rec.normalizedValues, &rec);
                        if (!r.ok()) {
                            r.message = "queryOccupancy: " + r.message;
                            return r;
                        }
                    }
                    rec.limits = limits;
                    rec.limitsSource = limitsSource;
                    rec.smCount = smCount;
                    if (!limits.threadsPerSm) rec.source = OccupancySource::NotAvailable;
                    else if (rec.resources.registersPerThread) rec.source = OccupancySource::Driver;
                    else rec.source = OccupancySource::Computed;
                    rec.occupancy = computeOccupancy(rec.resources, limits);
                    records->push_back(std::move(rec));
                }
        return {};
    });
}

}  // namespace vkspd
