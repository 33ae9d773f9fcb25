// vkspd-pipeline-stats: builds vkspd's own pipelines with VK_KHR_pipeline_executable_properties
// statistics captured and prints what the driver reports for each variant (registers, shared
// memory, spills, ...), the input for occupancy work (docs/PERFORMANCE.md). A developer tool.
#include "../samples/common/gpu.hpp"
#include "../src/context.hpp"  // getComputePipeline, getPlainPipeline, createContextWithPipelineFlags

using namespace vkspd_tools;

int main() {
    Gpu g = openGpu(-1, true);
    if (!g.pipelineStatistics) {
        std::printf("%s: VK_KHR_pipeline_executable_properties not available\n", g.properties.deviceName);
        return 0;
    }
    vkspd::Context context = nullptr;
    vkspd::Result r = vkspd::createContextWithPipelineFlags(
        contextInfoFor(g), VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, &context);
    if (!r.ok()) {
        std::fprintf(stderr, "vkspd-pipeline-stats: %s\n", r.message.c_str());
        return kGpuExitCode;
    }
    auto getProps = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(g.device, "vkGetPipelineExecutablePropertiesKHR"));
    auto getStats = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(g.device, "vkGetPipelineExecutableStatisticsKHR"));
    std::printf("%s\n", g.properties.deviceName);
    static const char* const kReductions[] = {"average", "min", "max", "minmax"};
    for (uint32_t reduction = 0; reduction < VKSPD_REDUCTION_CUSTOM; ++reduction)
    for (int fp16 = 0; fp16 < 2; ++fp16)
        for (int kind = 0; kind < 3; ++kind)  // the general kernel's lds and quad, the plain-chain kernel
        for (int half = 0; half < (vkspd::halfDenormalFlavourDiffers(context, fp16 != 0) ? 2 : 1); ++half)
        for (int oneSite = 0; oneSite < (kind == 2 ? 1 : 2); ++oneSite) {
            // The flavour of 16-bit float formats, where it is a module of its own; the general
            // kernel with stage 0 specialized and with one call site (VKSPD_SPEC_ONE_SITE).
            VkPipeline pipeline = VK_NULL_HANDLE;
            const bool ok = kind == 2 ? vkspd::getPlainPipeline(context, reduction, fp16 != 0, &pipeline, half != 0).ok()
                                      : vkspd::getComputePipeline(context, reduction, fp16 != 0, kind == 1, nullptr,
                                                                  &pipeline, half != 0, oneSite != 0).ok();
            if (!ok) continue;  // a variant this device cannot run
            VkPipelineInfoKHR pinfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
            pinfo.pipeline = pipeline;
            uint32_t count = 0;
            getProps(g.device, &pinfo, &count, nullptr);
            for (uint32_t e = 0; e < count; ++e) {
                VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
                ei.pipeline = pipeline;
                ei.executableIndex = e;
                uint32_t sc = 0;
                getStats(g.device, &ei, &sc, nullptr);
                std::vector<VkPipelineExecutableStatisticKHR> stats(sc, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
                getStats(g.device, &ei, &sc, stats.data());
                std::printf("%s %s %s%s%s:", kReductions[reduction], fp16 ? "fp16" : "fp32",
                            kind == 2 ? "plain" : kind == 1 ? "quad" : "lds", half ? " half-denormals" : "",
                            oneSite ? " one-site" : "");
                for (const auto& s : stats) {
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
        }
    vkspd::destroyContext(context);
    return 0;
}
