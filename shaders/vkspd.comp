#version 460
// vkspd single-pass downsampler: every level of the range in one dispatch.
//
// Technique: AMD FidelityFX SPD (Lou Kramer, "Optimizing for the Radeon RDNA architecture", 2020):
// 256-thread groups each reduce a 64x64 tile to 1x1 through registers, quad subgroup operations and
// shared memory; an atomic counter elects the last group, which reduces mip 6 further. vkspd
// cascades the election (the last group of each 64x64 block of tiles runs the next stage on that
// block), so any size is one dispatch, runs every layer in it (z = layer), and adds the exact
// odd-size filter of docs/FILTER.md: tiles exchange partial sums of the texels on their edges
// through the data buffer (docs/DESIGN.md).
//
// Build-time switches (required): VKSPD_FP16 (0/1), VKSPD_QUAD (0/1), VKSPD_REDUCTION
// (VKSPD_REDUCTION_*). With VKSPD_REDUCTION_CUSTOM the caller's reduction is included from
// "vkspd_custom_reduction.glsl" (the library compiles that variant at run time with shaderc).
#if !defined(VKSPD_FP16) || !defined(VKSPD_QUAD) || !defined(VKSPD_REDUCTION)
#error "Missing required macro VKSPD_FP16, VKSPD_QUAD or VKSPD_REDUCTION"
#endif

#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_GOOGLE_include_directive : require
#if VKSPD_QUAD
#extension GL_KHR_shader_subgroup_quad : require
#endif
#if VKSPD_FP16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#ifdef VKSPD_DEBUG_MAP
#ifdef VKSPD_SM_BUILTINS
#extension GL_NV_shader_sm_builtins : require
#endif
#endif
#pragma use_vulkan_memory_model

#include "vkspd_shared.h"

// Tuning (docs/PERFORMANCE.md): steps of the stage-0 quad path whose fetches go out together (2:
// all four were no faster, one at a time was latency-bound), and steps of the later stages' quad
// path whose data-buffer loads go out together (1: two or four cost 16 registers and time).
#ifndef VKSPD_FETCH_BATCH
#define VKSPD_FETCH_BATCH 2
#endif
#ifndef VKSPD_KEPT_FETCH_BATCH
#define VKSPD_KEPT_FETCH_BATCH 1
#endif

layout(local_size_x = VKSPD_GROUP_SIZE) in;

#include "vkspd_common.glsl"

#ifdef VKSPD_DEBUG_MAP
// Developer tools only (include/vkspd/debug.hpp): separate pipelines, never generateMips.
layout(set = 0, binding = VKSPD_BINDING_DEBUG_MAP) buffer DebugMap { uint debugMap[]; };
#endif

// Shared memory (FP32: 14 KiB, inside Vulkan's guaranteed 16 KiB). ldsA holds half of level 1
// (33 x 18 texels, the extra column and row are the partial sums for the left and upper
// neighbours), then levels 3 and 5; ldsB holds levels 2, 4 and 6 (up to 17 x 17).
shared VEC ldsA[33 * 18];
shared VEC ldsB[17 * 17];
shared uint sFinalize;       // bit mask of edges and corners this group finalizes
shared uint sMipCount[4];    // texels of the stage's last level made final, for the tiles
                             // T, T-(1,0), T-(0,1), T-(1,1) (this tile and those it finishes)
shared uint sElectedCount[2];   // next-stage tiles this group was elected to run, by stage parity
shared ivec2 sElected[2][16];

// Per-group state of the stage being processed.
int gTid;
int gStage;       // stage being run: 0 for the dispatch's own tile, then elected blocks
int gLevelBase;   // level of the stage's source (6 * gStage), relative to the base
ivec2 gTile;      // tile of the stage
bool gHasRight, gHasBelow;

bool depX(int k) { return ((pc.stage[gStage].depMask >> uint(k)) & 1u) != 0u; }
bool depY(int k) { return ((pc.stage[gStage].depMask >> uint(16 + k)) & 1u) != 0u; }
bool isLastStage() { return gStage + 1 >= int(pc.stages); }
int stageLevels() { return min(VKSPD_TILE_LEVELS, int(pc.levels) - gLevelBase); }

uint recordOf(ivec2 tile) {
    return pc.stage[gStage].records +
           uint(tile.y * int(pc.stage[gStage].tilesX) + tile.x) * uint(VKSPD_RECORD_SIZE);
}

// First strip index of level k: 32 + 16 + ... for the levels before it.
int stripOffset(int k) { return 64 - (128 >> k); }

// A final texel of the stage's last level (the texel of `tile` at level 6): keep it at full
// precision for the next stage and count it towards that stage's election.
void keepMipTexel(int k, ivec2 tile, ivec2 g, vec4 v) {
    if (k == VKSPD_TILE_LEVELS && !isLastStage()) {
        storeData(keptTexel(pc.stage[gStage].kept, gLevelBase + k, g), v);
        atomicAdd(sMipCount[(tile.x != gTile.x ? 1 : 0) + (tile.y != gTile.y ? 2 : 0)], 1u);
    }
}

