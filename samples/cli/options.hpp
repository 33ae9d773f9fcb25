// Command line of the vkspd CLI: what the user asked for, parsed and checked, and the help text.
#pragma once

#include "gpu.hpp"

#include <vkspd/tuning.hpp>
#include <vkspd/vkspd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_cli {

// Exit codes (documented in --help and the README). With several inputs the exit code is that of
// the first input that failed.
enum ExitCode {
    kExitOk = 0,
    kExitVerifyFailed = 1,  // --verify: some level is outside docs/FILTER.md's tolerance.
    kExitUsage = 2,         // Bad arguments.
    kExitBadInput = 3,      // Missing, unreadable, corrupt, unsupported or too large input.
    kExitVulkan = vkspd_tools::kGpuExitCode,  // 4: no usable device, a Vulkan error, or the device or
                                              // library cannot produce the requested format.
    kExitOutput = 5,        // Cannot create the output folder or write a file.
    kExitNoSmBuiltins = 6,  // --sm-map on a device without VK_NV_shader_sm_builtins.
};

// How to read 8- and 16-bit files (Radiance HDR files are always linear).
enum class Transfer {
    Srgb,    // sRGB-encoded colour (default): 8-bit input defaults to an sRGB format.
    Linear,  // Linear values (data, normal maps, masks).
};

// A synthetic input (--random WxH).
struct RandomInput {
    uint32_t width = 0, height = 0;
};

struct Options {
    std::vector<std::string> inputs;   // Image files, in order.
    std::vector<RandomInput> randoms;  // --random, processed after the files.
    std::string outDir = "vkspd-out";
    std::string formatName;            // --format as typed; empty: chosen per input.
    VkFormat format = VK_FORMAT_UNDEFINED;
    vkspd::Reduction reduction = vkspd::Reduction::Average;
    Transfer transfer = Transfer::Srgb;
    vkspd::Precision precision = vkspd::Precision::Auto;
    vkspd::SubgroupPath subgroupPath = vkspd::SubgroupPath::Auto;
    vkspd::Fetch fetch = vkspd::Fetch::Auto;  // --fetch
    vkspd::Tuning tuning;  // --kernel, --tiles-per-group, --tail T/P, --group-columns (0: the default)
    vkspd_tools::GpuOptions device;
    bool listDevices = false;
    bool verify = false;
    bool write = true;                 // false: --no-write.
    bool quiet = false;
    bool help = false;
    std::string jsonPath;              // --json FILE ("-": standard output).
    uint32_t benchRuns = 0;            // --bench N: timed after the warm-up.
    uint32_t benchColdRuns = 0;        // --bench-cold N: each after 1 s of an idle GPU.
    bool occupancy = false;            // --occupancy: print the occupancy table.
    std::string orderMapPath;          // --order-map FILE.png
    std::string smMapPath;             // --sm-map FILE.png
    std::string pipelineCachePath;     // --pipeline-cache FILE
};

// One name the CLI accepts for --format.
struct FormatName {
    const char* name;
    VkFormat format;
};

// Every --format name, in the order --help lists them.
const std::vector<FormatName>& formatNames();

// The --format name of `format`, or its Vulkan name if it has none.
std::string formatName(VkFormat format);

const char* reductionName(vkspd::Reduction reduction);

// Parses argv. On an error returns false with `error` set (one line, no "vkspd: " prefix).
bool parseOptions(int argc, char** argv, Options* options, std::string* error);

// The --help text.
std::string helpText();

}  // namespace vkspd_cli
