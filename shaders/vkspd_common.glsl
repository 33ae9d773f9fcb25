// Declarations and helpers shared by the single-pass kernels: vkspd.comp (every size) and
// vkspd_plain.comp (plain chains, every level a 2x2 reduction). Both are built with the same
// switches (VKSPD_FP16, VKSPD_QUAD, VKSPD_REDUCTION), bindings and push constants, so they run
// with one pipeline layout. Included after the extensions and vkspd_shared.h.

// FP16 variants keep levels in 16-bit values (REAL, VEC); FP32 variants in 32-bit.
#if VKSPD_FP16
#define REAL float16_t
#define VEC f16vec4
#else
#define REAL float
#define VEC vec4
#endif

// FP16 variant: a filtered value never exceeds the largest input, so a finite value past the half
// maximum (65504) only comes from rounding: FP32 sums of half-rounded partial sums (tile edges),
// or an FP32 value rounded up on conversion. Such values saturate instead of becoming Inf; Inf
// and NaN pass unchanged (HDR values near the maximum must not overflow: docs/FILTER.md).
vec4 saturateHalf(vec4 v) {
#if VKSPD_FP16
    vec4 m = vec4(65504.0);
    bvec4 special = bvec4(uvec4(isinf(v)) | uvec4(isnan(v)));
    return mix(clamp(v, -m, m), v, special);
#else
    return v;
#endif
}
VEC toReal(vec4 v) { return VEC(saturateHalf(v)); }

layout(set = 0, binding = VKSPD_BINDING_SOURCE) uniform sampler2DArray sourceLevel;
// The same level's first layer in texel coordinates (unnormalized): the linear-sampler fetch of a
// one-layer dispatch, whose corner coordinates are then exact.
layout(set = 0, binding = VKSPD_BINDING_SOURCE_TEXELS) uniform sampler2D sourceTexels;
layout(set = 0, binding = VKSPD_BINDING_DEST) uniform writeonly image2DArray levelImages[VKSPD_MAX_LEVELS + 1];
layout(set = 0, binding = VKSPD_BINDING_COUNTERS) coherent buffer Counters { uint counters[]; };
layout(set = 0, binding = VKSPD_BINDING_DATA) coherent buffer Data { float data[]; };
// The same buffer as whole texels where they are 4 floats: one 16-byte access each (data offsets
// are in texels from a 256-byte aligned start, so every vec4 is aligned).
layout(set = 0, binding = VKSPD_BINDING_DATA) coherent buffer DataV4 { vec4 data4[]; };
#if defined(VKSPD_DATA_RANGES) && VKSPD_DATA_RANGES > 1
// Data past one storage-buffer range: ranges 1 .. VKSPD_DATA_RANGES - 1 after the one above, each
// a binding of its own (an array of buffer blocks made lavapipe's compile of the whole kernel
// several times slower even where only element 0 was used).
#if VKSPD_DATA_RANGES > VKSPD_MAX_DATA_RANGES
#error "VKSPD_DATA_RANGES exceeds VKSPD_MAX_DATA_RANGES"
#endif
layout(constant_id = VKSPD_SPEC_DATA_SHIFT) const uint kDataShift = 31u;
layout(set = 0, binding = VKSPD_BINDING_DATA_RANGE1) coherent buffer Data1 { float data1[]; };
layout(set = 0, binding = VKSPD_BINDING_DATA_RANGE1) coherent buffer Data1V4 { vec4 data1v4[]; };
#if VKSPD_DATA_RANGES > 2
layout(set = 0, binding = VKSPD_BINDING_DATA_RANGE1 + 1) coherent buffer Data2 { float data2[]; };
layout(set = 0, binding = VKSPD_BINDING_DATA_RANGE1 + 1) coherent buffer Data2V4 { vec4 data2v4[]; };
#endif
#if VKSPD_DATA_RANGES > 3
layout(set = 0, binding = VKSPD_BINDING_DATA_RANGE1 + 2) coherent buffer Data3 { float data3[]; };
layout(set = 0, binding = VKSPD_BINDING_DATA_RANGE1 + 2) coherent buffer Data3V4 { vec4 data3v4[]; };
#endif
#endif
#if defined(VKSPD_HALO) && VKSPD_HALO
layout(push_constant) uniform Push { HaloPushConstants pc; };
#elif defined(VKSPD_SUMS) && VKSPD_SUMS
layout(push_constant) uniform Push { SumPushConstants pc; };
#else
layout(push_constant) uniform Push { PushConstants pc; };
#endif

