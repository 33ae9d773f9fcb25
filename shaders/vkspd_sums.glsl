// The summed-levels kernel: vkspd_plain.comp built with VKSPD_SUMS=1 (a built-in reduction; the
// average of formats whose values lie in [0, 1]) includes this after its stage-0 code
// (docs/DESIGN.md, "Summed levels").
//
// The plain prefix makes levels 1..P of the base in strips of 64x64 tiles (stageZeroStrip) and
// keeps the strip's level-P texels, a block, in shared memory (sBlock, KEEP_PREFIX). Every later
// level is a reduction of level P: along an axis, texel j of level L = P + m reads, with non-zero
// weights, the level-P texels [j 2^m, j 2^m + reach(L)] (reach(L) = sum over k = P+1..L of t(k)
// 2^(k-P-1), t(k) the taps past 2j at level k: 2 where the level above is odd, 1 where even, 0
// where it is one texel). The average is linear and Min and Max are associative, so a block's
// share of a texel is the reduction applied to the block alone, taps outside it left out, level
// after level from the block, and the texel combines the shares of the blocks it reads.
// The group makes its shares of every texel the block touches (sShares). A texel whose footprint
// lies in the block is final and stored at once; the others are summed over the blocks that touch
// them: each share goes into the texel's word per channel in the counter buffer (sumWord), then
// the group arrives at the texel's counter with the number of its footprint's level-P texels the
// block holds. The arrival that completes the footprint reads the words back (leaving zeros for
// the next dispatch, as arrive() leaves the counter) and stores the texel. So every texel past
// level P is stored one atomic round trip after the last group that touches it, with no later
// stage, and no group waits for another. The words combine by integer atomics, which are exact and
// do not depend on the order the groups arrive in:
// - the average adds the share in fixed point, in units of 2^-VKSPD_SUM_UNIT_BITS: one rounding to
//   2^-32 per share and group, against a tolerance of 2^-8 to 2^-16 (8- to 16-bit UNORM); the
//   shares sum the filter's float weights in FP32;
// - Min and Max (MinMax: R and G) keep the extreme by atomicMax of an order-preserving key of the
//   share's bits, bit for bit, NaN winning as in nanMin and nanMax.

#if VKSPD_FP16
#define SUM_SHARES VKSPD_SUM_SHARES_FP16
#else
#define SUM_SHARES VKSPD_SUM_SHARES_FP32
#endif

// The block's shares of levels P+1 .. pc.levels, level after level, each row-major over the texels
// the block touches (SumLevel). The planner keeps them within SUM_SHARES (sumSharesBound,
// useSummedLevels).
shared vec4 sShares[SUM_SHARES];
ivec2 gBlockHi;  // one past the block's last level-P texel (gBlockLo: its first)

const float kSumUnit = float(1u << VKSPD_SUM_UNIT_BITS);

// The texels of one level that the block touches, per axis: lo .. lo + n - 1; the footprint of
// texel j in level P ends at (j << (L - P)) + reach; its shares start at sShares[at].
struct SumLevel {
    ivec2 lo;
    ivec2 n;
    ivec2 reach;
    int at;
};

// The block itself, as level P's SumLevel.
SumLevel blockLevel() { return SumLevel(gBlockLo, gBlockHi - gBlockLo, ivec2(0), 0); }

// Level L's SumLevel from that of the level above (`above`, level L - 1), its shares at `at`.
// Texel j of L reads 2j .. 2j + t of the level above (t as for reach), so it touches the block
// where 2j + t >= above.lo and 2j <= above.lo + above.n - 1.
SumLevel nextSumLevel(SumLevel above, int L, int at) {
    uvec2 s = levelExtent(L - 1);
    ivec2 t = ivec2(mix(mix(uvec2(1u), uvec2(2u), equal(s & 1u, uvec2(1u))), uvec2(0u), equal(s, uvec2(1u))));
    SumLevel r;
    r.lo = max((above.lo - t + 1) >> 1, ivec2(0));
    r.n = min((above.lo + above.n - 1) >> 1, ivec2(levelExtent(L)) - 1) - r.lo + 1;
    r.reach = above.reach + (t << (L - 1 - gPrefixLevels));
    r.at = at;
    return r;
}

