// Repeated and concurrent dispatches: the election counters must return to zero by themselves and
// no two dispatches in flight may share a live counter.
#include "vulkan_harness.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace vkspd_test;

namespace {

struct Job {
    TestImage image;
    std::vector<uint8_t> level0;
    vkspd::MipGenInfo info;
};

Job makeJob(Harness* h, VkFormat format, uint32_t w, uint32_t ht, uint32_t seed,
            vkspd::Reduction reduction = vkspd::Reduction::Average) {
    Job j;
    j.image = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, 1, singlePassFlags(format));
    j.level0 = randomTexels(format, w, ht, seed);
    h->upload(j.image, j.level0.data());
    j.info = chainInfo(j.image);
    j.info.reduction = reduction;
    return j;
}

// Checks every level of the job's image against the reference made from the uploaded level 0.
void expectCorrect(Harness* h, Job& j, const char* what) {
    auto gpu = h->readLevels(j.image);
    EXPECT_EQ(gpu[0], j.level0) << what << ": level 0 changed";
    vkspd::ReferenceOptions options;
    options.reduction = j.info.reduction;
    const double tolerance =
        j.info.reduction == vkspd::Reduction::Average ? vkspd::toleranceFor(j.image.format, true) : 0.0;
    expectChainMatches(j.image, gpu, 0, j.image.levels, 0, 1, tolerance, what, options);
}

// A mix that exercises every kind of counter (edge, corner, election, second stage), both
// precisions, every built-in reduction, the one-level no-op, and both kernels: the last job is a
// plain chain of two stages (the plain-chain kernel on the quad path, one group elected from
// strips of 4 tiles, and of 1 tile in its last tile row: Tuning::tailTiles).
std::vector<Job> mixedJobs(Harness* h, uint32_t seed) {
    std::vector<Job> jobs;
    jobs.push_back(makeJob(h, VK_FORMAT_R8G8B8A8_UNORM, 191, 129, seed + 1));
    jobs.push_back(makeJob(h, VK_FORMAT_R16G16B16A16_SFLOAT, 1025, 65, seed + 2));  // two stages
    jobs.push_back(makeJob(h, VK_FORMAT_R32_SFLOAT, 130, 66, seed + 3, vkspd::Reduction::Max));
    jobs.push_back(makeJob(h, VK_FORMAT_R32G32_SFLOAT, 257, 3, seed + 4, vkspd::Reduction::MinMax));
    jobs.push_back(makeJob(h, VK_FORMAT_R8G8B8A8_SRGB, 65, 63, seed + 5));
    jobs.push_back(makeJob(h, VK_FORMAT_R16_UNORM, 1, 300, seed + 6, vkspd::Reduction::Min));
    jobs.push_back(makeJob(h, VK_FORMAT_R8G8B8A8_UNORM, 1, 1, seed + 7));
    jobs.push_back(makeJob(h, VK_FORMAT_R16G16B16A16_SFLOAT, 512, 128, seed + 8));
    static const vkspd::Tuning kStripsOf4LastRowOf1 = {vkspd::Kernel::Auto, 4, 1, 1, 0};
    jobs.back().info.tuning = &kStripsOf4LastRowOf1;
    return jobs;
}

uint32_t stressCalls() {
    const char* env = std::getenv("VKSPD_STRESS_CALLS");
    return env ? uint32_t(std::strtoul(env, nullptr, 10)) : 1000u;
}

}  // namespace

TEST_F(GpuTest, HundredsOfBackToBackCallsInOneCommandBuffer) {
    // Odd sizes use every kind of counter (edges, corners, the election); 4095x65 has two
    // stages; 512x256 is a plain chain of two stages (the plain-chain kernel on the quad path,
    // strips of 2 tiles, the last two tile rows in strips of 1); 640x360 runs the summed-levels
    // kernel where the device has quad operations (levels 4-9 summed in its records, strips of 2).
    // Each call reads level 0 and rewrites the rest, so the last one must be right.
    Job jobs[4] = {makeJob(h, VK_FORMAT_R8G8B8A8_UNORM, 191, 129, 1),
                   makeJob(h, VK_FORMAT_R16G16B16A16_SFLOAT, 4095, 65, 2),
                   makeJob(h, VK_FORMAT_R8G8B8A8_UNORM, 512, 256, 3),
                   makeJob(h, VK_FORMAT_R8G8B8A8_UNORM, 640, 360, 4)};
    static const vkspd::Tuning kStripsOf2TailOf1 = {vkspd::Kernel::Auto, 2, 16, 1, 0};
    static const vkspd::Tuning kSummedStripsOf2 = {vkspd::Kernel::SummedLevels, 2, 0, 0, 0};
    jobs[2].info.tuning = &kStripsOf2TailOf1;
    if (h->quad) jobs[3].info.tuning = &kSummedStripsOf2;
    h->submit([&](VkCommandBuffer cmd) {
        for (int i = 0; i < 400; ++i) {
            Job& j = jobs[i % 4];
            ASSERT_TRUE(vkspd::generateMips(h->context, cmd, j.info).ok());
            j.info.before = j.info.after;  // the next call starts from where this one left it
        }
    });
    for (Job& j : jobs) {
        expectCorrect(h, j, "back-to-back");
        h->destroyImage(j.image);
    }
}