// Writes texel (local l, global g) of level k of this tile: to the image when this tile alone
// determines it, else as a partial sum into the tile's record for whoever finishes the edge.
void emitTexel(int k, ivec2 l, ivec2 g, VEC value) {
    int n = VKSPD_TILE >> k;
    vec4 v = vec4(value);
    bool xPart = l.x == n - 1 && gHasRight && depX(k);
    bool yPart = l.y == n - 1 && gHasBelow && depY(k);
    bool xLeft = l.x == -1, yUp = l.y == -1;
    bool xEdge = xPart || xLeft, yEdge = yPart || yUp;
    if (!xEdge && !yEdge) {
        storeLevel(gLevelBase + k, g, v);
        keepMipTexel(k, gTile, g, v);
        return;
    }
    int slot;
    if (xEdge && !yEdge) {
        slot = (xPart ? VKSPD_REC_RIGHT : VKSPD_REC_LEFT) + stripOffset(k) + l.y;
    } else if (yEdge && !xEdge) {
        slot = (yPart ? VKSPD_REC_BOTTOM : VKSPD_REC_TOP) + stripOffset(k) + l.x;
    } else {
        slot = (xPart ? (yPart ? VKSPD_REC_CORNER : VKSPD_REC_CORNER_T)
                      : (yPart ? VKSPD_REC_CORNER_L : VKSPD_REC_CORNER_TL)) + k - 1;
    }
    storeData(recordOf(gTile) + uint(slot), v);
}

// Whether this tile produces texel (local l, global g) of level k: inside the level, and on the
// extra column/row only where the neighbour there depends on this tile.
bool outputValid(int k, ivec2 l, ivec2 g, uvec2 e) {
    if (any(lessThan(g, ivec2(0))) || any(greaterThanEqual(g, ivec2(e)))) return false;
    if (l.x == -1 && !depX(k)) return false;
    if (l.y == -1 && !depY(k)) return false;
    return true;
}

// A texel of the stage's source at full precision: the dispatch's source in stage 0, the texels
// the previous stage kept in the data buffer after it.
vec4 fetchSource4(ivec2 p) {
    if (gStage == 0) return sourceTexel(p);
    return loadData(keptTexel(pc.stage[gStage - 1].kept, gLevelBase, p));
}

VEC fetchSource(ivec2 p) { return gStage == 0 ? VEC(sourceTexel(p)) : toReal(fetchSource4(p)); }

// Texel g of a level from the level above (s texels per axis), using only the source texels in
// [lo, hi): those outside belong to other tiles (this is the tile's partial result).
// Weights are applied before adding, so sums of values near the half-float maximum stay finite.
// The weighted sums accumulate in FP32 in every variant: with the three-tap weights of odd sizes
// rounded to half precision, FP16 sums drifted to 4 ulp of RGBA16F (63x65), the tolerance's
// limit; the FP16 variant keeps 16-bit storage in shared memory and 16-bit quad exchanges.
#define DEFINE_REDUCE(NAME, FETCH)                                          \
    VEC NAME(uvec2 s, ivec2 g, ivec2 lo, ivec2 hi, int stride) {            \
        vec3 wx = axisWeights(s.x, g.x), wy = axisWeights(s.y, g.y);        \
        ivec2 clo = max(lo, ivec2(0)), chi = min(hi, ivec2(s));             \
        vec4 acc = rIdentity();                                             \
        uvec4 special = uvec4(0u);                                          \
        for (int b = 0; b < 3; ++b) {                                       \
            int y = 2 * g.y + b;                                            \
            if (wy[b] == 0.0 || y < clo.y || y >= chi.y) continue;          \
            vec4 row = rIdentity();                                         \
            for (int a = 0; a < 3; ++a) {                                   \
                int x = 2 * g.x + a;                                        \
                if (wx[a] == 0.0 || x < clo.x || x >= chi.x) continue;      \
                vec4 value = vec4(FETCH);                                   \
                special |= nonFinite(value);                                \
                row = rAccumulate(row, value, wx[a]);                       \
            }                                                               \
            acc = rAccumulate(acc, row, wy[b]);                             \
        }                                                                   \
        return toReal(finishReduce(acc, special));                          \
    }

DEFINE_REDUCE(reduceSource, fetchSource(ivec2(x, y)))
DEFINE_REDUCE(reduceA, ldsA[(y - lo.y) * stride + (x - lo.x)])
DEFINE_REDUCE(reduceB, ldsB[(y - lo.y) * stride + (x - lo.x)])

