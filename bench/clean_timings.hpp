// vkspd-bench: which timings of an item count, given the read probes around them (a pure function,
// so tests/bench_timings_test.cpp checks it without a GPU).
//
// A GPU shared with other work can lose most of its bandwidth for a while (lent GPUs fell from
// ~4150 to ~1700 GB/s in the middle of runs).
// The L2 eviction before each item is a read of a known size, so its second half is timed too: a
// read probe before and after every timing. A timing is clean when both probes ran within 10% of
// the fastest probe of the run; an item's figures come from its clean timings, or from all of them,
// marked unsteady, where fewer than a third of them (or fewer than 3) were clean.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace vkspd_bench {

// The fastest probe of the run (GB/s): a run slowed throughout keeps every timing, and only this
// figure, against the same GPU's usual one, shows it. `probeGBs[r][p]`: probe p of repetition r.
inline double bestProbe(const std::vector<std::vector<double>>& probeGBs) {
    double best = 0;
    for (const auto& rep : probeGBs)
        for (double gbs : rep) best = std::max(best, gbs);
    return best;
}

struct KeptTimings {
    std::vector<double> kept;  // the timings the figures come from
    size_t clean = 0;          // timings whose probes before and after were clean
    bool steady = true;        // kept holds only those (enough of them); else kept is every timing
};

// The timings of item `item`: `us[r]` its timing in repetition r, between probes
// probeGBs[r][item] (before) and probeGBs[r][item + 1] (after), against the run's `best` probe.
inline KeptTimings keepCleanTimings(const std::vector<double>& us, const std::vector<std::vector<double>>& probeGBs,
                                    size_t item, double best) {
    KeptTimings k;
    for (size_t r = 0; r < us.size(); ++r)
        if (probeGBs[r][item] >= 0.9 * best && probeGBs[r][item + 1] >= 0.9 * best) k.kept.push_back(us[r]);
    k.clean = k.kept.size();
    k.steady = k.clean >= std::max<size_t>(3, (us.size() + 2) / 3);
    if (!k.steady) k.kept = us;
    return k;
}

}  // namespace vkspd_bench