// The channels a texel has (pc.channels, 1 to 4; Plan::channels). A kernel that defines
// VKSPD_CHANNELS_SPECIALIZED (the halo-stage kernel) takes them as a specialization constant whose
// value is pc.channels, and every value it stores, to an image, the data buffer or shared memory,
// goes through LIVE_CHANNELS, which zeroes the channels past them: the compiler then drops the
// arithmetic and loads of channels the format does not have, and the data buffer's layout is
// known when the kernel is compiled (a Hi-Z pyramid's one channel was computed as four).
// ZERO_DEAD_CHANNELS(v) is the same as a statement, v = LIVE_CHANNELS(v).
#ifdef VKSPD_CHANNELS_SPECIALIZED
layout(constant_id = VKSPD_SPEC_CHANNELS) const uint kChannels = 4u;
#define DATA_CHANNELS kChannels
vec4 liveChannels(vec4 v) {
    return vec4(v.x, kChannels > 1u ? v.y : 0.0, kChannels > 2u ? v.z : 0.0, kChannels > 3u ? v.w : 0.0);
}
#if VKSPD_FP16
f16vec4 liveChannels(f16vec4 v) {
    const float16_t z = float16_t(0.0);
    return f16vec4(v.x, kChannels > 1u ? v.y : z, kChannels > 2u ? v.z : z, kChannels > 3u ? v.w : z);
}
#endif
#define LIVE_CHANNELS(v) liveChannels(v)
#define ZERO_DEAD_CHANNELS(v) v = liveChannels(v)
#else
#define DATA_CHANNELS pc.channels
#define LIVE_CHANNELS(v) (v)
#define ZERO_DEAD_CHANNELS(v)
#endif

// --- Reductions (docs/FILTER.md) --------------------------------------------------------------
// GLSL leaves min and max undefined when an operand is NaN; the reference propagates NaN like IEEE
// arithmetic (docs/FILTER.md), so these do: a + b is NaN whenever either is.
float nanMin(float a, float b) { return isnan(a) || isnan(b) ? a + b : min(a, b); }
float nanMax(float a, float b) { return isnan(a) || isnan(b) ? a + b : max(a, b); }
vec4 nanMin(vec4 a, vec4 b) { return mix(min(a, b), a + b, bvec4(uvec4(isnan(a)) | uvec4(isnan(b)))); }
vec4 nanMax(vec4 a, vec4 b) { return mix(max(a, b), a + b, bvec4(uvec4(isnan(a)) | uvec4(isnan(b)))); }
#if VKSPD_FP16
f16vec4 nanMin(f16vec4 a, f16vec4 b) { return mix(min(a, b), a + b, bvec4(uvec4(isnan(a)) | uvec4(isnan(b)))); }
f16vec4 nanMax(f16vec4 a, f16vec4 b) { return mix(max(a, b), a + b, bvec4(uvec4(isnan(a)) | uvec4(isnan(b)))); }
#endif

