#version 450
// The "stream (chain bytes)" row of vkspd-bench: one dispatch that reads as many bytes as a
// chain's level 0 and writes as many as its other levels, and does nothing else, timed like the
// mip methods (cold L2, the same timestamps). The copy floor is a rate measured over 1 GiB; this
// row is what one dispatch of a chain's traffic takes at that size, launch and ramp included: no
// mip kernel can move the same bytes faster.
// Output element o is the XOR of source elements o, o + writes, o + 2 writes, ... below reads, so
// every source element is read once, every destination element written once, each warp's loads
// and stores contiguous.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Source { uvec4 source[]; };
layout(set = 0, binding = 1) writeonly buffer Destination { uvec4 destination[]; };
layout(push_constant) uniform Push {
    uint reads;   // uvec4 elements of the source
    uint writes;  // uvec4 elements of the destination (1 or more)
};

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint o = gl_GlobalInvocationID.x; o < writes; o += stride) {
        uvec4 v = uvec4(o);
        uint i = o;
        // Four loads in flight before their XOR (a chain's level 0 is about three times the rest).
        for (; i + 3u * writes < reads; i += 4u * writes)
            v ^= source[i] ^ source[i + writes] ^ source[i + 2u * writes] ^ source[i + 3u * writes];
        for (; i < reads; i += writes) v ^= source[i];
        destination[o] = v;
    }
}
