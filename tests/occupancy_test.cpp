// computeOccupancy (include/vkspd/debug.hpp): the groups per SM each resource allows and the one
// that limits them, without a GPU. Figures of an NVIDIA Hopper SM (64K registers, 228 KiB shared
// memory, 2048 threads, 32 groups) and vkspd's 256-thread groups.
#include <vkspd/debug.hpp>

#include <gtest/gtest.h>

namespace {

vkspd::SmLimits hopper() {
    vkspd::SmLimits l;
    l.registersPerSm = 65536;
    l.registerGranularity = 8;
    l.sharedMemoryPerSm = 228 * 1024;
    l.sharedGranularity = 128;
    l.threadsPerSm = 2048;
    l.groupsPerSm = 32;
    return l;
}

vkspd::PipelineResources group(uint32_t registers, uint32_t shared) {
    vkspd::PipelineResources r;
    r.registersPerThread = registers;
    r.sharedMemoryPerGroup = shared;
    r.threadsPerGroup = 256;
    r.subgroupSize = 32;
    return r;
}

TEST(Occupancy, RegistersLimit) {
    // 72 registers x 256 threads = 18432: three groups, 24 of 64 warps (an FP32 quad variant).
    const vkspd::Occupancy o = vkspd::computeOccupancy(group(72, 14412), hopper());
    EXPECT_EQ(o.groupsPerSm, 3u);
    EXPECT_EQ(o.subgroupsPerSm, 24u);
    EXPECT_EQ(o.maxSubgroupsPerSm, 64u);
    EXPECT_FLOAT_EQ(o.occupancy, 24.0f / 64.0f);
    EXPECT_EQ(o.limiter, vkspd::OccupancyLimiter::Registers);
}

TEST(Occupancy, RegistersRoundUpToTheAllocationGranularity) {
    // 41 registers count as 48: five groups (40 would give six).
    EXPECT_EQ(vkspd::computeOccupancy(group(41, 7348), hopper()).groupsPerSm, 5u);
    EXPECT_EQ(vkspd::computeOccupancy(group(40, 7348), hopper()).groupsPerSm, 6u);
}

TEST(Occupancy, SharedMemoryLimit) {
    // 48 KiB per group: four groups fit 228 KiB, fewer than the eight the threads allow.
    const vkspd::Occupancy o = vkspd::computeOccupancy(group(32, 48 * 1024), hopper());
    EXPECT_EQ(o.groupsPerSm, 4u);
    EXPECT_EQ(o.limiter, vkspd::OccupancyLimiter::SharedMemory);
    EXPECT_FLOAT_EQ(o.occupancy, 0.5f);
}

TEST(Occupancy, ThreadsLimit) {
    // Few registers and little shared memory: 2048 / 256 = eight groups, full occupancy.
    const vkspd::Occupancy o = vkspd::computeOccupancy(group(24, 7348), hopper());
    EXPECT_EQ(o.groupsPerSm, 8u);
    EXPECT_EQ(o.limiter, vkspd::OccupancyLimiter::Threads);
    EXPECT_FLOAT_EQ(o.occupancy, 1.0f);
}

TEST(Occupancy, GroupsLimit) {
    vkspd::SmLimits l = hopper();
    l.groupsPerSm = 2;
    const vkspd::Occupancy o = vkspd::computeOccupancy(group(24, 7348), l);
    EXPECT_EQ(o.groupsPerSm, 2u);
    EXPECT_EQ(o.limiter, vkspd::OccupancyLimiter::Groups);
}

TEST(Occupancy, UnknownRegistersAreSkipped) {
    // The computed path: registers unknown, so shared memory and threads decide.
    const vkspd::Occupancy o = vkspd::computeOccupancy(group(0, 14412), hopper());
    EXPECT_EQ(o.groupsPerSm, 8u);
    EXPECT_EQ(o.limiter, vkspd::OccupancyLimiter::Threads);
}

TEST(Occupancy, NoGroupFits) {
    const vkspd::Occupancy o = vkspd::computeOccupancy(group(255, 1024), hopper());
    EXPECT_EQ(o.groupsPerSm, 1u);  // 256 x 256 = 65536: exactly one
    const vkspd::Occupancy none = vkspd::computeOccupancy(group(32, 300 * 1024), hopper());
    EXPECT_EQ(none.groupsPerSm, 0u);
    EXPECT_EQ(none.limiter, vkspd::OccupancyLimiter::SharedMemory);
    EXPECT_FLOAT_EQ(none.occupancy, 0.0f);
}

TEST(Occupancy, UnknownLimitsGiveNothing) {
    const vkspd::Occupancy o = vkspd::computeOccupancy(group(72, 14412), vkspd::SmLimits{});
    EXPECT_EQ(o.groupsPerSm, 0u);
    EXPECT_EQ(o.limiter, vkspd::OccupancyLimiter::Unknown);
    EXPECT_STREQ(vkspd::limiterName(o.limiter), "unknown");
    EXPECT_STREQ(vkspd::limiterName(vkspd::OccupancyLimiter::Registers), "registers");
}

TEST(Occupancy, WaveSize64) {
    // AMD-like: 64-wide waves, four per 256-thread group.
    vkspd::PipelineResources r = group(0, 14412);
    r.subgroupSize = 64;
    vkspd::SmLimits l;
    l.threadsPerSm = 2560;
    const vkspd::Occupancy o = vkspd::computeOccupancy(r, l);
    EXPECT_EQ(o.groupsPerSm, 10u);
    EXPECT_EQ(o.subgroupsPerSm, 40u);
    EXPECT_EQ(o.maxSubgroupsPerSm, 40u);
}

}  // namespace
