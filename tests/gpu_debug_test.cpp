// The debug map (include/vkspd/debug.hpp) on the device present: every tile has exactly one
// entry, the finish counter's values are a permutation of 0..n-1, the levels are still exact, and
// the occupancy query answers on any device.
#include "vulkan_harness.hpp"

#include <vkspd/debug.hpp>

#include "occupancy.hpp"  // samples/common: the tools' queryEveryFlavour

#include <algorithm>
#include <cstring>

using namespace vkspd_test;

namespace {

// Runs the debug variant on a w x h RGBA8 image with `layers` layers; checks the map and the chain.
void checkDebugMap(Harness* h, uint32_t w, uint32_t ht, uint32_t layers) {
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    TestImage img = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, layers);
    std::vector<uint8_t> level0;
    for (uint32_t l = 0; l < layers; ++l) {
        std::vector<uint8_t> one = randomTexels(format, w, ht, 7 + l);
        level0.insert(level0.end(), one.begin(), one.end());
    }
    h->upload(img, level0.data());
    vkspd::MipGenInfo info = chainInfo(img);
    // The map's variants are the general kernel's (with Kernel::Auto too): its dispatch.
    vkspd::Tuning general;
    general.kernel = vkspd::Kernel::General;
    info.tuning = &general;
    vkspd::DispatchDescription d;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, info, &d).ok());
    info.tuning = nullptr;
    const uint32_t tiles = d.groupsX * d.groupsY * d.groupsZ;
    const VkDeviceSize bytes = vkspd::debugMapSize(h->context, info);
    ASSERT_EQ(bytes, vkspd::kDebugMapHeaderBytes + tiles * sizeof(vkspd::DebugMapTile));
    HostBuffer map =
        makeHostBuffer(h, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(map.mapped, 0xAB, size_t(bytes));  // the library must zero-fill it itself
    vkspd::DebugMapInfo mi;
    mi.buffer = map.buffer;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMipsDebugMap(h->context, cmd, info, mi);
        EXPECT_TRUE(r.ok()) << r.message;
        VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0,
                             nullptr, 0, nullptr);
    });
    const auto* words = static_cast<const uint32_t*>(map.mapped);
    EXPECT_EQ(words[0], tiles) << "the finish counter counts every tile once";
    const auto* entries = reinterpret_cast<const vkspd::DebugMapTile*>(words + 4);
    std::vector<uint32_t> orders;
    for (uint32_t t = 0; t < tiles; ++t) {
        EXPECT_EQ(entries[t].flags & 1u, 1u) << "tile " << t << " has no entry";
        EXPECT_EQ(entries[t].flags & 2u, 0u) << "SM ids without VK_NV_shader_sm_builtins";
        orders.push_back(entries[t].order);
    }
    std::sort(orders.begin(), orders.end());
    for (uint32_t t = 0; t < tiles; ++t)
        ASSERT_EQ(orders[t], t) << "finish orders are not a permutation of 0.." << tiles - 1;
    freeHostBuffer(h, map);

    auto gpu = h->readLevels(img);
    expectChainMatches(img, gpu, 0, img.levels, 0, layers, 1.0, "debug variant");
    h->destroyImage(img);
}

}  // namespace

TEST_F(GpuTest, DebugMapEveryTileOnce65x63) { checkDebugMap(h, 65, 63, 1); }
TEST_F(GpuTest, DebugMapEveryTileOnce130x66TwoLayers) { checkDebugMap(h, 130, 66, 2); }
TEST_F(GpuTest, DebugMapEveryTileOnceTwoStages300x200) { checkDebugMap(h, 300, 200, 1); }
TEST_F(GpuTest, DebugMapEveryTileOnceTall2x4095) { checkDebugMap(h, 2, 4095, 1); }
TEST_F(GpuTest, DebugMapEveryTileOnceWide4095x3) { checkDebugMap(h, 4095, 3, 1); }

