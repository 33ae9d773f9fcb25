#version 450
// The render-pass fallback (images without STORAGE usage): one texel of a level from the stored
// level above, with the same exact filter and reductions as the single pass (docs/FILTER.md).
// sRGB images are read and written through sRGB views, so the hardware decodes and encodes.
#extension GL_GOOGLE_include_directive : require
#include "vkspd_shared.h"

layout(set = 0, binding = 0) uniform sampler2DArray sourceLevel;  // the level above (or the source)
layout(push_constant) uniform Push {
    uint sourceWidth;
    uint sourceHeight;
    uint layer;       // layer of sourceLevel to read
    uint reduction;   // VKSPD_REDUCTION_* (not CUSTOM)
    uint flags;       // VKSPD_FLAG_COPY_BASE: copy texel for texel; VKSPD_FLAG_EXPAND_MINMAX
} pc;
layout(location = 0) out vec4 outColor;

vec4 fetch(int x, int y) {
    vec4 t = texelFetch(sourceLevel, ivec3(x, y, int(pc.layer)), 0);
    if ((pc.flags & VKSPD_FLAG_EXPAND_MINMAX) != 0u) t = vec4(t.x, t.x, 0.0, 0.0);
    return t;
}

vec3 axisWeights(uint s, int g) {
    if (s == 1u) return vec3(1.0, 0.0, 0.0);
    if ((s & 1u) == 0u) return vec3(0.5, 0.5, 0.0);
    int d = int(s - 1u) >> 1;
    float fs = float(s);
    return vec3(float(d - g) / fs, float(d) / fs, float(g + 1) / fs);
}

// NaN propagates like IEEE arithmetic (GLSL leaves min and max with a NaN operand undefined).
vec4 nanMin(vec4 a, vec4 b) { return mix(min(a, b), a + b, bvec4(uvec4(isnan(a)) | uvec4(isnan(b)))); }
vec4 nanMax(vec4 a, vec4 b) { return mix(max(a, b), a + b, bvec4(uvec4(isnan(a)) | uvec4(isnan(b)))); }

vec4 combine(vec4 a, vec4 b) {
    switch (pc.reduction) {
    case VKSPD_REDUCTION_MIN: return nanMin(a, b);
    case VKSPD_REDUCTION_MAX: return nanMax(a, b);
    case VKSPD_REDUCTION_MINMAX: return vec4(nanMin(a, b).x, nanMax(a, b).y, 0.0, 0.0);
    }
    return a + b;
}

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    if ((pc.flags & VKSPD_FLAG_COPY_BASE) != 0u) {
        outColor = fetch(g.x, g.y);
        return;
    }
    vec3 wx = axisWeights(pc.sourceWidth, g.x), wy = axisWeights(pc.sourceHeight, g.y);
    bool average = pc.reduction == VKSPD_REDUCTION_AVERAGE;
    float inf = uintBitsToFloat(0x7F800000u);
    vec4 identity = pc.reduction == VKSPD_REDUCTION_MIN   ? vec4(inf)
                    : pc.reduction == VKSPD_REDUCTION_MAX ? vec4(-inf)
                    : pc.reduction == VKSPD_REDUCTION_MINMAX ? vec4(inf, -inf, 0.0, 0.0)
                                                           : vec4(0.0);
    vec4 acc = identity;
    for (int b = 0; b < 3; ++b) {
        if (wy[b] == 0.0) continue;
        vec4 row = identity;
        for (int a = 0; a < 3; ++a) {
            if (wx[a] == 0.0) continue;
            vec4 v = fetch(pc.sourceWidth == 1u ? 0 : 2 * g.x + a, pc.sourceHeight == 1u ? 0 : 2 * g.y + b);
            row = average ? row + wx[a] * v : combine(row, v);
        }
        acc = average ? acc + wy[b] * row : combine(acc, row);
    }
    outColor = acc;
}