// Levels 1 and 2 of the tile without subgroup operations, in two halves of level 1 so that the
// FP32 variant fits 16 KiB. Each half keeps one row more than it owns (the first row of the next
// half), so level 2 needs no partial sums inside the tile.
void levelsOneTwoShared(int levels) {
    ivec2 o0 = gTile * 64, o1 = gTile * 32, o2 = gTile * 16;
    uvec2 s0 = levelExtent(gLevelBase), e1 = levelExtent(gLevelBase + 1),
          e2 = levelExtent(gLevelBase + 2);
    for (int h = 0; h < 2; ++h) {
        int rowBegin = h == 0 ? -1 : 16, rows = h == 0 ? 18 : 16;
        for (int i = gTid; i < 33 * rows; i += VKSPD_GROUP_SIZE) {
            ivec2 l = ivec2(i % 33 - 1, i / 33 + rowBegin);
            ivec2 g = o1 + l;
            // Texels this tile does not make hold the identity: a neighbour's share is not ours.
            VEC v = VEC(rIdentity());
            if (outputValid(1, l, g, e1)) {
                v = reduceSource(s0, g, o0, o0 + 64, 0);
                if (h == 1 || l.y < 16) emitTexel(1, l, g, v);
            }
            ldsA[i] = v;
        }
        if (levels < 2) continue;
        barrier();
        int row2Begin = h == 0 ? -1 : 8, rows2 = h == 0 ? 9 : 8;
        ivec2 lo = ivec2(o1.x - 1, o1.y + rowBegin), hi = ivec2(o1.x + 32, o1.y + rowBegin + rows);
        // At most 153 outputs, one per thread. (Not a loop: Mesa 22.3's lavapipe misplaces the
        // barrier after a loop that whole subgroups skip.)
        if (gTid < 17 * rows2) {
            int i = gTid;
            ivec2 l = ivec2(i % 17 - 1, i / 17 + row2Begin);
            ivec2 g = o2 + l;
            VEC v = VEC(rIdentity());
            if (outputValid(2, l, g, e2)) {
                v = reduceA(e1, g, lo, hi, 33);
                emitTexel(2, l, g, v);
            }
            ldsB[(l.y + 1) * 17 + l.x + 1] = v;
        }
        barrier();
    }
}

#if VKSPD_QUAD
// Levels 1 and 2 of a later stage when both are plain 2x2 averages (even extents): each thread
// makes four level-1 texels from the texels the previous stage kept, each quad reduces them to
// level 2 without touching shared memory.
void levelsOneTwoQuad() {
    ivec2 o1 = gTile * 32, o2 = gTile * 16;
    uvec2 e1 = levelExtent(gLevelBase + 1), e2 = levelExtent(gLevelBase + 2);
    ivec2 m = mortonPosition(gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID);
    for (int first = 0; first < 4; first += VKSPD_KEPT_FETCH_BATCH) {
        // Even extents: the plain 2x2 footprint, every tap inside the image and the tile (clamped
        // where the tile reaches past the level; those results are discarded).
        VEC v[4];
        for (int b = 0; b < VKSPD_KEPT_FETCH_BATCH; ++b) {
            int step = first + b;
            ivec2 t = 2 * min(o1 + m + ivec2(16 * (step & 1), 16 * (step >> 1)), ivec2(e1) - 1);
            v[b] = toReal(reduce4f(fetchSource4(t), fetchSource4(t + ivec2(1, 0)), fetchSource4(t + ivec2(0, 1)),
                                   fetchSource4(t + ivec2(1, 1))));
        }
        for (int b = 0; b < VKSPD_KEPT_FETCH_BATCH; ++b) {
            int step = first + b;
            ivec2 p = m + ivec2(16 * (step & 1), 16 * (step >> 1));
            ivec2 g = o1 + p;
            bool inside = all(lessThan(g, ivec2(e1)));
            VEC r = inside ? v[b] : VEC(rIdentity());
            if (inside) emitTexel(1, p, g, r);
            VEC q = quadReduce(r);
            if ((m.x & 1) == 0 && (m.y & 1) == 0) {
                ivec2 p2 = p >> 1;
                ivec2 g2 = o2 + p2;
                bool inside2 = all(lessThan(g2, ivec2(e2)));
                ldsB[(p2.y + 1) * 17 + p2.x + 1] = inside2 ? q : VEC(rIdentity());
                if (inside2) emitTexel(2, p2, g2, q);
            }
        }
    }
    // No level below 3 depends on a neighbour here, so the extra row and column hold nothing.
    if (gTid < 17) {
        ldsB[gTid] = VEC(rIdentity());
        ldsB[gTid * 17] = VEC(rIdentity());
    }
    barrier();
}

