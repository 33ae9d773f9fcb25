// Timing-only experiments on shaders/vkspd_plain.comp (run 2, bench/NOTES.md): this copy with
// switches, included by one-line wrappers (e_*.comp) that set one. Several give wrong texels.
//   EXP_NO_L1_STORES   level 1 is not stored
//   EXP_NO_STORES      no level is stored (the kept texels still are: later stages need them)
//   EXP_SPD_LOAD       samples in FidelityFX SPD's order (instruction j of a warp covers a
//                      contiguous block: thread m samples level-1 texel m + 16 (j & 1, j >> 1));
//                      the values are used as if they were the thread's 2x2 block (wrong texels)
//   EXP_SPD_STORE      level 1 stored at SPD's positions (each store instruction contiguous)
//   EXP_NO_PREFETCH    each tile fetched at the top of its own iteration
// vkspd single pass for plain chains: every level of the dispatch is a plain 2x2 reduction of the
// level above, because each axis of every level it reads is even or 1 (square powers of two and
// their partial ranges: 4096x4096, 8192x8192, 2048x1, ...). vkspd.comp runs every other size; both
// share vkspd_common.glsl, the bindings and the push constants, and produce the same texels.
//
// What differs from vkspd.comp, for memory throughput (bench/NOTES.md, 2026-11-24):
// - A workgroup reduces a strip of pc.tilesPerGroup 64x64 tiles, one after the other, and fetches
//   the next tile's level-1 texels before it reduces the current one, so its loads stay in flight
//   through the stores, quad exchanges and barrier of a tile.
// - Each thread owns a 2x2 block of level 1 (threads in the talk's Morton order over 16x16), so
//   level 2 is made in the thread, level 3 across its quad, and levels 4-6 by one quad from shared
//   memory: one workgroup barrier per tile.
// - The thread that makes every level-6 texel of the strip keeps them and arrives at the election
//   once per strip; its own release covers the kept texels, so no barrier comes before it.
// The election cascades as in vkspd.comp: the last group to finish a 64x64 block of tiles reduces
// that block's level-6 texels (stage 1), and so on; no group ever waits for another.
//
// Build-time switches as vkspd.comp: VKSPD_FP16, VKSPD_QUAD (must be 1), VKSPD_REDUCTION (not
// VKSPD_REDUCTION_CUSTOM).
#if !defined(VKSPD_FP16) || !defined(VKSPD_QUAD) || !defined(VKSPD_REDUCTION)
#error "Missing required macro VKSPD_FP16, VKSPD_QUAD or VKSPD_REDUCTION"
#endif
#if !VKSPD_QUAD
#error "vkspd_plain.comp needs quad subgroup operations (VKSPD_QUAD=1)"
#endif

#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_GOOGLE_include_directive : require
#if VKSPD_FP16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#pragma use_vulkan_memory_model

#include "vkspd_shared.h"

layout(local_size_x = VKSPD_GROUP_SIZE) in;

#include "vkspd_common.glsl"

// Level 3 of a tile (8x8), read by the quad that makes levels 4-6; two copies by tile parity, so
// the next tile's level 3 can be written before that quad has read this one (no second barrier).
shared VEC sLevel3[2][64];
// Whether this group's arrival completed a block of the next stage, by stage parity.
shared uint sElected[2];

// The 2x2 reduction of texels a (x, y), b (x+1, y), c (x, y+1), d (x+1, y+1) of a level of extent
// `above`. On an axis of one texel the destination is that texel (SPEC section 3, s == 1): the
// column or row past it does not exist, so its place is taken by the first.
vec4 reduce2x2(vec4 a, vec4 b, vec4 c, vec4 d, uvec2 above) {
    if (above.x == 1u) {
        b = a;
        d = c;
    }
    if (above.y == 1u) {
        c = a;
        d = b;
    }
    return reduce4f(a, b, c, d);
}

// The position of level-1 texel j (0..3) of a thread's 2x2 block.
ivec2 blockOffset(int j) { return ivec2(j & 1, j >> 1); }

// Every value stored here is within the half range: level 1 of stage 0 comes from the source
// (FP16 variants only run formats whose values are, FormatInfo::fp16Capable), later stages' level
// 1 is a mean of kept values that are, and everything else went through toReal.
void storeIfInside(int level, ivec2 g, vec4 v) {
#if EXP_NO_STORES
    if (level != 1) return;
#endif
    if (all(lessThan(g, ivec2(levelExtent(level))))) storeLevelInRange(level, g, v);
}

