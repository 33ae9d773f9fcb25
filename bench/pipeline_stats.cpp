// vkspd-pipeline-stats: what the driver reports for each of vkspd's single-pass variants
// (registers, shared memory, spills, ...) through VK_KHR_pipeline_executable_properties, read with
// vkspd::queryOccupancy on temporary pipelines. The input for occupancy work
// (docs/PERFORMANCE.md). A developer tool: one line per variant, "VARIANT: name=value; ...".
#include "gpu.hpp"  // samples/common/ (vkspd_tools_timing)
#include "occupancy.hpp"

#include <vkspd/debug.hpp>

using namespace vkspd_tools;

int main() {
    Gpu g = openGpu(-1, true);
    if (!g.pipelineStatistics) {
        std::printf("%s: VK_KHR_pipeline_executable_properties not available\n", g.properties.deviceName);
        return 0;
    }
    vkspd::Context context = nullptr;
    if (vkspd::Result r = vkspd::createContext(contextInfoFor(g), &context); !r.ok()) {
        std::fprintf(stderr, "vkspd-pipeline-stats: %s\n", r.message.c_str());
        return kGpuExitCode;
    }
    vkspd::OccupancyQueryInfo query;
    query.pipelineExecutableInfoEnabled = true;
    query.reductions = {vkspd::Reduction::Average, vkspd::Reduction::Min, vkspd::Reduction::Max,
                        vkspd::Reduction::MinMax};
    // Every variant with four channels and texel loads, then the halo-stage kernel with one (a
    // Hi-Z pyramid's R32F, R8) and two (MinMax), then the plain-chain and halo-stage kernels
    // through the linear sampler (their names end in "linear"), the odd-base module ("odd base"),
    // the three kernels through the gather ("gather", one channel), then the halo-stage kernel's
    // flavours for normalized formats at one and four channels (R8, RGBA8: "normalized").
    std::vector<vkspd::OccupancyRecord> records;
    const vkspd::Result r = queryEveryFlavour(context, query, {1u, 2u}, &records, {1u, 4u});
    vkspd::destroyContext(context);
    if (!r.ok()) {
        std::fprintf(stderr, "vkspd-pipeline-stats: %s\n", r.message.c_str());
        return kGpuExitCode;
    }
    std::printf("%s\n", g.properties.deviceName);
    for (const vkspd::OccupancyRecord& rec : records)
        std::printf("%s: %s\n", rec.variant.c_str(),
                    rec.driverStatistics.empty() ? "no statistics" : rec.driverStatistics.c_str());
    return 0;
}
