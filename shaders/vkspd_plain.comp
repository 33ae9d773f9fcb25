#version 460
// vkspd single pass for plain chains: every level of the dispatch is a plain 2x2 reduction of the
// level above, because each axis of every level it reads is even or 1 (square powers of two and
// their partial ranges: 4096x4096, 8192x8192, 2048x1, ...). vkspd.comp runs every other size; both
// share vkspd_common.glsl, the bindings and the push constants, and produce the same texels.
//
// What differs from vkspd.comp, for memory throughput (docs/PERFORMANCE.md):
// - A workgroup reduces a strip of pc.tilesPerGroup 64x64 tiles (fewer in the last tile rows of
//   large bases: stripOf), one after the other, with one election arrival per strip; its fetches
//   run two steps ahead of the step being reduced, across tile boundaries, so they stay in flight
//   through the stores, exchanges and barrier of a tile without holding a whole tile in registers.
// - Level 1 is fetched and stored in FidelityFX SPD's order (at step j, the lane at Morton
//   position m takes texel m + 16 (j & 1, j >> 1) of the tile): each fetch and store of a warp
//   covers a contiguous block, whole 32-byte sectors. (One thread per 2x2 block touched a quarter
//   or an eighth of a sector per store: the level-1 stores were the largest cost.)
// - Each quad reduces its 2x2 block of a step to level 2 (shared memory) in two exchanges at the
//   variant's precision (quadReducePairs): the RGBA8 kernel is bound per instruction, not per
//   byte (R8 took as long), and three exchanges with an FP32 sum cost 15% of 16384^2; levels 3-6
//   below are made at that precision too. After one
//   workgroup barrier per tile, every lane stores one level-2 texel and 64 lanes make level 3,
//   one texel each, so each warp's store covers a contiguous 8x4 block as at level 1 (the quads'
//   first lanes storing 4x2 blocks wrote half rows of RGBA8 sectors: its levels 2 and 3 cost 3-4x
//   their bytes); their quads make level 4, and the group's last four
//   lanes make levels 5 and 6 after the next tile's barrier.
// The election cascades as in vkspd.comp, per quadrant: the last group to finish a 32x32 quadrant
// of a 64x64 block of tiles reduces that quadrant's level-6 texels (stage 1) to one level-11
// texel, the last of a block's quadrants makes its level 12, and so on; no group ever waits for
// another.
// Where there is a later stage, the first group of each layer runs the later stages' code once
// before its own tiles, with nothing stored (the warm-up in main).
//
// Build-time switches as vkspd.comp: VKSPD_FP16, VKSPD_QUAD (1: the quads' exchanges by quad
// subgroup operations; 0, the LDS-only path, compiled at run time: through shared memory, the
// quad's first lane reducing its four texels), VKSPD_REDUCTION
// (VKSPD_REDUCTION_CUSTOM only for the FP32 variants of the plain-chain and halo-stage kernels,
// compiled at run time with the caller's reduction: src/custom.cpp). The sRGB encoding of the stores is a specialization constant
// (VKSPD_SPEC_SRGB, vkspd_common.glsl), not the push constants' VKSPD_FLAG_SRGB. VKSPD_HALO: 0 the
// plain-chain kernel, 1 the halo-stage kernel with a plain prefix, 2 the halo-stage kernel whose
// stage 0 reads an odd base in tiles (kOddBase). VKSPD_SHUFFLE_RELATIVE (default 1): with 0, the
// odd-base module loads each base row's third tap instead of taking it from the next lane, and
// needs no relative subgroup shuffles (compiled at run time for devices without them).
#if !defined(VKSPD_FP16) || !defined(VKSPD_QUAD) || !defined(VKSPD_REDUCTION)
#error "Missing required macro VKSPD_FP16, VKSPD_QUAD or VKSPD_REDUCTION"
#endif
#ifndef VKSPD_HALO
#define VKSPD_HALO 0
#endif
#ifndef VKSPD_SUMS
#define VKSPD_SUMS 0
#endif
#if VKSPD_SUMS && VKSPD_HALO
#error "VKSPD_SUMS is a plain prefix (VKSPD_HALO=0)"
#endif

#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#if VKSPD_QUAD
#extension GL_KHR_shader_subgroup_quad : require
#endif
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#ifndef VKSPD_SHUFFLE_RELATIVE
#define VKSPD_SHUFFLE_RELATIVE 1
#endif
#if VKSPD_HALO == 2 && VKSPD_SHUFFLE_RELATIVE
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#endif
#if VKSPD_FP16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#pragma use_vulkan_memory_model

#include "vkspd_shared.h"

layout(local_size_x = VKSPD_GROUP_SIZE) in;

#define VKSPD_SRGB_SPECIALIZED 1
// sourceTexel tests the MinMax expansion flag in the MinMax modules only (vkspd_common.glsl).
#define VKSPD_EXPAND_MINMAX_ONLY 1
// The halo-stage kernel computes only the channels the texels have (vkspd_common.glsl). Not the
// plain-chain kernel: there it took the RGBA8 kernel from 48 to 63 registers and the R8 one to 64,
// under 5 groups per SM, and 4096^2 and 8192^2 ran 11-18% slower (docs/PERFORMANCE.md).
#if VKSPD_HALO
#define VKSPD_CHANNELS_SPECIALIZED 1
#endif
#include "vkspd_common.glsl"

// Level 2 of a tile (16x16) and level 4 (4x4), two copies by tile parity: the next tile's levels
// are written while the lanes that finish this one still read it, with one barrier per tile.
// The halo-stage kernel keeps them in the pool its later stages use (VKSPD_HALO section below).
#if VKSPD_HALO
// The halo stages' pool (VKSPD_HALO_FIRST_FP16 and its neighbours in vkspd_shared.h).
#if VKSPD_FP16
#define VKSPD_HALO_FIRST VKSPD_HALO_FIRST_FP16
#else
#define VKSPD_HALO_FIRST VKSPD_HALO_FIRST_FP32
#endif
shared VEC sPool[VKSPD_HALO_FIRST + VKSPD_HALO_SECOND];
#define LEVEL2(p, i) sPool[(p) * 256 + (i)]
#define LEVEL4(p, i) sPool[512 + (p) * 16 + (i)]
#else
shared VEC sLevel2[2][256];
shared VEC sLevel4[2][16];
#define LEVEL2(p, i) sLevel2[p][i]
#define LEVEL4(p, i) sLevel4[p][i]
#endif
// Whether this group's arrival completed the work behind a counter, by election parity (electAt).
shared uint sElected[2];

// The kept texels as the later stages read them (the data buffer, written by other groups):
// nonprivate, without the per-load visibility of the `coherent` declarations in
// vkspd_common.glsl. The acquire in electAt() makes them visible (gl_SemanticsMakeVisible), which
// the memory model asks of nonprivate loads. A later stage's steps took about half as long as
// with coherent loads (one branch on the channel count per load): RGBA8 2048^2 -24% (docs/PERFORMANCE.md).
layout(set = 0, binding = VKSPD_BINDING_DATA) nonprivate readonly buffer KeptData { float keptData[]; };
layout(set = 0, binding = VKSPD_BINDING_DATA) nonprivate readonly buffer KeptDataV4 { vec4 keptData4[]; };

// A kept texel of one to three floats (DATA_CHANNELS; four take keptData4), each loaded once
// (no dynamic component index: that put the texel in local memory).
vec4 loadKeptNarrow(uint texel) {
    uint n = DATA_CHANNELS, base = (gDataBase + texel) * n;
    return vec4(keptData[base], n > 1u ? keptData[base + 1u] : 0.0, n > 2u ? keptData[base + 2u] : 0.0, 0.0);
}

// A kept texel (loadKeptNarrow, or one vec4 load for four floats).
vec4 loadKept(uint texel) { return DATA_CHANNELS == 4u ? keptData4[gDataBase + texel] : loadKeptNarrow(texel); }

// The 2x2 reduction of texels a (x, y), b (x+1, y), c (x, y+1), d (x+1, y+1) of a level of extent
// `above`, at the variant's precision (levels 3 and 5, from shared memory). On an axis of one
// texel the destination is that texel (docs/FILTER.md, s == 1): the column or row past it does
// not exist, so its place is taken by the first (a custom reduction takes it as one tap:
// customReduce2x2).
VEC reduce2x2(VEC a, VEC b, VEC c, VEC d, uvec2 above) {
#if VKSPD_REDUCTION == VKSPD_REDUCTION_CUSTOM
    return VEC(customReduce2x2(vec4(a), vec4(b), vec4(c), vec4(d), above));
#else
    if (above.x == 1u) {
        b = a;
        d = c;
    }
    if (above.y == 1u) {
        c = a;
        d = b;
    }
    return reduce4(a, b, c, d);
#endif
}

// Offset j (0..3) in a 2x2 block: (j & 1, j >> 1), the order of a quad's lanes and of the steps.
ivec2 blockOffset(int j) { return ivec2(j & 1, j >> 1); }

// The level-1 texel (relative to the tile) of the lane at Morton position m at step j: SPD's order,
// so a step of a quad is a 2x2 block and a step of a warp a contiguous 8x4 block.
ivec2 levelOneTexel(ivec2 m, int j) { return m + 16 * blockOffset(j); }

