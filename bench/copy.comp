#version 450
// The bandwidth floor of a chain: a compute-shader copy with 16-byte loads and stores
// (bandwidth = 2 x bytes / time). Also used, on other buffers, to evict the L2 before each timed
// item.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Source { uvec4 source[]; };
layout(set = 0, binding = 1) writeonly buffer Destination { uvec4 destination[]; };
layout(push_constant) uniform Push { uint count; };  // uvec4 elements

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) destination[i] = source[i];
}