TEST_F(GpuTest, DebugMapRefusesWhatHasNoVariant) {
    TestImage img = h->createImage(VK_FORMAT_R8G8B8A8_UNORM, 1, 1, 1, kChainUsage);
    vkspd::MipGenInfo info = chainInfo(img);
    EXPECT_EQ(vkspd::debugMapSize(h->context, info), 0u) << "1x1 has no level to write";
    info.reduction = vkspd::Reduction::Max;
    EXPECT_EQ(vkspd::debugMapSize(h->context, info), 0u);
    vkspd::DebugMapInfo mi;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMipsDebugMap(h->context, cmd, info, mi);
        EXPECT_FALSE(r.ok());
        EXPECT_NE(r.message.find("DebugMapInfo::buffer"), std::string::npos) << r.message;
        mi.buffer = reinterpret_cast<VkBuffer>(uintptr_t(1));  // never used: the offset is refused first
        mi.offset = 2;
        r = vkspd::generateMipsDebugMap(h->context, cmd, info, mi);
        EXPECT_FALSE(r.ok());
        EXPECT_NE(r.message.find("DebugMapInfo::offset 2"), std::string::npos) << r.message;
    });
    h->destroyImage(img);
}

TEST_F(GpuTest, OccupancyQueryAnswersOnAnyDevice) {
    std::vector<vkspd::OccupancyRecord> records;
    vkspd::OccupancyQueryInfo q;
    vkspd::Result r = vkspd::queryOccupancy(h->context, q, &records);
    ASSERT_TRUE(r.ok()) << r.message;
    ASSERT_FALSE(records.empty());
    // Each FP16 variant has a half-denormal twin exactly where the device preserves 16-bit
    // denormals (the harness's context does not skip DenormPreserve).
    VkPhysicalDeviceFloatControlsProperties fc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &fc;
    vkGetPhysicalDeviceProperties2(h->physicalDevice, &p2);
    size_t plainFp16 = 0, halfFp16 = 0;
    for (const vkspd::OccupancyRecord& rec : records) (rec.halfDenormals ? halfFp16 : plainFp16) += rec.fp16 ? 1 : 0;
    EXPECT_EQ(halfFp16, fc.shaderDenormPreserveFloat16 ? plainFp16 : 0u);
    // The halo-stage and summed-levels kernels have a record wherever the plain-chain kernel has
    // one (all quad only).
    size_t plainRecords = 0, haloRecords = 0, sumsRecords = 0;
    for (const vkspd::OccupancyRecord& rec : records) {
        plainRecords += rec.plainChain ? 1 : 0;
        haloRecords += rec.haloStages ? 1 : 0;
        sumsRecords += rec.summedLevels ? 1 : 0;
        EXPECT_LE(int(rec.plainChain) + int(rec.haloStages) + int(rec.summedLevels), 1) << rec.variant;
        if (rec.haloStages) {
            EXPECT_NE(rec.variant.find(" halo"), std::string::npos) << rec.variant;
        }
        if (rec.summedLevels) {
            EXPECT_NE(rec.variant.find(" summed"), std::string::npos) << rec.variant;
            EXPECT_GT(rec.resources.sharedMemoryPerGroup, 8192u) << rec.variant;
        }
    }
    EXPECT_EQ(haloRecords, plainRecords);
    EXPECT_EQ(sumsRecords, plainRecords);
    // Every built-in reduction has its summed-levels records.
    vkspd::OccupancyQueryInfo minOnly;
    minOnly.reductions = {vkspd::Reduction::Min};
    std::vector<vkspd::OccupancyRecord> minRecords;
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, minOnly, &minRecords).ok());
    size_t minSums = 0;
    for (const vkspd::OccupancyRecord& rec : minRecords) {
        minSums += rec.summedLevels ? 1 : 0;
        if (rec.summedLevels) {
            EXPECT_NE(rec.variant.find("min fp"), std::string::npos) << rec.variant;
        }
    }
    EXPECT_EQ(minSums, sumsRecords);
    EXPECT_EQ(haloRecords > 0, h->quad);
    for (const vkspd::OccupancyRecord& rec : records) {
        EXPECT_EQ(rec.resources.threadsPerGroup, 256u);
        EXPECT_GT(rec.resources.sharedMemoryPerGroup, 0u);
        EXPECT_FALSE(rec.limitsSource.empty());
        // The half-denormal flavour is an FP16 variant, named as such.
        if (rec.halfDenormals) {
            EXPECT_TRUE(rec.fp16) << rec.variant;
            EXPECT_NE(rec.variant.find("half-denormals"), std::string::npos) << rec.variant;
        }
        if (h->properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
            EXPECT_EQ(rec.source, vkspd::OccupancySource::NotAvailable);
        }
    }
    // The halo-stage kernel is made per channel count (OccupancyQueryInfo::channels); the other
    // kernels compute four.
    for (const vkspd::OccupancyRecord& rec : records) EXPECT_EQ(rec.channels, 4u) << rec.variant;
    q.channels = 1;
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, q, &records).ok());
    for (const vkspd::OccupancyRecord& rec : records) {
        EXPECT_EQ(rec.channels, rec.haloStages ? 1u : 4u) << rec.variant;
        EXPECT_EQ(rec.variant.find(" channels 1") != std::string::npos, rec.haloStages) << rec.variant;
    }
    for (uint32_t bad : {0u, 5u}) {
        q.channels = bad;
        EXPECT_FALSE(vkspd::queryOccupancy(h->context, q, &records).ok()) << bad;
    }
    q.channels = 4;
    // The plain-chain and halo-stage kernels are made per fetch (OccupancyQueryInfo::linearFetch);
    // the general kernel carries both.
    for (bool linear : {false, true}) {
        q.linearFetch = linear;
        ASSERT_TRUE(vkspd::queryOccupancy(h->context, q, &records).ok());
        for (const vkspd::OccupancyRecord& rec : records) {
            const bool perFetch = rec.plainChain || rec.haloStages || rec.summedLevels;
            EXPECT_EQ(rec.linearFetch, perFetch && linear) << rec.variant;
            EXPECT_EQ(rec.variant.find(" linear") != std::string::npos, perFetch && linear) << rec.variant;
        }
    }
    q.linearFetch = false;
    // The halo-stage kernel on an odd base (OccupancyQueryInfo::oddBase): its records only, and
    // none through the sampler (that kernel loads an odd base).
    q.oddBase = true;
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, q, &records).ok());
    EXPECT_EQ(records.empty(), !h->quad);
    for (const vkspd::OccupancyRecord& rec : records) {
        EXPECT_TRUE(rec.haloStages && rec.oddBase) << rec.variant;
        EXPECT_NE(rec.variant.find(" odd base"), std::string::npos) << rec.variant;
    }
    q.linearFetch = true;
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, q, &records).ok());
    EXPECT_TRUE(records.empty());
    q.linearFetch = false;
    q.oddBase = false;
    // The halo-stage kernel for normalized values (OccupancyQueryInfo::normalizedValues): its
    // records only, with each fetch and on an odd base, named as such.
    q.normalizedValues = true;
    for (int flavour = 0; flavour < 3; ++flavour) {
        q.linearFetch = flavour == 1;
        q.oddBase = flavour == 2;
        ASSERT_TRUE(vkspd::queryOccupancy(h->context, q, &records).ok());
        EXPECT_EQ(records.empty(), !h->quad) << flavour;
        for (const vkspd::OccupancyRecord& rec : records) {
            EXPECT_TRUE(rec.haloStages && rec.normalizedValues) << rec.variant;
            EXPECT_EQ(rec.linearFetch, flavour == 1) << rec.variant;
            EXPECT_EQ(rec.oddBase, flavour == 2) << rec.variant;
            EXPECT_NE(rec.variant.find(" normalized"), std::string::npos) << rec.variant;
        }
    }
    q.normalizedValues = false;
    q.linearFetch = false;
    q.oddBase = false;
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, q, &records).ok());
    for (const vkspd::OccupancyRecord& rec : records) {
        EXPECT_FALSE(rec.normalizedValues) << rec.variant;
        EXPECT_EQ(rec.variant.find("normalized"), std::string::npos) << rec.variant;
    }
    q.reductions = {vkspd::Reduction::Custom};
    EXPECT_FALSE(vkspd::queryOccupancy(h->context, q, &records).ok());
}