// A texel is made separably: each source row with a non-zero weight accumulates its texels from
// the identity, then the rows accumulate into the texel. Partial results of disjoint parts of a
// footprint (tile edges) merge with rCombine.
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
vec4 rIdentity() { return vec4(0.0); }
vec4 rAccumulate(vec4 acc, vec4 v, float w) { return acc + w * v; }
vec4 rCombine(vec4 a, vec4 b) { return a + b; }
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MIN
vec4 rIdentity() { return vec4(uintBitsToFloat(0x7F800000u)); }
vec4 rAccumulate(vec4 acc, vec4 v, float w) { return nanMin(acc, v); }
vec4 rCombine(vec4 a, vec4 b) { return nanMin(a, b); }
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MAX
vec4 rIdentity() { return vec4(-uintBitsToFloat(0x7F800000u)); }
vec4 rAccumulate(vec4 acc, vec4 v, float w) { return nanMax(acc, v); }
vec4 rCombine(vec4 a, vec4 b) { return nanMax(a, b); }
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MINMAX
// R: minimum, G: maximum.
vec4 rIdentity() { float inf = uintBitsToFloat(0x7F800000u); return vec4(inf, -inf, 0.0, 0.0); }
vec4 rCombine(vec4 a, vec4 b) { return vec4(nanMin(a.x, b.x), nanMax(a.y, b.y), 0.0, 0.0); }
vec4 rAccumulate(vec4 acc, vec4 v, float w) { return rCombine(acc, v); }
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_CUSTOM
#include "vkspd_custom_reduction.glsl"
vec4 rIdentity() { return vkspdIdentity(); }
vec4 rAccumulate(vec4 acc, vec4 v, float w) { return vkspdAccumulate(acc, v, w); }
vec4 rCombine(vec4 a, vec4 b) { return vkspdCombine(a, b); }
#else
#error "Unknown VKSPD_REDUCTION"
#endif

// Weights of the exact box filter (docs/FILTER.md) for destination texel g of a level whose
// source axis has s texels; the taps are source texels 2g, 2g+1, 2g+2.
vec3 axisWeights(uint s, int g) {
    if (s == 1u) return vec3(1.0, 0.0, 0.0);
    if ((s & 1u) == 0u) return vec3(0.5, 0.5, 0.0);
    int d = int(s - 1u) >> 1;
    float fs = float(s);
    return vec3(float(d - g) / fs, float(d) / fs, float(g + 1) / fs);
}

// The taps with a nonzero weight (axisWeights) on a source axis of s texels: 1, 2 or 3, the same
// for every destination texel.
int axisTaps(uint s) { return s == 1u ? 1 : 2 + int(s & 1u); }

// Channels that are Inf or NaN.
uvec4 nonFinite(vec4 v) { return uvec4(isinf(v)) | uvec4(isnan(v)); }

// The end of a weighted sum whose inputs had the non-finite channels `special`. An average never
// exceeds its largest input, but the three-tap weights of odd sizes, rounded, may sum to a little
// over 1: at the float maximum that makes Inf from finite texels. Such channels are clamped.
vec4 finishReduce(vec4 acc, uvec4 special) {
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
    float m = uintBitsToFloat(0x7F7FFFFFu);
    return mix(clamp(acc, -m, m), acc, bvec4(special));
#else
    return acc;
#endif
}

// The reduction of a plain 2x2 footprint (weights 1/4 each), at the variant's precision.
VEC reduce4(VEC a, VEC b, VEC c, VEC d) {
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
    // Scaled before adding so four values near the half maximum cannot overflow; `precise` keeps
    // the compiler from factoring the scale out of the sum (Mesa's NIR does for inexact floats).
    REAL q = REAL(0.25);
    precise VEC r = a * q + b * q + c * q + d * q;
    return r;
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MIN
    return nanMin(nanMin(a, b), nanMin(c, d));
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MAX
    return nanMax(nanMax(a, b), nanMax(c, d));
#else
    vec4 row0 = rAccumulate(rAccumulate(rIdentity(), vec4(a), 0.5), vec4(b), 0.5);
    vec4 row1 = rAccumulate(rAccumulate(rIdentity(), vec4(c), 0.5), vec4(d), 0.5);
    return VEC(rAccumulate(rAccumulate(rIdentity(), row0, 0.5), row1, 0.5));
#endif
}