// Texel g of level k (1..6, a constant) of `stage`, where it lies inside the level. A stage's level
// k is one of three images, each stored through a constant index (dynamic indexing of the level
// array is an optional feature): three stores per site where a run-time level number makes a
// switch over all 19 (88 KB of binary against 91 KB, the same speed; a kernel that ran every
// stage through one code path with such switches was 30-60% slower: docs/PERFORMANCE.md).
// Every value stored here is within the half range: level 1 of stage 0 comes from the source
// (FP16 variants only run formats whose values are, FormatInfo::fp16Capable), later stages' level
// 1 is a mean of kept values that are, and every later level is a mean of such values at the
// variant's precision (quadReducePairs and reduce4 scale before adding, so no sum overflows).
// The halo-stage kernel runs only stage 0 through here, and keeps its last level (gPrefixLevels)
// for stage 1 (KEEP_PREFIX).
#if VKSPD_HALO
int gPrefixLevels;
void storeKept(uint texel, vec4 v);
#define KEEP_PREFIX(stage, k, at, v) \
    if ((stage) == 0 && (k) == gPrefixLevels) storeKept(keptTexel(pc.stage[0].kept, k, at), v)
#elif VKSPD_SUMS
// The summed-levels kernel keeps the strip's level P (gPrefixLevels) in shared memory (sBlock).
int gPrefixLevels;
ivec2 gBlockLo;   // the strip's first level-P texel
int gBlockWidth;  // its level-P texels per row
shared VEC sBlock[VKSPD_SUM_BLOCK];
#define KEEP_PREFIX(stage, k, at, v) \
    if ((stage) == 0 && (k) == gPrefixLevels) sBlock[((at).y - gBlockLo.y) * gBlockWidth + (at).x - gBlockLo.x] = VEC(v)
#else
#define KEEP_PREFIX(stage, k, at, v)
#endif
#define STORE_LEVEL(stage, k, g, v)                                                         \
    do {                                                                                    \
        ivec2 at_ = (g);                                                                    \
        if (all(lessThan(at_, ivec2(levelExtent(VKSPD_TILE_LEVELS * (stage) + (k)))))) {    \
            if ((stage) == 0) storeLevelInRange(k, at_, v);                                 \
            else if ((stage) == 1) storeLevelInRange(VKSPD_TILE_LEVELS + (k), at_, v);      \
            else storeLevelInRange(2 * VKSPD_TILE_LEVELS + (k), at_, v);                    \
            KEEP_PREFIX(stage, k, at_, v);                                                  \
        }                                                                                   \
    } while (false)

layout(constant_id = VKSPD_SPEC_COPY_BASE) const bool kCopyBase = false;
layout(constant_id = VKSPD_SPEC_LINEAR) const bool kLinearFetch = false;
layout(constant_id = VKSPD_SPEC_GATHER) const bool kGatherFetch = false;
#if VKSPD_HALO
layout(constant_id = VKSPD_SPEC_FINITE) const bool kFiniteValues = false;
// VKSPD_HALO=2: the halo-stage kernel whose stage 0 reads an odd base (a module of its own, so the
// prefix's pipelines are compiled from the same code as without it).
const bool kOddBase = VKSPD_HALO == 2;
#endif

// A level-1 texel from the 2x2 texels it reads of a level of extent `above`, the texels past an
// axis of one texel clamped to it: reduce4f for the built-in reductions (for which the clamped
// texel, read twice, is that axis's reduction), customReduce2x2 for a custom one.
#if VKSPD_REDUCTION == VKSPD_REDUCTION_CUSTOM
#define REDUCE_2X2(a, b, c, d, above) customReduce2x2(a, b, c, d, above)
#else
#define REDUCE_2X2(a, b, c, d, above) reduce4f(a, b, c, d)
#endif

// Level-1 texel of step j of stage-0 tile `tile` for this lane, from the source: one bilinear
// sample at the shared corner of its 2x2 (kLinearFetch, or VKSPD_FLAG_LINEAR_FETCH in a pipeline
// made for loads; the sampler clamps to the edge), one gather (kGatherFetch), or four texel
// fetches at coordinates clamped to the image. Texels past the image are never stored, and an axis
// of one texel reads its only texel twice, which is its reduction.
// With a MipGenInfo::source (kCopyBase, never with the linear fetch: the library does not pair
// them here) each lane also stores the four texels it read into the base level, so the copy costs
// no second read of the source.
vec4 fetchSourceStep(ivec2 tile, ivec2 m, int j) {
    uvec2 s0 = levelExtent(0);
    ivec2 t = 2 * (tile * 32 + levelOneTexel(m, j));
    if (kCopyBase) {
        vec4 f[4];
        [[unroll]] for (int q = 0; q < 4; ++q) {
            ivec2 p = t + blockOffset(q);
            f[q] = sourceTexel(min(p, ivec2(s0) - 1));
            if (all(lessThan(p, ivec2(s0)))) storeLevel(0, p, f[q]);
        }
        return REDUCE_2X2(f[0], f[1], f[2], f[3], s0);
    }
    if (kLinearFetch || (pc.flags & VKSPD_FLAG_LINEAR_FETCH) != 0u) return linearCorner(t);
    // A one-channel format (kGatherFetch): the block's four texels by one textureGather of R at
    // their shared corner in texel coordinates, in gather's order (0, 1), (1, 1), (1, 0), (0, 0),
    // each as texelFetch returns it; the sampler clamps to the edge, so an axis of one texel reads
    // its texel twice, as the loads' min() below does. One texture instruction where the loads
    // took four (R32F Min 4096x4096 59 -> 51 us on an H200). Its own pipelines only, without
    // the load path: with both behind a push-constant flag, as the linear sampler keeps them, the
    // summed-levels and halo-stage pipelines and R32F Min at 8192x8192 were slower
    // (docs/PERFORMANCE.md).
    if (kGatherFetch) {
        vec4 g = textureGather(sourceTexels, vec2(t) + 1.0, 0);
        return REDUCE_2X2(vec4(g.w, 0.0, 0.0, 1.0), vec4(g.z, 0.0, 0.0, 1.0), vec4(g.x, 0.0, 0.0, 1.0),
                          vec4(g.y, 0.0, 0.0, 1.0), s0);
    }
    ivec2 hi = ivec2(s0) - 1;
    return REDUCE_2X2(sourceTexel(min(t, hi)), sourceTexel(min(t + ivec2(1, 0), hi)),
                      sourceTexel(min(t + ivec2(0, 1), hi)), sourceTexel(min(t + ivec2(1, 1), hi)), s0);
}

#if !VKSPD_SUMS
// The same for tile `tile` of a later stage, from the texels the previous stage kept (full
// precision, in the data buffer). In the warm-up (main) the tile lies past the level, so every
// coordinate clamps to the last texel; `kept` is then moved so that this is the layer's warm texel
// (Plan::warmTexel, the last of its data), which no group writes: the warm-up's loads race with
// nothing.
vec4 fetchKeptStep(int stage, ivec2 tile, ivec2 m, int j, bool warmUp) {
    int level = VKSPD_TILE_LEVELS * stage;
    uvec2 extent = levelExtent(level);
    uint kept = warmUp ? pc.dataPerLayer - extent.x * extent.y : pc.stage[stage - 1].kept;
    ivec2 hi = ivec2(extent) - 1;
    ivec2 t = 2 * (tile * 32 + levelOneTexel(m, j));
    uint a = keptTexel(kept, level, min(t, hi)), b = keptTexel(kept, level, min(t + ivec2(1, 0), hi)),
         c = keptTexel(kept, level, min(t + ivec2(0, 1), hi)), d = keptTexel(kept, level, min(t + ivec2(1, 1), hi));
    // One branch for the four loads, so they go out together (the general loadData branches per load).
    if (DATA_CHANNELS == 4u)
        return REDUCE_2X2(keptData4[gDataBase + a], keptData4[gDataBase + b], keptData4[gDataBase + c],
                          keptData4[gDataBase + d], extent);
    return REDUCE_2X2(loadKeptNarrow(a), loadKeptNarrow(b), loadKeptNarrow(c), loadKeptNarrow(d), extent);
}
#endif

#if !VKSPD_QUAD
// Orders the shared-memory accesses of a quad's lanes (lanes 4k..4k + 3): a subgroup barrier
// where subgroups hold whole quads, else a workgroup barrier (gl_SubgroupSize is the same in
// every subgroup, so either is in uniform control flow).
void quadBarrier() {
    if (gl_SubgroupSize >= 4u)
        subgroupBarrier();
    else
        barrier();
}
#endif