// usesNormalizedFlavour names the formats whose halo-stage pipelines generateMips specializes for
// normalized values: UNORM, SNORM and sRGB read from the image itself, never from a source, and
// never float or depth formats.
TEST(NormalizedFlavour, NormalizedFormatsReadFromTheImage) {
    for (VkFormat f : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_SNORM,
                       VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_A2B10G10R10_UNORM_PACK32}) {
        EXPECT_TRUE(vkspd::usesNormalizedFlavour(f, false)) << f;
        EXPECT_FALSE(vkspd::usesNormalizedFlavour(f, true)) << f;
    }
    for (VkFormat f : {VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT,
                       VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_D32_SFLOAT, VK_FORMAT_UNDEFINED})
        EXPECT_FALSE(vkspd::usesNormalizedFlavour(f, false)) << f;
}

// The tools' queryEveryFlavour (vkspd-bench, vkspd-pipeline-stats): every kernel's records at four
// channels with loads, then each flavour generateMips also builds of the plain-chain, halo-stage
// and summed-levels kernels exactly once: the halo-stage kernel at each requested count with
// loads, and the three through the linear sampler (the halo-stage kernel at those counts and
// four), and the halo-stage kernel on an odd base at those counts and four (loads only), and the
// three through the gather (the halo-stage kernel at one channel); then the halo-stage kernel's
// normalized flavours at the normalized counts (loads, sampler, odd base; the gather at one).
TEST_F(GpuTest, QueryEveryFlavourAddsEachPlainAndHaloFlavourOnce) {
    std::vector<vkspd::OccupancyRecord> base, every;
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, {}, &base).ok());
    ASSERT_TRUE(vkspd_tools::queryEveryFlavour(h->context, {}, {1u, 4u}, &every, {1u}).ok());
    ASSERT_GE(every.size(), base.size());
    for (size_t i = 0; i < base.size(); ++i) EXPECT_EQ(every[i].variant, base[i].variant);
    std::vector<std::string> names;
    size_t plainLinear = 0, sumsLinear = 0, haloOne = 0, haloOneLinear = 0, haloFourLinear = 0, oddOne = 0, oddFour = 0,
           normalizedOne = 0, plainGather = 0, sumsGather = 0, haloGather = 0;
    for (const vkspd::OccupancyRecord& rec : every) {
        EXPECT_EQ(std::count(names.begin(), names.end(), rec.variant), 0) << rec.variant;
        names.push_back(rec.variant);
        if (!rec.plainChain && !rec.haloStages && !rec.summedLevels) {
            EXPECT_FALSE(rec.linearFetch) << rec.variant;
            EXPECT_FALSE(rec.gatherFetch) << rec.variant;
            EXPECT_EQ(rec.channels, 4u) << rec.variant;
        }
        EXPECT_EQ(rec.gatherFetch, rec.variant.find(" gather") != std::string::npos) << rec.variant;
        if (rec.gatherFetch) {
            EXPECT_FALSE(rec.linearFetch || rec.oddBase) << rec.variant;
            EXPECT_EQ(rec.channels, rec.haloStages ? 1u : 4u) << rec.variant;
        }
        plainGather += rec.plainChain && rec.gatherFetch ? 1 : 0;
        sumsGather += rec.summedLevels && rec.gatherFetch ? 1 : 0;
        haloGather += rec.haloStages && rec.gatherFetch && !rec.normalizedValues ? 1 : 0;
        if (rec.plainChain || rec.summedLevels) {
            EXPECT_EQ(rec.channels, 4u) << rec.variant;
        }
        plainLinear += rec.plainChain && rec.linearFetch ? 1 : 0;
        sumsLinear += rec.summedLevels && rec.linearFetch ? 1 : 0;
        if (rec.normalizedValues) {
            EXPECT_TRUE(rec.haloStages) << rec.variant;
            EXPECT_EQ(rec.channels, 1u) << rec.variant;
            ++normalizedOne;
            continue;
        }
        haloOne += rec.haloStages && rec.channels == 1 && !rec.linearFetch && !rec.oddBase && !rec.gatherFetch ? 1 : 0;
        haloOneLinear += rec.haloStages && rec.channels == 1 && rec.linearFetch ? 1 : 0;
        haloFourLinear += rec.haloStages && rec.channels == 4 && rec.linearFetch ? 1 : 0;
        EXPECT_EQ(rec.oddBase, rec.variant.find(" odd base") != std::string::npos) << rec.variant;
        if (rec.oddBase) {
            EXPECT_TRUE(rec.haloStages) << rec.variant;
            EXPECT_FALSE(rec.linearFetch) << rec.variant;
        }
        oddOne += rec.oddBase && rec.channels == 1 ? 1 : 0;
        oddFour += rec.oddBase && rec.channels == 4 ? 1 : 0;
    }
    size_t plainLoads = 0;
    for (const vkspd::OccupancyRecord& rec : base) plainLoads += rec.plainChain ? 1 : 0;
    EXPECT_EQ(plainLinear, plainLoads);
    EXPECT_EQ(sumsLinear, plainLoads);
    EXPECT_EQ(haloOne, plainLoads);
    EXPECT_EQ(haloOneLinear, plainLoads);
    EXPECT_EQ(haloFourLinear, plainLoads);
    EXPECT_EQ(oddOne, plainLoads);
    EXPECT_EQ(oddFour, plainLoads);
    EXPECT_EQ(plainGather, plainLoads);
    EXPECT_EQ(sumsGather, plainLoads);
    EXPECT_EQ(haloGather, plainLoads);
    EXPECT_EQ(normalizedOne, 4 * plainLoads);  // loads, the linear sampler, an odd base, the gather
    EXPECT_EQ(every.size(), base.size() + 14 * plainLoads);
}

