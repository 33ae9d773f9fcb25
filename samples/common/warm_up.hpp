// Bringing a GPU to a steady state before timing (the rule: steady_state.hpp), and reading its SM
// clock around it (sm_clock.hpp). Shared by the vkspd CLI's --bench and vkspd-bench.
#pragma once

#include "gpu.hpp"
#include "sm_clock.hpp"
#include "steady_state.hpp"

#include <functional>
#include <string>

namespace vkspd_tools {

// The PCI address of `physical` where it has VK_EXT_pci_bus_info.
PciAddress pciAddressOf(VkPhysicalDevice physical);

// Opens the SM clock of `g`'s device (see SmClock::open).
bool openSmClock(const Gpu& g, SmClock* clock);

struct WarmupReport {
    WarmupProgress progress;  // Its medians are those of the two batches judged last.
    WarmupVerdict verdict = WarmupVerdict::Continue;
    uint32_t clockBeforeMhz = 0;  // SM clock before the first batch; 0: not read.
    uint32_t clockAfterMhz = 0;   // When the verdict was reached (the GPU still busy); 0: not read.
};

// Records one call of the work to warm up with into `cmd`; the caller's barriers are its own
// (a call that writes what the next call writes ends with a barrier). False with `reason` set
// when it cannot.
using RecordCall = std::function<bool(VkCommandBuffer cmd, std::string* reason)>;

// Runs `record` in batches on g.queue, each call between two timestamps, until judgeWarmup(rule)
// is Steady or Capped. The next batch is submitted before the last one is read, so the GPU does
// not wait for the host between batches; the batch in flight when the verdict comes is counted
// in the calls, GPU work and span but not judged. Every batch has finished when it returns.
// `clock` may be null. The queue must have timestamps (g.timestampValidBits). False with
// `reason` set (one line) on a Vulkan error or a failed record.
bool warmUp(const Gpu& g, const RecordCall& record, const WarmupRule& rule, const SmClock* clock,
            WarmupReport* report, std::string* reason);

// Per-call GPU times in microseconds from `calls` pairs of timestamps (begin, end) as read back.
std::vector<double> callTimesUs(const Gpu& g, const std::vector<uint64_t>& stamps, uint32_t calls);

}  // namespace vkspd_tools