// Stage 0 of the quad path: levels 1 and 2 are plain 2x2 reductions of the dispatch's source, so
// every texel of them is final (no partial sums, no kept texels) and goes straight to its image.
// The fetches of VKSPD_FETCH_BATCH steps are issued before the first store of those steps: a
// texel fetch cannot move past an image store the compiler must assume may alias it, and with
// one step's four fetches in flight per thread the dispatch was bound by memory latency
// (docs/PERFORMANCE.md). Tiles that reach past the image fetch clamped coordinates and discard them.
void levelsOneTwoQuadSource() {
    ivec2 o1 = gTile * 32, o2 = gTile * 16;
    uvec2 s0 = levelExtent(0), e1 = levelExtent(1), e2 = levelExtent(2);
    ivec2 m = mortonPosition(gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID);
    bool linear = (pc.flags & VKSPD_FLAG_LINEAR_FETCH) != 0u;
    for (int first = 0; first < 4; first += VKSPD_FETCH_BATCH) {
        vec4 v[VKSPD_FETCH_BATCH];
        for (int b = 0; b < VKSPD_FETCH_BATCH; ++b) {
            int step = first + b;
            ivec2 t = 2 * min(o1 + m + ivec2(16 * (step & 1), 16 * (step >> 1)), ivec2(e1) - 1);
            if (linear) {
                // FidelityFX SPD's linear-sampler load: the shared corner of the four texels
                // weighs each by exactly 1/4.
                v[b] = linearCorner(t);
            } else {
                v[b] = reduce4f(sourceTexel(t), sourceTexel(t + ivec2(1, 0)), sourceTexel(t + ivec2(0, 1)),
                                sourceTexel(t + ivec2(1, 1)));
            }
        }
        for (int b = 0; b < VKSPD_FETCH_BATCH; ++b) {
            int step = first + b;
            ivec2 p = m + ivec2(16 * (step & 1), 16 * (step >> 1));
            ivec2 g = o1 + p;
            bool inside = all(lessThan(g, ivec2(e1)));
            // No saturation: the FP16 path only reads formats whose values (and so their means)
            // are within the half range (FormatInfo::fp16Capable), Inf and NaN pass unchanged.
            VEC r = inside ? VEC(v[b]) : VEC(rIdentity());
            if (inside) storeLevelInRange(1, g, vec4(r));
            VEC q = quadReduce(r);
            if ((m.x & 1) == 0 && (m.y & 1) == 0) {
                ivec2 p2 = p >> 1;
                ivec2 g2 = o2 + p2;
                bool inside2 = all(lessThan(g2, ivec2(e2)));
                ldsB[(p2.y + 1) * 17 + p2.x + 1] = inside2 ? q : VEC(rIdentity());
                if (inside2) storeLevel(2, g2, vec4(q));
            }
        }
    }
    if (gTid < 17) {
        ldsB[gTid] = VEC(rIdentity());
        ldsB[gTid * 17] = VEC(rIdentity());
    }
    barrier();
}
#endif

#if VKSPD_QUAD
void arriveAtBlock(ivec2 finished, uint count);  // below, with the other election code

// Whether levels 3..`levels` of this stage are plain 2x2 reductions that no neighbouring tile
// shares: no partial sums at tile edges and every level above them even on both axes.
bool plainTail(int levels) {
    if (pc.stage[gStage].depMask != 0u) return false;
    for (int k = 3; k <= levels; ++k) {
        uvec2 s = levelExtent(gLevelBase + k - 1);
        if (((s.x | s.y) & 1u) != 0u) return false;
    }
    return true;
}

// Levels 3..`levels` (at most 6) of a plain tail, with level 2 in ldsB (after the barrier that
// wrote it): two workgroup barriers instead of one per level. Level 3 is made by 64 threads in
// Morton order, so each quad reduces it to a level-4 texel; level 5 by 16 threads the same way
// from level 4 in shared memory; level 6 by thread 0. In a stage with a next one, thread 0 keeps
// the level-6 texel and arrives at the election itself: its release covers the only write the
// next stage reads, so no workgroup barrier comes before it.
void levelsThreeToSixPlain(int levels) {
    uint index = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    // Every thread takes part in the quad operations; only the first 64 (16) store.
    ivec2 m = mortonPosition(index & 63u);
    bool leader = (m.x & 1) == 0 && (m.y & 1) == 0;
    {
        int i = (2 * m.y + 1) * 17 + 2 * m.x + 1, j = i + 17;
        VEC v = toReal(reduce4f(vec4(ldsB[i]), vec4(ldsB[i + 1]), vec4(ldsB[j]), vec4(ldsB[j + 1])));
        ivec2 g3 = gTile * 8 + m;
        if (index < 64u && all(lessThan(g3, ivec2(levelExtent(gLevelBase + 3))))) storeLevel(gLevelBase + 3, g3, vec4(v));
        if (levels < 4) return;
        VEC q = quadReduceF(v);
        ivec2 p4 = m >> 1, g4 = gTile * 4 + p4;
        if (index < 64u && leader) {
            if (all(lessThan(g4, ivec2(levelExtent(gLevelBase + 4))))) storeLevel(gLevelBase + 4, g4, vec4(q));
            ldsA[p4.y * 4 + p4.x] = q;
        }
    }
    if (levels < 5) return;
    barrier();
    {
        ivec2 m5 = mortonPosition(index & 15u);
        VEC q = quadReduceF(ldsA[m5.y * 4 + m5.x]);
        ivec2 p5 = m5 >> 1, g5 = gTile * 2 + p5;
        if (index < 16u && (index & 3u) == 0u) {
            if (all(lessThan(g5, ivec2(levelExtent(gLevelBase + 5))))) storeLevel(gLevelBase + 5, g5, vec4(q));
            ldsB[p5.y * 2 + p5.x] = q;
        }
    }
    if (levels < 6) return;
    barrier();
    if (gTid == 0) {
        VEC v = toReal(reduce4f(vec4(ldsB[0]), vec4(ldsB[1]), vec4(ldsB[2]), vec4(ldsB[3])));
        ivec2 g6 = gTile;
        if (all(lessThan(g6, ivec2(levelExtent(gLevelBase + 6))))) {
            storeLevel(gLevelBase + 6, g6, vec4(v));
            if (!isLastStage()) {
                storeData(keptTexel(pc.stage[gStage].kept, gLevelBase + 6, g6), vec4(v));
                arriveAtBlock(gTile, 1u);
            }
        }
    }
}
#endif