// Step j of a tile of `stage` (its source is level 6 * stage): this lane's level-1 texel v is
// stored, and its quad (a 2x2 block) reduced to the level-2 texel that the quad's first lane
// stores and puts in shared memory for the levels after it.
void stepLevels(int stage, int levels, ivec2 tile, ivec2 m, int j, vec4 v, int parity) {
    int base = VKSPD_TILE_LEVELS * stage;
    ivec2 p1 = levelOneTexel(m, j);
    STORE_LEVEL(stage, 1, tile * 32 + p1, v);
    if (levels < 2) return;
#if VKSPD_QUAD
    VEC r = quadReducePairs(VEC(v), levelExtent(base + 1));
#else
    // Without quad operations (VKSPD_QUAD 0): the quad's four texels pass through the other
    // parity's level 2, which no lane reads during this tile's steps once a barrier at its first
    // step has let the tile before finish its tailLevels; the quad's first lane reduces them. A
    // quad's lanes share a subgroup (Morton lanes by subgroup, subgroups of 4 or more), so within
    // a tile subgroup barriers order them.
    uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    if (j == 0) barrier();
    quadBarrier();
    LEVEL2(parity ^ 1, lane) = LIVE_CHANNELS(VEC(v));
    quadBarrier();
    VEC r = VEC(0.0);
    if ((lane & 3u) == 0u)
        r = reduce2x2(LEVEL2(parity ^ 1, lane), LEVEL2(parity ^ 1, lane + 1u), LEVEL2(parity ^ 1, lane + 2u),
                      LEVEL2(parity ^ 1, lane + 3u), levelExtent(base + 1));
#endif
    if (((m.x | m.y) & 1) == 0) {
        ivec2 p2 = p1 >> 1;
        // With level 3 after it, level 2 goes to shared memory only: tailLevels stores it.
        if (levels >= 3) LEVEL2(parity, p2.y * 16 + p2.x) = LIVE_CHANNELS(r);
        else STORE_LEVEL(stage, 2, tile * 16 + p2, vec4(r));
    }
}

// Levels 2-4 from level 2 in shared memory (after the barrier that follows its steps), of a
// whole tile, or with `quadrant` of quadrant q only (a later stage's, whose step q put its level 2
// in sLevel2). Level 2: one texel per lane in Morton order, so a warp stores a contiguous 8x4 block
// (whole 32-byte rows of RGBA8; the quads' first lanes stored 4x2 blocks at each step before):
// every lane for a tile's 16x16, lanes 0..63 for a quadrant's 8x8. Level 3: lanes 0..63 (a tile's
// 8x8) or 0..15 (a quadrant's 4x4), one texel each in Morton order. Level 4: each quad of them
// reduces its 2x2 block; the first lane stores it and puts it in shared memory for level 5.
// (`quadrant` is a constant at each call; the nested test and the selects are the forms that
// compile to the same SPIR-V as the two functions this replaced, scripts/compare_normal_spirv.sh.)
void tailLevels(int stage, int levels, ivec2 tile, uint lane, int parity, bool quadrant, int q) {
    if (quadrant) {
        if (lane >= 64u) return;
    }
    int base = VKSPD_TILE_LEVELS * stage;
    ivec2 p = mortonPosition(lane), o = blockOffset(q);
    ivec2 p2 = quadrant ? 8 * o + p : p;
    STORE_LEVEL(stage, 2, tile * 16 + p2, vec4(LEVEL2(parity, p2.y * 16 + p2.x)));
    if (lane >= (quadrant ? 16u : 64u)) return;
    ivec2 p3 = quadrant ? 4 * o + p : p;
    int i = 32 * p3.y + 2 * p3.x;
    VEC v3 = reduce2x2(LEVEL2(parity, i), LEVEL2(parity, i + 1), LEVEL2(parity, i + 16),
                       LEVEL2(parity, i + 17), levelExtent(base + 2));
    STORE_LEVEL(stage, 3, tile * 8 + p3, vec4(v3));
    if (levels < 4) return;
#if VKSPD_QUAD
    VEC v4 = quadReducePairs(v3, levelExtent(base + 3));
#else
    // The quad's first lane makes its three neighbours' level-3 texels as they do.
    VEC v4 = v3;
    if ((lane & 3u) == 0u) {
        VEC n[3];
        [[unroll]] for (int k = 1; k < 4; ++k) {
            ivec2 q3 = p3 + blockOffset(k);
            int at = 32 * q3.y + 2 * q3.x;
            n[k - 1] = reduce2x2(LEVEL2(parity, at), LEVEL2(parity, at + 1), LEVEL2(parity, at + 16),
                                 LEVEL2(parity, at + 17), levelExtent(base + 2));
        }
        v4 = reduce2x2(v3, n[0], n[1], n[2], levelExtent(base + 3));
    }
#endif
    if ((lane & 3u) == 0u) {
        ivec2 p4 = p3 >> 1;
        STORE_LEVEL(stage, 4, tile * 4 + p4, vec4(v4));
        if (levels >= 5) LEVEL4(parity, p4.y * 4 + p4.x) = LIVE_CHANNELS(v4);
    }
}

// The first of the group's last four lanes (a quad of its last subgroup): they make levels 5 and 6,
// and this lane keeps the level-6 texels and arrives at the election. Levels 3 and 4 are made by
// lanes 0..63, so after each tile's barrier no subgroup does both (the barrier waits for the
// slowest): against lanes 0..3 this moved RGBA8 by -1 to -2.5% and R8 by -3.5%
// (docs/PERFORMANCE.md).
const uint kKeeper = uint(VKSPD_GROUP_SIZE) - 4u;

// Levels 5 and 6 of a tile of `stage` from its level 4 in shared memory (after a barrier): lanes
// kKeeper.. make the 2x2 level-5 texels, their quad level 6, which kKeeper stores and, with
// `keep`, keeps for the next stage in the data buffer.
void levelsFiveSix(int stage, int levels, ivec2 tile, uint lane, int parity, bool keep, uint kept) {
    if (lane < kKeeper) return;
    int base = VKSPD_TILE_LEVELS * stage;
    ivec2 p = mortonPosition(lane - kKeeper);
    int i = 8 * p.y + 2 * p.x;
    VEC v5 = reduce2x2(LEVEL4(parity, i), LEVEL4(parity, i + 1), LEVEL4(parity, i + 4),
                       LEVEL4(parity, i + 5), levelExtent(base + 4));
    STORE_LEVEL(stage, 5, tile * 2 + p, vec4(v5));
    if (levels < 6) return;
#if VKSPD_QUAD
    vec4 v6 = vec4(quadReducePairs(v5, levelExtent(base + 5)));
#else
    // Lane kKeeper makes the other three level-5 texels as their lanes do.
    vec4 v6 = vec4(v5);
    if (lane == kKeeper) {
        VEC n[3];
        [[unroll]] for (int k = 1; k < 4; ++k) {
            ivec2 q = blockOffset(k);
            int at = 8 * q.y + 2 * q.x;
            n[k - 1] = reduce2x2(LEVEL4(parity, at), LEVEL4(parity, at + 1), LEVEL4(parity, at + 4),
                                 LEVEL4(parity, at + 5), levelExtent(base + 4));
        }
        v6 = vec4(reduce2x2(v5, n[0], n[1], n[2], levelExtent(base + 5)));
    }
#endif
    if (lane != kKeeper || !all(lessThan(tile, ivec2(levelExtent(base + 6))))) return;
    STORE_LEVEL(stage, 6, tile, v6);
    if (keep) storeData(keptTexel(kept, base + 6, tile), v6);
}

// Lane `arriving` counts `count` towards `counter`'s `target`; the arrival that reaches it elects
// this group to run the work behind it (the warm-up is elected without arriving). Every thread
// returns whether it was elected. `slot` alternates between a group's elections (sElected), so a
// slot is written again only after the barrier of the election between.
bool electAt(uint counter, uint count, uint target, uint arriving, uint lane, bool warmUp, inout uint slot) {
    slot ^= 1u;
    if (lane == arriving) sElected[slot] = (warmUp || arrive(counter, count, target)) ? 1u : 0u;
    barrier();
    if (sElected[slot] == 0u) return false;
    // Only an elected group reads what other groups released: kept texels, in the data buffer
    // (no group reads an image another group wrote), so buffer semantics; made visible here for
    // the nonprivate loads of fetchKeptStep and the quadrants' level-5 texels.
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease | gl_SemanticsMakeVisible);
    return true;
}

#if !VKSPD_HALO && !VKSPD_SUMS
// The quadrant (y * 2 + x) of its tile of stage `stage` + 1 that kept texel `g` of stage `stage`
// lies in: each tile of a later stage is reduced per 32x32 quadrant of its source.
int quadrantOf(ivec2 g) { return ((g.y & 63) >> 5) * 2 + ((g.x & 63) >> 5); }

// Lane kKeeper counts `count` kept texels of stage `stage`, from kept texel `g` on along x (within
// one quadrant), towards their quadrant of the next stage (StagePlan::quadrantCounters); the
// arrival that completes the quadrant elects this group to reduce it.
bool electQuadrant(int stage, ivec2 g, uint count, uint lane, inout uint slot) {
    uvec2 keptExtent = levelExtent(VKSPD_TILE_LEVELS * (stage + 1));
    ivec2 tile = g / VKSPD_TILE;
    int q = quadrantOf(g);
    uvec2 origin = uvec2(tile * VKSPD_TILE + 32 * blockOffset(q));
    uvec2 inside = min(uvec2(32), keptExtent - origin);
    uint counter = gCounterBase + pc.stage[stage + 1].edgeCounters +
                   4u * (uint(tile.y) * pc.stage[stage + 1].tilesX + uint(tile.x)) + uint(q);
    return electAt(counter, count, inside.x * inside.y, kKeeper, lane, false, slot);
}
#endif

