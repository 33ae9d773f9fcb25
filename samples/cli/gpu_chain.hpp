// Running one chain on the device: upload level 0, generate every level in one generateMips
// call, read the whole chain back, and optionally time repeated dispatches: on a GPU brought to a
// steady state first (--bench), or each on an idle GPU (--bench-cold).
#pragma once

#include "gpu.hpp"
#include "warm_up.hpp"

#include <vkspd/debug.hpp>
#include <vkspd/tuning.hpp>
#include <vkspd/vkspd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_cli {

struct ChainRequest {
    VkFormat format = VK_FORMAT_UNDEFINED;
    uint32_t width = 0, height = 0;
    const std::vector<uint8_t>* level0 = nullptr;  // width * height texels of `format`.
    vkspd::Reduction reduction = vkspd::Reduction::Average;
    vkspd::Precision precision = vkspd::Precision::Auto;
    vkspd::SubgroupPath subgroupPath = vkspd::SubgroupPath::Auto;
    vkspd::Fetch fetch = vkspd::Fetch::Auto;
    vkspd::Tuning tuning;  // The tuning options (all zero: the library's defaults).
    uint32_t benchRuns = 0;  // Timed dispatches after the warm-up (steady_state.hpp); 0: none.
    uint32_t benchColdRuns = 0;  // Dispatches timed each after kColdIdleMs of an idle GPU; 0: none.
    bool debugMap = false;   // Also run the debug variant once and read its map (--order-map, --sm-map).
    bool smBuiltins = false; // The device enabled VK_NV_shader_sm_builtins (the map records SM ids).
};

// How long the GPU is left idle before each --bench-cold dispatch: long enough for an idle GPU to
// drop to its idle clock.
constexpr uint32_t kColdIdleMs = 1000;

// The warm-up rule of --bench.
vkspd_tools::WarmupRule benchWarmupRule();

struct BenchResult {
    uint32_t runs = 0;
    double medianUs = 0, minUs = 0;
    double gbPerSecond = 0;  // (level 0 read + levels 1.. written) / median.
    vkspd_tools::WarmupReport warmup;  // Before the timed runs.
    uint32_t clockAfterTimingMhz = 0;  // SM clock once the timed runs finished; 0: not read.
};

struct ColdBenchResult {
    uint32_t runs = 0;
    double medianUs = 0, minUs = 0, maxUs = 0;
    double gbPerSecond = 0;         // At the median, as BenchResult.
    std::vector<uint32_t> clockMhz;  // SM clock just before each dispatch (where it can be read).
};

struct ChainResult {
    uint32_t levels = 0;
    std::vector<size_t> offsets;  // Of each level in `bytes`, tightly packed.
    std::vector<uint8_t> bytes;   // The whole chain as read back, level 0 first.
    vkspd::DispatchDescription dispatch;
    vkspd::ScheduleDescription schedule;  // The single pass only (zero for the fallbacks).
    VkImageUsageFlags usage = 0;        // What the image was created with.
    VkImageCreateFlags createFlags = 0;
    double gpuMs = 0;                   // Wall time of the submission (upload, dispatch, readback).
    BenchResult bench;
    ColdBenchResult benchCold;
    std::string benchNote;              // Why --bench and --bench-cold did not run, if they did not.
    bool smClock = false;               // With a bench: the SM clock could be read (NVML).
    std::string smClockNote;            // Why it could not, or a caveat on the one read.
    std::vector<vkspd::DebugMapTile> map;  // With debugMap: one entry per tile of layer 0, row-major
                                           // over dispatch.groupsX x groupsY.
};

// Whether `request` can run on `gpu` as runChain would run it, from its format and size alone
// (request.level0 is not read): the image can be made, and the library takes the request (for
// example, the single pass's scratch fits the device's maxStorageBufferRange). Nothing is made or
// recorded, so an input can be refused before it is decoded. On failure returns false with
// `reason` and `exitCode` set as runChain's.
bool checkChain(const vkspd_tools::Gpu& gpu, vkspd::Context context, const ChainRequest& request,
                std::string* reason, int* exitCode);

// Runs `request` on `gpu`. On failure returns false with `reason` set (one line) and `exitCode`
// set: kExitBadInput where the image is too large for the format on this device (checkChain),
// else kExitVulkan.
bool runChain(const vkspd_tools::Gpu& gpu, vkspd::Context context, const ChainRequest& request,
              ChainResult* result, std::string* reason, int* exitCode);

}  // namespace vkspd_cli