// Later stages take the quad path on the same rule as the planner's VKSPD_FLAG_QUAD_LEVELS_1_2
// for stage 0: the stage's source and its level 1 are even on both axes (levels 1 and 2 are
// plain 2x2 reductions, so no texel of them depends on a neighbouring tile). Their source is the
// data buffer: one stage-1 group reduces 64x64 kept texels while the rest of the GPU idles, and
// the generic tap loop made that serial tail a large part of the dispatch (docs/PERFORMANCE.md).
bool quadLevelsOneTwo() {
    uvec2 s0 = levelExtent(gLevelBase), s1 = levelExtent(gLevelBase + 1);
    return ((s0.x | s0.y | s1.x | s1.y) & 1u) == 0u;
}

// Every level of one tile of the current stage, `levels` of them (1..6). True when the group
// arrived at its election on the way (the plain tail of a stage with a next one).
bool processTile(int levels) {
#if VKSPD_QUAD
    bool quad = true;
    if (levels >= 2 && gStage == 0 && (pc.flags & VKSPD_FLAG_QUAD_LEVELS_1_2) != 0u) {
        levelsOneTwoQuadSource();
    } else if (levels >= 2 && gStage > 0 && quadLevelsOneTwo()) {
        levelsOneTwoQuad();
    } else {
        levelsOneTwoShared(levels);
        quad = false;
    }
    if (quad && levels >= 3 && plainTail(levels)) {
        levelsThreeToSixPlain(levels);
        return levels == VKSPD_TILE_LEVELS && !isLastStage();
    }
#else
    levelsOneTwoShared(levels);
#endif
    // Levels 3..6 ping-pong between ldsB (even levels) and ldsA (odd levels).
    for (int k = 3; k <= levels; ++k) {
        int n = VKSPD_TILE >> k, size = n + 1, nAbove = 2 * n;
        ivec2 ok = gTile * n, oAbove = gTile * nAbove;
        uvec2 sAbove = levelExtent(gLevelBase + k - 1), e = levelExtent(gLevelBase + k);
        ivec2 lo = oAbove - 1, hi = oAbove + nAbove;
        VEC v = VEC(rIdentity());
        if (gTid < size * size) {
            ivec2 l = ivec2(gTid % size - 1, gTid / size - 1);
            ivec2 g = ok + l;
            if (outputValid(k, l, g, e)) {
                if (((sAbove.x | sAbove.y) & 1u) == 0u && !depX(k) && !depY(k)) {
                    // Even and independent of the neighbours: the plain 2x2 footprint.
                    int i = (2 * l.y + 1) * (nAbove + 1) + 2 * l.x + 1, j = i + nAbove + 1;
                    v = toReal((k & 1) != 0
                                ? reduce4f(vec4(ldsB[i]), vec4(ldsB[i + 1]), vec4(ldsB[j]), vec4(ldsB[j + 1]))
                                : reduce4f(vec4(ldsA[i]), vec4(ldsA[i + 1]), vec4(ldsA[j]), vec4(ldsA[j + 1])));
                } else {
                    v = (k & 1) != 0 ? reduceB(sAbove, g, lo, hi, nAbove + 1)
                                     : reduceA(sAbove, g, lo, hi, nAbove + 1);
                }
                emitTexel(k, l, g, v);
            }
        }
        if (gTid < size * size) {
            if ((k & 1) != 0) ldsA[gTid] = v;
            else ldsB[gTid] = v;
        }
        barrier();
    }
    return false;
}

// --- Finishing tile edges (odd sizes) --------------------------------------------------------