// The first stage-0 tile of this workgroup's strip and its length `per` (Plan::tailRow): workgroup
// (x, y) takes strip x, of pc.tilesPerGroup tiles, of tile row y before the tail row; from there
// each tile row is split in strips of the tail's length, which rows of the dispatch take in turn
// (a tile row takes tilesPerGroup / tailTilesPerGroup of them). Workgroups start roughly in the
// order of their (y, x), so the last to start take short strips, and the SMs that finish first do
// not sit idle while a few long strips end. No division: the lengths are powers of two.
ivec2 stripOf(out int per) {
    uint x = gl_WorkGroupID.x, y = gl_WorkGroupID.y, tailRow = pc.tail >> 8u, n = pc.tilesPerGroup;
    per = int(n);
    if (y < tailRow) return ivec2(int(x * n), int(y));
    uint tailPer = pc.tail & 0xFFu, shift = uint(findLSB(n) - findLSB(tailPer)), d = y - tailRow;
    per = int(tailPer);
    return ivec2(int(((d & ((1u << shift) - 1u)) * gl_NumWorkGroups.x + x) * tailPer), int(tailRow + (d >> shift)));
}

// Where stage 0 keeps its level-6 texels (`keep`): the summed-levels kernel keeps none.
#if VKSPD_SUMS
#define STAGE_ZERO_KEPT 0u
#else
#define STAGE_ZERO_KEPT pc.stage[0].kept
#endif

// Stage 0 on tiles first .. first + count - 1 of a row, levels 1 .. `levels`; with `keep`, lane
// kKeeper keeps each tile's level-6 texel for stage 1. The fetches of a step go out two steps
// before it is reduced (a and b alternate), so the next tile's first two are in flight through
// this tile's last steps and its barrier.
void stageZeroStrip(ivec2 first, int count, int levels, uint lane, ivec2 m, bool keep) {
    vec4 a = fetchSourceStep(first, m, 0), b = fetchSourceStep(first, m, 1);
    for (int i = 0; i < count; ++i) {
        ivec2 tile = first + ivec2(i, 0);
        ivec2 ahead = tile + ivec2(i + 1 < count ? 1 : 0, 0);
        int parity = i & 1;
        vec4 v = a;
        a = fetchSourceStep(tile, m, 2);
        stepLevels(0, levels, tile, m, 0, v, parity);
        v = b;
        b = fetchSourceStep(tile, m, 3);
        stepLevels(0, levels, tile, m, 1, v, parity);
        v = a;
        if (i + 1 < count) a = fetchSourceStep(ahead, m, 0);
        stepLevels(0, levels, tile, m, 2, v, parity);
        v = b;
        if (i + 1 < count) b = fetchSourceStep(ahead, m, 1);
        stepLevels(0, levels, tile, m, 3, v, parity);
        if (levels < 3) continue;
        barrier();
        // Levels 5 and 6 of the previous tile, whose level 4 the barrier above made visible.
        if (i > 0 && levels >= 5) levelsFiveSix(0, levels, tile - ivec2(1, 0), lane, parity ^ 1, keep, STAGE_ZERO_KEPT);
        tailLevels(0, levels, tile, lane, parity, false, 0);
    }
    if (levels >= 5) {
        barrier();
        levelsFiveSix(0, levels, first + ivec2(count - 1, 0), lane, (count - 1) & 1, keep, STAGE_ZERO_KEPT);
    }
}

#if VKSPD_SUMS
#include "vkspd_sums.glsl"
#elif !VKSPD_HALO
void main() {
    gLayer = int(gl_WorkGroupID.z);
    gCounterBase = uint(gLayer) * pc.countersPerLayer;
    gDataBase = uint(gLayer) * pc.dataPerLayer;
    uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    ivec2 m = mortonPosition(lane);
    bool next = pc.stages > 1u;

    // The warm-up (phase 0): where there is a later stage, the first group of each layer first runs
    // the later stages' code once, on a tile past every level, so it stores nothing, keeps
    // nothing, arrives nowhere and reads only its layer's warm texel (fetchKeptStep). The phases
    // share one copy of that code. This took 4-10% off RGBA8 plain chains; an extra group doing
    // the same warm-up did not help, so the gain is not the code reaching the L2 alone
    // (docs/PERFORMANCE.md).
    ivec2 tile = ivec2(1 << 20);
    int q = 0;        // the quadrant of `tile` a later stage reduces
    uint slot = 0u;   // electAt's sElected slot
    for (int phase = (gl_WorkGroupID.xy == uvec2(0) && next) ? 0 : 1; phase < 2; ++phase) {
        if (phase == 1) {
            // Stage 0: tiles first .. first + count - 1 of a row.
            int per;
            ivec2 first = stripOf(per);
            int count = min(per, int(pc.stage[0].tilesX) - first.x);
            if (count <= 0) return;  // past the row: a tail row has more strips than tilesX needs
            stageZeroStrip(first, count, min(VKSPD_TILE_LEVELS, int(pc.levels)), lane, m, next);
            if (!next) return;
            // The strip lies in one quadrant of a 64x64 block of tiles (tilesPerGroup divides 32);
            // lane kKeeper made and kept its `count` level-6 texels, so its release covers them.
            if (!electQuadrant(0, first, uint(count), lane, slot)) return;
            q = quadrantOf(first);
            tile = first / VKSPD_TILE;
        }
        // Later stages: quadrant q of the tile this group's arrival completed, then, where the
        // tile has several quadrants and this was its last, the tile's level 6; then the same for
        // the quadrant of the next stage that this group's arrival completes. Quadrants are
        // independent down to their one level-5 texel, so the groups of a tile's four run at once:
        // after the last stage-0 strip, one step instead of the tile's four (one per quadrant,
        // one after the other: 4 us of 4096^2's later stage, docs/PERFORMANCE.md).
        for (int stage = 1; stage < int(pc.stages); ++stage) {
            int base = VKSPD_TILE_LEVELS * stage;
            int stageLevels = min(VKSPD_TILE_LEVELS, int(pc.levels) - base);
            bool more = stage + 1 < int(pc.stages), warmUp = phase == 0;
            // The step of quadrant q. The warm-up runs the four (the same code, rolled): a
            // one-step warm-up slowed 2048^2 by 8-12%, for reasons not known (docs/PERFORMANCE.md).
            [[dont_unroll]] for (int j = warmUp ? 0 : q; j <= (warmUp ? 3 : q); ++j)
                stepLevels(stage, stageLevels, tile, m, j, fetchKeptStep(stage, tile, m, j, warmUp), 0);
            if (stageLevels >= 3) {
                barrier();
                tailLevels(stage, stageLevels, tile, lane, 0, true, q);
            }
            if (stageLevels >= 5) {
                barrier();
                // Lanes kKeeper.. make the level-5 texels of the tile's four quadrants from sLevel4,
                // lane kKeeper + q that of this group's, which it stores (the others read stale
                // values: their texels are made by other groups, or lie past the level).
                VEC v5 = VEC(0.0);
                uvec2 extent5 = levelExtent(base + 5);
                ivec2 g5 = tile * 2 + blockOffset(int(lane - kKeeper) & 3);
                if (lane >= kKeeper) {
                    int i = 8 * (g5.y & 1) + 2 * (g5.x & 1);
                    v5 = reduce2x2(LEVEL4(0, i), LEVEL4(0, i + 1), LEVEL4(0, i + 4), LEVEL4(0, i + 5),
                                   levelExtent(base + 4));
                    if (lane == kKeeper + uint(q)) STORE_LEVEL(stage, 5, g5, vec4(v5));
                }
                if (stageLevels >= 6) {
                    // A tile of more than one quadrant: lane kKeeper + q keeps its level-5 texel and
                    // arrives at the tile's counter (the stage before's electCounters); the last
                    // quadrant's group loads the tile's 2x2 level-5 texels. With one quadrant (a
                    // stage whose source is at most 32x32: level 5 is 1x1) level 6 is that texel.
                    // The warm-up runs the former, storing and arriving nowhere, its loads at the
                    // layer's warm texel as in fetchKeptStep.
                    uvec2 inside = min(uvec2(VKSPD_TILE), levelExtent(base) - min(levelExtent(base), uvec2(tile * VKSPD_TILE)));
                    uint quadrants = (inside.x > 32u ? 2u : 1u) * (inside.y > 32u ? 2u : 1u);
                    if (warmUp || quadrants > 1u) {
                        uint kept5 = warmUp ? pc.dataPerLayer - extent5.x * extent5.y : pc.stage[stage].records;
                        if (!warmUp && lane == kKeeper + uint(q)) storeData(keptTexel(kept5, base + 5, g5), vec4(v5));
                        uint counter = gCounterBase + pc.stage[stage - 1].electCounters +
                                       uint(tile.y) * pc.stage[stage].tilesX + uint(tile.x);
                        if (!electAt(counter, 1u, quadrants, kKeeper + uint(q), lane, warmUp, slot)) return;
                        if (lane >= kKeeper)
                            v5 = VEC(loadKept(keptTexel(kept5, base + 5, min(g5, ivec2(extent5) - 1))));
                    }
                    if (lane >= kKeeper) {
#if VKSPD_QUAD
                        vec4 v6 = vec4(quadReducePairs(v5, extent5));
#else
                        // Lane kKeeper makes the other three level-5 texels as their lanes do:
                        // loaded where they were kept, else from sLevel4 (the one quadrant's).
                        vec4 v6 = vec4(v5);
                        if (lane == kKeeper) {
                            VEC n[3];
                            [[unroll]] for (int k = 1; k < 4; ++k) {
                                ivec2 h5 = tile * 2 + blockOffset(k);
                                int at = 8 * (h5.y & 1) + 2 * (h5.x & 1);
                                n[k - 1] = (warmUp || quadrants > 1u)
                                               ? VEC(loadKept(keptTexel(warmUp ? pc.dataPerLayer - extent5.x * extent5.y
                                                                               : pc.stage[stage].records,
                                                                        base + 5, min(h5, ivec2(extent5) - 1))))
                                               : reduce2x2(LEVEL4(0, at), LEVEL4(0, at + 1), LEVEL4(0, at + 4),
                                                           LEVEL4(0, at + 5), levelExtent(base + 4));
                            }
                            v6 = vec4(reduce2x2(v5, n[0], n[1], n[2], extent5));
                        }
#endif
                        if (lane == kKeeper && all(lessThan(tile, ivec2(levelExtent(base + 6))))) {
                            STORE_LEVEL(stage, 6, tile, v6);
                            if (more) storeData(keptTexel(pc.stage[stage].kept, base + 6, tile), v6);
                        }
                    }
                }
            }
            if (warmUp) break;  // the warm-up: one later stage's code
            if (!more || !electQuadrant(stage, tile, 1u, lane, slot)) return;
            q = quadrantOf(tile);
            tile /= VKSPD_TILE;
        }
        barrier();
    }
}
#else
// --- Halo stages (VKSPD_HALO) -------------------------------------------------------------------
// Stage 0 is a plain prefix: stageZeroStrip makes levels 1 .. P (gPrefixLevels, every one a plain
// 2x2 reduction) and keeps level P (STORE_LEVEL). Each later stage s reads tiles of the level the
// stage before kept (haloSide: 64 or VKSPD_HALO_TILE texels a side), plus a right and bottom halo
// of hx, hy texels (HaloStagePush), and makes its levels 1 .. d wholly in shared memory: each
// level a little wider than the tile's own texels (h(k) = 2 h(k+1) + odd(extent k): exactly what
// the levels below need), only the own texels stored. Every texel is made by one group from
// complete inputs, as the CPU reference makes it (docs/FILTER.md): nothing depends on the tiling,
// and Min, Max and MinMax need nothing of their own. Each tile of stage s has one footprint
// counter: the texels of its source region (its own texels and its halo); every producer (a
// stage-0 strip, a tile of stage s - 1) arrives at up to four with the texels it made there, and
// the arrival that completes a footprint elects its group to run the tile. No group ever waits
// for another.

