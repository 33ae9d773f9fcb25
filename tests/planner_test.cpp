#include "planner.hpp"

#include <vkspd/formats.hpp>

#include <gtest/gtest.h>

using vkspd::Plan;

namespace {

Plan plan(uint32_t w, uint32_t h, uint32_t levels = UINT32_MAX, uint32_t layers = 1,
          uint32_t channels = 4) {
    Plan p;
    std::string error;
    if (levels == UINT32_MAX) levels = vkspd::fullMipCount(w, h) - 1;
    EXPECT_TRUE(vkspd::makePlan(w, h, levels, layers, channels, &p, &error)) << error;
    return p;
}

}  // namespace

TEST(Planner, GroupsAreTilesOf64AndLayers) {
    EXPECT_EQ(plan(1, 1).groupsX(), 0u);  // nothing to write: no dispatch
    EXPECT_EQ(plan(2, 2).groupsX(), 1u);
    EXPECT_EQ(plan(64, 64).groupsX(), 1u);
    EXPECT_EQ(plan(65, 63).groupsX(), 2u);
    EXPECT_EQ(plan(65, 63).groupsY(), 1u);
    EXPECT_EQ(plan(4096, 4096).groupsX(), 64u);
    EXPECT_EQ(plan(4095, 3).groupsX(), 64u);
    EXPECT_EQ(plan(1920, 1080).groupsX(), 30u);
    EXPECT_EQ(plan(1920, 1080).groupsY(), 17u);
    EXPECT_EQ(plan(32768, 32768).groupsX(), 512u);
    EXPECT_EQ(plan(256, 256, UINT32_MAX, 7).layers, 7u);
}

TEST(Planner, StagesCascadeEverySixLevels) {
    Plan p = plan(4096, 4096);
    EXPECT_EQ(p.levels, 12u);
    EXPECT_EQ(p.stageCount, 2u);
    EXPECT_EQ(p.stages[0].levels, 6u);
    EXPECT_EQ(p.stages[1].firstLevel, 7u);
    EXPECT_EQ(p.stages[1].levels, 6u);
    EXPECT_EQ(p.stages[1].tilesX, 1u);
    EXPECT_EQ(p.stages[0].keptWidth, 64u);

    Plan big = plan(32768, 32768);
    EXPECT_EQ(big.levels, 15u);
    EXPECT_EQ(big.stageCount, 3u);
    EXPECT_EQ(big.stages[1].sourceWidth, 512u);
    EXPECT_EQ(big.stages[1].tilesX, 8u);
    EXPECT_EQ(big.stages[2].tilesX, 1u);
    EXPECT_EQ(big.stages[2].levels, 3u);
    EXPECT_EQ(big.stages[1].keptWidth, 8u);
    EXPECT_EQ(big.stages[2].keptWidth, 0u);  // last stage keeps nothing

    Plan thin = plan(16384, 64);
    EXPECT_EQ(thin.levels, 14u);
    EXPECT_EQ(thin.stageCount, 3u);
    EXPECT_EQ(thin.stages[1].sourceWidth, 256u);
    EXPECT_EQ(thin.stages[1].sourceHeight, 1u);
    EXPECT_EQ(thin.stages[1].tilesX, 4u);

    Plan small = plan(64, 64);
    EXPECT_EQ(small.stageCount, 1u);
    EXPECT_EQ(plan(1, 1).stageCount, 0u);
    Plan partial = plan(1024, 1024, 3);
    EXPECT_EQ(partial.levels, 3u);
    EXPECT_EQ(partial.stages[0].levels, 3u);
}

TEST(Planner, DependencyMasksFollowOddLevelsPerStage) {
    // 1080 rows: 1080 540 270 135 67 33 16: odd at levels 3, 4, 5, so levels 4..6 of a tile's
    // last row read the next tile.
    Plan hd = plan(1920, 1080);
    EXPECT_EQ(hd.stages[0].depMaskX, 0u);
    EXPECT_EQ(hd.stages[0].depMaskY, (1u << 4) | (1u << 5) | (1u << 6));
    // Every level of 4095 is odd; the second stage is a single tile, so nothing depends there.
    Plan odd = plan(4095, 4095);
    EXPECT_EQ(odd.stages[0].depMaskX, 0x7Eu);
    EXPECT_EQ(odd.stages[1].depMaskX, 0u);
    // 12289 wide: the second stage has 192 texels of source (three tiles), odd at its level 0.
    Plan wide = plan(12289, 65);
    EXPECT_EQ(wide.stages[1].sourceWidth, 192u);
    EXPECT_EQ(wide.stages[1].tilesX, 3u);
    EXPECT_EQ(wide.stages[1].depMaskX, 0u);  // 192 96 48 24 12 6: all even
    Plan wideOdd = plan(16383, 3);
    EXPECT_EQ(wideOdd.stages[1].sourceWidth, 255u);
    EXPECT_EQ(wideOdd.stages[1].depMaskX, 0x7Eu);
    // One tile has no neighbour to depend on; powers of two never depend.
    EXPECT_EQ(plan(63, 63).stages[0].depMaskX, 0u);
    Plan pot = plan(4096, 2048);
    EXPECT_EQ(pot.stages[0].depMaskX | pot.stages[0].depMaskY, 0u);
    EXPECT_EQ(plan(127, 129).stages[0].depMaskX, 0x7Eu);
    // A 1-texel axis is never "odd" in the three-tap sense.
    EXPECT_EQ(plan(1, 4095).stages[0].depMaskX, 0u);
}

TEST(Planner, QuadPathOnlyWhereLevelsOneAndTwoAreEven) {
    EXPECT_TRUE(plan(4096, 4096).quadLevels12);
    EXPECT_TRUE(plan(1920, 1080).quadLevels12);  // 1920/960, 1080/540
    EXPECT_FALSE(plan(4095, 4096).quadLevels12);
    EXPECT_FALSE(plan(2, 2).quadLevels12);        // one level only
    EXPECT_FALSE(plan(6, 8).quadLevels12);        // level 1 is 3 wide
    EXPECT_TRUE(plan(4, 4).quadLevels12);
}