#if VKSPD_REDUCTION == VKSPD_REDUCTION_CUSTOM
// The caller's reduction of texels a (x, y), b (x+1, y), c (x, y+1), d (x+1, y+1) of a level of
// extent `above`, as the reference makes it (docs/FILTER.md): each row's taps with their weights,
// then the rows with theirs; 1/2 each, but on an axis of one texel its only texel is the one tap,
// of weight 1 (b, d or c, d are then no taps, whatever they hold). reduce4f's weights are the
// other case's: where a reduction is not linear in its weights, counting a lone texel as two taps
// of 1/2 changes the result.
vec4 customReduce2x2(vec4 a, vec4 b, vec4 c, vec4 d, uvec2 above) {
    float wx = above.x == 1u ? 1.0 : 0.5, wy = above.y == 1u ? 1.0 : 0.5;
    vec4 row0 = rAccumulate(rIdentity(), a, wx), row1 = rAccumulate(rIdentity(), c, wx);
    if (above.x != 1u) {
        row0 = rAccumulate(row0, b, wx);
        row1 = rAccumulate(row1, d, wx);
    }
    vec4 acc = rAccumulate(rIdentity(), row0, wy);
    return above.y == 1u ? acc : rAccumulate(acc, row1, wy);
}
#endif

// The same from four FP32 values (level 1 from the source, and ping-pong levels).
vec4 reduce4f(vec4 a, vec4 b, vec4 c, vec4 d) {
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
    // Scaled before adding (exact: a power of two), so four values near the float maximum do not
    // overflow; `precise`, as in reduce4.
    precise vec4 r = 0.25 * a + 0.25 * b + 0.25 * c + 0.25 * d;
    return r;
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MIN
    return nanMin(nanMin(a, b), nanMin(c, d));
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MAX
    return nanMax(nanMax(a, b), nanMax(c, d));
#else
    vec4 row0 = rAccumulate(rAccumulate(rIdentity(), a, 0.5), b, 0.5);
    vec4 row1 = rAccumulate(rAccumulate(rIdentity(), c, 0.5), d, 0.5);
    return rAccumulate(rAccumulate(rIdentity(), row0, 0.5), row1, 0.5);
#endif
}

// Where this group works: the layer (z) relative to the first layer of the range, and that
// layer's counters and data texels.
int gLayer;       // layer (z) relative to the first layer of the range
uint gCounterBase, gDataBase;  // this layer's counters and data texels

// One bilinear sample at the shared corner of the 2x2 block whose first texel is `t`: its mean,
// the filter's weights exactly 1/2 per axis. The corner is the exact texel coordinate t + 1 (a
// normalized (t + 1) / extent is rounded unless the extent is a power of two, which moved the
// weights by a sub-texel step: 19 units in the last place off at 7680x4320 RGBA16F on an NVIDIA
// H200). One layer only: the library takes the sampler for one-layer dispatches.
vec4 linearCorner(ivec2 t) { return textureLod(sourceTexels, vec2(t) + 1.0, 0.0); }

uvec2 levelExtent(int absLevel) {
    return max(uvec2(1u), uvec2(pc.extentX, pc.extentY) >> uint(absLevel));
}

// The data buffer holds texels of `channels` floats.
#if defined(VKSPD_DATA_RANGES) && VKSPD_DATA_RANGES > 1
// Texel t lies in range t >> kDataShift, at t & (2^kDataShift - 1) there.
#if VKSPD_DATA_RANGES > 3
#define VKSPD_RANGE_CASES_3(V) case 3u: V(data3, data3v4); break;
#else
#define VKSPD_RANGE_CASES_3(V)
#endif
#if VKSPD_DATA_RANGES > 2
#define VKSPD_RANGE_CASES_2(V) case 2u: V(data2, data2v4); break;
#else
#define VKSPD_RANGE_CASES_2(V)
#endif
#define VKSPD_IN_RANGE(r, V)                 \
    switch (r) {                             \
    case 0u: V(data, data4); break;          \
    case 1u: V(data1, data1v4); break;       \
    VKSPD_RANGE_CASES_2(V)                   \
    VKSPD_RANGE_CASES_3(V)                   \
    }