// The kept levels of the halo stages. FP16 variants keep each texel as halves: the values are
// halves already (VEC: the prefix keeps its level P >= 2, made at the variant's precision like
// every halo level), so nothing changes but the bytes, and a loaded texel takes two registers
// where four floats took four (haloRows loads a row of three taps at once). A texel of one or two
// channels is one uint, of three or four a uvec2, at index (the layer's first data texel +
// texel): within the bytes the data binding holds for it as floats.
#if VKSPD_FP16
layout(set = 0, binding = VKSPD_BINDING_DATA) coherent buffer KeptOutHalf2 { uint keptOutHalf2[]; };
layout(set = 0, binding = VKSPD_BINDING_DATA) coherent buffer KeptOutHalf4 { uvec2 keptOutHalf4[]; };
layout(set = 0, binding = VKSPD_BINDING_DATA) nonprivate readonly buffer KeptHalf2 { uint keptHalf2[]; };
layout(set = 0, binding = VKSPD_BINDING_DATA) nonprivate readonly buffer KeptHalf4 { uvec2 keptHalf4[]; };

void storeKept(uint texel, vec4 v) {
    f16vec4 h = f16vec4(LIVE_CHANNELS(v));
    uint t = gDataBase + texel;
    if (DATA_CHANNELS > 2u)
        keptOutHalf4[t] = uvec2(packFloat2x16(h.xy), packFloat2x16(h.zw));
    else
        keptOutHalf2[t] = packFloat2x16(h.xy);
}

f16vec4 loadKeptHalf(uint texel) {
    uint t = gDataBase + texel;
    if (DATA_CHANNELS > 2u) {
        uvec2 u = keptHalf4[t];
        return f16vec4(unpackFloat2x16(u.x), unpackFloat2x16(u.y));
    }
    return f16vec4(unpackFloat2x16(keptHalf2[t]), float16_t(0.0), float16_t(0.0));
}
#else
void storeKept(uint texel, vec4 v) { storeData(texel, v); }
#endif

// Whether the arrival of lane w (0..3) of arriveFootprints completed its footprint.
shared uint sElectedTile[4];
// Tiles this group was elected for and has not run yet: (stage, tile x, tile y), the same in
// every lane. A group runs each tile before the ones its arrivals add, so at most four per stage
// are pending.
ivec3 gPending[4 * VKSPD_HALO_MAX_STAGES];
int gPendingCount = 0;
// With kOddBase, set while a tile of stage 0 runs: its level-1 passes read their taps from the
// base (sourceTexel) where the later stages' read the kept texels.
bool gBasePass = false;

int haloFirst(int s) { return int(pc.stage[s].shape & 31u); }
int haloLevels(int s) { return int((pc.stage[s].shape >> 8u) & 7u); }
ivec2 haloOf(int s) { return ivec2(uvec2(pc.stage[s].shape >> 16u, pc.stage[s].shape >> 24u) & 15u); }
// The side of stage s's tiles (s >= 1) is 64 >> bits 11-12: 2^haloShift(s) texels (shifts, not
// divisions by a value the compiler cannot see).
int haloShift(int s) { return VKSPD_TILE_LEVELS - int((pc.stage[s].shape >> 11u) & 3u); }
int haloSide(int s) { return 1 << haloShift(s); }
// The tiles of 2^shift texels of a level of `extent`.
ivec2 tilesOf(uvec2 extent, int shift) { return ivec2((extent + uvec2((1 << shift) - 1)) >> uint(shift)); }
// The tiles of halo stage s (s >= 1) per axis: those of its source level, one fewer on an axis
// whose last tile also owns the remainder past them (HaloStagePush::shape).
ivec2 haloTilesOf(int s) {
    uint shape = pc.stage[s].shape;
    return tilesOf(levelExtent(haloFirst(s) - 1), haloShift(s)) - ivec2(int((shape >> 5u) & 1u), int((shape >> 6u) & 1u));
}

// The tile of stage s whose own texels hold texel `g` of its source level.
ivec2 haloTileAt(int s, ivec2 g) { return min(g >> haloShift(s), haloTilesOf(s) - 1); }

// Lanes 0..3: a producer made texels [lo, hi) of the source level of stage s (a block inside the
// own texels of one tile T0 of that stage); lane w counts those that lie in the footprint of tile
// T0 - (w & 1, w >> 1) (T0 itself, then the left, upper and upper-left neighbours, whose halo
// reaches into T0) and sets sElectedTile[w] when its arrival completes it. A tile's footprint is
// its source texels from side t on: side and its halo per axis, to the level's end for the last
// tile. Call after a barrier that orders the made texels (releaseBarrier); arriveFootprints then
// reads the flags.
void arriveAt(int s, ivec2 lo, ivec2 hi, uint lane) {
    if (lane >= 4u) return;
    sElectedTile[lane] = 0u;
    if (any(greaterThanEqual(lo, hi))) return;
    ivec2 t = haloTileAt(s, lo) - ivec2(int(lane & 1u), int(lane >> 1u));
    if (any(lessThan(t, ivec2(0)))) return;
    int side = haloSide(s);
    ivec2 origin = t * side, end = min(origin + side + haloOf(s), ivec2(levelExtent(haloFirst(s) - 1)));
    ivec2 n = min(hi, end) - max(lo, origin);
    if (any(lessThanEqual(n, ivec2(0)))) return;
    uvec2 footprint = uvec2(end - origin);
    uint counter = gCounterBase + pc.stage[s].counters + uint(t.y * haloTilesOf(s).x + t.x);
    if (arrive(counter, uint(n.x * n.y), footprint.x * footprint.y)) sElectedTile[lane] = 1u;
}

// arriveAt, then every lane queues the tiles the arrivals completed (gPending).
void arriveFootprints(int s, ivec2 lo, ivec2 hi, uint lane) {
    arriveAt(s, lo, hi, lane);
    barrier();
    for (int w = 3; w >= 0; --w)
        if (sElectedTile[w] != 0u) gPending[gPendingCount++] = ivec3(s, haloTileAt(s, lo) - ivec2(w & 1, w >> 1));
}