// The block's share of texel j of level L (`lv`) from its shares of the level above (`above`;
// the block's texels where that is level P): the exact filter's taps (docs/FILTER.md) that lie in
// `above`, rows first, as the reference makes them.
vec4 sumShare(int L, SumLevel lv, SumLevel above, ivec2 j) {
    uvec2 s = levelExtent(L - 1);
    vec3 wx = axisWeights(s.x, j.x), wy = axisWeights(s.y, j.y);
    bool fromBlock = L == gPrefixLevels + 1;
    vec4 acc = rIdentity();
    [[unroll]] for (int b = 0; b < 3; ++b) {
        int y = 2 * j.y + b - above.lo.y;
        if (wy[b] == 0.0 || y < 0 || y >= above.n.y) continue;
        // The row's three taps loaded together (clamped into the part of the level above that
        // the block touches), then reduced: a load behind each tap's test made up to three
        // dependent shared-memory round trips (docs/PERFORMANCE.md, "Summed levels").
        vec4 t[3];
        [[unroll]] for (int a = 0; a < 3; ++a) {
            int k = y * above.n.x + clamp(2 * j.x + a - above.lo.x, 0, above.n.x - 1);
            t[a] = fromBlock ? vec4(sBlock[k]) : sShares[above.at + k];
        }
        vec4 row = rIdentity();
        [[unroll]] for (int a = 0; a < 3; ++a) {
            int x = 2 * j.x + a - above.lo.x;
            if (wx[a] == 0.0 || x < 0 || x >= above.n.x) continue;
            row = rAccumulate(row, t[a], wx[a]);
        }
        acc = rAccumulate(acc, row, wy[b]);
    }
    return acc;
}

