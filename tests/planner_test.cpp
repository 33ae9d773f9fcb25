#include "planner.hpp"

#include <vkspd/reference.hpp>

#include <gtest/gtest.h>

using vkspd::Plan;

namespace {

Plan plan(uint32_t w, uint32_t h, uint32_t levels = UINT32_MAX) {
    Plan p;
    std::string error;
    if (levels == UINT32_MAX) levels = vkspd::fullMipCount(w, h) - 1;
    EXPECT_TRUE(vkspd::makePlan(w, h, levels, &p, &error)) << error;
    return p;
}

}  // namespace

TEST(Planner, GroupsAreTilesOf64) {
    EXPECT_EQ(plan(1, 1).tilesX, 1u);
    EXPECT_EQ(plan(64, 64).tilesX, 1u);
    EXPECT_EQ(plan(65, 63).tilesX, 2u);
    EXPECT_EQ(plan(65, 63).tilesY, 1u);
    EXPECT_EQ(plan(4096, 4096).tilesX, 64u);
    EXPECT_EQ(plan(4095, 3).tilesX, 64u);
    EXPECT_EQ(plan(4095, 3).tilesY, 1u);
    EXPECT_EQ(plan(1920, 1080).tilesX, 30u);
    EXPECT_EQ(plan(1920, 1080).tilesY, 17u);
}

TEST(Planner, LevelsAndStages) {
    Plan p = plan(4096, 4096);
    EXPECT_EQ(p.levels, 12u);
    EXPECT_EQ(p.tileLevels, 6u);
    EXPECT_TRUE(p.secondStage);
    EXPECT_EQ(p.mipTexels, 64u * 64u);
    Plan small = plan(64, 64);
    EXPECT_EQ(small.levels, 6u);
    EXPECT_FALSE(small.secondStage);
    EXPECT_EQ(small.mipTexels, 0u);
    Plan one = plan(1, 1);
    EXPECT_EQ(one.levels, 0u);
    Plan thin = plan(4095, 3);
    EXPECT_EQ(thin.levels, 11u);
    EXPECT_EQ(thin.mipTexels, 63u * 1u);
    Plan partial = plan(1024, 1024, 3);
    EXPECT_EQ(partial.levels, 3u);
    EXPECT_EQ(partial.tileLevels, 3u);
}

TEST(Planner, DependencyMasksFollowOddLevels) {
    // 1080 rows: 1080 540 270 135 67 33 16: odd at levels 3, 4, 5, so levels 4..6 of a tile's
    // last row read the next tile.
    Plan hd = plan(1920, 1080);
    EXPECT_EQ(hd.depMaskX, 0u);
    EXPECT_EQ(hd.depMaskY, (1u << 4) | (1u << 5) | (1u << 6));
    EXPECT_NE(hd.recordCount, 0u);
    // Every level of 4095 is odd.
    Plan odd = plan(4095, 4095);
    EXPECT_EQ(odd.depMaskX, 0x7Eu);
    EXPECT_EQ(odd.depMaskY, 0x7Eu);
    // One tile has no neighbour to depend on.
    Plan single = plan(63, 63);
    EXPECT_EQ(single.depMaskX, 0u);
    EXPECT_EQ(single.recordCount, 0u);
    // Powers of two never depend.
    Plan pot = plan(4096, 2048);
    EXPECT_EQ(pot.depMaskX | pot.depMaskY, 0u);
    EXPECT_EQ(pot.recordCount, 0u);
    // 127 wide: two tiles, 127 is odd at level 0, so every level depends.
    EXPECT_EQ(plan(127, 129).depMaskX, 0x7Eu);
    // A 1-texel axis is never "odd" in the three-tap sense.
    EXPECT_EQ(plan(1, 4095).depMaskX, 0u);
}

TEST(Planner, QuadPathOnlyWhereLevelsOneAndTwoAreEven) {
    EXPECT_TRUE(plan(4096, 4096).quadLevels12);
    EXPECT_TRUE(plan(1920, 1080).quadLevels12);  // 1920/960, 1080/540
    EXPECT_FALSE(plan(4095, 4096).quadLevels12);
    EXPECT_FALSE(plan(2, 2).quadLevels12);        // one level only
    EXPECT_FALSE(plan(6, 8).quadLevels12);        // level 1 is 3 wide
    EXPECT_TRUE(plan(4, 4).quadLevels12);
}

TEST(Planner, ScratchLayout) {
    Plan p = plan(4095, 4095);
    EXPECT_EQ(p.counterCount, 1u + 64u * 64u * 3u);
    EXPECT_EQ(p.counterBytes, 4u * p.counterCount);
    EXPECT_EQ(p.recordCount, 64u * 64u);
    EXPECT_EQ(p.dataBytes, 16ull * (63 * 63 + 64ull * 64 * VKSPD_RECORD_SIZE));
    auto pc = vkspd::pushConstantsFor(p);
    EXPECT_EQ(pc.recordBase, p.mipTexels);
    EXPECT_EQ(pc.flags & VKSPD_FLAG_SECOND_STAGE, VKSPD_FLAG_SECOND_STAGE);
    EXPECT_EQ(pc.tilesX, 64u);
    EXPECT_EQ(sizeof(pc), 48u);
}

TEST(Planner, RecordLayoutIsConsistent) {
    // Four strips of 32+16+8+4+2+1 texels and four corners of one texel per level.
    EXPECT_EQ(VKSPD_STRIP, 32 + 16 + 8 + 4 + 2 + 1);
    EXPECT_EQ(VKSPD_REC_LEFT, VKSPD_REC_RIGHT + VKSPD_STRIP);
    EXPECT_EQ(VKSPD_REC_BOTTOM, VKSPD_REC_LEFT + VKSPD_STRIP);
    EXPECT_EQ(VKSPD_REC_TOP, VKSPD_REC_BOTTOM + VKSPD_STRIP);
    EXPECT_EQ(VKSPD_REC_CORNER, VKSPD_REC_TOP + VKSPD_STRIP);
    EXPECT_EQ(VKSPD_RECORD_SIZE, VKSPD_REC_CORNER_TL + VKSPD_TILE_LEVELS);
}

TEST(Planner, HaloOfSpecSection3) {
    // The recompute-a-halo alternative's extra level-0 texels per tile (SPEC section 3).
    EXPECT_EQ(vkspd::haloTexels(1080, 6), 56u);
    EXPECT_EQ(vkspd::haloTexels(2160, 6), 48u);
    EXPECT_EQ(vkspd::haloTexels(4095, 6), 63u);
    EXPECT_EQ(vkspd::haloTexels(4096, 6), 0u);
}

TEST(Planner, RejectsWhatOneDispatchCannotDo) {
    Plan p;
    std::string error;
    EXPECT_FALSE(vkspd::makePlan(0, 5, 0, &p, &error));
    EXPECT_NE(error.find("empty"), std::string::npos) << error;
    EXPECT_FALSE(vkspd::makePlan(8, 8, 4, &p, &error));
    EXPECT_NE(error.find("exceed"), std::string::npos) << error;
    EXPECT_FALSE(vkspd::makePlan(8192, 8192, 13, &p, &error));
    EXPECT_NE(error.find("at most 12"), std::string::npos) << error;
}