// Whether a tap of weight w stays out of a sum. Not where the FP16 variants average normalized
// values (kFiniteValues): a weight-0 tap there is a finite texel (clamped into the region above)
// and adds an exact 0, so every lane adds every tap without a test (RGBA8 4095x4095 124.4 ->
// 116.3 us, 8191x8191 379.5 -> 352.6 on an H200). The FP32 variants (16-bit UNORM, which no bench
// row times) keep their tests, and the FP16 per-texel passes keep the test of a row's weight, which
// spares the row's loads: without it the FP16 halo module's registers went from 59 to 73, the
// odd-base module's from 54 to 113, and RGBA8 4095x4095 took 136.9 us.
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE && VKSPD_FP16
#define TAP_OUT(w) (!kFiniteValues && (w) == 0.0)
#else
#define TAP_OUT(w) ((w) == 0.0)
#endif

// haloRows: rows [r0, r1) of level `level` (relative to the base) of a halo tile's region, which
// starts at texel `o` and is `width` texels wide, into sPool[at + (row - r0) * width + column].
// Each texel is the exact reduction of its two or three taps per axis in the region above (which
// starts at 2 * o and is `aboveN` texels wide and high): the kept texels of the stage before
// (`fromKept`, at data texel `kept`; while gBasePass, the base itself), else sPool[above + (row -
// aboveRow) * aboveN.x + column].
// Texels of rows [s0, s1) that the tile owns (column and row below `own`, per axis) go to the
// image, and with `keep` to the data buffer at `keepAt` for the next stage. Each variant makes
// every texel the way the CPU reference does (rows, then the column of rows).
#if !VKSPD_FP16 || VKSPD_HALO == 2
// Column bands: the FP32 variants' haloRows, faster in their later stages at the cost of 3 groups
// per SM to 2, which the FP32 prefix afforded (docs/PERFORMANCE.md). The FP16 variants' odd-base
// module makes its stage 0's level 1 from the base this way too (haloBandRows): a lane loads each
// base row of its column once, six loads per level-1 texel where a lane per texel loaded nine
// (RGBA8 4095x4095 158 -> 130 us, RGBA16F 227 -> 188 before the shuffles below, on an H200).
#if VKSPD_FP16
#define BAND_ROWS haloBandRows
// The level the band rows store: on the FP16 variants they make only the odd base's level 1, and
// a constant level spares each texel storeLevelInRange's switch (with the MinMax test gone from
// sourceTexel, RGBA8 4095x4095 127.4 -> 124.1 us on an H200).
#define BAND_LEVEL(level) 1
#else
#define BAND_ROWS haloRows
#define BAND_LEVEL(level) (level)
#endif

// Bit c of the mask: channel c of v is Inf or NaN (one register where a uvec4 took four).
uint nonFiniteBits(vec4 v) {
    uvec4 f = nonFinite(v);
    return f.x | (f.y << 1u) | (f.z << 2u) | (f.w << 3u);
}
uvec4 nonFiniteChannels(uint bits) { return uvec4(bits, bits >> 1u, bits >> 2u, bits >> 3u) & 1u; }

// Whether the band rows track Inf and NaN taps for finishReduce's clamp (TAP_SPECIALS; FINISH_TAPS
// applies it): where the values are not normalized (!kFiniteValues), but not on the FP16 variants
// at four channels. Their taps are halves (from the base), whose finite sums never come near the
// float maximum the clamp guards: a sum is not finite exactly where a tap is, and the clamp changes
// nothing (as in their per-texel passes). Without the tests RGBA16F 4095x4095 took 163.1 us
// instead of 175.6 and 8191x8191 499.2 instead of 573.6 on an H200; at one and two channels the
// driver then gave the module 60 registers instead of 44 and 61 instead of 48 (5 groups per SM to
// 4), not measured then, so fewer channels keep them. Macros: a constant combining the two
// specialization constants failed glslc's optimizer, and the FP32 variants' code stays as it was.
#if VKSPD_FP16
#define TAP_SPECIALS (!kFiniteValues && kChannels < 4u)
#define FINISH_TAPS(acc, special) (kChannels < 4u ? finishReduce(acc, nonFiniteChannels(special)) : acc)
#else
#define TAP_SPECIALS (!kFiniteValues)
#define FINISH_TAPS(acc, special) finishReduce(acc, nonFiniteChannels(special))
#endif

// Whether tap `a` of a band row's axis (weight w, of `taps` on the axis: axisTaps) stays out of a
// sum. The FP32 variants at one channel test the count, the same in every lane (Hi-Z 4095x4095
// 202.3 -> 191.1 us, R32F 210.3 -> 203.2 on an H200); at four channels the count took the FP32
// odd-base module from 49 registers to 73, at two from 37 to 67 (docs/PERFORMANCE.md).
#if VKSPD_FP16
#define BAND_TAP_OUT(a, taps, w) TAP_OUT(w)
#else
#define BAND_TAP_OUT(a, taps, w) (kChannels == 1u ? (a) >= (taps) : TAP_OUT(w))
#endif

#if VKSPD_HALO == 2 && VKSPD_SHUFFLE_RELATIVE
// Lanes of the band rows (BAND_ROWS) that fetch a base row's third tap themselves: the last of a subgroup, and that
// of a band's last column (the next lane starts the next band). The others take it from the next
// lane, whose first tap it is (the lane of column c + 1 in the same band).
bool gOwnThird;
#endif

// The taps of one source row of a halo texel column: the row's three texels at columns `cols`
// (clamped into the region above: a weight-0 tap may lie past it) from the kept texels of the
// stage before (data texel `at` + column), from the base (`fromBase`: texel `base` + (column, 0))
// or from sPool[at + column], reduced horizontally with weights wx; a tap that BAND_TAP_OUT leaves
// out is not part of the row. With TAP_SPECIALS, `special` gets the non-finite channels of the
// taps that are (nonFiniteBits).
vec4 haloTapRow(bool fromKept, bool fromBase, ivec2 base, int at, ivec3 cols, vec3 wx, int taps, inout uint special) {
    vec4 t[3];
    if (fromBase) {
#if VKSPD_HALO == 2 && VKSPD_SHUFFLE_RELATIVE
        // Texels of four channels of 16 or 32 bits (a format that is not normalized): the third
        // tap from the next lane where it has it (gOwnThird), RGBA16F 4095x4095 7% and RGBA32F 3%
        // faster on an H200; the other formats fetch it, faster there (RGBA8 8191x8191 by 4%).
        if (kChannels == 4u && !kFiniteValues) {
#if VKSPD_FP16
            // As halves, which the FP16 variants' values are (FormatInfo::fp16Capable): two words.
            // With the MinMax flag's test (sourceTexelTested): RGBA16F 4095x4095 took 194 us
            // instead of 161 on an H200 without it.
            f16vec4 h0 = f16vec4(sourceTexelTested(base + ivec2(cols[0], 0)));
            f16vec4 h1 = f16vec4(sourceTexelTested(base + ivec2(cols[1], 0)));
            uvec2 next = subgroupShuffleDown(uvec2(packFloat2x16(h0.xy), packFloat2x16(h0.zw)), 1u);
            f16vec4 h2 = gOwnThird ? f16vec4(sourceTexelTested(base + ivec2(cols[2], 0)))
                                   : f16vec4(unpackFloat2x16(next.x), unpackFloat2x16(next.y));
            t[0] = vec4(h0);
            t[1] = vec4(h1);
            t[2] = vec4(h2);
#else
            // The test kept likewise (RGBA32F not timed without it).
            t[0] = sourceTexelTested(base + ivec2(cols[0], 0));
            t[1] = sourceTexelTested(base + ivec2(cols[1], 0));
            vec4 next = subgroupShuffleDown(t[0], 1u);
            t[2] = gOwnThird ? sourceTexelTested(base + ivec2(cols[2], 0)) : next;
#endif
        } else
#endif
        {
            [[unroll]] for (int a = 0; a < 3; ++a) t[a] = sourceTexel(base + ivec2(cols[a], 0));
        }
    } else if (fromKept) {
#if VKSPD_FP16
        [[unroll]] for (int a = 0; a < 3; ++a) t[a] = vec4(loadKeptHalf(uint(at + cols[a])));
#else
        [[unroll]] for (int a = 0; a < 3; ++a) t[a] = loadKept(uint(at + cols[a]));
#endif
    } else {
        [[unroll]] for (int a = 0; a < 3; ++a) t[a] = vec4(sPool[at + cols[a]]);
    }
    vec4 row = rIdentity();
    [[unroll]] for (int a = 0; a < 3; ++a) {
        if (BAND_TAP_OUT(a, taps, wx[a])) continue;
        if (TAP_SPECIALS) special |= nonFiniteBits(t[a]);
        row = rAccumulate(row, t[a], wx[a]);
    }
    // A row of finite taps near the float maximum can round past it (the weights, rounded, may
    // sum to a little over 1): clamped here, or the Inf would outweigh the column's other rows
    // (a texel two thirds of the way there came out as the maximum on an H200).
    if (TAP_SPECIALS) row = finishReduce(row, nonFiniteChannels(special));
    return row;
}