// This thread's four level-1 texels of stage-0 tile `tile`, from the source: one bilinear sample
// at the shared corner of each 2x2 (VKSPD_FLAG_LINEAR_FETCH; the sampler clamps to the edge), or
// four texel fetches at coordinates clamped to the image. Texels past the image are never stored,
// and an axis of one texel reads its only texel twice, which is its reduction.
void fetchSourceTile(ivec2 tile, ivec2 m, out vec4 v[4]) {
    uvec2 s0 = levelExtent(0);
    ivec2 o = tile * VKSPD_TILE + 4 * m;
    if ((pc.flags & VKSPD_FLAG_LINEAR_FETCH) != 0u) {
        vec2 texelSize = 1.0 / vec2(s0);
        for (int j = 0; j < 4; ++j) {
#if EXP_SPD_LOAD
            vec2 corner = vec2(tile * VKSPD_TILE + 2 * (m + 16 * blockOffset(j))) + 1.0;
#else
            vec2 corner = vec2(o + 2 * blockOffset(j)) + 1.0;
#endif
            v[j] = textureLod(sourceLevel, vec3(corner * texelSize, float(gLayer)), 0.0);
        }
    } else {
        ivec2 hi = ivec2(s0) - 1;
        for (int j = 0; j < 4; ++j) {
            ivec2 t = o + 2 * blockOffset(j);
            v[j] = reduce4f(sourceTexel(min(t, hi)), sourceTexel(min(t + ivec2(1, 0), hi)),
                            sourceTexel(min(t + ivec2(0, 1), hi)), sourceTexel(min(t + ivec2(1, 1), hi)));
        }
    }
}

// The same for tile `tile` of a later stage, from the texels the previous stage kept (full
// precision, in the data buffer).
void fetchKeptTile(int stage, ivec2 tile, ivec2 m, out vec4 v[4]) {
    int level = VKSPD_TILE_LEVELS * stage;
    uint kept = pc.stage[stage - 1].kept;
    ivec2 hi = ivec2(levelExtent(level)) - 1;
    ivec2 o = tile * VKSPD_TILE + 4 * m;
    for (int j = 0; j < 4; ++j) {
        ivec2 t = o + 2 * blockOffset(j);
        v[j] = reduce4f(loadData(keptTexel(kept, level, min(t, hi))),
                        loadData(keptTexel(kept, level, min(t + ivec2(1, 0), hi))),
                        loadData(keptTexel(kept, level, min(t + ivec2(0, 1), hi))),
                        loadData(keptTexel(kept, level, min(t + ivec2(1, 1), hi))));
    }
}

// Levels 1..`levels` (at most 6) below level `base` of tile `tile`, from this thread's level-1
// texels `v` (Morton position m, subgroup-linear index `lane`). With `keep`, lane 0 keeps the
// tile's level-6 texel for the next stage. `parity` chooses the copy of sLevel3.
void tileLevels(int base, int levels, ivec2 tile, ivec2 m, uint lane, vec4 v[4], int parity, bool keep,
                uint kept) {
    // Level 1: the thread's 2x2 block.
    ivec2 g1 = tile * 32 + 2 * m;
#if EXP_SPD_STORE
    for (int j = 0; j < 4; ++j) storeIfInside(base + 1, tile * 32 + m + 16 * blockOffset(j), v[j]);
#elif !EXP_NO_L1_STORES && !EXP_NO_STORES
    for (int j = 0; j < 4; ++j) storeIfInside(base + 1, g1 + blockOffset(j), v[j]);
#endif
    if (levels < 2) return;
    // Level 2: that block's reduction, in the thread.
    uvec2 e1 = levelExtent(base + 1);
    VEC v2 = toReal(reduce2x2(v[0], v[1], v[2], v[3], e1));
    storeIfInside(base + 2, tile * 16 + m, vec4(v2));
    if (levels < 3) return;
    // Level 3: across the quad (its four threads hold a 2x2 block of level 2); the first thread
    // of the quad has the texel.
    VEC h, w, d;
    quadNeighbours(v2, h, w, d);
    VEC v3 = toReal(reduce2x2(vec4(v2), vec4(h), vec4(w), vec4(d), levelExtent(base + 2)));
    bool first = ((m.x | m.y) & 1) == 0;
    ivec2 p3 = m >> 1;
    if (first) storeIfInside(base + 3, tile * 8 + p3, vec4(v3));
    if (levels < 4) return;
    if (first) sLevel3[parity][p3.y * 8 + p3.x] = v3;
    barrier();
    // Levels 4-6: lanes 0..3 (a quad); lane q makes the 2x2 level-4 texels under level-5 texel
    // (q & 1, q >> 1), that texel, and the quad level 6.
    if (lane < 4u) {
        ivec2 p5 = ivec2(int(lane & 1u), int(lane >> 1u));
        uvec2 e3 = levelExtent(base + 3);
        vec4 v4[4];
        for (int j = 0; j < 4; ++j) {
            ivec2 p4 = 2 * p5 + blockOffset(j);
            int i = 16 * p4.y + 2 * p4.x;
            v4[j] = vec4(toReal(reduce2x2(vec4(sLevel3[parity][i]), vec4(sLevel3[parity][i + 1]),
                                          vec4(sLevel3[parity][i + 8]), vec4(sLevel3[parity][i + 9]), e3)));
            storeIfInside(base + 4, tile * 4 + p4, v4[j]);
        }
        if (levels >= 5) {
            VEC v5 = toReal(reduce2x2(v4[0], v4[1], v4[2], v4[3], levelExtent(base + 4)));
            storeIfInside(base + 5, tile * 2 + p5, vec4(v5));
            if (levels >= 6) {
                quadNeighbours(v5, h, w, d);
                vec4 v6 = vec4(toReal(reduce2x2(vec4(v5), vec4(h), vec4(w), vec4(d), levelExtent(base + 5))));
                if (lane == 0u && all(lessThan(tile, ivec2(levelExtent(base + 6))))) {
#if !EXP_NO_STORES
                    storeLevelInRange(base + 6, tile, v6);
#endif
                    if (keep) storeData(keptTexel(kept, base + 6, tile), v6);
                }
            }
        }
    }
}