int levelOfStripIndex(int i) {
    int k = 1;
    while (k < VKSPD_TILE_LEVELS && i >= stripOffset(k + 1)) ++k;
    return k;
}

// One texel of the shared edge of `tile` and its right (`right`) or lower neighbour: the tile's
// own partial plus the neighbour's contribution. `i` indexes the strip over all levels (0..62).
// The corner texel is left to finishCorner where the lower/right neighbours contribute too.
void finishEdge(ivec2 tile, int i, bool right) {
    int k = levelOfStripIndex(i);
    if (k > stageLevels() || !(right ? depX(k) : depY(k))) return;
    int n = VKSPD_TILE >> k, j = i - stripOffset(k);
    bool otherNeighbour = right ? tile.y + 1 < int(pc.stage[gStage].tilesY)
                                : tile.x + 1 < int(pc.stage[gStage].tilesX);
    if (otherNeighbour && (right ? depY(k) : depX(k)) && j == n - 1) return;
    ivec2 g = tile * n + (right ? ivec2(n - 1, j) : ivec2(j, n - 1));
    if (any(greaterThanEqual(g, ivec2(levelExtent(gLevelBase + k))))) return;
    ivec2 neighbour = tile + (right ? ivec2(1, 0) : ivec2(0, 1));
    int own = right ? VKSPD_REC_RIGHT : VKSPD_REC_BOTTOM;
    int theirs = right ? VKSPD_REC_LEFT : VKSPD_REC_TOP;
    vec4 a = loadData(recordOf(tile) + uint(own + i)), b = loadData(recordOf(neighbour) + uint(theirs + i));
    vec4 v = finishReduce(rCombine(a, b), nonFinite(a) | nonFinite(b));
    storeLevel(gLevelBase + k, g, v);
    keepMipTexel(k, tile, g, v);
}

// The bottom-right corner of `tile` at level k: partials of the four tiles around it.
void finishCorner(ivec2 tile, int k) {
    if (k > stageLevels() || !depX(k) || !depY(k)) return;
    int n = VKSPD_TILE >> k;
    ivec2 g = tile * n + ivec2(n - 1);
    if (any(greaterThanEqual(g, ivec2(levelExtent(gLevelBase + k))))) return;
    vec4 a = loadData(recordOf(tile) + uint(VKSPD_REC_CORNER + k - 1));
    vec4 b = loadData(recordOf(tile + ivec2(1, 0)) + uint(VKSPD_REC_CORNER_L + k - 1));
    vec4 c = loadData(recordOf(tile + ivec2(0, 1)) + uint(VKSPD_REC_CORNER_T + k - 1));
    vec4 d = loadData(recordOf(tile + ivec2(1, 1)) + uint(VKSPD_REC_CORNER_TL + k - 1));
    vec4 v = finishReduce(rCombine(rCombine(a, b), rCombine(c, d)),
                          nonFinite(a) | nonFinite(b) | nonFinite(c) | nonFinite(d));
    storeLevel(gLevelBase + k, g, v);
    keepMipTexel(k, tile, g, v);
}

uint edgeCounterOf(ivec2 tile, int which) {
    return gCounterBase + pc.stage[gStage].edgeCounters +
           uint(tile.y * int(pc.stage[gStage].tilesX) + tile.x) * uint(VKSPD_COUNTERS_PER_TILE) +
           uint(which);
}

// Counts `count` final texels of the stage's last level towards the next-stage block that holds
// `finished`; the arrival that completes the block appends it to this group's elected list.
void arriveAtBlock(ivec2 finished, uint count) {
    uvec2 kept = levelExtent(gLevelBase + VKSPD_TILE_LEVELS);
    ivec2 block = finished / VKSPD_TILE;
    uvec2 inside = min(uvec2(VKSPD_TILE), kept - uvec2(block) * uint(VKSPD_TILE));
    uint counter = gCounterBase + pc.stage[gStage].electCounters +
                   uint(block.y) * pc.stage[gStage + 1].tilesX + uint(block.x);
    if (arrive(counter, count, inside.x * inside.y)) {
        uint list = uint(gStage + 1) & 1u;
        sElected[list][sElectedCount[list]] = block;
        sElectedCount[list] += 1u;
    }
}

// After the arrivals at the edge counters: joins the workgroup (every thread then reads the
// finalize mask) and acquires at device scope, for every thread, the records the arriving
// threads' atomics acquired. Buffer semantics only: the records are in the data buffer, and no
// group reads an image another group wrote. The memory model needs only the fence after the
// barrier; Mesa 22.3's lavapipe fails two cascade tests without the one before it as well, so
// both stay (image semantics as well measured no faster: docs/PERFORMANCE.md).
void deviceBarrier() {
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    barrier();
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
}