vec4 loadData(uint texel) {
    const uint t = gDataBase + texel, r = t >> kDataShift, i = t & ((1u << kDataShift) - 1u);
    vec4 v = vec4(0.0);
    if (pc.channels == 4u) {
#define VKSPD_LOAD4(floats, texels) v = texels[i]
        VKSPD_IN_RANGE(r, VKSPD_LOAD4)
        return v;
    }
    const uint base = i * pc.channels;
#define VKSPD_LOAD1(floats, texels) for (uint c = 0u; c < pc.channels; ++c) v[c] = floats[base + c]
    VKSPD_IN_RANGE(r, VKSPD_LOAD1)
    return v;
}

void storeData(uint texel, vec4 v) {
    const uint t = gDataBase + texel, r = t >> kDataShift, i = t & ((1u << kDataShift) - 1u);
    if (pc.channels == 4u) {
#define VKSPD_STORE4(floats, texels) texels[i] = v
        VKSPD_IN_RANGE(r, VKSPD_STORE4)
        return;
    }
    const uint base = i * pc.channels;
#define VKSPD_STORE1(floats, texels) for (uint c = 0u; c < pc.channels; ++c) floats[base + c] = v[c]
    VKSPD_IN_RANGE(r, VKSPD_STORE1)
}
#else
vec4 loadData(uint texel) {
    if (DATA_CHANNELS == 4u) return data4[gDataBase + texel];
    uint base = (gDataBase + texel) * DATA_CHANNELS;
    vec4 v = vec4(0.0);
    for (uint c = 0u; c < DATA_CHANNELS; ++c) v[c] = data[base + c];
    return v;
}

void storeData(uint texel, vec4 v) {
    ZERO_DEAD_CHANNELS(v);
    if (DATA_CHANNELS == 4u) {
        data4[gDataBase + texel] = v;
        return;
    }
    uint base = (gDataBase + texel) * DATA_CHANNELS;
    for (uint c = 0u; c < DATA_CHANNELS; ++c) data[base + c] = v[c];
}
#endif

vec3 linearToSrgb(vec3 l) {
    l = clamp(l, vec3(0.0), vec3(1.0));
    vec3 curve = 1.055 * pow(l, vec3(1.0 / 2.4)) - 0.055;
    return mix(12.92 * l, curve, greaterThan(l, vec3(0.0031308)));
}

// Whether stores encode to sRGB. A kernel that defines VKSPD_SRGB_SPECIALIZED (vkspd_plain.comp)
// takes it as a specialization constant, so the pipeline of a UNORM or float format carries no
// encoding code: in the plain kernel the run-time test at every store site cost 2-8% and 16 KB of
// its 74 KB of binary (docs/PERFORMANCE.md). The general
// kernel keeps the push-constant flag: its register count moves with such changes.
#ifdef VKSPD_SRGB_SPECIALIZED
layout(constant_id = VKSPD_SPEC_SRGB) const bool kSrgbStores = false;
bool srgbStores() { return kSrgbStores; }
#else
bool srgbStores() { return (pc.flags & VKSPD_FLAG_SRGB) != 0u; }
#endif

