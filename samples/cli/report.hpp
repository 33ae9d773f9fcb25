// What happened to each input, and the --json report made from it.
#pragma once

#include "gpu.hpp"
#include "gpu_chain.hpp"
#include "verify.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_cli {

struct Timings {
    double loadMs = 0, convertMs = 0, gpuMs = 0, verifyMs = 0, writeMs = 0;
};

struct FileReport {
    std::string input;
    std::string outputDir;  // Empty with --no-write.
    int exitCode = 0;       // ExitCode; 0 when everything asked for succeeded.
    std::string error;      // The error line (without "vkspd: FILE: "), if any.
    // Filled as far as the input got:
    uint32_t width = 0, height = 0, fileChannels = 0, fileBits = 0;
    VkFormat format = VK_FORMAT_UNDEFINED;
    bool srgbInput = false;
    bool ran = false;  // The chain was generated.
    ChainResult chain;  // bytes are dropped once written.
    bool verified = false;  // --verify ran (then `verification` holds its result).
    Verification verification;
    std::vector<std::string> outputs;
    uint32_t contactSheetFirstLevel = 0;
    Timings timings;
};

struct RunInfo {
    const vkspd_tools::Gpu* gpu = nullptr;
    vkspd::Reduction reduction = vkspd::Reduction::Average;
    vkspd::Precision precision = vkspd::Precision::Auto;
    vkspd::SubgroupPath subgroupPath = vkspd::SubgroupPath::Auto;
    int exitCode = 0;
    unsigned validationMessages = 0;
    bool validation = false;
};

// The lines --bench and --bench-cold print for one input (each "  bench...\n"), or the line
// saying why they were skipped.
std::string benchText(const ChainResult& chain, bool warm, bool cold);

// The --json document.
std::string jsonReport(const RunInfo& run, const std::vector<FileReport>& files);

const char* pathName(vkspd::Path path);

}  // namespace vkspd_cli