// After the tile: arrive at the counters of the edges and corners this tile shares, and finish
// those this group arrived at last.
void finishEdges() {
    int K = stageLevels();
    bool xAny = depX(K), yAny = depY(K);
    ivec2 t = gTile;
    bool left = t.x > 0, up = t.y > 0;
    // Threads 0..7 arrive at one counter each, in parallel: one after the other in thread 0, the
    // eight device-scope round trips lengthened every group's life at odd sizes.
    // (sFinalize was cleared at the start of the stage.)
    if (gTid < 8) {
        bool corner = gTid >= 4;
        ivec2 shift = corner ? ivec2(gTid & 1, (gTid >> 1) & 1) : ivec2(gTid == 1 ? 1 : 0, gTid == 3 ? 1 : 0);
        bool wanted;
        if (corner) {
            // Bottom-right corners of T, T-(1,0), T-(0,1), T-(1,1): four tiles meet at each.
            wanted = xAny && yAny && (shift.x == 1 ? left : gHasRight) && (shift.y == 1 ? up : gHasBelow);
        } else if (gTid < 2) {
            wanted = xAny && (gTid == 1 ? left : gHasRight);    // right edges of T, T-(1,0)
        } else {
            wanted = yAny && (gTid == 3 ? up : gHasBelow);      // bottom edges of T, T-(0,1)
        }
        int which = corner ? 2 : gTid >> 1;
        if (wanted && arrive(edgeCounterOf(t - shift, which), 1u, corner ? 4u : 2u))
            atomicOr(sFinalize, 1u << uint(gTid));
    }
    deviceBarrier();
    uint mask = sFinalize;
    // Threads 0..255: four edges of 64 texel slots each.
    int e = gTid >> 6, i = gTid & 63;
    if (i < VKSPD_STRIP && (mask & (1u << uint(e))) != 0u) {
        ivec2 tile = e == 0 || e == 2 ? t : e == 1 ? t - ivec2(1, 0) : t - ivec2(0, 1);
        finishEdge(tile, i, e < 2);
    }
    // Threads 0..23: four corners, one level each.
    if (gTid < 24) {
        int c = gTid / 6, k = gTid % 6 + 1;
        if ((mask & (16u << uint(c))) != 0u) {
            ivec2 corner = c == 0 ? t : c == 1 ? t - ivec2(1, 0) : c == 2 ? t - ivec2(0, 1) : t - ivec2(1);
            finishCorner(corner, k);
        }
    }
}

// One stage on one tile: its levels, its shared edges, and the election of the next stage's
// tiles whose last texel this group made final (appended to sElected).
void runStage(int stage, ivec2 tile) {
    gStage = stage;
    gLevelBase = VKSPD_TILE_LEVELS * stage;
    gTile = tile;
    gHasRight = tile.x + 1 < int(pc.stage[stage].tilesX);
    gHasBelow = tile.y + 1 < int(pc.stage[stage].tilesY);
    if (gTid < 4) sMipCount[gTid] = 0u;
    if (gTid == 0) sFinalize = 0u;
    barrier();

    bool arrivedInTail = processTile(stageLevels());
    if (pc.stage[stage].depMask != 0u) {
        // The records before the arrivals at the edge counters. (After the arrivals, finishEdges
        // keeps device-scope fences: Mesa 22.3's lavapipe needs them there.)
        releaseBarrier();
        finishEdges();
    }
    if (isLastStage()) return;

    // The tiles whose level-6 texel this group made final (itself, and the ones it finished an
    // edge or corner for) count towards the 64x64 block of the next stage that holds them; the
    // arrival that completes a block elects this group to run the next stage on it.
    // The kept texels are the only writes the next stage reads: releaseBarrier orders them before
    // thread 0's releasing atomic.
    // A plain tail has arrived already, from the thread that made the kept texel.
    if (!arrivedInTail) {
        releaseBarrier();
        if (gTid == 0) {
            // Usually all four tiles lie in one block of the next stage (this tile is not in the
            // first column or row of its block): one arrival with the sum, one device-scope round
            // trip in the life of the group instead of up to four in a row.
            bool inX = tile.x % VKSPD_TILE != 0, inY = tile.y % VKSPD_TILE != 0;
            if ((sMipCount[1] == 0u || inX) && (sMipCount[2] == 0u || inY) && (sMipCount[3] == 0u || (inX && inY))) {
                uint total = sMipCount[0] + sMipCount[1] + sMipCount[2] + sMipCount[3];
                if (total != 0u) arriveAtBlock(tile, total);
            } else {
                for (int w = 0; w < 4; ++w) {
                    uint count = sMipCount[w];
                    if (count != 0u) arriveAtBlock(tile - ivec2(w & 1, w >> 1), count);
                }
            }
        }
    }
    // Only a group elected for a block reads what other groups released; the others are done.
    barrier();
    if (sElectedCount[uint(stage + 1) & 1u] != 0u) {
        memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    }
}