TEST(Planner, ScratchLayoutPerLayer) {
    Plan p = plan(4095, 4095, UINT32_MAX, 1, 4);
    // Stage 0: edge counters for 64x64 tiles, then one election counter (stage 1 has one tile).
    EXPECT_EQ(p.stages[0].edgeCounters, 0u);
    EXPECT_EQ(p.stages[0].electCounters, 64u * 64u * 3u);
    EXPECT_EQ(p.countersPerLayer, 64u * 64u * 3u + 1u);
    // Data: stage-0 records, then the 63x63 kept level 6.
    EXPECT_EQ(p.stages[0].records, 0u);
    EXPECT_EQ(p.stages[0].kept, 64u * 64u * VKSPD_RECORD_SIZE);
    EXPECT_EQ(p.dataPerLayer, 64u * 64u * VKSPD_RECORD_SIZE + 63u * 63u);
    EXPECT_EQ(p.dataBytes, uint64_t(p.dataPerLayer) * 16u);
    // Channels and layers scale the data.
    Plan r = plan(4095, 4095, UINT32_MAX, 6, 1);
    EXPECT_EQ(r.dataBytes, uint64_t(r.dataPerLayer) * 4u * 6u);
    EXPECT_EQ(r.counterBytes, uint64_t(r.countersPerLayer) * 4u * 6u);
    // Without odd levels there are no records or edge counters: stage 1's tile counter, then its
    // four quadrant counters (vkspd_plain.comp); the kept level 6, the quadrants' kept level 11
    // (2x2), then the plain kernel's warm texel (Plan::warmTexel), last.
    Plan even = plan(4096, 4096);
    EXPECT_EQ(even.stages[0].electCounters, 0u);
    EXPECT_EQ(even.stages[1].quadrantCounters, 1u);
    EXPECT_EQ(even.countersPerLayer, 1u + 4u);
    EXPECT_EQ(even.stages[1].quadrantKept, 64u * 64u);
    EXPECT_EQ(even.warmTexel, 64u * 64u + 2u * 2u);
    EXPECT_EQ(even.dataPerLayer, 64u * 64u + 4u + 1u);
    // The push constants carry the quadrants in the stage's edge-counter and record fields.
    auto evenPc = vkspd::pushConstantsFor(even);
    EXPECT_EQ(evenPc.stage[1].edgeCounters, 1u);
    EXPECT_EQ(evenPc.stage[1].records, 64u * 64u);
    // A chain that is not plain has no quadrants.
    EXPECT_EQ(p.stages[1].quadrantCounters, 0u);
    EXPECT_EQ(p.stages[1].quadrantKept, 0u);
    // No warm texel without a later stage, or for the general kernel's chains.
    EXPECT_EQ(plan(64, 64).warmTexel, 0u);
    EXPECT_EQ(plan(64, 64).dataPerLayer, 0u);
    EXPECT_EQ(p.warmTexel, 0u);
    // Three stages over several layers: the warm texel is the last of each layer's data, past
    // every kept level, and the data binding holds it in every layer.
    Plan big = plan(16384, 16384, UINT32_MAX, 3, 4);
    ASSERT_EQ(big.stageCount, 3u);
    EXPECT_EQ(big.warmTexel + 1u, big.dataPerLayer);
    for (uint32_t s = 0; s + 1 < big.stageCount; ++s)
        EXPECT_LE(big.stages[s].kept + big.stages[s].keptWidth * big.stages[s].keptHeight, big.warmTexel) << s;
    // Stages 1 and 2: 4x4 and 1x1 tiles, four quadrant counters each after the tile counters
    // (16 for stage 1's tiles, 1 for stage 2's); their kept level 11 (8x8) and 17 (1x1), before
    // the warm texel.
    EXPECT_EQ(big.stages[1].quadrantCounters, 16u + 1u);
    EXPECT_EQ(big.stages[2].quadrantCounters, 16u + 1u + 64u);
    EXPECT_EQ(big.countersPerLayer, 16u + 1u + 64u + 4u);
    EXPECT_EQ(big.stages[2].quadrantKept, big.stages[1].quadrantKept + 64u);
    EXPECT_EQ(big.stages[2].quadrantKept + 1u, big.warmTexel);
    EXPECT_EQ(big.dataBytes, uint64_t(big.dataPerLayer) * 16u * 3u);
    auto pc = vkspd::pushConstantsFor(p);
    EXPECT_EQ(pc.stages, 2u);
    EXPECT_EQ(pc.stage[0].tilesX, 64u);
    EXPECT_EQ(pc.stage[0].depMask, 0x7Eu | (0x7Eu << 16));
    EXPECT_LE(sizeof(pc), 128u);  // Vulkan's guaranteed maxPushConstantsSize
}

TEST(Planner, RecordLayoutIsConsistent) {
    EXPECT_EQ(VKSPD_STRIP, 32 + 16 + 8 + 4 + 2 + 1);
    EXPECT_EQ(VKSPD_REC_LEFT, VKSPD_REC_RIGHT + VKSPD_STRIP);
    EXPECT_EQ(VKSPD_REC_BOTTOM, VKSPD_REC_LEFT + VKSPD_STRIP);
    EXPECT_EQ(VKSPD_REC_TOP, VKSPD_REC_BOTTOM + VKSPD_STRIP);
    EXPECT_EQ(VKSPD_REC_CORNER, VKSPD_REC_TOP + VKSPD_STRIP);
    EXPECT_EQ(VKSPD_RECORD_SIZE, VKSPD_REC_CORNER_TL + VKSPD_TILE_LEVELS);
    EXPECT_EQ(VKSPD_MAX_LEVELS, VKSPD_MAX_STAGES * VKSPD_TILE_LEVELS);
}

TEST(Planner, HaloOfSpecSection3) {
    EXPECT_EQ(vkspd::haloTexels(1080, 6), 56u);
    EXPECT_EQ(vkspd::haloTexels(2160, 6), 48u);
    EXPECT_EQ(vkspd::haloTexels(4095, 6), 63u);
    EXPECT_EQ(vkspd::haloTexels(4096, 6), 0u);
}

TEST(Planner, RejectsWhatOneDispatchCannotDo) {
    Plan p;
    std::string error;
    EXPECT_FALSE(vkspd::makePlan(0, 5, 0, 1, 4, &p, &error));
    EXPECT_NE(error.find("empty"), std::string::npos) << error;
    EXPECT_FALSE(vkspd::makePlan(8, 8, 4, 1, 4, &p, &error));
    EXPECT_NE(error.find("exceed"), std::string::npos) << error;
    EXPECT_FALSE(vkspd::makePlan(1u << 20, 4, 20, 1, 4, &p, &error));
    EXPECT_NE(error.find("at most 18"), std::string::npos) << error;
    EXPECT_FALSE(vkspd::makePlan(8, 8, 3, 0, 4, &p, &error));
    // 2048 layers of an odd 16383x16383 RGBA base: its scratch cannot be indexed in 32 bits.
    EXPECT_FALSE(vkspd::makePlan(16383, 16383, 13, 2048, 4, &p, &error));
    EXPECT_NE(error.find("fewer layers"), std::string::npos) << error;
    EXPECT_FALSE(vkspd::makePlan(8, 8, 3, 1, 5, &p, &error));
    EXPECT_FALSE(vkspd::makePlan(8, 8, 3, 1, 0, &p, &error));
    // Three channels (B10G11R11) keep three floats per data texel.
    ASSERT_TRUE(vkspd::makePlan(9, 9, 3, 1, 3, &p, &error)) << error;
    EXPECT_EQ(p.channels, 3u);
}

// --- The plain-chain kernel (shaders/vkspd_plain.comp) -----------------------------------------

TEST(Planner, PlainChainsHaveEveryAxisEvenOrOneAtEveryLevelRead) {
    // Square powers of two, their thin cousins, and axes of 1.
    for (uint32_t s : {2u, 4u, 64u, 4096u, 16384u, 32768u}) EXPECT_TRUE(plan(s, s).plain) << s;
    EXPECT_TRUE(plan(4096, 1).plain);
    EXPECT_TRUE(plan(1, 512).plain);
    EXPECT_TRUE(plan(2048, 2).plain);
    EXPECT_TRUE(plan(128, 64).plain);
    EXPECT_TRUE(plan(1, 2).plain);
    // Full chains of unequal powers of two end on an axis of 1, which is plain (dst = src).
    EXPECT_TRUE(plan(4096, 1024).plain);
    // Any odd extent above 1 at a level that is read: not plain.
    for (auto [w, h] : {std::pair{3u, 5u}, {63u, 65u}, {4095u, 4095u}, {1920u, 1080u}, {3840u, 2160u},
                        {4096u, 3072u}, {6u, 4u}, {4096u, 4095u}})
        EXPECT_FALSE(plan(w, h).plain) << w << "x" << h;
    // A partial range is plain when the levels it reads are: 1920x1080 halves cleanly 3 times
    // (1080 -> 540 -> 270 -> 135), and 3840x2160 four times.
    EXPECT_TRUE(plan(1920, 1080, 3).plain);
    EXPECT_FALSE(plan(1920, 1080, 4).plain);
    EXPECT_TRUE(plan(3840, 2160, 4).plain);
    EXPECT_FALSE(plan(3840, 2160, 5).plain);
    // The rule on its own, and that it only looks at the levels read.
    EXPECT_TRUE(vkspd::isPlainChain(3, 3, 0));
    EXPECT_FALSE(vkspd::isPlainChain(3, 3, 1));
    EXPECT_TRUE(vkspd::isPlainChain(12, 8, 2));   // 12 -> 6 -> 3: level 2 is made from 6
    EXPECT_FALSE(vkspd::isPlainChain(12, 8, 3));  // level 3 would be made from 3
}