// storeLevelInRange takes a value known to be within the half range (stage 0's level 1 on the
// quad path); storeLevel saturates first.
void storeLevelInRange(int level, ivec2 g, vec4 v) {
    ZERO_DEAD_CHANNELS(v);
    // sRGB images are written through UNORM views: encode here, after filtering in linear space.
    if (srgbStores()) v.rgb = linearToSrgb(v.rgb);
    // A switch with constant indices: dynamic indexing of storage image arrays is an optional
    // feature (lavapipe lacks it).
    ivec3 p = ivec3(g, gLayer);
    switch (level) {
    case 0: imageStore(levelImages[0], p, v); break;
    case 1: imageStore(levelImages[1], p, v); break;
    case 2: imageStore(levelImages[2], p, v); break;
    case 3: imageStore(levelImages[3], p, v); break;
    case 4: imageStore(levelImages[4], p, v); break;
    case 5: imageStore(levelImages[5], p, v); break;
    case 6: imageStore(levelImages[6], p, v); break;
    case 7: imageStore(levelImages[7], p, v); break;
    case 8: imageStore(levelImages[8], p, v); break;
    case 9: imageStore(levelImages[9], p, v); break;
    case 10: imageStore(levelImages[10], p, v); break;
    case 11: imageStore(levelImages[11], p, v); break;
    case 12: imageStore(levelImages[12], p, v); break;
    case 13: imageStore(levelImages[13], p, v); break;
    case 14: imageStore(levelImages[14], p, v); break;
    case 15: imageStore(levelImages[15], p, v); break;
    case 16: imageStore(levelImages[16], p, v); break;
    case 17: imageStore(levelImages[17], p, v); break;
    case 18: imageStore(levelImages[18], p, v); break;
    }
}

void storeLevel(int level, ivec2 g, vec4 v) { storeLevelInRange(level, g, saturateHalf(v)); }

// Data texel of texel g of a stage's kept level (`level`, relative to the base; `kept`: the
// stage's StagePush::kept).
uint keptTexel(uint kept, int level, ivec2 g) { return kept + uint(g.y) * levelExtent(level).x + uint(g.x); }

// A texel of the dispatch's source (a depth source's value is in R; MinMax of a one-channel
// source starts from (v, v)).
// sourceTexelTested tests VKSPD_FLAG_EXPAND_MINMAX in every module. The library sets it for
// MinMax only, so a kernel that defines VKSPD_EXPAND_MINMAX_ONLY (vkspd_plain.comp) tests it in
// its MinMax modules only: Hi-Z 4096x4096 (the plain kernel's loads) took 69.7 us instead of 77.4
// on an H200. The general kernel keeps the test (not measured without it).
vec4 sourceTexelTested(ivec2 p) {
    vec4 t = texelFetch(sourceLevel, ivec3(p, gLayer), 0);
    if ((pc.flags & VKSPD_FLAG_EXPAND_MINMAX) != 0u) t = vec4(t.x, t.x, 0.0, 0.0);
    return t;
}
vec4 sourceTexel(ivec2 p) {
#if defined(VKSPD_EXPAND_MINMAX_ONLY) && VKSPD_REDUCTION != VKSPD_REDUCTION_MINMAX
    return texelFetch(sourceLevel, ivec3(p, gLayer), 0);
#else
    return sourceTexelTested(p);
#endif
}

// Morton-like order of the talk: each quad of lanes covers a 2x2 block, each 64 lanes an 8x8
// block, and the four 64-lane blocks tile 16x16. The index comes from the subgroup so quads are
// real quads at any subgroup size.
ivec2 mortonPosition(uint i) {
    uint a = i & 63u;
    uint x = (((a >> 2u) & 7u) & 0xFFFEu) | (a & 1u);
    uint y = ((a >> 1u) & 3u) | (((a >> 3u) & 7u) & 0xFFFCu);
    uint block = i >> 6u;
    return ivec2(int(x + 8u * (block & 1u)), int(y + 8u * (block >> 1u)));
}

#if VKSPD_QUAD

#if VKSPD_FP16
uvec2 packValue(VEC v) { return uvec2(packFloat2x16(v.xy), packFloat2x16(v.zw)); }
VEC unpackValue(uvec2 p) { return VEC(unpackFloat2x16(p.x), unpackFloat2x16(p.y)); }
#else
uvec4 packValue(VEC v) { return floatBitsToUint(v); }
VEC unpackValue(uvec4 p) { return uintBitsToFloat(p); }
#endif

// The other three values of the quad (horizontal, vertical and diagonal neighbour).
void quadNeighbours(VEC v, out VEC h, out VEC w, out VEC d) {
    h = unpackValue(subgroupQuadSwapHorizontal(packValue(v)));
    w = unpackValue(subgroupQuadSwapVertical(packValue(v)));
    d = unpackValue(subgroupQuadSwapDiagonal(packValue(v)));
}