TEST_F(GpuTest, SeveralCommandBuffersInFlightRecordedOnThreads) {
    // Eight threads record into their own command buffers (own pools); all are submitted in one
    // vkQueueSubmit, so up to eight dispatches are pending at once on their own scratch slots.
    const int threads = 8;
    std::vector<Job> jobs;
    const uint32_t sizes[threads][2] = {{129, 127}, {1000, 601}, {65, 63}, {4095, 7},
                                        {300, 300}, {63, 1025}, {256, 256}, {1920, 1080}};
    for (int t = 0; t < threads; ++t)
        jobs.push_back(makeJob(h, VK_FORMAT_R8G8B8A8_UNORM, sizes[t][0], sizes[t][1], 100 + t));
    std::vector<VkCommandPool> pools(threads);
    std::vector<VkCommandBuffer> cmds(threads);
    for (int t = 0; t < threads; ++t) {
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.queueFamilyIndex = h->queueFamily;
        ASSERT_EQ(vkCreateCommandPool(h->device, &pci, nullptr, &pools[t]), VK_SUCCESS);
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pools[t];
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        ASSERT_EQ(vkAllocateCommandBuffers(h->device, &ai, &cmds[t]), VK_SUCCESS);
    }
    std::vector<std::thread> workers;
    std::vector<int> failures(threads, 0);
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            vkBeginCommandBuffer(cmds[t], &bi);
            vkspd::MipGenInfo info = jobs[t].info;
            for (int i = 0; i < 20; ++i) {
                failures[t] += !vkspd::generateMips(h->context, cmds[t], info).ok();
                info.before = info.after;
            }
            vkEndCommandBuffer(cmds[t]);
        });
    }
    for (auto& w : workers) w.join();
    for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = uint32_t(threads);
    si.pCommandBuffers = cmds.data();
    ASSERT_EQ(vkQueueSubmit(h->queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    ASSERT_EQ(vkQueueWaitIdle(h->queue), VK_SUCCESS);
    for (int t = 0; t < threads; ++t) {
        expectCorrect(h, jobs[t], "in flight");
        vkDestroyCommandPool(h->device, pools[t], nullptr);
        h->destroyImage(jobs[t].image);
    }
}

// A caller's scratch buffer, cleared by the library before each dispatch: the general kernel's
// counters and data, and (where the device has quad operations) the summed-levels kernel's
// records in the same buffer after it (each call of the one clears what the other left there).
TEST_F(GpuTest, CallerOwnedScratchBuffer) {
    Job j = makeJob(h, VK_FORMAT_R8G8B8A8_UNORM, 1000, 601, 7);
    Job sums = makeJob(h, VK_FORMAT_R8G8B8A8_UNORM, 1000, 600, 8);
    static const vkspd::Tuning kSummed = {vkspd::Kernel::SummedLevels, 0, 0, 0, 0};
    sums.info.tuning = &kSummed;
    VkDeviceSize bytes = vkspd::scratchSize(h->context, j.info);
    ASSERT_GT(bytes, 0u);
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = bytes + 256;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer;
    ASSERT_EQ(vkCreateBuffer(h->device, &bi, nullptr, &buffer), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, buffer, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(h->physicalDevice, &mp);
    uint32_t type = 0;
    while (!(req.memoryTypeBits & (1u << type))) ++type;
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VkDeviceMemory memory;
    ASSERT_EQ(vkAllocateMemory(h->device, &ai, nullptr, &memory), VK_SUCCESS);
    ASSERT_EQ(vkBindBufferMemory(h->device, buffer, memory, 0), VK_SUCCESS);
    j.info.scratchBuffer = buffer;
    j.info.scratchOffset = 256;
    sums.info.scratchBuffer = buffer;
    sums.info.scratchOffset = 256;
    if (h->quad) {
        ASSERT_LE(vkspd::scratchSize(h->context, sums.info), bytes);
    }
    h->submit([&](VkCommandBuffer cmd) {
        vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, 0);
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             0, 1, &mb, 0, nullptr, 0, nullptr);
        for (int i = 0; i < 5; ++i) {
            ASSERT_TRUE(vkspd::generateMips(h->context, cmd, j.info).ok());
            j.info.before = j.info.after;
            if (!h->quad) continue;
            ASSERT_TRUE(vkspd::generateMips(h->context, cmd, sums.info).ok());
            sums.info.before = sums.info.after;
        }
    });
    expectCorrect(h, j, "caller scratch");
    expectCorrect(h, sums, "caller scratch, summed levels");
    vkDestroyBuffer(h->device, buffer, nullptr);
    vkFreeMemory(h->device, memory, nullptr);
    h->destroyImage(j.image);
    h->destroyImage(sums.image);
}

