#version 450
// A cold L2 for every timed item: read a buffer larger than the L2 before each timed item. It
// only reads, so the L2 is left holding clean lines: the timed item pays for its own traffic,
// not for writing back someone else's (a copy left up to an L2's worth of dirty lines, which the
// next item wrote back to memory inside its timestamps). The loads feed a store that happens
// only if the XOR of a thread's loads equals a value the bench never passes, so the compiler
// keeps them and nothing is written.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Source { uvec4 source[]; };
layout(set = 0, binding = 1) writeonly buffer Destination { uvec4 destination[]; };
layout(push_constant) uniform Push {
    uint count;    // uvec4 elements to read
    uint unused;
    uint pad0, pad1;
    uvec4 never;   // a value the XOR is not expected to reach
};

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uvec4 x = uvec4(0u);
    for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) x ^= source[i];
    if (all(equal(x, never))) destination[gl_GlobalInvocationID.x % count] = x;
}
