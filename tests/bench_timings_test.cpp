// vkspd-bench's choice of timings (bench/clean_timings.hpp): a timing counts only where the read
// probes before and after it ran within 10% of the run's best; an item with too few such timings
// keeps them all and is unsteady.
#include "clean_timings.hpp"

#include <gtest/gtest.h>

#include <vector>

using vkspd_bench::bestProbe;
using vkspd_bench::keepCleanTimings;

// probeGBs[r][p]: with two items, probe 0 before item 0, 1 between them, 2 after item 1.
using Probes = std::vector<std::vector<double>>;

TEST(BenchTimings, BestProbeIsTheFastestOfTheRun) {
    EXPECT_EQ(bestProbe(Probes{{4100, 4200, 4150}, {1700, 4250, 4000}}), 4250);
    EXPECT_EQ(bestProbe({}), 0);
}

TEST(BenchTimings, ATimingWithASlowProbeOnEitherSideIsLeftOut) {
    // Repetition 1: the probe between the items is slow, so item 0 (after) and item 1 (before)
    // lose it; repetition 3: only the last probe is slow, so only item 1 loses it.
    const Probes p = {{4000, 4000, 4000}, {4000, 1700, 4000}, {4000, 4000, 4000},
                      {4000, 4000, 3500}, {4000, 4000, 4000}, {4000, 4000, 4000}};
    const double best = bestProbe(p);
    const std::vector<double> us0 = {10, 30, 11, 12, 13, 14}, us1 = {20, 50, 21, 60, 22, 23};
    const auto k0 = keepCleanTimings(us0, p, 0, best), k1 = keepCleanTimings(us1, p, 1, best);
    EXPECT_EQ(k0.kept, (std::vector<double>{10, 11, 12, 13, 14}));
    EXPECT_EQ(k0.clean, 5u);
    EXPECT_TRUE(k0.steady);
    EXPECT_EQ(k1.kept, (std::vector<double>{20, 21, 22, 23}));
    EXPECT_EQ(k1.clean, 4u);
    EXPECT_TRUE(k1.steady);
}

TEST(BenchTimings, WithinTenPercentOfTheBestIsClean) {
    const Probes p = {{4000, 3600}, {4000, 3599}, {4000, 4000}, {4000, 4000}};
    const auto k = keepCleanTimings({1, 2, 3, 4}, p, 0, bestProbe(p));
    EXPECT_EQ(k.kept, (std::vector<double>{1, 3, 4}));
}

TEST(BenchTimings, TooFewCleanTimingsKeepThemAllAndAreUnsteady) {
    // Thirty repetitions need ten clean timings; nine are not enough.
    Probes p(30, {4000, 4000});
    std::vector<double> us(30);
    for (size_t r = 0; r < 30; ++r) {
        us[r] = double(r);
        if (r >= 9) p[r][1] = 1700;
    }
    auto k = keepCleanTimings(us, p, 0, bestProbe(p));
    EXPECT_FALSE(k.steady);
    EXPECT_EQ(k.clean, 9u);
    EXPECT_EQ(k.kept, us);
    p[9][1] = 4000;  // ten clean
    k = keepCleanTimings(us, p, 0, bestProbe(p));
    EXPECT_TRUE(k.steady);
    EXPECT_EQ(k.kept.size(), 10u);
    // Fewer than three clean timings never suffice, however few repetitions ran.
    const Probes two = {{4000, 4000}, {4000, 4000}};
    EXPECT_FALSE(keepCleanTimings({1, 2}, two, 0, bestProbe(two)).steady);
}