TEST(Planner, PlainChainsKeepOneTexelPerTileForTheNextStage) {
    // The kernel counts exactly one kept texel per tile of a stage with a next one: the kept level
    // of a plain chain is as large as the stage's tile grid.
    for (auto [w, h] : {std::pair{4096u, 4096u}, {16384u, 64u}, {2u, 8192u}, {32768u, 1024u}, {8192u, 8192u}}) {
        Plan p = plan(w, h);
        ASSERT_TRUE(p.plain);
        for (uint32_t s = 0; s + 1 < p.stageCount; ++s) {
            EXPECT_EQ(p.stages[s].keptWidth, p.stages[s].tilesX) << w << "x" << h << " stage " << s;
            EXPECT_EQ(p.stages[s].keptHeight, p.stages[s].tilesY) << w << "x" << h << " stage " << s;
            EXPECT_EQ(p.stages[s].depMaskX | p.stages[s].depMaskY, 0u);
        }
    }
}

TEST(Planner, TilesPerGroupRuleAndRequests) {
    // Default: the largest of 1, 2, 4, 8 leaving at least kMinPlainGroups groups.
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(4096, 4096), 0, 4), 8u);    // 64x64 tiles -> 8x64 = 512 groups
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(2048, 2048), 0, 4), 4u);    // 32x32 -> 8x32 = 256
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(1024, 1024), 0, 4), 1u);    // 16x16 = 256 already
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(16384, 16384), 0, 4), 8u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(256, 256), 0, 4), 1u);
    // Layers count: 64 layers of 512x512 are 64x64 tiles.
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(512, 512, UINT32_MAX, 64), 0, 4), 8u);
    // Never more than the row needs: 3 tile columns are covered by 4.
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(192, 128), 32, 4), 4u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(4096, 64), 32, 4), 32u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(4096, 64), 2, 4), 2u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(64, 64), 8, 4), 1u);
    // The default never crosses a 32-tile quadrant of a 64-tile block: it divides 32.
    for (uint32_t s : {64u, 512u, 2048u, 8192u, 32768u}) {
        for (uint32_t bytes : {1u, 4u, 8u, 16u}) {
            const uint32_t k = vkspd::tilesPerGroupFor(plan(s, s), 0, bytes);
            EXPECT_EQ(32u % k, 0u) << s << " " << bytes;
        }
    }
}

TEST(Planner, SampledNarrowTexelsOnTheFp16PathLeaveAtLeast512Groups) {
    // The FP16 path through the linear sampler, texels of at most 4 bytes: 512 groups.
    EXPECT_EQ(vkspd::plainMinGroups(4, true, true), vkspd::kMinSampledGroups);
    EXPECT_EQ(vkspd::plainMinGroups(1, true, true), vkspd::kMinSampledGroups);
    EXPECT_EQ(vkspd::kMinSampledGroups, 512u);
    // Anything else keeps 256: wider texels, the FP32 path, loads or gathers.
    EXPECT_EQ(vkspd::plainMinGroups(8, true, true), vkspd::kMinPlainGroups);
    EXPECT_EQ(vkspd::plainMinGroups(4, false, true), vkspd::kMinPlainGroups);
    EXPECT_EQ(vkspd::plainMinGroups(4, true, false), vkspd::kMinPlainGroups);
    const uint32_t m = vkspd::kMinSampledGroups;
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(2048, 2048), 0, 4, m), 2u);   // 32x32 tiles -> 16x32 = 512
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(4096, 2048), 0, 4, m), 4u);   // 64x32 -> 16x32 = 512
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(2048, 1024), 0, 4, m), 1u);   // 32x16 = 512
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(4096, 4096), 0, 4, m), 8u);   // 8x64 = 512 already
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(8192, 8192), 0, 4, m), 8u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(1024, 1024), 0, 4, m), 1u);   // fewer tiles than 512
    // The 256 rule at the same sizes, and a request is kept.
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(4096, 2048), 0, 4), 8u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(2048, 1024), 0, 4), 2u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(2048, 2048), 8, 4, m), 8u);
}

TEST(Planner, WideTexelsTakeFourTilesPerGroupFrom8192) {
    // 8-byte and 16-byte texels: at most 4 from 128x128 tiles (8192^2) over all layers.
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(8192, 8192), 0, 8), 4u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(16384, 16384), 0, 8), 4u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(16384, 16384), 0, 16), 4u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(32768, 2048), 0, 8), 4u);                   // 512x32 tiles
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(4096, 4096, UINT32_MAX, 4), 0, 8), 4u);     // 4 layers of 64x64
    // Below that, and for texels of up to 4 bytes, the groups rule alone.
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(4096, 4096), 0, 8), 8u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(8192, 8064), 0, 8), 8u);                    // 128x126 tiles
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(2048, 2048), 0, 16), 4u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(8192, 8192), 0, 4), 8u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(16384, 16384), 0, 2), 8u);
    // A request is kept whatever the texel size.
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(8192, 8192), 8, 8), 8u);
    EXPECT_EQ(vkspd::tilesPerGroupFor(plan(8192, 8192), 16, 16), 16u);
}

TEST(Planner, PlainGroupsCoverTheTileRowInStrips) {
    Plan p = plan(4096, 4096);
    p.tilesPerGroup = 8;
    EXPECT_EQ(p.groupsX(), 8u);
    EXPECT_EQ(p.groupsY(), 64u);
    p.tilesPerGroup = 64;
    EXPECT_EQ(p.groupsX(), 1u);
    Plan q = plan(192, 128);  // 3 tile columns in strips of 2: the last strip has one tile
    q.tilesPerGroup = 2;
    EXPECT_EQ(q.groupsX(), 2u);
    EXPECT_EQ(vkspd::pushConstantsFor(q).tilesPerGroup, 2u);
    EXPECT_EQ(vkspd::pushConstantsFor(plan(64, 64)).tilesPerGroup, 1u);
}

// The tail (Tuning::tailTiles): the last tiles of each layer, in whole rows, in shorter strips;
// each tail row takes tilesPerGroup / tailTilesPerGroup rows of workgroups.
TEST(Planner, TailStripsTakeTheLastRows) {
    Plan p = plan(8192, 8192);  // 128x128 tiles
    ASSERT_EQ(p.tailRow, 128u);  // makePlan: no tail
    ASSERT_EQ(p.groupsY(), 128u);
    p.tilesPerGroup = 8;
    vkspd::setTail(&p, 0, 0);  // the default rule: the last 2048 tiles (16 rows) in strips of 2
    EXPECT_EQ(p.tailRow, 112u);
    EXPECT_EQ(p.tailTilesPerGroup, 2u);
    EXPECT_EQ(p.groupsX(), 16u);
    EXPECT_EQ(p.groupsY(), 112u + 16u * 4u);
    EXPECT_EQ(vkspd::pushConstantsFor(p).tail, (112u << 8) | 2u);
    vkspd::setTail(&p, 1000, 1);  // 1000 tiles: 8 rows (1024 tiles)
    EXPECT_EQ(p.tailRow, 120u);
    EXPECT_EQ(p.groupsY(), 120u + 8u * 8u);
    vkspd::setTail(&p, 1u << 30, 4);  // more tiles than the layer has: every row
    EXPECT_EQ(p.tailRow, 0u);
    EXPECT_EQ(p.groupsY(), 128u * 2u);
    for (auto [tiles, per] : {std::pair{0u, 1u}, {2048u, 8u}, {2048u, 16u}}) {  // no tail
        vkspd::setTail(&p, tiles, per);
        EXPECT_EQ(p.tailRow, 128u) << tiles << " " << per;
        EXPECT_EQ(p.tailTilesPerGroup, 8u) << tiles << " " << per;
        EXPECT_EQ(p.groupsY(), 128u);
        EXPECT_EQ(vkspd::pushConstantsFor(p).tail, (128u << 8) | 8u);
    }
    // The default rule leaves bases of fewer than 128x128 tiles per layer alone, layers or not.
    for (Plan q : {plan(4096, 4096), plan(8192, 8064), plan(4096, 4096, UINT32_MAX, 4)}) {
        q.tilesPerGroup = 8;
        vkspd::setTail(&q, 0, 0);
        EXPECT_EQ(q.tailRow, q.stages[0].tilesY);
        EXPECT_EQ(q.groupsY(), q.stages[0].tilesY);
    }
    Plan wide = plan(32768, 2048);  // 512x32 tiles: 2048 tiles are 4 rows
    wide.tilesPerGroup = 4;
    vkspd::setTail(&wide, 0, 0);
    EXPECT_EQ(wide.tailRow, 28u);
    EXPECT_EQ(wide.groupsY(), 28u + 4u * 2u);
    // The dispatch stays within 65535 rows of workgroups: 4096 tile rows in strips of 64, the tail in
    // strips of 1, give each tail row 64 rows of workgroups, so at most (65535 - 4096) / 63 = 975
    // tail rows.
    Plan huge = plan(262144, 262144);
    huge.tilesPerGroup = 64;
    vkspd::setTail(&huge, 1u << 30, 1);
    EXPECT_EQ(huge.tailRow, 4096u - 975u);
    EXPECT_LE(huge.groupsY(), 65535u);
    EXPECT_GT(huge.groupsY() + 63u, 65535u);
    // One tile per group already: a tail of 1 is none.
    Plan ones = plan(8192, 8192);
    ones.tilesPerGroup = 1;
    vkspd::setTail(&ones, 0, 0);
    EXPECT_EQ(ones.tailRow, 128u);
    EXPECT_EQ(ones.tailTilesPerGroup, 1u);
}

