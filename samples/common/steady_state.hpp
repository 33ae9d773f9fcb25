// When a GPU has warmed up: the rule that the CLI's --bench and vkspd-bench apply before they
// time anything. A GPU that has been idle runs at a low clock and needs a few hundred
// milliseconds of sustained work to reach its working clock, so a timing taken right away
// measures the idle clock. The warm-up repeats the timed call in batches, each call between two
// GPU timestamps, until enough GPU work has run and the batches of the last stretch of it agree,
// or until a cap. A GPU can also sit at an intermediate clock for a few hundred milliseconds
// before it climbs further (an H200 did, at a third of its top clock), so two agreeing batches
// are not enough: the agreement must hold over a stretch of work of its own. Pure functions: no
// GPU, no clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vkspd_tools {

struct WarmupRule {
    double minGpuMs = 500;          // Sum of the calls' GPU times (timestamps) before it may be steady.
    double agreement = 0.03;        // Batch medians within this fraction of the smaller agree.
    double stableGpuMs = 250;       // GPU work of the batches that agree with the first of their
                                    // run (the last batches, consecutive) before it may be steady.
    double maxWallMs = 3000;        // Host time after which the warm-up stops unsteady (capped).
    uint64_t maxCalls = 2000000;    // Calls after which it stops unsteady (capped).
    double batchGpuMs = 50;         // GPU work one batch aims at, from the last batch's median.
    uint32_t firstBatchCalls = 2;   // Calls of the first two batches (nothing is known yet: small,
                                    // so that slow calls do not overrun the cap), and the fewest.
    uint32_t maxBatchCalls = 4096;  // The most calls in one batch.
};

struct WarmupProgress {
    uint64_t calls = 0;
    uint32_t batches = 0;
    double gpuMs = 0;     // Sum of every call's GPU time.
    double spanMs = 0;    // GPU timeline from the first call's start to the last call's end
                          // (gaps between batches included); set by the caller.
    double wallMs = 0;    // Host time since the first batch was submitted; set by the caller.
    double medianUs = 0;          // Of the last batch.
    double previousMedianUs = 0;  // Of the batch before it (0: none yet).
    // The run of last batches whose medians agree with the first of them: that first median, the
    // run's batches and their GPU work.
    double runMedianUs = 0;
    uint32_t runBatches = 0;
    double runGpuMs = 0;
};

enum class WarmupVerdict {
    Continue,  // Run another batch.
    Steady,    // Enough GPU work, and the last batches agree over stableGpuMs of it.
    Capped,    // Stopped at maxWallMs or maxCalls without agreeing.
};

// The median of `values` (the mean of the middle two for an even count; 0 when empty).
double medianOf(std::vector<double> values);

// Whether `a` and `b` differ by at most `within` times the smaller (two zeros agree; a zero and a
// non-zero do not).
bool mediansAgree(double a, double b, double within);

// Adds one finished batch, given each call's GPU time in microseconds (its median becomes
// medianUs, the one before previousMedianUs; it extends the run of agreeing batches or starts a
// new one). spanMs and wallMs are the caller's.
void addBatch(const WarmupRule& rule, WarmupProgress* progress, const std::vector<double>& callUs);

// What to do after the batches in `progress`: Steady is checked before the caps, so a batch that
// both agrees and reaches a cap counts as steady.
WarmupVerdict judgeWarmup(const WarmupRule& rule, const WarmupProgress& progress);

// Calls in the next batch: firstBatchCalls before any batch, else enough for batchGpuMs at the
// last median, from firstBatchCalls to maxBatchCalls.
uint32_t nextBatchCalls(const WarmupRule& rule, const WarmupProgress& progress);

// 11400 -> "11,400".
std::string withThousands(uint64_t value);

// One line saying what the warm-up did, e.g. "warmed up for 612 ms, 11,400 calls (GPU work 598
// ms; the last two batches' medians 36.3 and 36.2 us, within 3%; 5 agreeing batches over 301
// ms)"; with
// Capped it says that the cap stopped it.
std::string warmupSummary(const WarmupRule& rule, const WarmupProgress& progress, WarmupVerdict verdict);

}  // namespace vkspd_tools