// The debug map's record of this group's own tile, once it has finished it (debug variants only):
// when (the finish counter) and where. Indexed by the tile run (not the group ID), so the map
// stays a picture with tiling on.
void recordDebugMap(ivec2 tile) {
#ifdef VKSPD_DEBUG_MAP
    if (gTid == 0) {
        uint index = (gl_WorkGroupID.z * gl_NumWorkGroups.y + uint(tile.y)) * gl_NumWorkGroups.x + uint(tile.x);
        uint at = VKSPD_DEBUG_HEADER_WORDS + index * VKSPD_DEBUG_TILE_WORDS;
        debugMap[at] = atomicAdd(debugMap[0], 1u);
#ifdef VKSPD_SM_BUILTINS
        debugMap[at + 1u] = gl_SMIDNV;
        debugMap[at + 2u] = gl_WarpIDNV;
        debugMap[at + 3u] = 3u;
#else
        debugMap[at + 3u] = 1u;
#endif
    }
#endif
}

// See VKSPD_SPEC_ONE_SITE (vkspd_shared.h).
layout(constant_id = VKSPD_SPEC_ONE_SITE) const bool kOneSite = false;

void main() {
    gTid = int(gl_LocalInvocationIndex);
    gLayer = int(gl_WorkGroupID.z);
    gCounterBase = uint(gLayer) * pc.countersPerLayer;
    gDataBase = uint(gLayer) * pc.dataPerLayer;
    if (gTid == 0) {
        sElectedCount[0] = 0u;
        sElectedCount[1] = 0u;
    }
    barrier();

    // Group-ID tiling (Bavoil, "Optimizing Compute Shaders for L2 Locality using Thread-Group ID
    // Swizzling", NVIDIA 2020): consecutive groups walk strips pc.groupColumns tiles wide, row by
    // row inside a strip (the last strip is narrower where tilesX is not a multiple).
    ivec2 tile = ivec2(gl_WorkGroupID.xy);
    uint columns = pc.groupColumns;
    if (columns != 0u) {
        uint tilesX = pc.stage[0].tilesX, tilesY = pc.stage[0].tilesY;
        uint i = gl_WorkGroupID.y * tilesX + gl_WorkGroupID.x;
        uint strip = i / (columns * tilesY), inStrip = i - strip * columns * tilesY;
        uint width = min(columns, tilesX - strip * columns);
        tile = ivec2(int(strip * columns + inStrip % width), int(inStrip / width));
    }
    if ((pc.flags & VKSPD_FLAG_COPY_BASE) != 0u) {
        // The base level as a copy of the source (depth pyramids): this group's 64x64 texels.
        ivec2 o0 = tile * VKSPD_TILE;
        uvec2 s0 = levelExtent(0);
        for (int i = gTid; i < VKSPD_TILE * VKSPD_TILE; i += VKSPD_GROUP_SIZE) {
            ivec2 g = o0 + ivec2(i % VKSPD_TILE, i / VKSPD_TILE);
            if (all(lessThan(g, ivec2(s0)))) storeLevel(0, g, sourceTexel(g));
        }
    }
    if (kOneSite) {
        // Stage 0, then the blocks this group was elected for, stage after stage, through one call
        // site of runStage: an elected group runs the code its SM has just run for stage 0,
        // instead of a second copy it has never fetched (the binary halves). Stage 0 pays for it
        // where its level 1 is the nine-tap path (faster at 1920x1080 and 3840x2160, slower at
        // 4095^2: docs/PERFORMANCE.md), so the library sets it where levels 1 and 2 are plain (VKSPD_FLAG_QUAD_LEVELS_1_2). Stage s
        // reads list s & 1 while it appends to the other; every thread reads the same shared values
        // after a barrier, so the loop is uniform.
        int stage = 0;
        uint b = 0u, count = 1u, list = 0u;
        ivec2 t = tile;
        for (;;) {
            runStage(stage, t);
            if (stage == 0) recordDebugMap(tile);
            if (++b < count) {
                t = sElected[list][b];
                continue;
            }
            if (stage > 0) {
                barrier();
                if (gTid == 0) sElectedCount[list] = 0u;
                barrier();
            }
            if (++stage >= int(pc.stages)) break;
            list = uint(stage) & 1u;
            count = sElectedCount[list];
            if (count == 0u) break;
            b = 0u;
            t = sElected[list][0];
        }
        return;
    }
    runStage(0, tile);
    recordDebugMap(tile);
    // The blocks this group was elected for, stage after stage; stage s reads list s & 1 while it
    // appends to the other. Every thread reads the same shared values after a barrier, so the
    // loops are uniform.
    for (int stage = 1; stage < int(pc.stages); ++stage) {
        uint list = uint(stage) & 1u;
        uint count = sElectedCount[list];
        if (count == 0u) break;
        for (uint b = 0u; b < count; ++b) runStage(stage, sElected[list][b]);
        barrier();
        if (gTid == 0) sElectedCount[list] = 0u;
        barrier();
    }
}