// The general kernel's one call site (VKSPD_SPEC_ONE_SITE) where levels 1 and 2 are plain.
TEST(Planner, OneSiteWhereLevelsOneAndTwoArePlain) {
    EXPECT_TRUE(vkspd::oneSiteFor(plan(1920, 1080)));
    EXPECT_TRUE(vkspd::oneSiteFor(plan(3840, 2160)));
    EXPECT_TRUE(vkspd::oneSiteFor(plan(4096, 4096)));
    EXPECT_FALSE(vkspd::oneSiteFor(plan(4095, 4095)));
    EXPECT_FALSE(vkspd::oneSiteFor(plan(4098, 4096)));  // level 1 (2049) is odd
    EXPECT_FALSE(vkspd::oneSiteFor(plan(1, 1, 0)));     // no level written
}

// The halo-stage kernel's stages: a plain prefix of P levels (at most 6), then stages as deep as a
// halo of at most VKSPD_HALO_MAX texels per axis allows, the last taking every level once its
// source is one tile; the scratch holds each stage's last level and one counter per later tile.
TEST(Planner, HaloStagesFollowThePlainPrefixAndTheHaloBound) {
    Plan p = plan(1920, 1080);  // 960x540, 480x270, 240x135 plain; 135 odd
    ASSERT_EQ(p.halo.stageCount, 3u) << p.halo.refusal;
    EXPECT_EQ(p.halo.stages[0].levels, 3u);
    EXPECT_EQ(p.halo.stages[1].firstLevel, 4u);
    EXPECT_EQ(p.halo.stages[1].levels, 4u);  // 135 -> 67 -> 33 -> 16: h = 7 along y
    EXPECT_EQ(p.halo.stages[1].haloX, 0u);
    EXPECT_EQ(p.halo.stages[1].haloY, 7u);
    EXPECT_EQ(p.halo.stages[1].tile, uint32_t(VKSPD_TILE));
    EXPECT_EQ(p.halo.stages[1].tilesX, 4u);
    EXPECT_EQ(p.halo.stages[1].tilesY, 2u);  // 135 = 2 * 64 + 7: the last row owns the 7 too
    EXPECT_EQ(p.halo.stages[2].firstLevel, 8u);  // from 15x8: one tile, every remaining level
    EXPECT_EQ(p.halo.stages[2].levels, 3u);
    EXPECT_EQ(p.halo.stages[2].haloY, 0u);
    EXPECT_EQ(p.halo.stages[1].kept, 240u * 135);  // stage 0 keeps level 3 at 0, stage 1 level 7
    EXPECT_EQ(p.halo.dataPerLayer, 240u * 135 + 15 * 8);
    EXPECT_EQ(p.halo.countersPerLayer, 8u + 1);
    // The kernel's layout (useHaloStages): the same stages in 32-texel tiles, four times as many.
    Plan small = p;
    vkspd::useHaloStages(&small, 0, 16);
    ASSERT_EQ(small.halo.stageCount, 3u);
    EXPECT_EQ(small.halo.stages[1].tile, uint32_t(VKSPD_HALO_TILE));
    EXPECT_EQ(small.halo.stages[1].levels, 4u);
    EXPECT_EQ(small.halo.stages[1].tilesX, 8u);  // 240 = 7.5 * 32: the half tile exceeds a halo of 0
    EXPECT_EQ(small.halo.stages[1].tilesY, 4u);  // 135 = 4 * 32 + 7
    EXPECT_EQ(small.halo.stages[2].tile, uint32_t(VKSPD_TILE));
    EXPECT_EQ(small.halo.countersPerLayer, 32u + 1);
    EXPECT_EQ(small.countersPerLayer, 32u + 1);
    EXPECT_EQ(small.dataPerLayer, p.halo.dataPerLayer);
    // Not where one 64-texel tile holds an axis: 1280x720's level 4 is 80x45, whose 45 rows
    // would need a halo of 5 in 32-texel tiles.
    Plan hd = plan(1280, 720);
    vkspd::useHaloStages(&hd, 0, 16);
    EXPECT_EQ(hd.halo.stages[1].tile, uint32_t(VKSPD_TILE));
    EXPECT_EQ(hd.halo.stageCount, plan(1280, 720).halo.stageCount);
    // Called again, the same layout.
    vkspd::useHaloStages(&small, 0, 16);
    EXPECT_EQ(small.halo.stages[1].tile, uint32_t(VKSPD_HALO_TILE));
    EXPECT_EQ(small.countersPerLayer, 32u + 1);
    // Every stage's halo, rebuilt from its levels, stays within the bound.
    for (uint32_t w : {1920u, 2560u, 3840u, 1000u, 1280u, 640u, 20u, 12u, 36u, 4u, 16380u, 28u, 4095u, 1366u, 63u, 3u, 1u})
        for (uint32_t h : {1080u, 1440u, 2160u, 600u, 20u, 12u, 4u, 36u, 132u, 16380u, 4095u, 765u, 3u, 1u}) {
            for (bool kernelLayout : {false, true}) {
                Plan q = plan(w, h);
                if (!q.halo.stageCount) continue;
                if (kernelLayout) vkspd::useHaloStages(&q, 0, 16);
                uint32_t levels = 0;
                for (uint32_t s = 0; s < q.halo.stageCount; ++s) {
                    const vkspd::HaloStagePlan& st = q.halo.stages[s];
                    EXPECT_EQ(st.firstLevel, levels + 1) << w << "x" << h << " stage " << s;
                    EXPECT_GE(st.levels, 1u);
                    EXPECT_LE(st.levels, 6u);
                    // A stage's last level keeps at least one own texel per tile.
                    if (s > 0 || q.halo.oddBase) {
                        EXPECT_LE(1u << st.levels, st.tile) << w << "x" << h << " stage " << s;
                    }
                    // 64-texel tiles in makePlan's check, and always for a last stage or a
                    // source that one tile holds along an axis.
                    const uint32_t sw = vkspd::mipExtent(w, st.firstLevel - 1);
                    const uint32_t sh = vkspd::mipExtent(h, st.firstLevel - 1);
                    if ((s > 0 && (!kernelLayout || s + 1 == q.halo.stageCount || sw <= 64 || sh <= 64)) ||
                        (s == 0 && q.halo.oddBase)) {
                        EXPECT_EQ(st.tile, uint32_t(VKSPD_TILE)) << w << "x" << h << " stage " << s;
                    }
                    EXPECT_LE(st.haloX, uint32_t(VKSPD_HALO_MAX));
                    EXPECT_LE(st.haloY, uint32_t(VKSPD_HALO_MAX));
                    levels += st.levels;
                }
                EXPECT_EQ(levels, q.levels) << w << "x" << h;
                // A strip of stage 0 stays in one tile of stage 1.
                if (kernelLayout && !q.halo.oddBase) {
                    EXPECT_LE(q.tilesPerGroup * (VKSPD_TILE >> q.halo.stages[0].levels), q.halo.stages[1].tile)
                        << w << "x" << h;
                }
            }
        }
}