// The 2x2 reduction across a quad: replaces one round of shared-memory store and load. Three
// exchanges; the plain kernel takes quadReducePairs (two) below. The general kernel keeps this
// one: with quadReducePairs its half-denormals flavour went from 48 to 56 registers, and it was
// no faster at its sizes (docs/PERFORMANCE.md).
VEC quadReduce(VEC v) {
    VEC h, w, d;
    quadNeighbours(v, h, w, d);
    return reduce4(v, h, w, d);
}

// The same with the sum in FP32, rounded once (as the shared-memory levels are).
VEC quadReduceF(VEC v) {
    VEC h, w, d;
    quadNeighbours(v, h, w, d);
    return toReal(reduce4f(vec4(v), vec4(h), vec4(w), vec4(d)));
}

// rCombine at the variant's precision (an Average's values come scaled).
VEC combinePair(VEC a, VEC b) {
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
    precise VEC r = a + b;
    return r;
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MIN
    return nanMin(a, b);
#elif VKSPD_REDUCTION == VKSPD_REDUCTION_MAX
    return nanMax(a, b);
#else
    return VEC(rCombine(vec4(a), vec4(b)));
#endif
}

// The 2x2 reduction across a quad at the variant's precision in two exchanges: each lane combines
// its value with its horizontal neighbour's, then that row with the vertical neighbour's row. An
// Average scales first (exact: a power of two), so no partial sum can exceed the largest value.
// On an axis of one texel of the level above (`above`) the missing neighbour is the lane itself
// (docs/FILTER.md, s == 1).
VEC quadReducePairs(VEC v, uvec2 above) {
#if VKSPD_REDUCTION == VKSPD_REDUCTION_CUSTOM
    // The caller's reduction sees the footprint as the reference makes it: each row's taps with
    // their weights (1/2, or 1 on an axis of one texel), then the rows with theirs.
    vec4 h = above.x == 1u ? vec4(v) : vec4(unpackValue(subgroupQuadSwapHorizontal(packValue(v))));
    vec4 row = above.x == 1u ? rAccumulate(rIdentity(), vec4(v), 1.0)
                             : rAccumulate(rAccumulate(rIdentity(), vec4(v), 0.5), h, 0.5);
    if (above.y == 1u) return VEC(rAccumulate(rIdentity(), row, 1.0));
    vec4 w = vec4(unpackValue(subgroupQuadSwapVertical(packValue(VEC(row)))));
    return VEC(rAccumulate(rAccumulate(rIdentity(), row, 0.5), w, 0.5));
#else
#if VKSPD_REDUCTION == VKSPD_REDUCTION_AVERAGE
    v *= REAL(0.25);
#endif
    VEC h = above.x == 1u ? v : unpackValue(subgroupQuadSwapHorizontal(packValue(v)));
    VEC row = combinePair(v, h);
    VEC w = above.y == 1u ? row : unpackValue(subgroupQuadSwapVertical(packValue(row)));
    return combinePair(row, w);
#endif
}
#endif

// Joins the workgroup and orders every thread's earlier data-buffer and shared-memory accesses
// before every thread's later ones, without a device-scope fence. Data-buffer writes are coherent
// stores (available at device scope when made), so before an arrival at a device-scope
// acquire-release counter this is all the ordering they need: the arriving thread's atomic
// releases them to the other groups. A device-scope fence in every thread waits for all of that
// thread's image stores, which nothing reads back (docs/PERFORMANCE.md). Both kernels use it before the arrivals that release kept texels.
void releaseBarrier() {
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
}

// Arrives at a counter; true for the arrival that brings it to `target`, which then owns the
// work behind it and puts the counter back to zero for the next dispatch.
bool arrive(uint counter, uint amount, uint target) {
    uint before = atomicAdd(counters[counter], amount, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                            gl_SemanticsAcquireRelease);
    if (before + amount != target) return false;
    atomicStore(counters[counter], 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelaxed);
    return true;
}