// VKSPD_STRESS_CALLS (default 1000 for lavapipe in CI; 10000 on a GPU) calls on one queue, in command buffers of 250
// submitted together, cycling over a mix of images; each call rewrites the same levels, so the
// last must be right, and every counter must have come back to zero for that.
TEST_F(GpuTest, StressTenThousandBackToBackCallsOnOneQueue) {
    const uint32_t calls = stressCalls();
    std::vector<Job> jobs = mixedJobs(h, 1000);
    const uint32_t perBuffer = 250, buffers = (calls + perBuffer - 1) / perBuffer;
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = h->queueFamily;
    VkCommandPool pool;
    ASSERT_EQ(vkCreateCommandPool(h->device, &pci, nullptr, &pool), VK_SUCCESS);
    std::vector<VkCommandBuffer> cmds(buffers);
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = buffers;
    ASSERT_EQ(vkAllocateCommandBuffers(h->device, &ai, cmds.data()), VK_SUCCESS);
    const auto start = std::chrono::steady_clock::now();
    uint32_t failures = 0, done = 0;
    for (uint32_t b = 0; b < buffers; ++b) {
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkBeginCommandBuffer(cmds[b], &bi);
        for (uint32_t i = 0; i < perBuffer && done < calls; ++i, ++done) {
            Job& j = jobs[done % jobs.size()];
            failures += !vkspd::generateMips(h->context, cmds[b], j.info).ok();
            j.info.before = j.info.after;
        }
        vkEndCommandBuffer(cmds[b]);
    }
    const auto recorded = std::chrono::steady_clock::now();
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = buffers;
    si.pCommandBuffers = cmds.data();
    ASSERT_EQ(vkQueueSubmit(h->queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    ASSERT_EQ(vkQueueWaitIdle(h->queue), VK_SUCCESS);
    const auto executed = std::chrono::steady_clock::now();
    EXPECT_EQ(failures, 0u);
    for (Job& j : jobs) expectCorrect(h, j, "back-to-back on one queue");
    using ms = std::chrono::duration<double, std::milli>;
    std::printf("[ stress   ] %u calls in %u command buffers: recorded in %.0f ms, executed in %.0f ms\n", calls,
                buffers, ms(recorded - start).count(), ms(executed - recorded).count());
    vkDestroyCommandPool(h->device, pool, nullptr);
    for (Job& j : jobs) h->destroyImage(j.image);
}

// Eight threads record a mix of images, formats and reductions into their own command buffers
// on a fresh Context, so pipeline creation, view caching and scratch slot growth race too; all
// eight are submitted in one vkQueueSubmit.
TEST_F(GpuTest, StressEightThreadsMixedSizesFreshContext) {
    vkspd::Context context = nullptr;
    ASSERT_TRUE(vkspd::createContext(h->contextInfo, &context).ok());
    const int threads = 8;
    std::vector<std::vector<Job>> jobs;
    for (int t = 0; t < threads; ++t) jobs.push_back(mixedJobs(h, 2000 + 100 * t));
    std::vector<VkCommandPool> pools(threads);
    std::vector<VkCommandBuffer> cmds(threads);
    for (int t = 0; t < threads; ++t) {
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.queueFamilyIndex = h->queueFamily;
        ASSERT_EQ(vkCreateCommandPool(h->device, &pci, nullptr, &pools[t]), VK_SUCCESS);
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pools[t];
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        ASSERT_EQ(vkAllocateCommandBuffers(h->device, &ai, &cmds[t]), VK_SUCCESS);
    }
    std::vector<int> failures(threads, 0);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            vkBeginCommandBuffer(cmds[t], &bi);
            // Each thread starts at a different image so the first uses of every variant race.
            for (size_t i = 0; i < 3 * jobs[t].size(); ++i) {
                Job& j = jobs[t][(i + size_t(t)) % jobs[t].size()];
                failures[t] += !vkspd::generateMips(context, cmds[t], j.info).ok();
                j.info.before = j.info.after;
            }
            vkEndCommandBuffer(cmds[t]);
        });
    }
    for (auto& w : workers) w.join();
    for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = uint32_t(threads);
    si.pCommandBuffers = cmds.data();
    ASSERT_EQ(vkQueueSubmit(h->queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    ASSERT_EQ(vkQueueWaitIdle(h->queue), VK_SUCCESS);
    for (int t = 0; t < threads; ++t) {
        for (Job& j : jobs[t]) {
            expectCorrect(h, j, "eight threads");
            vkspd::forgetImage(context, j.image.image);
            h->destroyImage(j.image);
        }
        vkDestroyCommandPool(h->device, pools[t], nullptr);
    }
    vkspd::destroyContext(context);
}