TEST(Planner, HaloStagesRefusedWhereTheChainIsPlainOrTooDeep) {
    EXPECT_EQ(plan(4096, 4096).halo.stageCount, 0u);
    EXPECT_NE(std::string(plan(4096, 4096).halo.refusal).find("plain"), std::string::npos);
    EXPECT_EQ(plan(2048, 1).halo.stageCount, 0u);
    // 2^19 - 1 texels: stage 0 makes levels 1-3, the next four three each, the last would be a
    // sixth stage.
    const Plan deep = plan(524287, 1);
    EXPECT_EQ(deep.halo.stageCount, 0u);
    EXPECT_NE(std::string(deep.halo.refusal).find("more stages"), std::string::npos);
    EXPECT_EQ(plan(262143, 1).halo.stageCount, 5u);
}

// Where the base or its level 1 has an odd side, stage 0 is a stage of 64x64 tiles of the base
// with a halo, by the later stages' rule (HaloPlan::oddBase), one workgroup per tile.
TEST(Planner, HaloStageZeroReadsAnOddBaseInTilesWithAHalo) {
    Plan p = plan(4095, 4095);  // 4095, 2047, 1023, 511: h = 7 after three levels
    ASSERT_EQ(p.halo.stageCount, 3u) << p.halo.refusal;
    EXPECT_TRUE(p.halo.oddBase);
    const vkspd::HaloStagePlan& zero = p.halo.stages[0];
    EXPECT_EQ(zero.firstLevel, 1u);
    EXPECT_EQ(zero.levels, 3u);
    EXPECT_EQ(zero.haloX, 7u);
    EXPECT_EQ(zero.haloY, 7u);
    EXPECT_EQ(zero.tile, uint32_t(VKSPD_TILE));
    EXPECT_EQ(zero.tilesX, 64u);  // 4095 = 63 * 64 + 63: the last 63 exceed the halo
    EXPECT_EQ(zero.tilesY, 64u);
    EXPECT_EQ(p.halo.stages[1].firstLevel, 4u);  // from 511x511
    EXPECT_EQ(p.halo.stages[1].levels, 3u);
    EXPECT_EQ(p.halo.stages[2].firstLevel, 7u);  // from 63x63: one tile, levels 7-11
    EXPECT_EQ(p.halo.stages[2].levels, 5u);
    EXPECT_EQ(zero.kept, 0u);
    EXPECT_EQ(p.halo.stages[1].kept, 511u * 511);
    EXPECT_EQ(p.halo.dataPerLayer, 511u * 511 + 63 * 63);
    EXPECT_EQ(p.halo.countersPerLayer, 64u + 1);  // stage 0 has no counters
    vkspd::useHaloStages(&p, 0, 4);
    EXPECT_EQ(p.tilesPerGroup, 1u);
    EXPECT_EQ(p.groupsX(), 64u);
    EXPECT_EQ(p.groupsY(), 64u);
    EXPECT_EQ(p.halo.stages[0].tile, uint32_t(VKSPD_TILE));  // stage 0 keeps 64-texel tiles
    EXPECT_EQ(p.halo.stages[1].tile, uint32_t(VKSPD_HALO_TILE));
    EXPECT_EQ(p.halo.countersPerLayer, 256u + 1);
    const vkspd::shader::HaloPushConstants pc = vkspd::haloPushConstantsFor(p);
    EXPECT_EQ(pc.stages, 3u);
    EXPECT_EQ(pc.stage[0].shape, 1u | (3u << 8) | (7u << 16) | (7u << 24));
    // The general layout again: its own dispatch.
    vkspd::useGeneralLayout(&p);
    EXPECT_EQ(p.groupsX(), 64u);
    EXPECT_EQ(p.groupsY(), 64u);

    // 1366x768: level 1 is 683x384, so no plain prefix of two; along x the halo stays within 7
    // for four levels (h = 6), along y every level is even.
    Plan wide = plan(1366, 768);
    ASSERT_TRUE(wide.halo.oddBase) << wide.halo.refusal;
    EXPECT_EQ(wide.halo.stages[0].levels, 4u);
    EXPECT_EQ(wide.halo.stages[0].haloX, 6u);
    EXPECT_EQ(wide.halo.stages[0].haloY, 0u);
    EXPECT_EQ(wide.halo.stages[0].tilesX, 22u);  // 1366 = 21 * 64 + 22
    EXPECT_EQ(wide.halo.stages[0].tilesY, 12u);
    // 131x130: 131 = 2 * 64 + 3 and 130 = 2 * 64 + 2, remainders within the halo, which the second
    // tile of each axis owns (bits 5 and 6 of its shape).
    Plan owned = plan(131, 130);
    ASSERT_TRUE(owned.halo.oddBase);
    EXPECT_EQ(owned.halo.stages[0].tilesY, 2u);
    EXPECT_EQ(owned.halo.stages[0].tilesX, 2u);
    vkspd::useHaloStages(&owned, 0, 4);
    EXPECT_EQ(owned.groupsX(), 2u);
    EXPECT_EQ(vkspd::haloPushConstantsFor(owned).stage[0].shape & 0x60u, 0x60u);
    // One tile holds the base: every level in stage 0, no halo, no scratch.
    for (auto e : {std::pair<uint32_t, uint32_t>{63, 63}, {3, 1}, {1, 3}, {4, 3}, {5, 5}, {64, 63}}) {
        Plan one = plan(e.first, e.second);
        ASSERT_EQ(one.halo.stageCount, 1u) << e.first << "x" << e.second;
        EXPECT_TRUE(one.halo.oddBase);
        EXPECT_EQ(one.halo.stages[0].levels, one.levels);
        EXPECT_EQ(one.halo.stages[0].haloX + one.halo.stages[0].haloY, 0u);
        EXPECT_EQ(one.halo.dataPerLayer, 0u);
        EXPECT_EQ(one.halo.countersPerLayer, 0u);
        vkspd::useHaloStages(&one, 0, 4);
        EXPECT_EQ(one.groupsX() * one.groupsY(), 1u);
    }
    // Thin: 4095x3 (y needs no halo: one tile holds it).
    Plan thin = plan(4095, 3);
    ASSERT_TRUE(thin.halo.oddBase);
    EXPECT_EQ(thin.halo.stages[0].levels, 3u);
    EXPECT_EQ(thin.halo.stages[0].haloX, 7u);
    EXPECT_EQ(thin.halo.stages[0].haloY, 0u);
    EXPECT_EQ(thin.halo.stages[0].tilesY, 1u);
    // Partial ranges: two levels of 4095x4095.
    Plan two = plan(4095, 4095, 2);
    ASSERT_EQ(two.halo.stageCount, 1u);
    EXPECT_EQ(two.halo.stages[0].levels, 2u);
    EXPECT_EQ(two.halo.stages[0].haloX, 3u);  // the halo two levels need
    // A plain prefix of two or more stays a prefix.
    EXPECT_FALSE(plan(1920, 1080).halo.oddBase);
    EXPECT_FALSE(plan(1600, 900).halo.oddBase);  // 800x450, 400x225
}