// Lane 0 counts `count` kept texels of stage `stage` towards the next-stage block holding `tile`
// (a texel of the kept level); the arrival that completes the block elects this group to run the
// next stage on it. Every thread returns whether it was elected.
bool elect(int stage, ivec2 tile, uint count, uint lane) {
    uint list = uint(stage) & 1u;
    if (lane == 0u) {
        uvec2 keptExtent = levelExtent(VKSPD_TILE_LEVELS * (stage + 1));
        ivec2 block = tile / VKSPD_TILE;
        uvec2 inside = min(uvec2(VKSPD_TILE), keptExtent - uvec2(block) * uint(VKSPD_TILE));
        uint counter = gCounterBase + pc.stage[stage].electCounters +
                       uint(block.y) * pc.stage[stage + 1].tilesX + uint(block.x);
        sElected[list] = arrive(counter, count, inside.x * inside.y) ? 1u : 0u;
    }
    barrier();
    if (sElected[list] == 0u) return false;
    // Only an elected group reads what other groups released.
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsImage,
                  gl_SemanticsAcquireRelease);
    return true;
}

void main() {
    gLayer = int(gl_WorkGroupID.z);
    gCounterBase = uint(gLayer) * pc.countersPerLayer;
    gDataBase = uint(gLayer) * pc.dataPerLayer;
    uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    ivec2 m = mortonPosition(lane);
    bool next = pc.stages > 1u;

    // Stage 0: tiles first .. first + count - 1 of a row, each fetched one tile ahead.
    int per = int(pc.tilesPerGroup);
    ivec2 first = ivec2(int(gl_WorkGroupID.x) * per, int(gl_WorkGroupID.y));
    int count = min(per, int(pc.stage[0].tilesX) - first.x);
    int levels = min(VKSPD_TILE_LEVELS, int(pc.levels));
#if EXP_NO_PREFETCH
    for (int i = 0; i < count; ++i) {
        vec4 current[4];
        fetchSourceTile(first + ivec2(i, 0), m, current);
        tileLevels(0, levels, first + ivec2(i, 0), m, lane, current, i & 1, next, pc.stage[0].kept);
    }
#else
    vec4 current[4];
    fetchSourceTile(first, m, current);
    for (int i = 0; i < count; ++i) {
        vec4 ahead[4] = current;
        if (i + 1 < count) fetchSourceTile(first + ivec2(i + 1, 0), m, ahead);
        tileLevels(0, levels, first + ivec2(i, 0), m, lane, current, i & 1, next, pc.stage[0].kept);
        current = ahead;
    }
#endif
    if (!next) return;
    // The strip lies in one 64x64 block of tiles (tilesPerGroup divides 64); lane 0 made and kept
    // its `count` level-6 texels.
    if (!elect(0, first, uint(count), lane)) return;

    // Later stages: the block this group completed (one tile of the stage), then the block of the
    // stage after it that this group's arrival completes.
    ivec2 tile = first / VKSPD_TILE;
    int parity = count & 1;
    for (int stage = 1; stage < int(pc.stages); ++stage) {
        int base = VKSPD_TILE_LEVELS * stage;
        bool more = stage + 1 < int(pc.stages);
        vec4 v[4];
        fetchKeptTile(stage, tile, m, v);
        tileLevels(base, min(VKSPD_TILE_LEVELS, int(pc.levels) - base), tile, m, lane, v, parity, more,
                   pc.stage[stage].kept);
        if (!more || !elect(stage, tile, 1u, lane)) return;
        parity ^= 1;
        tile /= VKSPD_TILE;
    }
}