// Lane (c, b) = (lane % width, lane / width) makes column c of band b's `per` consecutive rows,
// top to bottom: each source row's horizontal reduction is made once and carried to the texel
// below, whose first row it is (row 2y + 2 of texel y is row 2y of texel y + 1), so a lane loads
// a source texel once and a texel's two new rows go out together.
void BAND_ROWS(int level, ivec2 o, int width, ivec2 own, int r0, int r1, int at, bool fromKept, uint kept,
               int above, int aboveRow, ivec2 aboveN, int s0, int s1, bool keep, uint keepAt, uint lane) {
    if (width <= 0 || r1 <= r0) return;  // an empty region (the same in every lane)
    uvec2 sAbove = levelExtent(level - 1);
    int bands = VKSPD_GROUP_SIZE / width, per = (r1 - r0 + bands - 1) / bands;
    int c = int(lane) % width, b = int(lane) / width, y0 = r0 + b * per;
    // The region above's rows that this call may read: those of rows [r0, r1), the taps past
    // the last one (weight 0) clamped to it.
    ivec2 hi = ivec2(aboveN.x, min(2 * r1 + 1, aboveN.y)) - 1;
    ivec3 cols = min(2 * c + ivec3(0, 1, 2), ivec3(hi.x));
    vec3 wx = axisWeights(sAbove.x, o.x + c);
    int tapsX = axisTaps(sAbove.x), tapsY = axisTaps(sAbove.y);
    // Source row y (relative to the region above) starts at data texel rowAt + y * stride, or
    // at sPool[rowAt + y * stride].
    bool fromBase = kOddBase && gBasePass && fromKept;
    int rowAt = fromBase ? 0 : fromKept ? int(keptTexel(kept, level - 1, 2 * o)) : above - aboveRow * aboveN.x;
    int stride = fromKept ? int(levelExtent(level - 1).x) : aboveN.x;
    uint carried = 0u;
#if VKSPD_HALO == 2 && VKSPD_SHUFFLE_RELATIVE
    gOwnThird = gl_SubgroupInvocationID == gl_SubgroupSize - 1u || c == width - 1;
#endif
    // From the base, source row y is texel row 2 * o.y + y.
    vec4 carry = haloTapRow(fromKept, fromBase, 2 * o + ivec2(0, min(2 * y0, hi.y)), rowAt + min(2 * y0, hi.y) * stride,
                            cols, wx, tapsX, carried);
    // A fixed number of rounds for every lane (lanes past the bands or rows compute and store
    // nothing): with a loop that each lane left at its own count, lavapipe (Mesa 22.3, LLVM 15)
    // computed wrong texels in the second tile a group ran (docs/PERFORMANCE.md).
    [[dont_unroll]] for (int k = 0; k < per; ++k) {
        int y = y0 + k;
        uint special1 = 0u, special2 = 0u;
        vec4 row1 = haloTapRow(fromKept, fromBase, 2 * o + ivec2(0, min(2 * y + 1, hi.y)),
                               rowAt + min(2 * y + 1, hi.y) * stride, cols, wx, tapsX, special1);
        vec4 row2 = haloTapRow(fromKept, fromBase, 2 * o + ivec2(0, min(2 * y + 2, hi.y)),
                               rowAt + min(2 * y + 2, hi.y) * stride, cols, wx, tapsX, special2);
        vec3 wy = axisWeights(sAbove.y, o.y + y);
        vec4 acc = rIdentity();
        uint special = 0u;
        if (!BAND_TAP_OUT(0, tapsY, wy[0])) {
            acc = rAccumulate(acc, carry, wy[0]);
            special |= carried;
        }
        if (!BAND_TAP_OUT(1, tapsY, wy[1])) {
            acc = rAccumulate(acc, row1, wy[1]);
            special |= special1;
        }
        if (!BAND_TAP_OUT(2, tapsY, wy[2])) {
            acc = rAccumulate(acc, row2, wy[2]);
            special |= special2;
        }
        carry = row2;
        carried = special2;
        if (b >= bands || y >= r1) continue;
        VEC v = kFiniteValues ? VEC(acc) : toReal(FINISH_TAPS(acc, special));
        sPool[at + (y - r0) * width + c] = LIVE_CHANNELS(v);
        ivec2 g = o + ivec2(c, y);
        if (c < own.x && y < own.y && y >= s0 && y < s1) {
            storeLevelInRange(BAND_LEVEL(level), g, vec4(v));
            if (keep) storeKept(keptTexel(keepAt, level, g), vec4(v));
        }
    }
}

#endif

#if VKSPD_FP16
// FP16 variants: lane i of round r makes texel i + 256 r of the rows. The three taps of each
// source row are loaded together (those of weight 0 clamped into the region above, whose texels
// are all complete), then reduced in the reference's order: a load behind each weight's test
// made up to nine dependent round trips to the L2 per texel of a stage's first level. Not all
// nine at once: that took the kernel from 61 registers to 74, under 4 groups per SM, and its
// prefix lost more than its passes gained; nor the column bands above, which took it to 2 groups
// per SM (docs/PERFORMANCE.md). The odd-base module's passes from the base run those bands
// (haloBandRows): without the prefix, its kernel kept 4 groups per SM with them.
void haloRows(int level, ivec2 o, int width, ivec2 own, int r0, int r1, int at, bool fromKept, uint kept,
              int above, int aboveRow, ivec2 aboveN, int s0, int s1, bool keep, uint keepAt, uint lane) {
#if VKSPD_HALO == 2
    if (gBasePass && fromKept) {
        haloBandRows(level, o, width, own, r0, r1, at, fromKept, kept, above, aboveRow, aboveN, s0, s1, keep, keepAt, lane);
        return;
    }
#endif
    uvec2 sAbove = levelExtent(level - 1);
    int count = (r1 - r0) * width;
    ivec2 hi = aboveN - 1;
    // Row y of the region above (relative to it) starts at data texel rowAt + y * stride, or at
    // sPool[rowAt + y * stride].
    int rowAt = fromKept ? int(keptTexel(kept, level - 1, 2 * o)) : above - aboveRow * aboveN.x;
    int stride = fromKept ? int(sAbove.x) : aboveN.x;
    // A texel's row as a product by 1 / width, not an integer division (~20 instructions): (i + 0.5)
    // / width lies at least 0.5 / width from an integer, far more than the product's rounding error
    // for i < 2^11 and width < 2^7 (RGBA8 4095x4095 117.1 -> 114.6 us, RGBA16F 3840x2160 42.3 ->
    // 39.9 on an H200, same registers).
    float perWidth = 1.0 / float(width);
    // A fixed number of rounds with a test, not a loop that each lane leaves after its own count:
    // with that loop, lavapipe (Mesa 22.3, LLVM 15) computed wrong texels in the second tile a
    // group ran (docs/PERFORMANCE.md).
    [[dont_unroll]] for (int r = 0; r < (VKSPD_HALO_FIRST + VKSPD_GROUP_SIZE - 1) / VKSPD_GROUP_SIZE; ++r) {
        int i = int(lane) + r * VKSPD_GROUP_SIZE;
        if (i >= count) continue;
        int q = int((float(i) + 0.5) * perWidth);
        ivec2 l = ivec2(i - q * width, r0 + q), g = o + l;
        vec3 wx = axisWeights(sAbove.x, g.x), wy = axisWeights(sAbove.y, g.y);
        ivec3 cx = min(2 * l.x + ivec3(0, 1, 2), ivec3(hi.x)), cy = min(2 * l.y + ivec3(0, 1, 2), ivec3(hi.y));
        vec4 acc = rIdentity();
        [[unroll]] for (int b = 0; b < 3; ++b) {
            if (wy[b] == 0.0) continue;
            f16vec4 t[3];
            int rowStart = rowAt + cy[b] * stride;
            if (fromKept) {
                [[unroll]] for (int a = 0; a < 3; ++a) t[a] = loadKeptHalf(uint(rowStart + cx[a]));
            } else {
                [[unroll]] for (int a = 0; a < 3; ++a) t[a] = sPool[rowStart + cx[a]];
            }
            vec4 row = rIdentity();
            [[unroll]] for (int a = 0; a < 3; ++a) {
                if (TAP_OUT(wx[a])) continue;
                row = rAccumulate(row, vec4(t[a]), wx[a]);
            }
            acc = rAccumulate(acc, row, wy[b]);
        }
        // The taps are halves: a sum of finite ones exceeds the half maximum by float rounding at
        // most (toReal saturates it) and never reaches the float maximum, so finishReduce's clamp,
        // and the non-finite taps it needs to know, change nothing here (the same texel); Inf and
        // NaN taps give Inf and NaN. Normalized values (kFiniteValues) need no saturation either.
        VEC v = kFiniteValues ? VEC(acc) : toReal(acc);
        sPool[at + i] = LIVE_CHANNELS(v);
        if (l.x < own.x && l.y < own.y && l.y >= s0 && l.y < s1) {
            storeLevelInRange(level, g, vec4(v));
            if (keep) storeKept(keptTexel(keepAt, level, g), vec4(v));
        }
    }
}