TEST(Planner, HaloLayoutReplacesTheGeneralOneOnlyWhenChosen) {
    Plan p = plan(1920, 1080, UINT32_MAX, 2);
    const uint32_t generalData = p.dataPerLayer;
    EXPECT_FALSE(p.haloStages);
    vkspd::useHaloStages(&p, 0, 4);
    EXPECT_TRUE(p.haloStages);
    EXPECT_EQ(p.dataPerLayer, p.halo.dataPerLayer);
    EXPECT_EQ(p.dataBytes, uint64_t(p.halo.dataPerLayer) * 4 * 4 * 2);
    EXPECT_LE(p.tilesPerGroup, 4u);  // a strip stays in one 32-texel tile of stage 1: 2^(3 - 1)
    Plan uhd = plan(3840, 2160);  // the plain rule gives 8; the halo kernel's prefix at most 4
    vkspd::useHaloStages(&uhd, 0, 4);
    EXPECT_EQ(uhd.tilesPerGroup, vkspd::kHaloTilesPerGroup);
    vkspd::useHaloStages(&uhd, 2, 4);  // asked for: as asked, within 2^(P - 1) (P = 4)
    EXPECT_EQ(uhd.tilesPerGroup, 2u);
    vkspd::useHaloStages(&uhd, 32, 4);
    EXPECT_EQ(uhd.tilesPerGroup, 8u);
    Plan hdr = plan(1280, 720);  // 64-texel tiles of stage 1: within 2^P (P = 4)
    vkspd::useHaloStages(&hdr, 32, 4);
    EXPECT_EQ(hdr.tilesPerGroup, 16u);
    EXPECT_EQ(p.tailRow, p.stages[0].tilesY);  // no tail
    vkspd::useGeneralLayout(&p);
    EXPECT_FALSE(p.haloStages);
    EXPECT_EQ(p.dataPerLayer, generalData);
    const vkspd::shader::HaloPushConstants pc = vkspd::haloPushConstantsFor(plan(1920, 1080));
    EXPECT_EQ(pc.stages, 3u);
    // First level 4, 4 levels, halo 0 along x and 7 along y, where 240x135's last tile row also
    // owns the 7 rows past 128 (bit 6).
    EXPECT_EQ(pc.stage[1].shape, 4u | (1u << 6) | (4u << 8) | (0u << 16) | (7u << 24));
    // With 32-texel tiles (64 >> 1: bits 11-12) its last tile row owns the 7 past 4 * 32.
    Plan smallHd = plan(1920, 1080);
    vkspd::useHaloStages(&smallHd, 0, 16);
    EXPECT_EQ(vkspd::haloPushConstantsFor(smallHd).stage[1].shape,
              4u | (1u << 6) | (4u << 8) | (1u << 11) | (0u << 16) | (7u << 24));
    EXPECT_EQ(vkspd::haloPushConstantsFor(smallHd).stage[2].shape, 8u | (3u << 8));
    EXPECT_EQ(pc.stage[2].shape, 8u | (3u << 8));  // one tile: no halo, nothing to own past it
    // 284x540: level 2 is 71x135, one tile along x that owns all 71 (bit 5), two along y (bit 6).
    const Plan thin = plan(284, 540);
    EXPECT_EQ(thin.halo.stages[1].tilesX, 1u);
    EXPECT_EQ(thin.halo.stages[1].tilesY, 2u);
    EXPECT_EQ(vkspd::haloPushConstantsFor(thin).stage[1].shape & 0x60u, 0x60u);
    // 1280x720: level 4 is 80x45; 16 columns past 64 exceed the halo, so two tiles own them.
    const Plan hd = plan(1280, 720);
    EXPECT_EQ(hd.halo.stages[1].tilesX, 2u);
    EXPECT_EQ(vkspd::haloPushConstantsFor(hd).stage[1].shape & 0x60u, 0u);
}

// Scratch data past one storage-buffer range is split into ranges of whole texels, a power of two
// each, the fewest that hold it; data that fits keeps one range and shift 0 (the unsplit shader).
TEST(Planner, DataPastOneRangeIsSplitIntoPowerOfTwoRanges) {
    const uint64_t minRange = uint64_t(1) << 27;  // the least maxStorageBufferRange Vulkan allows
    vkspd::Plan p = plan(4095, 4095);
    vkspd::planDataRanges(&p, minRange);
    EXPECT_EQ(p.dataRanges, 1u);
    EXPECT_EQ(p.dataRangeShift, 0u);
    EXPECT_EQ(vkspd::dataRangeBytes(p), p.dataBytes);

    // One RGBA layer of 16383^2: 65536 tiles of 276 texels of 16 bytes, 289 MB: three ranges of
    // 2^23 texels (2^27 bytes).
    p = plan(16383, 16383);
    EXPECT_GE(p.dataBytes, uint64_t(256) * 256 * 276 * 16);
    vkspd::planDataRanges(&p, minRange);
    EXPECT_EQ(p.dataRangeShift, 23u);
    EXPECT_EQ(vkspd::dataRangeBytes(p), minRange);
    EXPECT_EQ(p.dataRanges, 3u);
    EXPECT_LE(p.dataBytes, 3 * minRange);
    EXPECT_GT(p.dataBytes, 2 * minRange);

    // A range that is not a power of two (NVIDIA reports 2^32 - 1): the largest power-of-two texel
    // count that fits. Two floats a texel (MinMax) and one.
    p = plan(4095, 4095, UINT32_MAX, 600, 2);
    vkspd::planDataRanges(&p, 0xFFFFFFFFull);
    EXPECT_EQ(vkspd::dataRangeBytes(p), uint64_t(1) << 31);
    EXPECT_EQ(p.dataRanges, uint32_t((p.dataBytes + (uint64_t(1) << 31) - 1) >> 31));
    EXPECT_GT(p.dataRanges, 1u);
    p = plan(1000, 600, UINT32_MAX, 1, 1);
    vkspd::planDataRanges(&p, 65536);
    EXPECT_EQ(p.dataRangeShift, 14u);  // 2^14 texels of 4 bytes
    EXPECT_EQ(p.dataRanges, uint32_t((p.dataBytes + 65535) / 65536));

    // Switching the layout (another kernel) drops the split: it is planned for the final layout.
    p = plan(16383, 16383);
    vkspd::planDataRanges(&p, minRange);
    vkspd::useGeneralLayout(&p);
    EXPECT_EQ(p.dataRanges, 1u);
    EXPECT_EQ(p.dataRangeShift, 0u);
}

