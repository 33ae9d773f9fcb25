#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// The "floor fetch" and "floor linear" rows of vkspd-bench: one dispatch that reads a chain's
// level 0 from the image (a view of level 0 only) and does nothing else, timed like the mip
// methods. No kernel that reads level 0 through the texture path can take less; an odd level 1
// (a 3x3 footprint per texel) is compared against it.
// Each lane takes one 2x2 block of texels: mode 0 fetches its texels inside the extent (four
// texelFetch), mode 1 takes one LINEAR sample at the block's shared corner, mode 2 one
// textureGather per channel there (each returns that channel of the block's four texels; with
// CLAMP_TO_EDGE a block cut by an odd extent repeats its texels inside, so the sum is scaled by
// the share inside). A group of 256 lanes
// covers 32x32 texels. To keep the reads and to check them, each lane sums its texels' channels
// (mode 1: the sample times the block's texels inside the extent; with CLAMP_TO_EDGE a block cut by
// an odd extent samples the mean of those texels), the subgroup adds the lanes, and one lane per
// subgroup writes the total: almost nothing is written.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) uniform sampler2D level0;  // NEAREST (mode 0) or LINEAR (mode 1)
layout(set = 0, binding = 1) writeonly buffer Sums { float sums[]; };
layout(push_constant) uniform Push {
    uint mode;      // 0: texelFetch, 1: LINEAR sample, 2: textureGather per channel
    uint width;     // level 0's extent
    uint height;
    uint channels;  // the format's channels (1 to 4): the others are not summed
    uint slots;     // sums per group: 256 / the subgroup size the host sized the buffer for
};

void main() {
    const uint lane = gl_LocalInvocationID.x;
    const uvec2 block = gl_WorkGroupID.xy * 16u + uvec2(lane % 16u, lane / 16u);
    const uvec2 texel = block * 2u;
    const vec4 mask = vec4(1.0, channels > 1u ? 1.0 : 0.0, channels > 2u ? 1.0 : 0.0, channels > 3u ? 1.0 : 0.0);
    float sum = 0.0;
    if (texel.x < width && texel.y < height) {
        const uvec2 inside = min(uvec2(2u), uvec2(width, height) - texel);
        if (mode == 0u) {
            vec4 v = texelFetch(level0, ivec2(texel), 0);
            if (inside.x > 1u) v += texelFetch(level0, ivec2(texel) + ivec2(1, 0), 0);
            if (inside.y > 1u) v += texelFetch(level0, ivec2(texel) + ivec2(0, 1), 0);
            if (inside.x > 1u && inside.y > 1u) v += texelFetch(level0, ivec2(texel) + ivec2(1, 1), 0);
            sum = dot(v, mask);
        } else if (mode == 1u) {
            const vec2 corner = vec2(texel + 1u) / vec2(width, height);
            sum = dot(textureLod(level0, corner, 0.0), mask) * float(inside.x * inside.y);
        } else {
            const vec2 corner = vec2(texel + 1u) / vec2(width, height);
            vec4 g = textureGather(level0, corner, 0);
            if (channels > 1u) g += textureGather(level0, corner, 1);
            if (channels > 2u) g += textureGather(level0, corner, 2);
            if (channels > 3u) g += textureGather(level0, corner, 3);
            sum = dot(g, vec4(1.0)) * float(inside.x * inside.y) * 0.25;
        }
    }
    sum = subgroupAdd(sum);
    if (subgroupElect() && gl_SubgroupID < slots)
        sums[(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * slots + gl_SubgroupID] = sum;
}