#endif  // VKSPD_FP16

// The region of a halo tile at a level: own texels from `o` (side >> k per axis at the stage's
// k-th level) and the halo after them, clipped to the level.
ivec2 haloRegion(int level, ivec2 o, int own, ivec2 h) {
    return max(min(ivec2(own) + h, ivec2(levelExtent(level)) - o), ivec2(0));
}

// The texels of a tile's region `n` at a level that the tile owns per axis: `own`, or, where the
// region reaches the level's end (the last tile of an axis), all of it: a last tile's remainder
// never exceeds the halo at any level of its stage.
ivec2 ownedIn(int level, ivec2 o, int own, ivec2 n) {
    return mix(ivec2(own), n, equal(n, ivec2(levelExtent(level)) - o));
}

// The halo one level down: h(k + 1) = (h(k) - odd(extent k)) / 2, exact where the planner built
// the halo forwards from 0 at the stage's last level; 0 on an axis whose source is at most one
// tile, which holds the whole level (the planner gives it no halo). `level` is the level of h.
ivec2 haloBelow(int level, ivec2 h) {
    uvec2 e = levelExtent(level);
    return max((h - ivec2(greaterThan(e, uvec2(1u))) * ivec2(e & 1u)) >> 1, ivec2(0));
}

// With a MipGenInfo::source (kCopyBase), tile t of the odd stage 0 copies the base texels it owns
// (its 64x64, and a last tile's remainder: at most 71x71) into the base level, in rounds of a
// fixed count (as haloRows); its level-1 passes then read the same texels again, from the texture
// cache. (Six loads of a lane at once before its stores: Hi-Z 4095x4095 13% slower on an H200.)
void copyBaseTile(ivec2 t, uint lane) {
    ivec2 o = t * VKSPD_TILE;
    ivec2 n = ownedIn(0, o, VKSPD_TILE, haloRegion(0, o, VKSPD_TILE, haloOf(0)));
    const int kRows = VKSPD_GROUP_SIZE / 64;
    [[dont_unroll]] for (int r = 0; r < (VKSPD_TILE + VKSPD_HALO_MAX + kRows - 1) / kRows; ++r) {
        [[unroll]] for (int c = 0; c < 2; ++c) {
            ivec2 p = ivec2(int(lane & 63u) + 64 * c, int(lane >> 6u) + kRows * r);
            if (all(lessThan(p, n))) storeLevel(0, o + p, sourceTexel(o + p));
        }
    }
}

// Tile t of halo stage s: its levels, then its arrivals at the next stage's footprints. Every
// level goes through one call site of haloRows (passes of a rolled loop), so the code an elected
// group runs is small. With kOddBase, stage 0 is such a stage too, its source the base.
void haloTile(int s, ivec2 t, uint lane) {
    int first = haloFirst(s), d = haloLevels(s);
    bool last = s + 1 >= int(pc.stages);
    gBasePass = kOddBase && s == 0;
    uint keptIn = kOddBase && s == 0 ? 0u : pc.stage[s - 1].kept, keptOut = pc.stage[s].kept;
    if (kCopyBase && gBasePass) copyBaseTile(t, lane);
    // Level 1 of the stage (up to 35x35; 19x19 for 32-texel tiles) at the start of the pool,
    // whole where it fits the pool's first part, else in two halves of at most 19 rows; level 2
    // (up to 17x17) after it, made from level 1 whole, or in halves: its first half from the
    // first half of level 1 (its rows r read rows 2r .. 2r + 2) before the second half of level 1
    // takes its place.
    ivec2 h1 = haloBelow(first - 1, haloOf(s)), h2 = haloBelow(first, h1);
    int side = haloSide(s), own1 = side >> 1, own2 = side >> 2;
    ivec2 o1 = t * own1, o2 = t * own2;
    ivec2 n1 = haloRegion(first, o1, own1, h1), n2 = d > 1 ? haloRegion(first + 1, o2, own2, h2) : ivec2(0);
    // Passes 0-3: level 1's first half, level 2's first half, level 1's second half, level 2's
    // second half (where level 2 is empty: level 1 in two halves of rows, and nothing more);
    // pass 4 + j: level 3 + j, between the pool's two parts (at most 8x8: the halo is 0 there).
    // With level 1 whole, passes 0 and 1 make levels 1 and 2 whole and passes 2-3 do not run:
    // two dependent passes and their barriers fewer (docs/PERFORMANCE.md).
    bool whole = n1.x * n1.y <= VKSPD_HALO_FIRST;
    int m = n2.y == 0 ? (whole ? n1.y : min(n1.y, 19)) : (whole ? n2.y : (n2.y + 1) / 2);
    int passes = (n2.y == 0 ? 2 : d + 2) - (whole ? (n2.y == 0 ? 1 : 2) : 0);
    ivec2 h = h2;
    // The region of the stage's source level its taps read: the tile's footprint.
    ivec2 foot = haloRegion(first - 1, t * side, side, haloOf(s));
    int above = VKSPD_HALO_FIRST;
    ivec2 aboveN = n2;
    [[dont_unroll]] for (int step = 0; step < passes; ++step) {
        int pass = whole && step >= 2 ? step + 2 : step;
        bool one = n2.y == 0 || ((pass & 1) == 0 && pass < 4);  // a pass of the stage's level 1
        int level = first, own = own1, width = n1.x, r0 = 0, r1 = 0, at = 0, aboveRow = 0, s0 = 0, s1 = 0;
        ivec2 o = o1, from = foot, region = n1;
        if (n2.y == 0) {
            r0 = pass == 0 ? 0 : m;
            r1 = pass == 0 ? m : n1.y;
        } else if (one) {
            r0 = pass == 0 ? 0 : 2 * m;
            r1 = pass == 0 ? min(2 * m + 1, n1.y) : n1.y;
        } else if (pass < 4) {
            level = first + 1;
            own = own2;
            o = o2;
            region = n2;
            width = n2.x;
            r0 = pass == 1 ? 0 : m;
            r1 = pass == 1 ? m : n2.y;
            at = VKSPD_HALO_FIRST + r0 * n2.x;
            from = n1;
            aboveRow = pass == 1 ? 0 : 2 * m;
        } else {
            level = first + pass - 2;
            own = side >> (pass - 1);
            h = haloBelow(level - 1, h);
            o = t * own;
            ivec2 n = haloRegion(level, o, own, h);
            region = n;
            width = n.x;
            r1 = n.y;
            at = above == 0 ? VKSPD_HALO_FIRST : 0;
            from = aboveN;
            aboveN = n;
        }
        // Stored rows: each row once (level 1's halves overlap by row 2m).
        s0 = r0;
        s1 = one && n2.y != 0 && pass == 0 && !whole ? 2 * m : r1;
        int k = level - first + 1;
        haloRows(level, o, width, ownedIn(level, o, own, region), r0, r1, at, one, keptIn, pass >= 4 ? above : 0,
                 aboveRow, from, s0, s1, k == d && !last, keptOut, lane);
        barrier();
        if (pass >= 4) above = at;
    }
    if (last || (n2.y == 0 && d > 1)) return;
    releaseBarrier();
    int own = side >> d;
    ivec2 lo = t * own;
    arriveFootprints(s + 1, lo, min(lo + own, ivec2(levelExtent(first + d - 1))), lane);
}

void main() {
    gLayer = int(gl_WorkGroupID.z);
    gCounterBase = uint(gLayer) * pc.countersPerLayer;
    gDataBase = uint(gLayer) * pc.dataPerLayer;
    uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    gPrefixLevels = haloLevels(0);

    if (kOddBase) {
        // Stage 0: tile (x, y) of the base, whose inputs are all there (one workgroup per tile),
        // through the loop's one call site of haloTile below.
        gPending[gPendingCount++] = ivec3(0, ivec2(gl_WorkGroupID.xy));
    } else {
        // Stage 0: the plain prefix on this group's strip (stripOf), which lies in one tile of
        // stage 1 (the planner keeps strips within 2^P tiles).
        int per;
        ivec2 first = stripOf(per);
        int count = min(per, tilesOf(levelExtent(0), VKSPD_TILE_LEVELS).x - first.x);
        if (count <= 0) return;
        stageZeroStrip(first, count, gPrefixLevels, lane, mortonPosition(lane), false);
        releaseBarrier();
        int q = VKSPD_TILE >> gPrefixLevels;
        ivec2 lo = first * q;
        arriveFootprints(1, lo, min(lo + ivec2(count * q, q), ivec2(levelExtent(gPrefixLevels))), lane);
    }

    // The tiles this group's arrivals completed, last queued first.
    while (gPendingCount > 0) {
        ivec3 w = gPending[--gPendingCount];
        // What the producers released, for the nonprivate loads of the kept texels (an odd base's
        // stage 0 reads none).
        if (!kOddBase || w.x > 0)
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease | gl_SemanticsMakeVisible);
        haloTile(w.x, w.yz, lane);
    }
}
#endif
