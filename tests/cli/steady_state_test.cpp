// The warm-up rule of the CLI's --bench and vkspd-bench (samples/common/steady_state.hpp) and the
// SM clock through NVML (sm_clock.hpp, against tests/cli/fake_nvml.cpp), without a GPU.
#include "sm_clock.hpp"
#include "steady_state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace vkspd_tools;

namespace {

TEST(SteadyState, MedianAndAgreement) {
    EXPECT_EQ(medianOf({}), 0.0);
    EXPECT_EQ(medianOf({5, 1, 3}), 3.0);
    EXPECT_EQ(medianOf({4, 1, 3, 2}), 2.5);
    EXPECT_TRUE(mediansAgree(100, 102.9, 0.03));
    EXPECT_TRUE(mediansAgree(102.9, 100, 0.03));
    EXPECT_FALSE(mediansAgree(100, 103.5, 0.03));  // 3.5% of the smaller
    EXPECT_FALSE(mediansAgree(103.5, 100, 0.03));
    EXPECT_TRUE(mediansAgree(0, 0, 0.03));
    EXPECT_FALSE(mediansAgree(0, 36, 0.03));
}

// A progress whose last `runBatches` batches agree over `runGpuMs` (their first median
// `previous`, the last `median`).
WarmupProgress progress(uint32_t batches, double gpuMs, double median, double previous, double wallMs = 100,
                        uint64_t calls = 1000, uint32_t runBatches = 0, double runGpuMs = -1) {
    WarmupProgress p;
    p.batches = batches;
    p.gpuMs = gpuMs;
    p.medianUs = median;
    p.previousMedianUs = previous;
    p.wallMs = wallMs;
    p.calls = calls;
    const bool agree = mediansAgree(median, previous, WarmupRule{}.agreement);
    p.runMedianUs = agree ? previous : median;
    p.runBatches = runBatches ? runBatches : (agree ? batches : 1);
    p.runGpuMs = runGpuMs >= 0 ? runGpuMs : (agree ? gpuMs : gpuMs / batches);
    return p;
}

TEST(SteadyState, NeedsEnoughWorkAndTwoAgreeingBatches) {
    const WarmupRule rule;
    // Thirty calls at the idle clock agree with each other, but are 5 ms of work: not steady.
    EXPECT_EQ(judgeWarmup(rule, progress(2, 5, 165.4, 165.0)), WarmupVerdict::Continue);
    // One batch, however long, cannot agree with anything.
    EXPECT_EQ(judgeWarmup(rule, progress(1, 900, 36.2, 0)), WarmupVerdict::Continue);
    // Enough work, but the clock is still rising between batches.
    EXPECT_EQ(judgeWarmup(rule, progress(5, 600, 60, 90)), WarmupVerdict::Continue);
    EXPECT_EQ(judgeWarmup(rule, progress(5, 499.9, 36.2, 36.3)), WarmupVerdict::Continue);
    EXPECT_EQ(judgeWarmup(rule, progress(5, 500, 36.2, 36.3)), WarmupVerdict::Steady);
    // Enough work, the last two batches agree, but only over 249 ms (the clock moved before
    // them): not yet; over 250 ms it is.
    EXPECT_EQ(judgeWarmup(rule, progress(9, 700, 36.2, 36.3, 100, 1000, 3, 249)), WarmupVerdict::Continue);
    EXPECT_EQ(judgeWarmup(rule, progress(9, 700, 36.2, 36.3, 100, 1000, 3, 250)), WarmupVerdict::Steady);
    // The caps: host time or calls, unless the same batch made it steady.
    EXPECT_EQ(judgeWarmup(rule, progress(40, 2900, 40, 36, 3000)), WarmupVerdict::Capped);
    EXPECT_EQ(judgeWarmup(rule, progress(3, 20, 40, 36, 100, rule.maxCalls)), WarmupVerdict::Capped);
    EXPECT_EQ(judgeWarmup(rule, progress(40, 2900, 36.2, 36.3, 3500)), WarmupVerdict::Steady);
}

TEST(SteadyState, AddBatchKeepsTheLastTwoMediansAndTheAgreeingRun) {
    const WarmupRule rule;
    WarmupProgress p;
    addBatch(rule, &p, {10, 30, 20});
    EXPECT_EQ(p.batches, 1u);
    EXPECT_EQ(p.calls, 3u);
    EXPECT_DOUBLE_EQ(p.gpuMs, 0.06);
    EXPECT_EQ(p.medianUs, 20.0);
    EXPECT_EQ(p.previousMedianUs, 0.0);
    EXPECT_EQ(p.runBatches, 1u);
    addBatch(rule, &p, {5, 7});
    EXPECT_EQ(p.batches, 2u);
    EXPECT_EQ(p.calls, 5u);
    EXPECT_DOUBLE_EQ(p.gpuMs, 0.072);
    EXPECT_EQ(p.medianUs, 6.0);
    EXPECT_EQ(p.previousMedianUs, 20.0);
    EXPECT_EQ(p.runBatches, 1u);  // 6 against 20: a new run
    EXPECT_DOUBLE_EQ(p.runGpuMs, 0.012);
    addBatch(rule, &p, {6.1, 6.1});
    EXPECT_EQ(p.runBatches, 2u);  // within 3% of the run's first median
    EXPECT_DOUBLE_EQ(p.runGpuMs, 0.0242);
    EXPECT_EQ(p.runMedianUs, 6.0);
    addBatch(rule, &p, {6.2, 6.2});  // 3.3% from the run's first: a new run, though 1.6% from the last
    EXPECT_EQ(p.runBatches, 1u);
    EXPECT_EQ(p.runMedianUs, 6.2);
}

TEST(SteadyState, BatchesAimAtTheirShareOfWork) {
    const WarmupRule rule;
    EXPECT_EQ(nextBatchCalls(rule, WarmupProgress{}), rule.firstBatchCalls);
    EXPECT_EQ(nextBatchCalls(rule, progress(1, 1, 36, 0)), 1389u);  // ceil(50 ms / 36 us)
    EXPECT_EQ(nextBatchCalls(rule, progress(1, 1, 1, 0)), rule.maxBatchCalls);
    EXPECT_EQ(nextBatchCalls(rule, progress(1, 1, 0, 0)), rule.maxBatchCalls);
    EXPECT_EQ(nextBatchCalls(rule, progress(1, 1, 1e6, 0)), rule.firstBatchCalls);  // a second per call
}

// Runs the warm-up rule on a simulated GPU whose call takes `topUs` at 1980 MHz and whose SM clock
// after `busyMs` of work is mhzAfter(busyMs); the host waits for nothing, so wall time is GPU time.
template <typename Clock>
WarmupVerdict simulateWarmup(const WarmupRule& rule, double topUs, Clock mhzAfter, WarmupProgress* p) {
    double busyMs = 0;
    WarmupVerdict verdict = WarmupVerdict::Continue;
    while (verdict == WarmupVerdict::Continue) {
        std::vector<double> calls(nextBatchCalls(rule, *p));
        for (double& us : calls) {
            us = topUs * 1980 / mhzAfter(busyMs);
            busyMs += us * 1e-3;
        }
        addBatch(rule, p, calls);
        p->wallMs = busyMs;
        verdict = judgeWarmup(rule, *p);
    }
    return verdict;
}

// A GPU whose call takes 165 us at its idle clock (345 MHz) and 36.2 us at its working clock
// (1980 MHz), the clock rising linearly over the first 400 ms of sustained work (as an H200 did):
// the warm-up run through the rule ends steady, after the clock has reached the top, with the
// working clock's time.
TEST(SteadyState, ReachesTheWorkingClockOfARampingGpu) {
    const WarmupRule rule;
    auto mhzAfter = [](double busyMs) { return 345 + (1980 - 345) * std::min(1.0, busyMs / 400); };
    WarmupProgress p;
    const WarmupVerdict verdict = simulateWarmup(rule, 36.2, mhzAfter, &p);
    EXPECT_EQ(verdict, WarmupVerdict::Steady);
    EXPECT_GE(p.gpuMs, 400 * 0.97) << "judged steady before the clock reached the top";
    EXPECT_NEAR(p.medianUs, 36.2, 36.2 * 0.03);
    EXPECT_LT(p.gpuMs, 1000);  // and not long after
}

// A GPU that holds an intermediate clock (a third of the top) for 350 ms of work before it climbs
// to the top in 100 ms, as an H200 did: two batches agree on the plateau, but the warm-up must
// not stop there.
TEST(SteadyState, DoesNotStopOnAnIntermediateClock) {
    const WarmupRule rule;
    auto mhzAfter = [](double busyMs) {
        if (busyMs < 350) return 660.0;
        return 660 + (1980 - 660) * std::min(1.0, (busyMs - 350) / 100);
    };
    WarmupProgress p;
    const WarmupVerdict verdict = simulateWarmup(rule, 105.5, mhzAfter, &p);
    EXPECT_EQ(verdict, WarmupVerdict::Steady);
    EXPECT_NEAR(p.medianUs, 105.5, 105.5 * 0.03) << "stopped on the plateau";
    EXPECT_GE(p.runGpuMs, rule.stableGpuMs);
}

// A GPU whose timings never settle (every other batch 10% slower) stops at the cap.
TEST(SteadyState, AnUnsteadyGpuStopsAtTheCap) {
    const WarmupRule rule;
    WarmupProgress p;
    WarmupVerdict verdict = WarmupVerdict::Continue;
    while (verdict == WarmupVerdict::Continue) {
        std::vector<double> calls(nextBatchCalls(rule, p), p.batches % 2 ? 110.0 : 100.0);
        addBatch(rule, &p, calls);
        p.wallMs = p.gpuMs;
        verdict = judgeWarmup(rule, p);
    }
    EXPECT_EQ(verdict, WarmupVerdict::Capped);
    EXPECT_GE(p.wallMs, rule.maxWallMs);
    EXPECT_NE(warmupSummary(rule, p, verdict).find(": stopped at the cap of 3 s"), std::string::npos)
        << warmupSummary(rule, p, verdict);
}

TEST(SteadyState, SummarySaysWhatTheWarmupDid) {
    EXPECT_EQ(withThousands(0), "0");
    EXPECT_EQ(withThousands(999), "999");
    EXPECT_EQ(withThousands(1000), "1,000");
    EXPECT_EQ(withThousands(11400), "11,400");
    EXPECT_EQ(withThousands(1234567), "1,234,567");
    const WarmupRule rule;
    WarmupProgress p = progress(9, 598.4, 36.2, 36.3, 700, 11400, 5, 301.2);
    p.spanMs = 612.2;
    EXPECT_EQ(warmupSummary(rule, p, WarmupVerdict::Steady),
              "warmed up for 612 ms, 11,400 calls (GPU work 598 ms; the last two batches' medians 36.3 and 36.2 us, "
              "within 3%; 5 agreeing batches over 301 ms)");
}

#ifdef VKSPD_FAKE_NVML
TEST(SmClock, ReadsTheSmClockOfTheVulkanDeviceThroughNvml) {
    EXPECT_EQ(nvmlBusId({true, 1, 0xab, 0x1f, 3}), "00000001:ab:1f.3");
    const PciAddress at65{true, 0, 0x65, 0, 0};
    {
        SmClock c;
        EXPECT_FALSE(c.open(kNvidiaVendorId, at65, "libvkspd-no-such-nvml.so.1"));
        EXPECT_FALSE(c.available());
        EXPECT_EQ(c.note(), "no NVML");
        EXPECT_EQ(c.readMhz(), 0u);
        EXPECT_EQ(c.text(), "?");
    }
    {
        SmClock c;
        EXPECT_FALSE(c.open(0x1002, at65, VKSPD_FAKE_NVML));
        EXPECT_EQ(c.note(), "not an NVIDIA device");
    }
    {
        SmClock c;  // found by its PCI address
        ASSERT_TRUE(c.open(kNvidiaVendorId, at65, VKSPD_FAKE_NVML)) << c.note();
        EXPECT_EQ(c.note(), "");
        EXPECT_EQ(c.readMhz(), 1980u);
        EXPECT_EQ(c.text(), "1980 MHz");
    }
    {
        SmClock c;  // another address, and NVML has one device: that one, said so
        ASSERT_TRUE(c.open(kNvidiaVendorId, {true, 0, 0x66, 0, 0}, VKSPD_FAKE_NVML)) << c.note();
        EXPECT_EQ(c.readMhz(), 345u);
        EXPECT_EQ(c.note(), "NVML has no device at PCI 00000000:66:00.0; its only device read");
    }
    {
        setenv("VKSPD_FAKE_NVML_DEVICES", "2", 1);
        SmClock c;  // another address among two devices: none
        EXPECT_FALSE(c.open(kNvidiaVendorId, {true, 0, 0x66, 0, 0}, VKSPD_FAKE_NVML));
        unsetenv("VKSPD_FAKE_NVML_DEVICES");
        EXPECT_EQ(c.note(), "NVML has no device at PCI 00000000:66:00.0 (returned 6)");
    }
    {
        SmClock c;  // no address: NVML's device 0, said so
        ASSERT_TRUE(c.open(kNvidiaVendorId, PciAddress{}, VKSPD_FAKE_NVML)) << c.note();
        EXPECT_EQ(c.readMhz(), 345u);
        EXPECT_NE(c.note().find("NVML device 0"), std::string::npos) << c.note();
    }
}
#endif

}  // namespace
