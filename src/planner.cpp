#include "planner.hpp"

#include <vkspd/formats.hpp>

#include <algorithm>

namespace vkspd {

// Vulkan guarantees 128 bytes of push constants (maxPushConstantsSize).
static_assert(sizeof(shader::PushConstants) <= 128, "push constants beyond Vulkan's guaranteed 128 bytes");
// Both kernels run with one pipeline layout, whose range is sizeof(PushConstants).
static_assert(sizeof(shader::HaloPushConstants) <= sizeof(shader::PushConstants), "halo push constants past the layout's range");
static_assert(sizeof(shader::SumPushConstants) <= sizeof(shader::PushConstants), "sum push constants past the layout's range");
// HaloStagePush::shape's bits 11-12 give a stage's tile side as 64 >> k.
static_assert(VKSPD_HALO_TILE >= (VKSPD_TILE >> 3) && VKSPD_HALO_TILE <= VKSPD_TILE &&
                  (VKSPD_HALO_TILE & (VKSPD_HALO_TILE - 1)) == 0,
              "a halo stage's tile side is 64 >> 0..3");

namespace {

// Bit k (1..levels) set when level `first + k - 1` of a tile's last column along this axis reads
// texels of the next tile: some level from first-1 to first+k-2 has an odd extent > 1.
uint32_t dependencyMask(uint32_t extent, uint32_t first, uint32_t levels) {
    uint32_t mask = 0;
    bool odd = false;
    for (uint32_t k = 1; k <= levels; ++k) {
        uint32_t above = mipExtent(extent, first + k - 2);
        odd = odd || (above > 1 && (above & 1u));
        if (odd) mask |= 1u << k;
    }
    return mask;
}

// Tiles of `side` texels along an axis of `extent` texels.
uint32_t tilesFor(uint32_t extent, uint32_t side = VKSPD_TILE) { return (extent + side - 1) / side; }

bool oddAxis(uint32_t e) { return e > 1 && (e & 1u); }

// The plain prefix of a chain: its leading levels whose source is even or 1 on both axes.
uint32_t plainPrefix(const Plan& p) {
    uint32_t prefix = 0;
    while (prefix < p.levels && !oddAxis(mipExtent(p.width, prefix)) && !oddAxis(mipExtent(p.height, prefix)))
        ++prefix;
    return prefix;
}

// The halo a tile of a stage needs past its source's 64 texels along one axis, for `levels`
// levels below level `source` of an axis whose base has `extent` texels: h(k) = 2 h(k + 1) +
// odd(extent k), from 0 at the stage's last level.
uint32_t stageHalo(uint32_t extent, uint32_t source, uint32_t levels) {
    uint32_t h = 0;
    for (uint32_t k = source + levels; k-- > source;) h = 2 * h + (oddAxis(mipExtent(extent, k)) ? 1u : 0u);
    return h;
}

// Tiles of a halo stage along an axis of its source of `extent` texels, whose tiles of `side`
// texels read `halo` texels past their edge: the last one also owns a remainder of at most `halo`
// texels, which it reads anyway. (A tile of only such texels completes with the one before it,
// whose halo covers it, so one group would run the two one after the other.)
uint32_t haloTilesFor(uint32_t extent, uint32_t halo, uint32_t side) {
    const uint32_t n = tilesFor(extent, side), rest = extent % side;
    return n > 1 && rest != 0 && rest <= halo ? n - 1 : n;
}

// log2 of a power of two.
uint32_t log2Of(uint32_t side) {
    uint32_t k = 0;
    while ((2u << k) <= side) ++k;
    return k;
}

// Builds stage `st` of the halo-stage kernel from level `level` of the chain (its source) in tiles
// of `side` texels (64 for a source that one 64-texel tile holds on an axis, and for a last stage):
// the deepest stage whose halo stays within VKSPD_HALO_MAX per axis, or every remaining level where
// one 64x64 tile holds the whole source. Returns the level it keeps (its last).
uint32_t planHaloStage(const Plan& p, uint32_t level, uint32_t side, HaloStagePlan* st) {
    const uint32_t w = mipExtent(p.width, level), h = mipExtent(p.height, level);
    st->firstLevel = level + 1;
    const uint32_t rest = p.levels - level;
    if (w <= VKSPD_TILE && h <= VKSPD_TILE) {
        // One tile holds the whole source: every remaining level, no halo (at most 6: 64 -> 1).
        st->tile = VKSPD_TILE;
        st->tilesX = st->tilesY = 1;
        st->levels = rest;
        return p.levels;
    }
    // The smaller side only where the source spans more than one 64-texel tile on both axes:
    // on an axis one tile holds, smaller tiles would add a halo there (1280x720's 80x45 level
    // 4 measured 1.5-7.5 us slower with them on an H200).
    st->tile = w > VKSPD_TILE && h > VKSPD_TILE ? side : VKSPD_TILE;
    // The deepest stage whose halo stays within VKSPD_HALO_MAX per axis (at least one level:
    // its halo is at most 1) and whose last level still has a texel per tile.
    st->levels = 1;
    while (st->levels < std::min<uint32_t>(rest, log2Of(st->tile)) &&
           stageHalo(p.width, level, st->levels + 1) <= VKSPD_HALO_MAX &&
           stageHalo(p.height, level, st->levels + 1) <= VKSPD_HALO_MAX)
        ++st->levels;
    st->haloX = w > st->tile ? stageHalo(p.width, level, st->levels) : 0;
    st->haloY = h > st->tile ? stageHalo(p.height, level, st->levels) : 0;
    st->tilesX = haloTilesFor(w, st->haloX, st->tile);
    st->tilesY = haloTilesFor(h, st->haloY, st->tile);
    return level + st->levels;
}

// The halo-stage kernel's stages (HaloPlan) for a plan whose other fields are set, the later
// stages in tiles of `side` texels but for a last stage of one 64x64 tile. Stage 0 is the plain
// prefix where the first kMinHaloPrefix levels or more are plain, else a stage of 64x64 tiles of
// the base itself, with a halo (HaloPlan::oddBase).
HaloPlan planHaloStages(const Plan& p, uint32_t side) {
    HaloPlan hp;
    if (p.plain) {
        hp.refusal = "the chain is plain (every level a 2x2 reduction): the plain-chain kernel runs it";
        return hp;
    }
    const uint32_t prefix = plainPrefix(p);
    uint64_t counters = 0, data = 0;
    uint32_t level = 0, s = 0;
    HaloStagePlan& zero = hp.stages[0];
    if (prefix < kMinHaloPrefix) {
        hp.oddBase = true;
        level = planHaloStage(p, 0, VKSPD_TILE, &zero);
    } else {
        level = std::min<uint32_t>(prefix, VKSPD_TILE_LEVELS);
        zero.firstLevel = 1;
        zero.levels = level;
        zero.tilesX = tilesFor(p.width);
        zero.tilesY = tilesFor(p.height);
    }
    while (level < p.levels) {
        // Stage s keeps `level` for the stage after it.
        hp.stages[s].kept = uint32_t(data);
        data += uint64_t(mipExtent(p.width, level)) * mipExtent(p.height, level);
        if (++s == VKSPD_HALO_MAX_STAGES) {
            hp = HaloPlan{};
            hp.refusal = "it needs more stages than the kernel's push constants describe";
            return hp;
        }
        HaloStagePlan& st = hp.stages[s];
        st.counters = uint32_t(counters);
        level = planHaloStage(p, level, side, &st);
        counters += uint64_t(st.tilesX) * st.tilesY;
    }
    hp.stageCount = s + 1;
    hp.countersPerLayer = uint32_t(counters);
    hp.dataPerLayer = uint32_t(data);
    // The shader indexes counters and data floats of all layers with 32-bit integers.
    if (uint64_t(hp.countersPerLayer) * p.layers > UINT32_MAX / 2 ||
        uint64_t(hp.dataPerLayer) * p.channels * p.layers > UINT32_MAX / 2) {
        hp = HaloPlan{};
        hp.refusal = "its scratch exceeds 32-bit indexing";
    }
    return hp;
}

// The summed-levels kernel's plan for a plan whose other fields are set.
SumPlan planSummedLevels(const Plan& p) {
    SumPlan sp;
    const uint32_t prefix = std::min<uint32_t>(plainPrefix(p), VKSPD_TILE_LEVELS);
    if (prefix < kMinHaloPrefix) {
        sp.refusal = "the base or its level 1 has an odd side: it needs a plain prefix of at least two levels";
        return sp;
    }
    if (p.levels <= prefix) {
        sp.refusal = "every level of the range is in its plain prefix: there is no later level to sum";
        return sp;
    }
    uint64_t texels = 0;
    for (uint32_t l = prefix + 1; l <= p.levels; ++l) {
        sp.levelRecord[l - prefix - 1] = uint32_t(texels);
        texels += uint64_t(mipExtent(p.width, l)) * mipExtent(p.height, l);
    }
    // The shader indexes the counters of all layers with 32-bit integers.
    if (texels * (1 + p.channels) * p.layers > UINT32_MAX / 2) {
        sp = SumPlan{};
        sp.refusal = "its records exceed 32-bit indexing";
        return sp;
    }
    sp.prefix = prefix;
    sp.texels = uint32_t(texels);
    return sp;
}

}  // namespace

bool makePlan(uint32_t width, uint32_t height, uint32_t levelsBelowBase, uint32_t layers,
              uint32_t channels, Plan* plan, std::string* error) {
    *plan = Plan{};
    if (width == 0 || height == 0) {
        if (error) *error = "extent " + std::to_string(width) + "x" + std::to_string(height) +
                            " is empty: both sides must be at least 1";
        return false;
    }
    const uint32_t full = fullMipCount(width, height) - 1;
    if (levelsBelowBase > full) {
        if (error) *error = std::to_string(levelsBelowBase) + " levels below a " +
                            std::to_string(width) + "x" + std::to_string(height) +
                            " base exceed the " + std::to_string(full) + " it has";
        return false;
    }
    if (levelsBelowBase > VKSPD_MAX_LEVELS) {
        if (error) *error = "a " + std::to_string(width) + "x" + std::to_string(height) +
                            " base needs " + std::to_string(levelsBelowBase) +
                            " levels; one dispatch writes at most " +
                            std::to_string(VKSPD_MAX_LEVELS);
        return false;
    }
    if (layers == 0 || channels == 0 || channels > 4) {
        if (error) *error = "layers must be at least 1 and channels 1 to 4";
        return false;
    }
    Plan p;
    p.width = width;
    p.height = height;
    p.levels = levelsBelowBase;
    p.layers = layers;
    p.channels = channels;
    p.stageCount = (levelsBelowBase + VKSPD_TILE_LEVELS - 1) / VKSPD_TILE_LEVELS;
    uint64_t counters = 0, data = 0;
    for (uint32_t s = 0; s < p.stageCount; ++s) {
        StagePlan& st = p.stages[s];
        const uint32_t source = s * VKSPD_TILE_LEVELS;
        st.firstLevel = source + 1;
        st.levels = std::min<uint32_t>(VKSPD_TILE_LEVELS, levelsBelowBase - source);
        st.sourceWidth = mipExtent(width, source);
        st.sourceHeight = mipExtent(height, source);
        st.tilesX = tilesFor(st.sourceWidth);
        st.tilesY = tilesFor(st.sourceHeight);
        // A dependency only matters where there is a neighbour to depend on.
        st.depMaskX = st.tilesX > 1 ? dependencyMask(width, st.firstLevel, st.levels) : 0;
        st.depMaskY = st.tilesY > 1 ? dependencyMask(height, st.firstLevel, st.levels) : 0;
        const uint32_t tiles = st.tilesX * st.tilesY;
        const bool last = s + 1 == p.stageCount;
        st.edgeCounters = uint32_t(counters);
        if (st.depMaskX || st.depMaskY) counters += uint64_t(tiles) * VKSPD_COUNTERS_PER_TILE;
        st.electCounters = uint32_t(counters);
        if (!last) {
            st.keptWidth = mipExtent(width, source + VKSPD_TILE_LEVELS);
            st.keptHeight = mipExtent(height, source + VKSPD_TILE_LEVELS);
            counters += uint64_t(tilesFor(st.keptWidth)) * tilesFor(st.keptHeight);
        }
        st.records = uint32_t(data);
        if (st.depMaskX || st.depMaskY) data += uint64_t(tiles) * VKSPD_RECORD_SIZE;
        st.kept = uint32_t(data);
        data += uint64_t(st.keptWidth) * st.keptHeight;
    }
    p.tailRow = p.stages[0].tilesY;
    p.plain = isPlainChain(width, height, levelsBelowBase);
    // vkspd_plain.comp's later stages run per quadrant (StagePlan::quadrantCounters).
    for (uint32_t s = 1; p.plain && s < p.stageCount; ++s) {
        StagePlan& st = p.stages[s];
        st.quadrantCounters = uint32_t(counters);
        counters += uint64_t(st.tilesX) * st.tilesY * 4;
        st.quadrantKept = uint32_t(data);
        data += uint64_t(mipExtent(width, st.firstLevel + 4)) * mipExtent(height, st.firstLevel + 4);
    }
    // vkspd_plain.comp's warm-up reads one texel no group writes (Plan::warmTexel).
    if (p.plain && p.stageCount > 1) p.warmTexel = uint32_t(data++);
    p.quadLevels12 = p.stages[0].levels >= 2 && width % 2 == 0 && height % 2 == 0 &&
                     mipExtent(width, 1) % 2 == 0 && mipExtent(height, 1) % 2 == 0;
    p.halo = planHaloStages(p, VKSPD_TILE);
    p.sums = planSummedLevels(p);
    // The shader indexes counters and data floats of all layers with 32-bit integers.
    if (counters * layers > UINT32_MAX / 2 || data * channels * layers > UINT32_MAX / 2) {
        if (error) *error = "the scratch of " + std::to_string(layers) + " layers of " +
                            std::to_string(width) + "x" + std::to_string(height) +
                            " exceeds 32-bit indexing; generate fewer layers per call";
        return false;
    }
    p.generalCountersPerLayer = uint32_t(counters);
    p.generalDataPerLayer = uint32_t(data);
    p.generalWarmTexel = p.warmTexel;
    useGeneralLayout(&p);
    *plan = p;
    return true;
}

bool isPlainChain(uint32_t width, uint32_t height, uint32_t levelsBelowBase) {
    for (uint32_t k = 0; k < levelsBelowBase; ++k) {
        const uint32_t x = mipExtent(width, k), y = mipExtent(height, k);
        if ((x > 1 && (x & 1u)) || (y > 1 && (y & 1u))) return false;
    }
    return true;
}

uint32_t plainMinGroups(uint32_t texelBytes, bool fp16, bool linearFetch) {
    return fp16 && linearFetch && texelBytes <= 4 ? kMinSampledGroups : kMinPlainGroups;
}

uint32_t tilesPerGroupFor(const Plan& plan, uint32_t requested, uint32_t texelBytes, uint32_t minGroups) {
    const uint32_t tilesX = plan.stages[0].tilesX;
    // More than the row has would only leave threads idle: the smallest power of two covering it.
    uint32_t cover = 1;
    while (cover < tilesX && cover < VKSPD_MAX_TILES_PER_GROUP) cover *= 2;
    if (requested) return std::min(requested, cover);
    uint32_t k = std::min(kDefaultTilesPerGroup, cover);
    const uint64_t tiles = uint64_t(tilesX) * plan.stages[0].tilesY * plan.layers;
    if (texelBytes >= 8 && tiles >= kWideTexelTiles) k = std::min(k, kWideTexelTilesPerGroup);
    auto groups = [&](uint32_t per) {
        return uint64_t((tilesX + per - 1) / per) * plan.stages[0].tilesY * plan.layers;
    };
    while (k > 1 && groups(k) < minGroups) k /= 2;
    return k;
}

bool oneSiteFor(const Plan& plan) { return plan.quadLevels12; }

void setTail(Plan* plan, uint32_t tailTiles, uint32_t tailPer) {
    const uint32_t tilesX = plan->stages[0].tilesX, tilesY = plan->stages[0].tilesY;
    plan->tailRow = tilesY;
    plan->tailTilesPerGroup = plan->tilesPerGroup;
    if (tailPer == 0) {
        if (uint64_t(tilesX) * tilesY < kTailMinTiles) return;
        tailTiles = kTailTiles;
        tailPer = kTailTilesPerGroup;
    }
    if (tailTiles == 0 || tilesX == 0 || tailPer >= plan->tilesPerGroup) return;
    uint32_t rows = std::min<uint32_t>(tilesY, (tailTiles + tilesX - 1) / tilesX);
    // Each tail row takes `ratio` rows of workgroups: keep the dispatch within 65535 of them.
    const uint32_t ratio = plan->tilesPerGroup / tailPer;
    rows = std::min<uint32_t>(rows, (65535 - tilesY) / (ratio - 1));
    if (rows == 0) return;
    plan->tailRow = tilesY - rows;
    plan->tailTilesPerGroup = tailPer;
}

shader::PushConstants pushConstantsFor(const Plan& plan) {
    shader::PushConstants pc{};
    pc.extentX = plan.width;
    pc.extentY = plan.height;
    pc.levels = plan.levels;
    pc.stages = plan.stageCount;
    pc.flags = plan.quadLevels12 ? VKSPD_FLAG_QUAD_LEVELS_1_2 : 0u;
    pc.channels = plan.channels;
    pc.countersPerLayer = plan.countersPerLayer;
    pc.dataPerLayer = plan.dataPerLayer;
    pc.tilesPerGroup = plan.tilesPerGroup;
    pc.tail = (plan.tailRow << 8) | plan.tailTilesPerGroup;
    for (uint32_t s = 0; s < plan.stageCount; ++s) {
        const StagePlan& st = plan.stages[s];
        pc.stage[s].tilesX = st.tilesX;
        pc.stage[s].tilesY = st.tilesY;
        pc.stage[s].depMask = st.depMaskX | (st.depMaskY << 16);
        // A plain chain's stages have no dependencies: their edge-counter and record fields carry
        // vkspd_plain.comp's quadrants (StagePlan::quadrantCounters).
        pc.stage[s].edgeCounters = plan.plain ? st.quadrantCounters : st.edgeCounters;
        pc.stage[s].electCounters = st.electCounters;
        pc.stage[s].records = plan.plain ? st.quadrantKept : st.records;
        pc.stage[s].kept = st.kept;
    }
    return pc;
}

uint32_t haloTexels(uint32_t extent, uint32_t levels) {
    uint32_t h = 0;
    for (uint32_t k = levels; k-- > 0;) {
        uint32_t e = mipExtent(extent, k);
        h = 2 * h + ((e > 1 && (e & 1u)) ? 1u : 0u);
    }
    return h;
}

namespace {
void setLayout(Plan* plan, uint32_t counters, uint32_t data) {
    plan->countersPerLayer = counters;
    plan->dataPerLayer = data;
    plan->counterBytes = std::max<uint64_t>(4, uint64_t(counters) * 4 * plan->layers);
    plan->dataBytes = std::max<uint64_t>(16, uint64_t(data) * 4 * plan->channels * plan->layers);
    plan->dataRanges = 1;
    plan->dataRangeShift = 0;
}
}  // namespace

void planDataRanges(Plan* plan, uint64_t maxRange) {
    plan->dataRanges = 1;
    plan->dataRangeShift = 0;
    if (plan->dataBytes <= maxRange) return;
    const uint64_t texelBytes = uint64_t(plan->channels) * 4;
    uint32_t shift = 0;
    while ((texelBytes << (shift + 1)) <= maxRange && shift < 31) ++shift;
    const uint64_t rangeBytes = texelBytes << shift;
    plan->dataRangeShift = shift;
    plan->dataRanges = uint32_t((plan->dataBytes + rangeBytes - 1) / rangeBytes);
}

uint64_t dataRangeBytes(const Plan& plan) {
    return plan.dataRangeShift ? (uint64_t(plan.channels) * 4) << plan.dataRangeShift : plan.dataBytes;
}

void useGeneralLayout(Plan* plan) {
    plan->haloStages = false;
    plan->summedLevels = false;
    plan->warmTexel = plan->generalWarmTexel;
    setLayout(plan, plan->generalCountersPerLayer, plan->generalDataPerLayer);
}

void useHaloStages(Plan* plan, uint32_t requested, uint32_t texelBytes) {
    // The smaller tiles where they add no stage (a halo that grows past VKSPD_HALO_MAX in fewer
    // levels can), else the 64-texel tiles makePlan checked.
    const HaloPlan small = planHaloStages(*plan, VKSPD_HALO_TILE);
    if (small.stageCount && small.stageCount <= plan->halo.stageCount) plan->halo = small;
    plan->haloStages = true;
    plan->summedLevels = false;
    plan->warmTexel = 0;
    setLayout(plan, plan->halo.countersPerLayer, plan->halo.dataPerLayer);
    if (plan->halo.oddBase) {
        plan->tilesPerGroup = 1;
        setTail(plan, 0, 1);
        return;
    }
    // A strip of stage-0 tiles makes texels of level P for one tile of stage 1: at most 2^P
    // tiles for a 64-texel tile of stage 1, 2^(P - 1) for a 32-texel one.
    const uint32_t prefix = plan->halo.stages[0].levels;
    uint32_t per = tilesPerGroupFor(*plan, requested, texelBytes);
    if (!requested) per = std::min(per, kHaloTilesPerGroup);
    plan->tilesPerGroup = std::min<uint32_t>(per, (1u << prefix) * plan->halo.stages[1].tile / VKSPD_TILE);
    setTail(plan, 0, 1);
}

shader::HaloPushConstants haloPushConstantsFor(const Plan& plan) {
    shader::HaloPushConstants pc{};
    pc.extentX = plan.width;
    pc.extentY = plan.height;
    pc.levels = plan.levels;
    pc.stages = plan.halo.stageCount;
    pc.flags = 0;
    pc.channels = plan.channels;
    pc.countersPerLayer = plan.countersPerLayer;
    pc.dataPerLayer = plan.dataPerLayer;
    pc.tilesPerGroup = plan.tilesPerGroup;
    pc.tail = (plan.tailRow << 8) | plan.tailTilesPerGroup;
    for (uint32_t s = 0; s < plan.halo.stageCount; ++s) {
        const HaloStagePlan& st = plan.halo.stages[s];
        // Bits 5 and 6: the stage's last tile along x / y also owns a remainder (haloTilesFor);
        // bits 11-12: its tiles are 64 >> k texels a side.
        const uint32_t w = mipExtent(plan.width, st.firstLevel - 1), h = mipExtent(plan.height, st.firstLevel - 1);
        const bool tiled = s > 0 || plan.halo.oddBase;  // not a plain prefix
        const uint32_t absorbX = tiled && st.tilesX < tilesFor(w, st.tile) ? 1u : 0u;
        const uint32_t absorbY = tiled && st.tilesY < tilesFor(h, st.tile) ? 1u : 0u;
        const uint32_t sideShift = tiled ? log2Of(VKSPD_TILE) - log2Of(st.tile) : 0u;
        pc.stage[s].shape = st.firstLevel | (absorbX << 5) | (absorbY << 6) | (st.levels << 8) | (sideShift << 11) |
                            (st.haloX << 16) | (st.haloY << 24);
        pc.stage[s].counters = st.counters;
        pc.stage[s].kept = st.kept;
    }
    return pc;
}

uint32_t sumSharesCapacity(bool fp16) { return fp16 ? VKSPD_SUM_SHARES_FP16 : VKSPD_SUM_SHARES_FP32; }

uint32_t sumSharesBound(const Plan& plan, uint32_t tilesPerGroup) {
    const uint32_t prefix = plan.sums.prefix, side = VKSPD_TILE >> prefix;
    uint32_t nx = std::min<uint32_t>(tilesPerGroup * side, mipExtent(plan.width, prefix));
    uint32_t ny = std::min<uint32_t>(side, mipExtent(plan.height, prefix));
    uint32_t shares = 0;
    for (uint32_t l = prefix + 1; l <= plan.levels; ++l) {
        nx = std::min<uint32_t>((nx + 1) / 2 + 1, mipExtent(plan.width, l));
        ny = std::min<uint32_t>((ny + 1) / 2 + 1, mipExtent(plan.height, l));
        shares += nx * ny;
    }
    return shares;
}

uint32_t summedTilesPerGroup(const Plan& plan) {
    const uint32_t tilesX = plan.stages[0].tilesX;
    const uint64_t rows = uint64_t(plan.stages[0].tilesY) * plan.layers;
    uint32_t per = 1;
    while (per < VKSPD_MAX_TILES_PER_GROUP && per < tilesX && (tilesX + per - 1) / per * rows > kSumMaxGroups)
        per *= 2;
    return per;
}

bool summedStripsSuitAuto(const Plan& plan) {
    const uint32_t per = summedTilesPerGroup(plan);
    const uint64_t groups =
        uint64_t((plan.stages[0].tilesX + per - 1) / per) * plan.stages[0].tilesY * plan.layers;
    return per <= kAutoSumTilesPerGroup && groups <= kSumMaxGroups;
}

bool useSummedLevels(Plan* plan, uint32_t requested, uint32_t texelBytes, bool fp16, uint32_t tailTiles,
                     uint32_t tailPer, uint32_t minGroups) {
    if (!plan->sums.prefix) return false;
    const uint32_t side = VKSPD_TILE >> plan->sums.prefix;
    auto fits = [&](uint32_t per) {
        return per * side * side <= VKSPD_SUM_BLOCK && sumSharesBound(*plan, per) <= sumSharesCapacity(fp16);
    };
    if (!fits(1)) return false;
    uint32_t per = requested || plan->plain ? tilesPerGroupFor(*plan, requested, texelBytes, minGroups)
                                            : summedTilesPerGroup(*plan);
    while (per > 1 && !fits(per)) per /= 2;
    plan->tilesPerGroup = per;
    plan->haloStages = false;
    plan->summedLevels = true;
    plan->warmTexel = 0;
    setLayout(plan, plan->sums.texels * (1 + plan->channels), 0);
    if (plan->plain)
        setTail(plan, tailTiles, tailPer);
    else
        setTail(plan, 0, 1);
    return true;
}

shader::SumPushConstants sumPushConstantsFor(const Plan& plan) {
    shader::SumPushConstants pc{};
    pc.extentX = plan.width;
    pc.extentY = plan.height;
    pc.levels = plan.levels;
    pc.stages = 1;
    pc.flags = plan.plain ? VKSPD_FLAG_PLAIN_SUMS : 0u;  // P = 6: every later level in one pass
    pc.channels = plan.channels;
    pc.countersPerLayer = plan.countersPerLayer;
    pc.dataPerLayer = 0;
    pc.tilesPerGroup = plan.tilesPerGroup;
    pc.tail = (plan.tailRow << 8) | plan.tailTilesPerGroup;
    pc.prefixLevels = plan.sums.prefix;
    pc.sumTexels = plan.sums.texels;
    for (uint32_t i = 0; i < VKSPD_SUM_MAX_LEVELS; ++i) pc.levelRecord[i] = plan.sums.levelRecord[i];
    return pc;
}

}  // namespace vkspd