// The summed-levels kernel: a plain prefix P of at most 6 levels, one record per texel of every
// later level, level after level (row-major), and its push constants.
TEST(Planner, SummedLevelsFollowThePlainPrefix) {
    struct Case {
        uint32_t w, h, prefix;
    };
    // 1920x1080: 540, 270, 135 rows (odd at level 3); 3840x2160: 135 at 4; 2560x1440: 45 at 5;
    // 100x60: 25x15 at 2; 4096^2 and 4096x64: plain, P capped at 6; 1x1080 and 1080x4: an axis of
    // one texel is no odd axis.
    const Case cases[] = {{1920, 1080, 3}, {3840, 2160, 4}, {2560, 1440, 5}, {100, 60, 2},
                          {4096, 4096, 6}, {4096, 64, 6},   {1, 1080, 3},    {1080, 4, 3}};
    for (const Case& c : cases) {
        const Plan p = plan(c.w, c.h);
        const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h);
        ASSERT_EQ(p.sums.prefix, c.prefix) << what << ": " << p.sums.refusal;
        uint32_t texels = 0;
        for (uint32_t l = c.prefix + 1; l <= p.levels; ++l) {
            EXPECT_EQ(p.sums.levelRecord[l - c.prefix - 1], texels) << what << " level " << l;
            texels += vkspd::mipExtent(c.w, l) * vkspd::mipExtent(c.h, l);
        }
        EXPECT_EQ(p.sums.texels, texels) << what;
        EXPECT_FALSE(p.summedLevels) << what;  // only once chosen
    }
    // 1920x1080: levels 4 .. 10, 120x67 + 60x33 + 30x16 + 15x8 + 7x4 + 3x2 + 1x1 records.
    EXPECT_EQ(plan(1920, 1080).sums.texels, 8040u + 1980 + 480 + 120 + 28 + 6 + 1);

    Plan p = plan(1920, 1080, UINT32_MAX, 3, 4);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 0, 4, true));
    EXPECT_TRUE(p.summedLevels);
    EXPECT_FALSE(p.haloStages);
    EXPECT_EQ(p.countersPerLayer, p.sums.texels * 5);  // a counter and four sums per texel
    EXPECT_EQ(p.dataPerLayer, 0u);
    EXPECT_EQ(p.counterBytes, uint64_t(p.sums.texels) * 5 * 4 * 3);
    EXPECT_EQ(p.tailRow, p.stages[0].tilesY);  // no tail
    const vkspd::shader::SumPushConstants pc = vkspd::sumPushConstantsFor(p);
    EXPECT_EQ(pc.prefixLevels, 3u);
    EXPECT_EQ(pc.sumTexels, p.sums.texels);
    EXPECT_EQ(pc.levels, 10u);
    EXPECT_EQ(pc.countersPerLayer, p.countersPerLayer);
    EXPECT_EQ(pc.levelRecord[1], 8040u);  // level 5 after level 4's 120x67
    EXPECT_EQ(pc.tail >> 8, p.stages[0].tilesY);
    // Back to the general layout, and the halo kernel's switch clears it.
    vkspd::useGeneralLayout(&p);
    EXPECT_FALSE(p.summedLevels);
}

// The summed-levels kernel's own strips, after a prefix shorter than six levels: the fewest tiles
// per group (a power of two) that leave at most kSumMaxGroups groups over all layers, capped where
// the block or its shares would not fit.
TEST(Planner, SummedLevelsTakeStripsOfAtMostTheirGroupCount) {
    struct Case {
        uint32_t w, h, layers, tiles;
    };
    const Case cases[] = {
        {1920, 1080, 1, 2},   // 30x17 tiles: 510 groups in strips of 1, 255 in 2
        {1000, 600, 1, 1},    // 16x10: 160
        {1000, 600, 4, 2},    // 640 tiles over the layers: 320 groups in strips of 2
        {2560, 1440, 1, 4},   // 40x23: 460 in 2, 230 in 4
        {3840, 2160, 1, 8},   // 60x34: 510 in 4, 272 in 8
        {1600, 900, 1, 1},    // 25x15: 375
        {12, 20, 1, 1},       // one tile
        {32736, 64, 1, 2},    // one row of 512 tiles (P = 5): 256 groups in strips of 2
        {8160, 4096, 1, 32},  // 128x64 tiles (P = 5): 256 groups in 32
        {16352, 16352, 1, 32},  // 256x256 tiles (P = 5): strips of 32, the most, still 2048 groups
    };
    for (const Case& c : cases) {
        Plan p = plan(c.w, c.h, UINT32_MAX, c.layers, 4);
        const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + " x" + std::to_string(c.layers);
        EXPECT_EQ(vkspd::summedTilesPerGroup(p), c.tiles) << what;
        ASSERT_TRUE(vkspd::useSummedLevels(&p, 0, 4, true)) << what;
        EXPECT_EQ(p.tilesPerGroup, c.tiles) << what;
        if (c.tiles < VKSPD_MAX_TILES_PER_GROUP) {
            EXPECT_LE(uint64_t(p.groupsX()) * p.groupsY() * p.layers, vkspd::kSumMaxGroups) << what;
        }
    }
    // A request is the caller's; at a prefix of 3 the block holds 8x8 texels a tile, 256 in 4.
    Plan p = plan(1920, 1080, UINT32_MAX, 1, 4);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 1, 4, true));
    EXPECT_EQ(p.tilesPerGroup, 1u);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 16, 4, true));
    EXPECT_EQ(p.tilesPerGroup, 4u);
}

// Kernel::Auto takes the summed-levels kernel only where its own strips are short: at most
// kSumMaxGroups groups of at most kAutoSumTilesPerGroup tiles (summedStripsSuitAuto).
TEST(Planner, AutoTakesSummedLevelsInShortStripsOnly) {
    struct Case {
        uint32_t w, h, layers;
        bool suits;
    };
    const Case cases[] = {
        {1920, 1080, 1, true},   // 30x17 tiles in strips of 2: 255 groups
        {3440, 1440, 1, true},   // 54x23 in strips of 4: 322
        {3200, 1800, 1, true},   // 50x29 in 4: 377
        {1000, 600, 4, true},    // 640 tiles over the layers in 2: 320
        {3840, 2160, 1, false},  // 60x34: strips of 8
        {5120, 1440, 1, false},  // 80x23: strips of 8
        {1920, 1080, 3, false},  // 1530 tiles over the layers: strips of 8
        {48, 16200, 2, false},   // one tile wide: 508 groups in strips of 1
    };
    for (const Case& c : cases) {
        const Plan p = plan(c.w, c.h, UINT32_MAX, c.layers, 4);
        EXPECT_EQ(vkspd::summedStripsSuitAuto(p), c.suits)
            << c.w << "x" << c.h << " x" << c.layers << ": strips of " << vkspd::summedTilesPerGroup(p);
    }
}

// On a plain chain (P = 6, every later level made in one pass) the summed-levels kernel takes the
// plain-chain kernel's schedule: its tiles per group and its tail, and tells the shader
// (VKSPD_FLAG_PLAIN_SUMS); a chain with an odd level past its prefix keeps its own strips, no tail
// and no flag.
TEST(Planner, SummedLevelsOnPlainChainsTakeThePlainKernelsSchedule) {
    struct Case {
        uint32_t w, h, layers, tiles;
        bool tail;
    };
    const Case cases[] = {
        {2048, 2048, 1, 4, false},    // 32x32 tiles: 256 groups in strips of 4
        {4096, 4096, 1, 8, false},    // 64x64: 512 in 8
        {8192, 8192, 1, 8, true},     // 128x128: the tail rule's last 2048 tiles in strips of 2
        {16384, 16384, 1, 8, true},
        {32768, 64, 1, 2, false},     // one row of 512 tiles: 256 groups in strips of 2
        {1024, 1024, 4, 4, false},    // 16x16 tiles over 4 layers: 256 groups in strips of 4
        {128, 128, 1, 1, false},      // 2x2 tiles: one a group
    };
    for (const Case& c : cases) {
        const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + " x" + std::to_string(c.layers);
        Plan p = plan(c.w, c.h, UINT32_MAX, c.layers, 4);
        ASSERT_TRUE(p.plain) << what;
        ASSERT_EQ(p.sums.prefix, 6u) << what;
        Plan plainKernel = p;
        plainKernel.tilesPerGroup = vkspd::tilesPerGroupFor(plainKernel, 0, 4);
        vkspd::setTail(&plainKernel, 0, 0);
        ASSERT_TRUE(vkspd::useSummedLevels(&p, 0, 4, true)) << what;
        EXPECT_EQ(p.tilesPerGroup, c.tiles) << what;
        EXPECT_EQ(p.tilesPerGroup, plainKernel.tilesPerGroup) << what;
        EXPECT_EQ(p.tailRow, plainKernel.tailRow) << what;
        EXPECT_EQ(p.tailTilesPerGroup, plainKernel.tailTilesPerGroup) << what;
        EXPECT_EQ(p.tailRow < p.stages[0].tilesY, c.tail) << what;
        EXPECT_EQ(p.groupsY(), plainKernel.groupsY()) << what;
        const vkspd::shader::SumPushConstants pc = vkspd::sumPushConstantsFor(p);
        EXPECT_EQ(pc.flags, VKSPD_FLAG_PLAIN_SUMS) << what;
        EXPECT_EQ(pc.tail, (p.tailRow << 8) | p.tailTilesPerGroup) << what;
    }
    // A request and a tail of the caller's are taken as by the plain kernel.
    Plan p = plan(2048, 2048);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 16, 4, true, 256, 4));
    EXPECT_EQ(p.tilesPerGroup, 16u);
    EXPECT_EQ(p.tailRow, 24u);  // the last 256 tiles: 8 rows of 32
    EXPECT_EQ(p.tailTilesPerGroup, 4u);
    EXPECT_EQ(p.groupsY(), 24u + 8u * 4u);
    // After a prefix of fewer levels: no tail, whatever the request, and no flag.
    p = plan(1920, 1080);
    ASSERT_FALSE(p.plain);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 0, 4, true, 256, 1));
    EXPECT_EQ(p.tailRow, p.stages[0].tilesY);
    EXPECT_EQ(vkspd::sumPushConstantsFor(p).flags, 0u);
}