// The gather's records are those of the kernels that gather: the plain-chain, halo-stage and
// summed-levels kernels, never the general kernel, and never MinMax, whose images have two channels.
TEST_F(GpuTest, OccupancyGatherRecordsAreTheGatheringKernelsOnly) {
    vkspd::OccupancyQueryInfo query;
    query.reductions = {vkspd::Reduction::Min, vkspd::Reduction::MinMax};
    query.gatherFetch = true;
    query.channels = 1;
    std::vector<vkspd::OccupancyRecord> records;
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, query, &records).ok());
    EXPECT_EQ(records.empty(), !h->quad);
    for (const vkspd::OccupancyRecord& rec : records) {
        EXPECT_TRUE(rec.plainChain || rec.haloStages || rec.summedLevels) << rec.variant;
        EXPECT_EQ(rec.reduction, vkspd::Reduction::Min) << rec.variant;
        EXPECT_TRUE(rec.gatherFetch) << rec.variant;
        EXPECT_NE(rec.variant.find(" gather"), std::string::npos) << rec.variant;
    }
    query.linearFetch = true;  // no pipeline both samples and gathers
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, query, &records).ok());
    EXPECT_TRUE(records.empty());
}

// usesHalfDenormalFlavour says which FP16 record of queryOccupancy a format's pipelines are: the
// half-denormals record exists exactly where some format takes it, and only formats whose texels a
// half denormal can change (16-bit float, B10G11R11) take it; 8-bit formats never do.
TEST_F(GpuTest, HalfDenormalFlavourMatchesTheOccupancyRecords) {
    std::vector<vkspd::OccupancyRecord> records;
    ASSERT_TRUE(vkspd::queryOccupancy(h->context, {}, &records).ok());
    bool flavourRecord = false;
    for (const vkspd::OccupancyRecord& r : records) flavourRecord = flavourRecord || r.halfDenormals;
    EXPECT_EQ(vkspd::usesHalfDenormalFlavour(h->context, VK_FORMAT_R16G16B16A16_SFLOAT), flavourRecord);
    EXPECT_EQ(vkspd::usesHalfDenormalFlavour(h->context, VK_FORMAT_B10G11R11_UFLOAT_PACK32), flavourRecord);
    EXPECT_FALSE(vkspd::usesHalfDenormalFlavour(h->context, VK_FORMAT_R8G8B8A8_UNORM));
    EXPECT_FALSE(vkspd::usesHalfDenormalFlavour(h->context, VK_FORMAT_R8G8B8A8_SRGB));
    EXPECT_FALSE(vkspd::usesHalfDenormalFlavour(nullptr, VK_FORMAT_R16G16B16A16_SFLOAT));
    EXPECT_FALSE(vkspd::usesHalfDenormalFlavour(h->context, VK_FORMAT_UNDEFINED));
}