// A share as the word its channel c combines in (by atomicAdd for the average, atomicMax for the
// others), and a texel's channel from its combined word. No share's word is 0, the records' value
// between dispatches, but an average's share that rounds to 0 (skipped: adding it changes nothing).
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
uint sumWord(float v, int c) { return uint(clamp(v, 0.0, 1.0) * kSumUnit + 0.5); }
float sumValue(uint word, int c) { return float(word) / kSumUnit; }
#else
// Whether channel c keeps the minimum (Min; MinMax's R).
bool keepsMin(int c) { return VKSPD_REDUCTION == VKSPD_REDUCTION_MIN || (VKSPD_REDUCTION == VKSPD_REDUCTION_MINMAX && c == 0); }
// The key that orders floats as unsigned integers: negative values reversed under the positive
// ones (-0 below +0); a minimum is kept as its key's complement, so atomicMax keeps both. NaN is
// 0xFFFFFFFF, above every other word, so it wins as in nanMin and nanMax; 0 is the key or
// complement of a NaN only, which never occurs.
uint sumWord(float v, int c) {
    if (isnan(v)) return 0xFFFFFFFFu;
    uint b = floatBitsToUint(v), key = (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
    return keepsMin(c) ? ~key : key;
}
float sumValue(uint word, int c) {
    if (word == 0xFFFFFFFFu) return uintBitsToFloat(0x7FC00000u);
    uint key = keepsMin(c) ? ~word : word;
    return uintBitsToFloat((key & 0x80000000u) != 0u ? key & 0x7FFFFFFFu : ~key);
}
#endif

// What a texel's store takes: an average is within [0, 1] (its sum may round past 1).
vec4 sumStored(vec4 v) {
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
    return clamp(v, 0.0, 1.0);
#else
    return v;
#endif
}

// The first word of texel j of level L: its counter; its sum of channel c is pc.sumTexels * (c + 1)
// words later.
uint sumRecord(int L, ivec2 j) {
    return gCounterBase + pc.levelRecord[L - gPrefixLevels - 1] + uint(j.y) * levelExtent(L).x + uint(j.x);
}

// Share `i` of level `lv` as the texel it belongs to.
ivec2 shareTexel(SumLevel lv, int i) { return lv.lo + ivec2(i % lv.n.x, i / lv.n.x); }

// Texel j of level L (`lv`): its footprint in level P and the part of it the block holds.
void footprint(int L, SumLevel lv, ivec2 j, out ivec2 size, out ivec2 mine) {
    ivec2 lo = j << (L - gPrefixLevels), hi = lo + lv.reach + 1;
    size = hi - lo;
    mine = min(hi, gBlockHi) - max(lo, gBlockLo);
}

// Share v of the texel whose record starts at `record` into its words (relaxed: the arrival that
// follows releases them).
void addShare(uint record, vec4 v) {
    [[unroll]] for (int c = 0; c < 4; ++c) {
        uint word = sumWord(v[c], c), at = record + pc.sumTexels * uint(c + 1);
        if (uint(c) >= pc.channels || word == 0u) continue;
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
        atomicAdd(counters[at], word, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
#else
        atomicMax(counters[at], word, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
#endif
    }
}

// The texel whose record starts at `record`, combined from every share, by the arrival that
// completed it; its words are left at zero for the next dispatch.
vec4 takeCombined(uint record) {
    vec4 v = vec4(0.0);
    [[unroll]] for (int c = 0; c < 4; ++c) {
        if (uint(c) < pc.channels)
            v[c] = sumValue(atomicExchange(counters[record + pc.sumTexels * uint(c + 1)], 0u, gl_ScopeDevice,
                                           gl_StorageSemanticsBuffer, gl_SemanticsRelaxed), c);
    }
    return v;
}

// Every level past the prefix, after the barrier that follows stageZeroStrip.
void sumLevels(uint lane) {
    const int levels = int(pc.levels);
    // The shares, level after level, one barrier each; a final texel is stored at once, a shared
    // one's share put into its words (relaxed: the arrivals below release them).
    SumLevel above = blockLevel();
    int shares = 0;
    for (int L = gPrefixLevels + 1; L <= levels; ++L) {
        SumLevel lv = nextSumLevel(above, L, shares);
        int count = lv.n.x * lv.n.y;
        // Rounds of a count every lane shares (lavapipe: Mesa 22.3 misplaces a barrier after a loop
        // that lanes leave at counts of their own, docs/DESIGN.md).
        [[dont_unroll]] for (int r = 0; r < (count + VKSPD_GROUP_SIZE - 1) / VKSPD_GROUP_SIZE; ++r) {
            int i = int(lane) + r * VKSPD_GROUP_SIZE;
            if (i >= count) continue;
            ivec2 j = shareTexel(lv, i);
            vec4 v = sumShare(L, lv, above, j);
            sShares[lv.at + i] = v;
            ivec2 size, mine;
            footprint(L, lv, j, size, mine);
            if (all(equal(mine, size))) {
                storeLevelInRange(L, j, sumStored(v));
                continue;
            }
            addShare(sumRecord(L, j), v);
        }
        barrier();
        above = lv;
        shares += count;
    }
    // The arrivals: one lane per shared texel, all at once. The barrier orders every lane's words
    // before each arriving lane's release.
    releaseBarrier();
    [[dont_unroll]] for (int r = 0; r < (shares + VKSPD_GROUP_SIZE - 1) / VKSPD_GROUP_SIZE; ++r) {
        int e = int(lane) + r * VKSPD_GROUP_SIZE;
        // The level of share e (a walk every lane makes in full).
        SumLevel lv = blockLevel(), mineLevel = lv;
        int L = 0, at = 0;
        for (int k = gPrefixLevels + 1; k <= levels; ++k) {
            lv = nextSumLevel(lv, k, at);
            int count = lv.n.x * lv.n.y;
            if (e >= at && e < at + count) {
                mineLevel = lv;
                L = k;
            }
            at += count;
        }
        if (L == 0) continue;
        ivec2 j = shareTexel(mineLevel, e - mineLevel.at);
        ivec2 size, mine;
        footprint(L, mineLevel, j, size, mine);
        if (all(equal(mine, size))) continue;  // final: stored with its share
        uint record = sumRecord(L, j);
        if (!arrive(record, uint(mine.x * mine.y), uint(size.x * size.y))) continue;
        storeLevelInRange(L, j, sumStored(takeCombined(record)));
    }
}

// Every level past the prefix of a plain chain (VKSPD_FLAG_PLAIN_SUMS: P = 6, the block one row of
// the strip's level-6 texels), after the barrier that follows stageZeroStrip. There texel j of
// level L reduces the level-P texels j f .. j f + f - 1 per axis, all of the same weight, where
// f = extent(P) / extent(L) (a power of two; 1 on an axis of one texel). So one pass makes every
// share: a lane per texel the block touches, of any level (at most 32 + the later levels, within
// the group), reduces its part of the block, puts it into the texel's words and arrives, its
// release ordering its own words. No barrier between levels or before the arrivals: the lane that
// adds a share is the lane that arrives with it.
void sumPlainLevels(uint lane) {
    const uvec2 extentP = levelExtent(gPrefixLevels);
    int e = int(lane), L = 0;
    ivec2 f = ivec2(1), j = ivec2(0);
    for (int k = gPrefixLevels + 1; k <= int(pc.levels); ++k) {
        ivec2 fk = ivec2(extentP / levelExtent(k)), lo = gBlockLo / fk, n = (gBlockHi - 1) / fk - lo + 1;
        if (L == 0 && e < n.x * n.y) {
            L = k;
            f = fk;
            j = lo + ivec2(e % n.x, e / n.x);
        }
        e -= n.x * n.y;
    }
    if (L == 0) return;
    ivec2 lo = max(j * f, gBlockLo), hi = min(j * f + f, gBlockHi), mine = hi - lo;
    float w = 1.0 / float(f.x * f.y);
    vec4 v = rIdentity();
    for (int y = lo.y; y < hi.y; ++y)
        for (int x = lo.x; x < hi.x; ++x)
            v = rAccumulate(v, vec4(sBlock[(y - gBlockLo.y) * gBlockWidth + x - gBlockLo.x]), w);
    if (mine.x * mine.y == f.x * f.y) {  // the texel's footprint lies in the block: final
        storeLevelInRange(L, j, sumStored(v));
        return;
    }
    uint record = sumRecord(L, j);
    addShare(record, v);
    if (arrive(record, uint(mine.x * mine.y), uint(f.x * f.y))) storeLevelInRange(L, j, sumStored(takeCombined(record)));
}

void main() {
    gLayer = int(gl_WorkGroupID.z);
    gCounterBase = uint(gLayer) * pc.countersPerLayer;
    gDataBase = 0u;
    uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    gPrefixLevels = int(pc.prefixLevels);
    int per;
    ivec2 first = stripOf(per);
    int count = min(per, int((pc.extentX + uint(VKSPD_TILE) - 1u) / uint(VKSPD_TILE)) - first.x);
    if (count <= 0) return;  // past the row
    int q = VKSPD_TILE >> gPrefixLevels;
    gBlockLo = first * q;
    gBlockHi = min(gBlockLo + ivec2(count * q, q), ivec2(levelExtent(gPrefixLevels)));
    gBlockWidth = gBlockHi.x - gBlockLo.x;
    stageZeroStrip(first, count, gPrefixLevels, lane, mortonPosition(lane), false);
    barrier();
    // A run-time branch: the pass in a module of its own (the generic path compiled out) was no
    // faster than the plain-chain kernel, and this module without the branch was slower at first
    // use at screen sizes (docs/PERFORMANCE.md, "Summed levels on plain chains in one pass").
    if ((pc.flags & VKSPD_FLAG_PLAIN_SUMS) != 0u)
        sumPlainLevels(lane);
    else
        sumLevels(lane);
}