TEST(Planner, SummedLevelsRefuseChainsWithoutAPrefixOrALaterLevel) {
    EXPECT_EQ(plan(4095, 4095).sums.prefix, 0u);  // odd base
    EXPECT_EQ(plan(1366, 768).sums.prefix, 0u);   // 683 at level 1
    EXPECT_EQ(plan(1920, 1080, 3).sums.prefix, 0u);  // every level in the prefix
    EXPECT_EQ(plan(64, 64).sums.prefix, 0u);         // plain, 6 levels: all in the prefix
    EXPECT_NE(std::string(plan(4095, 4095).sums.refusal).find("plain prefix"), std::string::npos);
    EXPECT_NE(std::string(plan(64, 64).sums.refusal).find("no later level"), std::string::npos);
    EXPECT_EQ(plan(1920, 1080, 4).sums.prefix, 3u);  // one level past the prefix
    // Records past 32-bit indexing: 2^21 layers of 4096x12 with one channel (P = 2; about 1023
    // records of two words per layer, where the general layout keeps only 64 texels).
    const Plan many = plan(4096, 12, UINT32_MAX, 1u << 21, 1);
    EXPECT_EQ(many.sums.prefix, 0u);
    EXPECT_NE(std::string(many.sums.refusal).find("32-bit"), std::string::npos);
    EXPECT_EQ(plan(4096, 12, UINT32_MAX, 1u << 18, 1).sums.prefix, 2u);
}

namespace {

// The shares one strip makes in the shader (vkspd_sums.glsl, nextSumLevel): the texels of each
// later level that its block of level-P texels touches.
uint32_t stripShares(const Plan& p, uint32_t tx, uint32_t ty, uint32_t count) {
    const int prefix = int(p.sums.prefix), q = VKSPD_TILE >> prefix;
    int lo[2] = {int(tx) * q, int(ty) * q};
    int n[2] = {std::min<int>(int(count) * q, int(vkspd::mipExtent(p.width, prefix)) - lo[0]),
                std::min<int>(q, int(vkspd::mipExtent(p.height, prefix)) - lo[1])};
    uint32_t shares = 0;
    for (uint32_t l = prefix + 1; l <= p.levels; ++l) {
        const uint32_t above[2] = {vkspd::mipExtent(p.width, l - 1), vkspd::mipExtent(p.height, l - 1)};
        const uint32_t extent[2] = {vkspd::mipExtent(p.width, l), vkspd::mipExtent(p.height, l)};
        for (int a = 0; a < 2; ++a) {
            const int t = above[a] == 1 ? 0 : (above[a] & 1) ? 2 : 1;
            const int first = std::max((lo[a] - t + 1) >> 1, 0);
            const int last = std::min((lo[a] + n[a] - 1) >> 1, int(extent[a]) - 1);
            lo[a] = first;
            n[a] = last - first + 1;
        }
        shares += uint32_t(n[0] * n[1]);
    }
    return shares;
}

}  // namespace

// Every strip's block and shares fit the shader's shared memory with the tiles per group the
// planner picks (sumSharesBound is never below what a strip makes), and a larger request is capped.
TEST(Planner, SummedLevelSharesFitSharedMemoryForEveryStrip) {
    const uint32_t sizes[][2] = {{1920, 1080}, {1000, 600}, {2560, 1440}, {3840, 2160}, {1280, 720},
                                 {100, 60},    {12, 20},    {4, 1080},    {1080, 1},    {2048, 2048},
                                 {4096, 64},   {8192, 8192}, {7680, 4320}, {65532, 4}, {4, 65532},
                                 {16380, 16380}, {1084, 2168}, {520, 300}};
    for (const auto& size : sizes) {
        for (bool fp16 : {true, false}) {
            for (uint32_t requested : {0u, 1u, 2u, 4u, 8u, 16u, 32u}) {
                Plan p = plan(size[0], size[1]);
                const std::string what = std::to_string(size[0]) + "x" + std::to_string(size[1]) +
                                         (fp16 ? " fp16" : " fp32") + " tiles " + std::to_string(requested);
                ASSERT_GT(p.sums.prefix, 0u) << what;
                if (!vkspd::useSummedLevels(&p, requested, 4, fp16)) {
                    // Only where one tile's shares exceed the capacity.
                    EXPECT_GT(vkspd::sumSharesBound(p, 1), vkspd::sumSharesCapacity(fp16)) << what;
                    continue;
                }
                const uint32_t per = p.tilesPerGroup, q = VKSPD_TILE >> p.sums.prefix;
                if (requested) {
                    EXPECT_LE(per, requested) << what;
                }
                EXPECT_LE(per * q * q, uint32_t(VKSPD_SUM_BLOCK)) << what;
                const uint32_t bound = vkspd::sumSharesBound(p, per);
                EXPECT_LE(bound, vkspd::sumSharesCapacity(fp16)) << what;
                uint32_t most = 0;
                for (uint32_t ty = 0; ty < p.stages[0].tilesY; ++ty)
                    for (uint32_t tx = 0; tx < p.stages[0].tilesX; tx += per)
                        most = std::max(most, stripShares(p, tx, ty, std::min(per, p.stages[0].tilesX - tx)));
                EXPECT_LE(most, bound) << what;
                EXPECT_EQ(p.groupsX(), (p.stages[0].tilesX + per - 1) / per) << what;
                if (!p.plain) {
                    EXPECT_EQ(p.groupsY(), p.stages[0].tilesY) << what;  // a tail on plain chains only
                }
            }
        }
    }
    // 3840x2160 (P = 4): its rule's 8 tiles per group fit; 1920x1080 (P = 3) takes 2 by that
    // rule and 4 where asked; 32 are capped to a block of 256 texels.
    Plan p = plan(3840, 2160);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 0, 4, true));
    EXPECT_EQ(p.tilesPerGroup, 8u);
    p = plan(1920, 1080);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 0, 4, true));
    EXPECT_EQ(p.tilesPerGroup, 2u);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 4, 4, true));
    EXPECT_EQ(p.tilesPerGroup, 4u);
    ASSERT_TRUE(vkspd::useSummedLevels(&p, 32, 4, true));
    EXPECT_EQ(p.tilesPerGroup, 4u);  // 8 tiles: a block of 64x8 level-3 texels
    // 32764^2 (P = 2, 12 levels past it): one tile's shares, 81 + 25 + 9 per level after, fit the
    // FP16 kernel's 384 but not the FP32 kernel's 192, which is refused with the plan unchanged.
    p = plan(32764, 32764);
    ASSERT_EQ(p.sums.prefix, 2u);
    EXPECT_GT(vkspd::sumSharesBound(p, 1), vkspd::sumSharesCapacity(false));
    EXPECT_FALSE(vkspd::useSummedLevels(&p, 0, 4, false));
    EXPECT_FALSE(p.summedLevels);
    EXPECT_TRUE(vkspd::useSummedLevels(&p, 0, 4, true));
    EXPECT_TRUE(p.summedLevels);
}
