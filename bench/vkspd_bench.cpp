// vkspd-bench: the measurement protocol of docs/PERFORMANCE.md in one process. For every format and
// size it times, interleaved and with the L2 evicted before each item (a read of a buffer larger
// than the L2, which leaves it clean; --evict copy for the earlier protocol): the blit chain, one
// dispatch per level (vkspd with two-level ranges: the same exact kernel), and each vkspd
// single-pass variant (and the tuning options: linear-sampler fetch, group-ID tiling); plus the
// compute-shader copy that sets the bandwidth floor, a chain's bytes through one streaming
// dispatch, and level 0 read from the image by texelFetch, textureGather and the bilinear sampler
// (the least any kernel reading level 0 takes); and a Hi-Z row, a Min pyramid made from a depth
// source. Every vkspd method's output is checked against the CPU reference once before timing:
// every texel up to 4096x4096, sampled texels above (a reference computed only at those texels,
// so checking stays cheap).
#include <vkspd/debug.hpp>
#include <vkspd/reference.hpp>
#include <vkspd/tuning.hpp>
#include <vkspd/vkspd.hpp>

#include "gpu.hpp"  // samples/common/ (vkspd_tools_timing)
#include "occupancy.hpp"

#include "clean_timings.hpp"
#include "warm_up.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace vkspd_tools;

namespace {

const uint32_t kCopySpirv[] =
#include "vkspd_bench_copy.inc"
    ;
const uint32_t kEvictSpirv[] =
#include "vkspd_bench_evict.inc"
    ;
const uint32_t kStreamSpirv[] =
#include "vkspd_bench_stream.inc"
    ;
const uint32_t kFloorSpirv[] =
#include "vkspd_bench_floor.inc"
    ;

const char* kUsageText =
    "usage: vkspd-bench [options]\n"
    "\n"
    "Times mip generation on the GPU (docs/PERFORMANCE.md): blit chain, one dispatch per level, and\n"
    "every vkspd single-pass variant, against a compute-shader copy floor measured in the same\n"
    "run; interleaved, GPU timestamps, the L2 evicted before each item (by reading a 256 MiB\n"
    "buffer: see --evict), median and minimum.\n"
    "The floor is timed in every repetition: its range is printed. The second half of the L2\n"
    "eviction before each item, and of one after the last, is timed too (a read probe; the best\n"
    "is printed): a timing with a probe before or after it below 90% of the run's best ran while\n"
    "other work took the GPU's bandwidth, and is left out of the median and minimum. The 'clean'\n"
    "column gives the timings kept; an item left with fewer than a third of its timings clean\n"
    "(or fewer than 3) keeps them all, is marked '!' (unsteady), and the report warns not to\n"
    "compare the run.\n"
    "Each vkspd method is first checked against the CPU reference, every level below the base\n"
    "poisoned before it runs: every texel of every level up to 4096x4096 texels, above that 2048\n"
    "sampled texels per level (corners, last row and column, random) against a reference\n"
    "computed at those texels only. One dispatch per level is checked against a reference that\n"
    "rounds every level, as that method does (sampled: the exact chain, with its tolerance per\n"
    "level). Exit code 1 if a check fails.\n"
    "Methods: 'stream (chain bytes)' (not a mip method: one dispatch that reads the bytes of\n"
    "the chain's level 0 from a buffer and writes those of its other levels, with no other work,\n"
    "so what one dispatch of that traffic takes at that size, launch and ramp included; timed\n"
    "like the rest, its output checked once; left out where level 0 is over\n"
    "maxStorageBufferRange), 'floor fetch', 'floor gather' and 'floor linear' (not mip methods:\n"
    "one dispatch that reads level 0 from the image, a view of level 0, and writes almost\n"
    "nothing: fetch reads every texel once by texelFetch, gather takes one textureGather per\n"
    "channel per 2x2 block, linear one bilinear sample per 2x2 block, at its shared corner; the\n"
    "least any kernel reading level 0 through the texture path takes, e.g. for an odd level 1's\n"
    "3x3 footprints; their GB/s count level 0's bytes only; checked once: the sum of level 0's\n"
    "channels, within 1e-3 (fetch, gather) or 2e-2 (linear), status 'ok (reads)';\n"
    "every format but the Hi-Z row, linear where the format can be filtered linearly), blit\n"
    "chain, dispatch per level, vkspd default (every option Auto:\n"
    "what generateMips picks on this device), vkspd lds (the same on the LDS-only path,\n"
    "SubgroupPath::LdsOnly: what a device without quad operations gets; its modules are\n"
    "compiled at run time), and the general kernel (Kernel::General): vkspd\n"
    "fp16|fp32 quad|lds (Fetch::Load) and, on the fp16 (else fp32) quad variant, the tuning\n"
    "options 'linear' (Fetch::LinearSampler, where the format allows it) and 'cols N' (group-ID\n"
    "tiling in strips of N tiles). Where the chain is plain (every level a 2x2 reduction), the\n"
    "plain-chain kernel (Kernel::PlainChain): vkspd plain fp16|fp32 linear|gather|load with the\n"
    "library's tiles per group, and 'vkspd plain ... tiles N' for each N of --tiles. Where the\n"
    "halo-stage kernel takes the chain (Kernel::HaloStages: a chain with an odd level, after a\n"
    "plain prefix of two or more levels or from the base in tiles with a halo), vkspd halo\n"
    "fp16|fp32 linear|gather|load (no linear or gather row where the base or level 1 is odd).\n"
    "Where the summed-levels kernel takes the chain (Kernel::SummedLevels: after a plain prefix\n"
    "of two or more levels, the average of a UNORM or sRGB format, or Min, Max and MinMax of\n"
    "any), vkspd summed fp16|fp32 linear|gather|load and, right after the first of them, 'vkspd\n"
    "summed ... tiles N' for each N of --tiles (on a plain chain: every level past level 6 in\n"
    "one pass, with the plain-chain kernel's tiles per group and tail). Gather rows\n"
    "(Fetch::Gather) are for formats of one channel read from the image itself.\n"
    "The Hi-Z row (--formats d32-min, reported as R32_SFLOAT-Min-D32): a depth pyramid, an\n"
    "R32_SFLOAT image made with Reduction::Min from a D32_SFLOAT depth image (depth in [0, 1])\n"
    "given as MipGenInfo::source: the dispatch copies it into level 0 and reduces the levels\n"
    "below. Its check covers level 0 too, bit-exact (Min and the copy); its methods are the\n"
    "stream row, vkspd default, vkspd fp32 quad|lds, 'cols N', and the FP32 load rows of the\n"
    "plain-chain and halo-stage kernels where they take the chain (no blit chain or dispatch per\n"
    "level: they cannot make it, so 'x blit' is n/a). Its GB/s and stream row count the bytes of\n"
    "the R32_SFLOAT chain, like the r32f row's (level 0 read, the other levels written; not the\n"
    "copy's write of level 0). A device that cannot sample D32_SFLOAT skips the row, saying so.\n"
    "The occupancy column gives each single-pass variant's occupancy, the groups per SM and the\n"
    "resource that limits them (as vkspd --occupancy; 'computed' where the driver does not\n"
    "report registers, n/a where the device has no per-SM figures).\n"
    "Before the first repetition the GPU is brought to a steady state (an idle GPU runs at a low\n"
    "clock): the floor's copy is repeated in batches until at least 500 ms of GPU work have run\n"
    "and the batches of the last 250 ms of it agree within 3% (at most 3 s). The report says what it\n"
    "took and, where NVML is present (NVIDIA), the SM clock before and after it and after the\n"
    "last repetition; bench.json and every bench.csv row carry the same.\n"
    "\n"
    "options:\n"
    "  --device N        Vulkan device index (default: first discrete GPU, else any)\n"
    "  --reps N          timed repetitions (default 30; 3 warm-up repetitions come first)\n"
    "  --sizes LIST      comma-separated WxH (default: 1000x600, 1920x1080, 2560x1440, 3840x2160,\n"
    "                    2047x2047, 2048x2048, 4095x4095, 4096x4096, 8191x8191, 8192x8192 and\n"
    "                    16384x16384, up to the device limit)\n"
    "  --formats LIST    comma-separated: rgba8, rgba16f, r32f, rgba32f, d32-min (the Hi-Z row),\n"
    "                    r32f-min, r8-min, r16f-min, rgba8-min, rgba16f-min, rg16f-minmax, r8,\n"
    "                    r16f, rgba8-custom (default: the first five; r32f-min is the Hi-Z\n"
    "                    pyramid of an R32_SFLOAT image's own\n"
    "                    base level, reported as R32_SFLOAT-Min (no copy: on NVIDIA its level 1\n"
    "                    is gathered, Fetch::Gather, where d32-min loads its source); r8-min and\n"
    "                    r16f-min the same of R8_UNORM and R16_SFLOAT (the FP16 variants);\n"
    "                    rgba8-min and rgba16f-min Min of four channels; rg16f-minmax the\n"
    "                    min-max pyramid (R: minimum, G: maximum) of an R16G16_SFLOAT image;\n"
    "                    r8 moves a quarter of rgba8's bytes with the same texels, and with\n"
    "                    the same instructions but in the halo-stage kernel (which computes its\n"
    "                    one channel only): it shows what costs per texel rather than per byte;\n"
    "                    r16f is the FP16 variants at one channel of values that are not\n"
    "                    normalized; rgba8-custom is rgba8 averaged by a Reduction::Custom\n"
    "                    whose GLSL averages: what the custom path costs, FP32 only, on the\n"
    "                    kernel Auto takes (the plain-chain or halo-stage kernel where it\n"
    "                    takes the chain, else the general kernel), and the other two)\n"
    "  --methods LIST    comma-separated substrings: time only methods whose name holds one\n"
    "                    (e.g. \"fp16 quad,blit\"; default: all)\n"
    "  --cols LIST       strip widths N of the 'cols N' methods (default 1,2,4,8,16; none: no\n"
    "                    'cols N' methods)\n"
    "  --tiles LIST      tiles per group N of the 'vkspd plain ... tiles N' and 'vkspd summed ...\n"
    "                    tiles N' methods (default 1,2,4,8,16; none: no 'tiles N' methods)\n"
    "  --tail T/P        Tuning::tailTiles T and tailTilesPerGroup P of every single-pass\n"
    "                    method (P a power of two from 1 to 32; 0/1: no tail; default: the\n"
    "                    library's rule: the plain-chain kernel's last tiles in shorter strips)\n"
    "  --levels N        images get min(full chain, N + 1) levels, N below the base (where the\n"
    "                    time goes: with 6, no group runs a second stage)\n"
    "  --sampled         check sampled texels at every size (default: above 4096x4096 only)\n"
    "  --copy-mib N      size of the copy that sets the floor (default 1024)\n"
    "  --evict-mib N     size of the buffer read (or copied: --evict copy) before each item to\n"
    "                    evict the L2 (default 256)\n"
    "  --evict read|copy how the L2 is evicted before each item: read (default, the protocol:\n"
    "                    reads only, so the L2 holds clean lines) or copy (the older protocol:\n"
    "                    a copy, which leaves up to an L2's worth of dirty lines that the timed\n"
    "                    item then writes back)\n"
    "  --submit repetition|size  how the timed repetitions are submitted: each as one command\n"
    "                    buffer and submission (default), or each size (of each format) in a\n"
    "                    submission of its own, the floor's copy with the first. A pipeline's first\n"
    "                    dispatch in a submission runs cold (docs/PERFORMANCE.md, \"What makes a\n"
    "                    first use\"): with size, the first row of each pipeline at each size is such\n"
    "                    a first use whatever the order of --sizes\n"
    "  --out DIR         write DIR/bench.csv, DIR/bench.json and DIR/bench-<format>.svg\n"
    "  --no-denorm-preserve  run the shaders as built, without the DenormPreserve execution mode\n"
    "                    the library adds where the device supports it (ContextTuning::\n"
    "                    skipDenormPreserve), to measure what keeping FP32 denormals costs\n"
    "  -h, --help        this text\n"
    "\n"
    "example: vkspd-bench --reps 50 --out bench-out\n";

// One row of --formats: the image's format and, for a depth pyramid, its reduction and the
// depth format of the SourceImage that fills its level 0 (the library copies it there).
struct FormatChoice {
    const char* key;
    VkFormat format;
    vkspd::Reduction reduction = vkspd::Reduction::Average;
    VkFormat source = VK_FORMAT_UNDEFINED;  // UNDEFINED: level 0 is uploaded into the image itself
    const char* name = nullptr;  // in the report, CSV, JSON and SVG name; null: the format's name
    // Dispatched as Reduction::Custom with kAverageGlsl (an average, so the checks are Average's).
    bool custom = false;
};
const FormatChoice kFormats[] = {
    {"rgba8", VK_FORMAT_R8G8B8A8_UNORM},
    {"rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT},
    {"r32f", VK_FORMAT_R32_SFLOAT},
    {"rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT},
    {"r8", VK_FORMAT_R8_UNORM},
    {"r16f", VK_FORMAT_R16_SFLOAT},
    // Hi-Z: one word (the report's columns are split at spaces, and it names an SVG file).
    {"d32-min", VK_FORMAT_R32_SFLOAT, vkspd::Reduction::Min, VK_FORMAT_D32_SFLOAT, "R32_SFLOAT-Min-D32"},
    // The same pyramid of an R32F image's own base level (no copy), and Min of the one-channel
    // formats the FP16 variants take.
    {"r32f-min", VK_FORMAT_R32_SFLOAT, vkspd::Reduction::Min, VK_FORMAT_UNDEFINED, "R32_SFLOAT-Min"},
    {"r8-min", VK_FORMAT_R8_UNORM, vkspd::Reduction::Min, VK_FORMAT_UNDEFINED, "R8_UNORM-Min"},
    {"r16f-min", VK_FORMAT_R16_SFLOAT, vkspd::Reduction::Min, VK_FORMAT_UNDEFINED, "R16_SFLOAT-Min"},
    // Min of four channels, and the min-max pyramid of a two-channel format.
    {"rgba8-min", VK_FORMAT_R8G8B8A8_UNORM, vkspd::Reduction::Min, VK_FORMAT_UNDEFINED, "R8G8B8A8_UNORM-Min"},
    {"rgba16f-min", VK_FORMAT_R16G16B16A16_SFLOAT, vkspd::Reduction::Min, VK_FORMAT_UNDEFINED, "R16G16B16A16_SFLOAT-Min"},
    {"rg16f-minmax", VK_FORMAT_R16G16_SFLOAT, vkspd::Reduction::MinMax, VK_FORMAT_UNDEFINED, "R16G16_SFLOAT-MinMax"},
    {"rgba8-custom", VK_FORMAT_R8G8B8A8_UNORM, vkspd::Reduction::Average, VK_FORMAT_UNDEFINED,
     "R8G8B8A8_UNORM-custom", true}};

// The custom reduction of the rgba8-custom row: the Average reduction's arithmetic in GLSL.
const char* kAverageGlsl = R"(
vec4 vkspdIdentity() { return vec4(0.0); }
vec4 vkspdAccumulate(vec4 acc, vec4 v, float w) { return acc + w * v; }
vec4 vkspdCombine(vec4 a, vec4 b) { return a + b; }
)";
vkspd::CustomReduction gAverageCustom = nullptr;  // made for the first rgba8-custom subject

// The channels per texel a row's dispatch computes in the halo-stage kernel (Plan::channels): the
// format's, two for MinMax.
uint32_t rowChannels(const FormatChoice& row) {
    if (row.reduction == vkspd::Reduction::MinMax) return 2;
    vkspd::FormatInfo fi{};
    return vkspd::getFormatInfo(row.format, &fi) ? fi.channels : 4;
}

// Whether a row's halo-stage pipelines are the normalized flavour (its values read from the image
// itself and normalized: RGBA8, R8).
bool rowNormalized(const FormatChoice& row) {
    return vkspd::usesNormalizedFlavour(row.format, row.source != VK_FORMAT_UNDEFINED);
}

// --tail: Tuning::tailTiles and tailTilesPerGroup of every single-pass method (0, 0: the
// library's rule).
struct TailOption {
    uint32_t tiles = 0, per = 0;
} gTail;

struct Method {
    std::string name;
    // Stream: not a mip method, the "stream (chain bytes)" row (stream.comp). FloorFetch,
    // FloorLinear and FloorGather: not mip methods either, the "floor fetch|linear|gather" rows
    // (floor.comp).
    enum Kind { Blit, PerLevel, SinglePass, Stream, FloorFetch, FloorLinear, FloorGather } kind;
    bool floor() const { return kind == FloorFetch || kind == FloorLinear || kind == FloorGather; }
    // floor.comp's mode: 0 texelFetch, 1 bilinear sample, 2 textureGather per channel.
    uint32_t floorMode() const { return kind == FloorLinear ? 1u : kind == FloorGather ? 2u : 0u; }
    vkspd::Precision precision = vkspd::Precision::Auto;
    vkspd::SubgroupPath path = vkspd::SubgroupPath::Auto;
    vkspd::Fetch fetch = vkspd::Fetch::Load;  // explicit: Auto is timed as the "vkspd default" method
    // The general kernel unless named: "vkspd fp16 quad" and the other variant names of earlier
    // results are shaders/vkspd.comp; "vkspd plain ..." methods are shaders/vkspd_plain.comp.
    // Every method takes --tail.
    vkspd::Tuning tuning = {vkspd::Kernel::General, 0, gTail.tiles, gTail.per, 0};
    bool chosenFp16 = false, chosenQuad = false;  // "vkspd default": what Auto resolved to
    bool chosenPlain = false;
    bool chosenHalo = false;   // the default row: Kernel::Auto took the halo-stage kernel
    bool chosenSums = false;   // the default row: Kernel::Auto took the summed-levels kernel
    bool chosenLinear = false;  // the default row: Fetch::Auto took the linear sampler
    bool chosenGather = false;  // the default row: Fetch::Auto took the gather
    bool oddBase = false;       // the halo-stage kernel runs with stage 0 on an odd base
};

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
};

Buffer makeBuffer(const Gpu& g, VkDeviceSize size, VkBufferUsageFlags usage, bool host) {
    Buffer b;
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = usage;
    CHECK_VK(vkCreateBuffer(g.device, &bi, nullptr, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g.device, b.buffer, &req);
    b.memory = allocate(g, req, host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                     : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CHECK_VK(vkBindBufferMemory(g.device, b.buffer, b.memory, 0));
    if (host) CHECK_VK(vkMapMemory(g.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

void freeBuffer(const Gpu& g, Buffer& b) {
    vkDestroyBuffer(g.device, b.buffer, nullptr);
    vkFreeMemory(g.device, b.memory, nullptr);
    b = Buffer{};
}

// One (format, size) under test: an image with a full chain in GENERAL layout (and, for a depth
// pyramid, its depth source in kSourceState).
struct Subject {
    const FormatChoice* row;
    VkFormat format;  // row->format
    uint32_t width, height, levels;
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImage source = VK_NULL_HANDLE;  // of format row->source
    VkDeviceMemory sourceMemory = VK_NULL_HANDLE;
    double floorBytes = 0;  // level 0 read once + every other level written once
    double level0Bytes = 0;
    // The floor rows: a view of level 0 (layer 0) only, and the sum of level 0's channels as
    // uploaded (made only where a floor row is timed).
    VkImageView level0View = VK_NULL_HANDLE;
    double level0Sum = 0;
};

// The bytes a row's GB/s counts: level 0 for the floor rows (they read nothing else), else level 0
// and every other level.
double bytesCounted(const Subject& s, const Method& m) { return m.floor() ? s.level0Bytes : s.floorBytes; }

// The stream row's traffic for `s`: bytes read (its level 0) and written (its other levels), each
// a whole number of 16-byte elements, at least one.
std::pair<VkDeviceSize, VkDeviceSize> streamBytes(const Subject& s) {
    auto elements = [](double bytes) { return std::max<VkDeviceSize>(16, (VkDeviceSize(bytes) + 15) & ~VkDeviceSize(15)); };
    return {elements(s.level0Bytes), elements(s.floorBytes - s.level0Bytes)};
}

struct Item {
    size_t subject;  // index into subjects; SIZE_MAX for the copy floor
    Method method;
    bool verified = false;
    double worstError = 0;
    std::vector<double> us;    // one per timed repetition
    vkspd_bench::KeptTimings timings;  // which of them the figures come from (clean_timings.hpp)
};

const VkImageLayout kGeneral = VK_IMAGE_LAYOUT_GENERAL;
const vkspd::ImageState kComputeState = {kGeneral, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                         VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
// A depth source once uploaded: read-only, only ever sampled by the dispatches.
const vkspd::ImageState kSourceState = {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                        VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};

void fullBarrier(VkCommandBuffer cmd) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                         &mb, 0, nullptr, 0, nullptr);
}

// The blit chain, image in GENERAL throughout: level l-1 blitted (linear) into level l.
void recordBlitChain(VkCommandBuffer cmd, const Subject& s) {
    for (uint32_t l = 1; l < s.levels; ++l) {
        VkImageBlit blit{};
        blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l - 1, 0, 1};
        blit.srcOffsets[1] = {int32_t(vkspd::mipExtent(s.width, l - 1)), int32_t(vkspd::mipExtent(s.height, l - 1)), 1};
        blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
        blit.dstOffsets[1] = {int32_t(vkspd::mipExtent(s.width, l)), int32_t(vkspd::mipExtent(s.height, l)), 1};
        vkCmdBlitImage(cmd, s.image, kGeneral, s.image, kGeneral, 1, &blit, VK_FILTER_LINEAR);
        VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        b.oldLayout = b.newLayout = kGeneral;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = s.image;
        b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, l, 1, 0, 1};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &b);
    }
}

// The whole chain of `s` with the method's variant, image in GENERAL before and after.
vkspd::MipGenInfo infoFor(const Subject& s, const Method& m) {
    vkspd::MipGenInfo info;
    info.image = s.image;
    info.format = s.format;
    info.extent = {s.width, s.height};
    info.imageMipLevels = s.levels;
    info.before = info.after = kComputeState;
    info.reduction = s.row->reduction;
    if (s.row->custom) {
        info.reduction = vkspd::Reduction::Custom;
        info.customReduction = gAverageCustom;
    }
    if (s.source) {
        info.source.image = s.source;
        info.source.format = s.row->source;
        info.source.extent = {s.width, s.height};
        info.source.before = info.source.after = kSourceState;
    }
    info.precision = m.precision;
    info.subgroupPath = m.path;
    info.fetch = m.fetch;
    info.tuning = &m.tuning;  // `m` outlives every use of the returned info
    return info;
}

bool recordVkspd(vkspd::Context context, VkCommandBuffer cmd, const Subject& s, const Method& m) {
    vkspd::MipGenInfo info = infoFor(s, m);
    if (m.kind == Method::SinglePass) {
        vkspd::Result r = vkspd::generateMips(context, cmd, info);
        if (!r.ok()) std::fprintf(stderr, "vkspd-bench: %s\n", r.message.c_str());
        return r.ok();
    }
    for (uint32_t l = 0; l + 1 < s.levels; ++l) {  // one dispatch per level, same kernel
        info.baseMipLevel = l;
        info.levelCount = 2;
        vkspd::Result r = vkspd::generateMips(context, cmd, info);
        if (!r.ok()) {
            std::fprintf(stderr, "vkspd-bench: %s\n", r.message.c_str());
            return false;
        }
    }
    return true;
}

// A compute pass over buffers of uvec4: copy.comp (the floor; the L2 eviction with --evict copy)
// or evict.comp (reads only: the L2 eviction of the protocol).
struct Copier {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    PFN_vkCmdPushDescriptorSetKHR push = nullptr;
    uint32_t pushBytes = 4;

    // `bytes` from byte `offset` of both buffers (a multiple of the storage buffer offset alignment).
    void record(VkCommandBuffer cmd, const Buffer& from, const Buffer& to, VkDeviceSize bytes, VkDeviceSize offset = 0) const {
        // count, then (evict.comp) a value its XOR of loads is not expected to reach.
        const uint32_t values[8] = {uint32_t(bytes / 16), 0, 0, 0, 0x9e3779b9u, 0x7f4a7c15u, 0xf39cc060u, 0x5cedc834u};
        recordWith(cmd, from, offset, bytes, to, offset, bytes, values,
                   std::min<uint32_t>(65535, std::max<uint32_t>(1, values[0] / (256 * 8))));
    }
    // stream.comp: `readBytes` of `from` and `writeBytes` of `to` (multiples of 16), one output
    // element per thread up to 65535 groups.
    void recordStream(VkCommandBuffer cmd, const Buffer& from, VkDeviceSize readBytes, const Buffer& to,
                      VkDeviceSize writeBytes) const {
        const uint32_t values[2] = {uint32_t(readBytes / 16), uint32_t(writeBytes / 16)};
        recordWith(cmd, from, 0, readBytes, to, 0, writeBytes, values,
                   std::min<uint32_t>(65535, std::max<uint32_t>(1, (values[1] + 255) / 256)));
    }
    void recordWith(VkCommandBuffer cmd, const Buffer& from, VkDeviceSize fromOffset, VkDeviceSize fromBytes,
                    const Buffer& to, VkDeviceSize toOffset, VkDeviceSize toBytes, const uint32_t* values,
                    uint32_t groups) const {
        VkDescriptorBufferInfo infos[2] = {{from.buffer, fromOffset, fromBytes}, {to.buffer, toOffset, toBytes}};
        VkWriteDescriptorSet w[2] = {};
        for (int i = 0; i < 2; ++i) {
            w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            w[i].dstBinding = uint32_t(i);
            w[i].descriptorCount = 1;
            w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w[i].pBufferInfo = &infos[i];
        }
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        push(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, w);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, values);
        vkCmdDispatch(cmd, groups, 1, 1);
    }
};

// A compute pipeline of `spirv` with one push-descriptor set of `bindings` and `pushBytes` of push
// constants: the bench's own passes (copy, eviction, stream, floor).
void makePushPipeline(const Gpu& g, const VkDescriptorSetLayoutBinding* bindings, uint32_t bindingCount,
                      uint32_t pushBytes, const uint32_t* spirv, size_t spirvBytes, VkDescriptorSetLayout* setLayout,
                      VkPipelineLayout* layout, VkPipeline* pipeline) {
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    li.bindingCount = bindingCount;
    li.pBindings = bindings;
    CHECK_VK(vkCreateDescriptorSetLayout(g.device, &li, nullptr, setLayout));
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
    VkPipelineLayoutCreateInfo pi{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pi.setLayoutCount = 1;
    pi.pSetLayouts = setLayout;
    pi.pushConstantRangeCount = 1;
    pi.pPushConstantRanges = &range;
    CHECK_VK(vkCreatePipelineLayout(g.device, &pi, nullptr, layout));
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = spirvBytes;
    mi.pCode = spirv;
    VkShaderModule module;
    CHECK_VK(vkCreateShaderModule(g.device, &mi, nullptr, &module));
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.layout = *layout;
    CHECK_VK(vkCreateComputePipelines(g.device, VK_NULL_HANDLE, 1, &ci, nullptr, pipeline));
    vkDestroyShaderModule(g.device, module, nullptr);
}

Copier makeCopier(const Gpu& g, const uint32_t* spirv, size_t spirvBytes, uint32_t pushBytes) {
    Copier c;
    c.pushBytes = pushBytes;
    c.push = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(g.device, "vkCmdPushDescriptorSetKHR"));
    VkDescriptorSetLayoutBinding b[2] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
                                         {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    makePushPipeline(g, b, 2, pushBytes, spirv, spirvBytes, &c.setLayout, &c.layout, &c.pipeline);
    return c;
}

// The floor rows' pass (floor.comp): level 0 of a subject through a combined image sampler
// (NEAREST for texelFetch, LINEAR for the bilinear row), one float per subgroup into a storage
// buffer. Absent (pipeline null, `missing` saying why) where the device has no subgroup
// arithmetic in compute shaders or a subgroup size that does not divide the group.
struct FloorReader {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkSampler nearest = VK_NULL_HANDLE, linear = VK_NULL_HANDLE;
    PFN_vkCmdPushDescriptorSetKHR push = nullptr;
    uint32_t slots = 0;  // sums per group: 256 / the subgroup size
    std::string missing;

    static VkExtent2D groups(const Subject& s) { return {(s.width + 31) / 32, (s.height + 31) / 32}; }
    // Bytes of the sums one dispatch over `s` writes.
    VkDeviceSize sumBytes(const Subject& s) const {
        const VkExtent2D n = groups(s);
        return VkDeviceSize(n.width) * n.height * slots * sizeof(float);
    }
    // `mode`: floor.comp's (Method::floorMode); 1 takes the LINEAR sampler.
    void record(VkCommandBuffer cmd, const Subject& s, uint32_t mode, const Buffer& sums) const {
        const bool bilinear = mode == 1u;
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(s.format, &fi);
        const VkDescriptorImageInfo image{bilinear ? linear : nearest, s.level0View, kGeneral};
        const VkDescriptorBufferInfo buffer{sums.buffer, 0, sumBytes(s)};
        VkWriteDescriptorSet w[2] = {};
        for (int i = 0; i < 2; ++i) {
            w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            w[i].dstBinding = uint32_t(i);
            w[i].descriptorCount = 1;
        }
        w[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        w[0].pImageInfo = &image;
        w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[1].pBufferInfo = &buffer;
        const uint32_t values[5] = {mode, s.width, s.height, fi.channels, slots};
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        push(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, w);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof values, values);
        const VkExtent2D n = groups(s);
        vkCmdDispatch(cmd, n.width, n.height, 1);
    }
};

FloorReader makeFloorReader(const Gpu& g) {
    FloorReader f;
    VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sub;
    vkGetPhysicalDeviceProperties2(g.physical, &p2);
    if (!(sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) || !(sub.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT)) {
        f.missing = "no subgroup arithmetic in compute shaders";
        return f;
    }
    if (sub.subgroupSize == 0 || 256 % sub.subgroupSize != 0) {
        f.missing = "subgroup size " + std::to_string(sub.subgroupSize) + " does not divide 256";
        return f;
    }
    f.slots = 256 / sub.subgroupSize;
    f.push = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(g.device, "vkCmdPushDescriptorSetKHR"));
    for (bool bilinear : {false, true}) {
        VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        si.magFilter = si.minFilter = bilinear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
        si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        CHECK_VK(vkCreateSampler(g.device, &si, nullptr, bilinear ? &f.linear : &f.nearest));
    }
    VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    makePushPipeline(g, b, 2, 5 * sizeof(uint32_t), kFloorSpirv, sizeof(kFloorSpirv), &f.setLayout, &f.layout,
                     &f.pipeline);
    return f;
}

struct Runner {
    const Gpu& g;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;

    explicit Runner(const Gpu& gpu) : g(gpu) {
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pci.queueFamilyIndex = g.family;
        CHECK_VK(vkCreateCommandPool(g.device, &pci, nullptr, &pool));
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pool;
        ai.commandBufferCount = 1;
        CHECK_VK(vkAllocateCommandBuffers(g.device, &ai, &cmd));
    }
    VkCommandBuffer begin() {
        CHECK_VK(vkResetCommandBuffer(cmd, 0));
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
        return cmd;
    }
    void submitAndWait() { endSubmitWait(g, cmd); }
};

// Runs fn(begin, end) over [0, count) in contiguous bands, one thread each.
template <class Fn>
void parallelFor(size_t count, const Fn& fn) {
    const size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), count));
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t)
        pool.emplace_back([&, t] { fn(count * t / threads, count * (t + 1) / threads); });
    for (std::thread& th : pool) th.join();
}

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Random level 0 for `format` (UNORM uniform, floats in [0.25, 4), depth in [0, 1]), uploaded into
// the image, or into the depth source where there is one (the image's levels are then left
// undefined, in GENERAL); returns its bytes (a D32 source's are those of R32_SFLOAT texels). Each
// row has its own generator, so rows are made in parallel.
std::vector<uint8_t> fillLevel0(Runner& run, const Subject& s) {
    const VkFormat format = s.source ? s.row->source : s.format;
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const size_t rowBytes = size_t(s.width) * fi.bytesPerTexel, bytes = rowBytes * s.height;
    std::vector<uint8_t> level0(bytes);
    const uint64_t seed = s.width * 7919ull + s.height + uint64_t(format);
    parallelFor(s.height, [&](size_t begin, size_t end) {
        std::vector<double> row(size_t(s.width) * fi.channels);
        const size_t values = size_t(s.width) * fi.channels;
        for (size_t y = begin; y < end; ++y) {
            uint64_t state = seed * 0x100000001B3ull + y;
            uint8_t* out = level0.data() + y * rowBytes;
            // The bench's formats directly (the generic encoder is ~100x slower): random codes,
            // halves with a random exponent in [0.25, 4) and mantissa, floats uniform in [0.25, 4),
            // D32 depth uniform in [0, 1] (what a copy into a D32 image may hold).
            if (fi.depth && fi.encoding == vkspd::ChannelEncoding::Float32) {
                for (size_t i = 0; i < values; ++i) {
                    const float v = float(double(splitmix(state) >> 11) * 0x1.0p-53);
                    std::memcpy(out + 4 * i, &v, 4);
                }
            } else if (fi.encoding == vkspd::ChannelEncoding::Unorm8) {
                for (size_t i = 0; i < values; i += 8) {
                    const uint64_t r = splitmix(state);
                    std::memcpy(out + i, &r, std::min<size_t>(8, values - i));
                }
            } else if (fi.encoding == vkspd::ChannelEncoding::Float16) {
                for (size_t i = 0; i < values; ++i) {
                    const uint64_t r = splitmix(state);
                    const uint16_t half = uint16_t(((13 + (r & 3)) << 10) | ((r >> 2) & 0x3FF));
                    std::memcpy(out + 2 * i, &half, 2);
                }
            } else if (fi.encoding == vkspd::ChannelEncoding::Float32) {
                for (size_t i = 0; i < values; ++i) {
                    const float v = float(0.25 + 3.75 * double(splitmix(state) >> 11) * 0x1.0p-53);
                    std::memcpy(out + 4 * i, &v, 4);
                }
            } else {
                for (double& v : row) v = double(splitmix(state) >> 11) * 0x1.0p-53;
                vkspd::encodeTexels(s.format, row.data(), s.width, out);
            }
        }
    });
    Buffer staging = makeBuffer(run.g, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    std::memcpy(staging.mapped, level0.data(), bytes);
    VkCommandBuffer cmd = run.begin();
    imageBarrier(cmd, s.image, s.levels, VK_IMAGE_LAYOUT_UNDEFINED, kGeneral, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {s.width, s.height, 1};
    if (s.source) {
        // The depth aspect in TRANSFER_DST_OPTIMAL, then left in kSourceState for every dispatch.
        VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = s.source;
        b.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
        b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &b);
        region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
        vkCmdCopyBufferToImage(cmd, staging.buffer, s.source, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        b.oldLayout = b.newLayout;
        b.newLayout = kSourceState.layout;
        b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &b);
    } else {
        vkCmdCopyBufferToImage(cmd, staging.buffer, s.image, kGeneral, 1, &region);
    }
    fullBarrier(cmd);
    run.submitAndWait();
    freeBuffer(run.g, staging);
    return level0;
}

// --- The reference each vkspd method is checked against -------------------------------------

// Level 0 above this many texels is checked at sampled texels only.
const size_t kFullCheckTexels = size_t(4096) * 4096;
const size_t kSamplesPerLevel = 2048;

// Weights over the texels of level `from` of one axis (base extent `base`) that make texel `x` of
// level `to` (docs/FILTER.md, composed level by level): weights[i] belongs to texel first + i.
struct AxisFootprint {
    uint32_t first = 0;
    std::vector<double> weights;
};

AxisFootprint footprint(uint32_t base, uint32_t from, uint32_t to, uint32_t x) {
    AxisFootprint f{x, {1.0}};
    for (uint32_t k = to; k > from; --k) {
        const uint32_t s = vkspd::mipExtent(base, k - 1);
        AxisFootprint up{s == 1 ? 0u : 2 * f.first, std::vector<double>(2 * f.weights.size() + 1, 0.0)};
        for (size_t i = 0; i < f.weights.size(); ++i) {
            const uint32_t g = f.first + uint32_t(i), at = 2 * uint32_t(i);
            if (s == 1) {
                up.weights[0] += f.weights[i];
            } else if ((s & 1) == 0) {
                up.weights[at] += 0.5 * f.weights[i];
                up.weights[at + 1] += 0.5 * f.weights[i];
            } else {
                const double d = double((s - 1) / 2), fs = double(s);
                up.weights[at] += f.weights[i] * (d - g) / fs;
                up.weights[at + 1] += f.weights[i] * d / fs;
                up.weights[at + 2] += f.weights[i] * (g + 1) / fs;
            }
        }
        while (up.weights.size() > 1 && up.weights.back() == 0.0) up.weights.pop_back();
        f = up;
    }
    return f;
}

// decodeTexels for the bench's formats, fast (the generic decoder costs ~100 ns per texel).
void decodeFast(VkFormat format, const uint8_t* src, size_t texels, float* dst) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const size_t values = texels * fi.channels;
    if (fi.encoding == vkspd::ChannelEncoding::Unorm8) {
        for (size_t i = 0; i < values; ++i) dst[i] = float(src[i]) / 255.0f;
    } else if (fi.encoding == vkspd::ChannelEncoding::Float16) {
        for (size_t i = 0; i < values; ++i) {
            uint16_t h;
            std::memcpy(&h, src + 2 * i, 2);
            const uint32_t sign = uint32_t(h >> 15), e = (h >> 10) & 31, m = h & 0x3FF;
            const float v = e == 0 ? std::ldexp(float(m), -24)
                            : e == 31 ? (m ? NAN : INFINITY)
                                      : std::ldexp(float(m | 0x400), int(e) - 25);
            dst[i] = sign ? -v : v;
        }
    } else if (fi.encoding == vkspd::ChannelEncoding::Float32) {
        std::memcpy(dst, src, values * 4);
    } else {
        vkspd::decodeTexels(format, src, texels, dst);
    }
}

// Texels of one level as doubles (linear, unrounded): level 0 from its stored bytes, or a level
// computed in full.
struct LevelSource {
    VkFormat format;
    uint32_t level, width, height, channels;
    const uint8_t* bytes = nullptr;               // level 0: stored texels
    const std::vector<double>* values = nullptr;  // else: width * height * channels

    // `count` texels of row y from column x into `out`.
    void row(uint32_t x, uint32_t y, uint32_t count, std::vector<double>& out, std::vector<float>& scratch) const {
        out.resize(size_t(count) * channels);
        if (values) {
            std::copy_n(values->begin() + (size_t(y) * width + x) * channels, out.size(), out.begin());
            return;
        }
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(format, &fi);
        scratch.resize(out.size());
        decodeFast(format, bytes + (size_t(y) * width + x) * fi.bytesPerTexel, count, scratch.data());
        std::copy(scratch.begin(), scratch.end(), out.begin());
    }
};

// How a footprint's texels make channel c of a value (docs/FILTER.md): their weighted sum
// (Average), or the minimum or maximum over those with a non-zero weight (Min, Max; MinMax: R the
// minimum, G the maximum). A texel of the composed footprint has a non-zero weight exactly where
// the level-by-level extreme reaches it. (The custom row's reduction is Average: it averages.)
struct Accumulator {
    vkspd::Reduction reduction;
    explicit Accumulator(vkspd::Reduction r) : reduction(r) {}
    bool minimum(uint32_t c) const {
        return reduction == vkspd::Reduction::Min || (reduction == vkspd::Reduction::MinMax && c == 0);
    }
    double start(uint32_t c) const {
        if (reduction == vkspd::Reduction::Average) return 0.0;
        return minimum(c) ? double(INFINITY) : -double(INFINITY);
    }
    void add(double& acc, double weight, double value, uint32_t c) const {
        if (reduction == vkspd::Reduction::Average) acc += weight * value;
        else if (weight != 0.0) acc = minimum(c) ? std::min(acc, value) : std::max(acc, value);
    }
};

// The exact texel (x, y) of level `to` of a w x h base, from `src` (a level above it, or level 0
// itself where `to` is 0).
void exactTexel(const LevelSource& src, uint32_t w, uint32_t h, uint32_t to, uint32_t x, uint32_t y,
                const Accumulator& acc, double* out, std::vector<double>& row, std::vector<float>& scratch) {
    const AxisFootprint fx = footprint(w, src.level, to, x), fy = footprint(h, src.level, to, y);
    for (uint32_t c = 0; c < src.channels; ++c) out[c] = acc.start(c);
    for (size_t j = 0; j < fy.weights.size(); ++j) {
        src.row(fx.first, fy.first + uint32_t(j), uint32_t(fx.weights.size()), row, scratch);
        for (size_t i = 0; i < fx.weights.size(); ++i)
            for (uint32_t c = 0; c < src.channels; ++c) acc.add(out[c], fy.weights[j] * fx.weights[i], row[i * src.channels + c], c);
    }
}

// Every texel of level `to` from level 0 in one pass over it (rows in parallel): each row of the
// level reduces its weighted rows of level 0, then reduces that row across.
std::vector<double> exactLevel(const LevelSource& level0, uint32_t to, const Accumulator& acc) {
    const uint32_t w = level0.width, h = level0.height, ch = level0.channels;
    const uint32_t tw = vkspd::mipExtent(w, to), th = vkspd::mipExtent(h, to);
    std::vector<AxisFootprint> fxs(tw);
    for (uint32_t x = 0; x < tw; ++x) fxs[x] = footprint(w, 0, to, x);
    std::vector<double> out(size_t(tw) * th * ch);
    for (size_t i = 0; i < out.size(); ++i) out[i] = acc.start(uint32_t(i % ch));
    parallelFor(th, [&](size_t begin, size_t end) {
        std::vector<double> sum(size_t(w) * ch), row;
        std::vector<float> scratch;
        for (size_t y = begin; y < end; ++y) {
            for (size_t i = 0; i < sum.size(); ++i) sum[i] = acc.start(uint32_t(i % ch));
            const AxisFootprint fy = footprint(h, 0, to, uint32_t(y));
            for (size_t j = 0; j < fy.weights.size(); ++j) {
                level0.row(0, fy.first + uint32_t(j), w, row, scratch);
                for (size_t i = 0; i < sum.size(); ++i) acc.add(sum[i], fy.weights[j], row[i], uint32_t(i % ch));
            }
            for (uint32_t x = 0; x < tw; ++x)
                for (size_t i = 0; i < fxs[x].weights.size(); ++i)
                    for (uint32_t c = 0; c < ch; ++c)
                        acc.add(out[(y * tw + x) * ch + c], fxs[x].weights[i], sum[(fxs[x].first + i) * ch + c], c);
        }
    });
    return out;
}

// The first level a method writes and its check compares: 1, or 0 where the library copies the
// base level from a depth source.
uint32_t firstWritten(const Subject& s) { return s.source ? 0 : 1; }

// What every vkspd method of one subject is compared with.
struct Check {
    bool sampled = false;
    std::vector<vkspd::ReferenceLevel> exact;      // full: level l; sampled: level l's samples in a row
    std::vector<vkspd::ReferenceLevel> rounded;    // full only: rounded level by level (per level)
    std::vector<std::vector<VkOffset2D>> samples;  // sampled: positions per level
};

// The sampled check: per level written up to kSamplesPerLevel texels (every texel of smaller
// levels): the four corners, texels of the last column and row, the rest random. Their exact values
// come from level 0 directly while the footprint is small, below that from the first level of at
// most 1M texels, computed in full in one pass over level 0.
Check sampledCheck(const Subject& s, const std::vector<uint8_t>& level0) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(s.format, &fi);
    const Accumulator acc(s.row->reduction);
    Check check;
    check.sampled = true;
    check.exact.resize(s.levels);
    check.samples.resize(s.levels);
    const LevelSource l0{s.format, 0, s.width, s.height, fi.channels, level0.data(), nullptr};
    uint32_t m = 0;
    while (m + 1 < s.levels && size_t(vkspd::mipExtent(s.width, m)) * vkspd::mipExtent(s.height, m) > (1u << 20)) ++m;
    const std::vector<double> mid = exactLevel(l0, m, acc);
    const LevelSource lm{s.format, m, vkspd::mipExtent(s.width, m), vkspd::mipExtent(s.height, m), fi.channels, nullptr, &mid};
    std::mt19937 rng(s.width * 31 + s.height);
    for (uint32_t l = firstWritten(s); l < s.levels; ++l) {
        const uint32_t w = vkspd::mipExtent(s.width, l), h = vkspd::mipExtent(s.height, l);
        std::vector<VkOffset2D>& pos = check.samples[l];
        if (size_t(w) * h <= kSamplesPerLevel) {
            for (uint32_t y = 0; y < h; ++y)
                for (uint32_t x = 0; x < w; ++x) pos.push_back({int32_t(x), int32_t(y)});
        } else {
            pos = {{0, 0}, {int32_t(w - 1), 0}, {0, int32_t(h - 1)}, {int32_t(w - 1), int32_t(h - 1)}};
            for (uint32_t i = 0; i < 64; ++i) {
                pos.push_back({int32_t(w - 1), int32_t(rng() % h)});
                pos.push_back({int32_t(rng() % w), int32_t(h - 1)});
            }
            while (pos.size() < kSamplesPerLevel) pos.push_back({int32_t(rng() % w), int32_t(rng() % h)});
        }
        vkspd::ReferenceLevel& ref = check.exact[l];
        ref.width = uint32_t(pos.size());
        ref.height = 1;
        ref.channels = fi.channels;
        ref.texels.resize(pos.size() * fi.channels);
        const LevelSource& src = l <= m ? l0 : lm;
        parallelFor(pos.size(), [&](size_t begin, size_t end) {
            std::vector<double> row;
            std::vector<float> scratch;
            for (size_t i = begin; i < end; ++i)
                exactTexel(src, s.width, s.height, l, uint32_t(pos[i].x), uint32_t(pos[i].y), acc,
                           &ref.texels[i * fi.channels], row, scratch);
        });
    }
    return check;
}

// The full check: every texel of every level, exact and rounded level by level.
Check fullCheck(const Subject& s, const std::vector<uint8_t>& level0) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(s.format, &fi);
    const uint32_t w = s.width, h = s.height;
    std::vector<float> texels(size_t(w) * h * fi.channels);
    parallelFor(h, [&](size_t begin, size_t end) {
        decodeFast(s.format, level0.data() + begin * w * fi.bytesPerTexel, (end - begin) * w,
                   texels.data() + begin * w * fi.channels);
    });
    Check check;
    vkspd::ReferenceOptions options;
    options.reduction = s.row->reduction;
    check.exact = vkspd::referenceChain(texels.data(), w, h, fi.channels, s.levels, options);
    texels = std::vector<float>();
    // One dispatch per level (timed on Average chains only) stores (rounds) every level before the
    // next reads it: its reference rounds each level to the format too. Above 1M texels (the
    // generic encoder is slow) that method is compared with the exact chain instead, as with
    // sampled texels.
    if (options.reduction != vkspd::Reduction::Average || size_t(w) * h > (1u << 20)) return check;
    check.rounded.push_back(check.exact[0]);
    for (uint32_t l = 1; l < s.levels; ++l) {
        const vkspd::ReferenceLevel& above = check.rounded.back();
        std::vector<uint8_t> bytes(size_t(above.width) * above.height * fi.bytesPerTexel);
        vkspd::encodeTexels(s.format, above.texels.data(), size_t(above.width) * above.height, bytes.data());
        std::vector<float> decoded(above.texels.size());
        vkspd::decodeTexels(s.format, bytes.data(), size_t(above.width) * above.height, decoded.data());
        check.rounded.push_back(vkspd::referenceChain(decoded.data(), above.width, above.height, fi.channels, 2)[1]);
    }
    return check;
}

// compareLevel over bands of rows in parallel (its worst and over-tolerance count; the texel index
// is not kept).
vkspd::LevelError compareParallel(VkFormat format, const uint8_t* gpu, const vkspd::ReferenceLevel& ref, double tol) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(format, &fi);
    const size_t bands = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), ref.height));
    std::vector<vkspd::LevelError> errors(bands);
    parallelFor(bands, [&](size_t begin, size_t end) {
        for (size_t b = begin; b < end; ++b) {
            const size_t y0 = ref.height * b / bands, y1 = ref.height * (b + 1) / bands, row = size_t(ref.width) * ref.channels;
            vkspd::ReferenceLevel part{ref.width, uint32_t(y1 - y0), ref.channels,
                                       std::vector<double>(ref.texels.begin() + y0 * row, ref.texels.begin() + y1 * row)};
            errors[b] = vkspd::compareLevel(format, gpu + y0 * ref.width * fi.bytesPerTexel, part, tol);
        }
    });
    vkspd::LevelError total;
    for (const vkspd::LevelError& e : errors) {
        total.worst = std::max(total.worst, e.worst);
        total.overTolerance += e.overTolerance;
    }
    return total;
}

// Runs the method once and compares its levels with the check (every texel, or the samples);
// returns whether all are within tolerance, and the worst error.
bool verify(Runner& run, vkspd::Context context, const Subject& s, const Method& m, const Check& check,
            double* worst) {
    vkspd::DispatchDescription d;  // which path the library runs decides the tolerance
    if (!vkspd::describeDispatch(context, infoFor(s, m), &d).ok()) return false;
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(s.format, &fi);
    VkDeviceSize total = 0;
    std::vector<VkDeviceSize> offsets(s.levels, 0);
    std::vector<std::vector<VkBufferImageCopy>> regions(s.levels);
    const uint32_t first = firstWritten(s);
    for (uint32_t l = first; l < s.levels; ++l) {
        offsets[l] = total;
        if (check.sampled) {
            for (const VkOffset2D& p : check.samples[l]) {
                VkBufferImageCopy r{};
                r.bufferOffset = total;
                r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
                r.imageOffset = {p.x, p.y, 0};
                r.imageExtent = {1, 1, 1};
                regions[l].push_back(r);
                total += fi.bytesPerTexel;
            }
        } else {
            VkBufferImageCopy r{};
            r.bufferOffset = total;
            r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
            r.imageExtent = {vkspd::mipExtent(s.width, l), vkspd::mipExtent(s.height, l), 1};
            regions[l].push_back(r);
            total += VkDeviceSize(r.imageExtent.width) * r.imageExtent.height * fi.bytesPerTexel;
        }
        total = (total + 15) & ~15ull;
    }
    Buffer readback = makeBuffer(run.g, std::max<VkDeviceSize>(total, 16), VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    VkCommandBuffer cmd = run.begin();
    // Every level the method writes is poisoned first (clamped to 0 or 1 in normalized formats,
    // huge in float ones), so a level the method does not write fails here instead of passing on
    // what the previous method wrote into the same image.
    const VkClearColorValue poison{{-12345.0f, 12345.0f, -12345.0f, 12345.0f}};
    const VkImageSubresourceRange written{VK_IMAGE_ASPECT_COLOR_BIT, first, s.levels - first, 0, 1};
    if (s.levels > first) vkCmdClearColorImage(cmd, s.image, kGeneral, &poison, 1, &written);
    fullBarrier(cmd);
    bool ok = recordVkspd(context, cmd, s, m);
    fullBarrier(cmd);
    for (uint32_t l = first; l < s.levels; ++l)
        vkCmdCopyImageToBuffer(cmd, s.image, kGeneral, readback.buffer, uint32_t(regions[l].size()), regions[l].data());
    fullBarrier(cmd);
    run.submitAndWait();
    // Min (and the base level's copy of a depth source) is bit-exact (docs/FILTER.md).
    double tol = s.row->reduction == vkspd::Reduction::Average ? vkspd::toleranceFor(s.format, d.fp16) : 0.0;
    // One dispatch per level rounds every level; 2x2 averages of 8-bit or half values often land
    // exactly halfway between two codes, and a GPU may break those ties otherwise than the CPU,
    // so the difference can grow by one unit per level (an H200 differed by 2-5 ulp). Sampled,
    // it is compared with the exact chain: each level's rounding adds at most half a unit more.
    if (m.kind == Method::PerLevel) tol *= double(s.levels - 1);
    const std::vector<vkspd::ReferenceLevel>& ref =
        m.kind == Method::PerLevel && !check.rounded.empty() ? check.rounded : check.exact;
    *worst = 0;
    for (uint32_t l = first; ok && l < s.levels; ++l) {
        const vkspd::LevelError e =
            compareParallel(s.format, static_cast<uint8_t*>(readback.mapped) + offsets[l], ref[l], tol);
        *worst = std::max(*worst, e.worst);
        ok = e.overTolerance == 0;
    }
    freeBuffer(run.g, readback);
    return ok;
}

// The value the stream row's source buffer is filled with.
const uint32_t kStreamFill = 0x9e3779b9u;

// Zeroes `out`, runs what `record` records, and returns the first `bytes` of `out` in a mapped
// host buffer (the caller frees it): one check of a pass of the bench's own before timing.
template <typename Record>
Buffer runAndRead(Runner& run, const Buffer& out, VkDeviceSize bytes, Record record) {
    Buffer readback = makeBuffer(run.g, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    VkCommandBuffer cmd = run.begin();
    vkCmdFillBuffer(cmd, out.buffer, 0, VK_WHOLE_SIZE, 0);
    fullBarrier(cmd);
    record(cmd);
    fullBarrier(cmd);
    const VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cmd, out.buffer, readback.buffer, 1, &region);
    fullBarrier(cmd);
    run.submitAndWait();
    return readback;
}

// The stream row of `s` once, before timing (`from` filled with kStreamFill): every output element
// is its index XOR the fill value once per source element it reads, so a kernel that skipped or
// repeated reads fails here.
bool verifyStream(Runner& run, const Copier& streamer, const Buffer& from, const Buffer& to, const Subject& s) {
    const auto [readBytes, writeBytes] = streamBytes(s);
    Buffer readback = runAndRead(run, to, writeBytes, [&](VkCommandBuffer cmd) {
        streamer.recordStream(cmd, from, readBytes, to, writeBytes);
    });
    const uint32_t* out = static_cast<const uint32_t*>(readback.mapped);
    const VkDeviceSize reads = readBytes / 16, writes = writeBytes / 16;
    bool ok = true;
    for (VkDeviceSize o = 0; o < writes && ok; ++o) {
        const VkDeviceSize count = reads > o ? (reads - o + writes - 1) / writes : 0;
        const uint32_t want = uint32_t(o) ^ (count % 2 ? kStreamFill : 0u);
        for (int c = 0; c < 4; ++c) ok = ok && out[4 * o + c] == want;
    }
    freeBuffer(run.g, readback);
    return ok;
}

// The sum of every channel of level 0 as uploaded (`level0`: its bytes), rows in parallel.
double level0ChannelSum(const Subject& s, const std::vector<uint8_t>& level0) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(s.format, &fi);
    const size_t bands = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), s.height));
    std::vector<double> sums(bands, 0.0);
    parallelFor(bands, [&](size_t begin, size_t end) {
        std::vector<float> row(size_t(s.width) * fi.channels);
        for (size_t b = begin; b < end; ++b)
            for (size_t y = s.height * b / bands; y < s.height * (b + 1) / bands; ++y) {
                decodeFast(s.format, level0.data() + y * s.width * fi.bytesPerTexel, s.width, row.data());
                for (float v : row) sums[b] += double(v);
            }
    });
    double total = 0;
    for (double v : sums) total += v;
    return total;
}

// A floor row of `s` once, before timing: the sums it writes (`sums` zeroed first) must add up to
// level 0's channels (Subject::level0Sum) within 1e-3 (fetch and gather: float sums of the exact
// texels) or 2e-2 (linear: the filter's weights may be rounded, to 1/256 on some GPUs), so a pass
// that skips or repeats blocks fails here. `*error` gets the relative difference.
bool verifyFloor(Runner& run, const FloorReader& reader, const Buffer& sums, const Subject& s, const Method& m,
                 double* error) {
    const VkDeviceSize bytes = reader.sumBytes(s);
    Buffer readback =
        runAndRead(run, sums, bytes, [&](VkCommandBuffer cmd) { reader.record(cmd, s, m.floorMode(), sums); });
    const float* out = static_cast<const float*>(readback.mapped);
    double total = 0;
    for (VkDeviceSize i = 0; i < bytes / sizeof(float); ++i) total += double(out[i]);
    freeBuffer(run.g, readback);
    *error = std::fabs(total - s.level0Sum) / std::max(std::fabs(s.level0Sum), 1e-30);
    return *error <= (m.kind == Method::FloorLinear ? 2e-2 : 1e-3);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, ',')) if (!part.empty()) out.push_back(part);
    return out;
}

// A row's name in the report, bench.csv, bench.json and the SVG file's name.
std::string rowName(const FormatChoice& c) {
    if (c.name) return c.name;
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(c.format, &fi);
    return fi.name;
}

// A line plot of % of the copy floor against size, one line per method.
bool writeSvg(const std::string& path, const std::string& title, const std::vector<std::string>& sizes,
              const std::vector<std::pair<std::string, std::vector<double>>>& lines) {
    const int w = 900, h = 460, left = 60, right = 200, top = 40, bottom = 70;
    const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                             "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39"};
    std::ofstream f(path);
    f << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h << "' font-family='sans-serif' font-size='12'>\n";
    f << "<rect width='100%' height='100%' fill='white'/>\n<text x='" << left << "' y='24' font-size='15'>" << title << "</text>\n";
    const double plotW = w - left - right, plotH = h - top - bottom;
    auto x = [&](size_t i) { return left + (sizes.size() > 1 ? plotW * double(i) / double(sizes.size() - 1) : plotW / 2); };
    auto y = [&](double pct) { return top + plotH * (1.0 - std::min(pct, 100.0) / 100.0); };
    for (int p = 0; p <= 100; p += 20) {
        f << "<line x1='" << left << "' x2='" << left + plotW << "' y1='" << y(p) << "' y2='" << y(p) << "' stroke='#ddd'/>";
        f << "<text x='" << left - 8 << "' y='" << y(p) + 4 << "' text-anchor='end'>" << p << "%</text>\n";
    }
    for (size_t i = 0; i < sizes.size(); ++i)
        f << "<text x='" << x(i) << "' y='" << h - bottom + 18 << "' text-anchor='end' transform='rotate(-35 " << x(i) << ' ' << h - bottom + 18 << ")'>" << sizes[i] << "</text>\n";
    f << "<text x='14' y='" << top + plotH / 2 << "' transform='rotate(-90 14 " << top + plotH / 2 << ")' text-anchor='middle'>% of compute-copy floor</text>\n";
    for (size_t m = 0; m < lines.size(); ++m) {
        const char* c = colours[m % 14];
        f << "<polyline fill='none' stroke='" << c << "' stroke-width='2' points='";
        for (size_t i = 0; i < lines[m].second.size(); ++i) f << x(i) << ',' << y(lines[m].second[i]) << ' ';
        f << "'/>\n";
        f << "<line x1='" << w - right + 16 << "' x2='" << w - right + 40 << "' y1='" << top + 18 * m + 6 << "' y2='" << top + 18 * m + 6 << "' stroke='" << c << "' stroke-width='3'/>";
        f << "<text x='" << w - right + 46 << "' y='" << top + 18 * m + 10 << "'>" << lines[m].first << "</text>\n";
    }
    f << "</svg>\n";
    f.close();
    return bool(f);
}

// The command line (see kUsageText).
struct Args {
    int deviceIndex = -1;
    uint32_t reps = 30, copyMib = 1024, evictMib = 256;
    std::string sizesArg, formatsArg = "rgba8,rgba16f,r32f,rgba32f,d32-min", outDir, methodsArg, colsArg = "1,2,4,8,16";
    std::string tilesArg = "1,2,4,8,16";
    uint32_t levelsBelow = 64;
    bool sampledOnly = false;
    bool skipDenormPreserve = false;
    bool evictByCopy = false;
    bool submitPerSize = false;  // --submit size: each size's items in a submission of their own
};

// Option `arg`'s value `v`, one of two: 0 for `first`, 1 for `second`; else -1, the error printed.
int twoValued(const std::string& arg, const std::string& v, const char* first, const char* second) {
    if (v == first) return 0;
    if (v == second) return 1;
    std::fprintf(stderr, "vkspd-bench: %s %s: expected %s or %s (see --help)\n", arg.c_str(), v.c_str(), first, second);
    return -1;
}

// Parses argv into `a` (--tail into gTail). Returns -1 to go on, else the exit code: 0 after
// --help, 2 for a bad argument (its message printed).
int parseArgs(int argc, char** argv, Args* args) {
    Args& a = *args;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "vkspd-bench: %s needs a value (see --help)\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "-h" || arg == "--help") {
            std::fputs(kUsageText, stdout);
            return 0;
        } else if (arg == "--device") a.deviceIndex = std::atoi(value().c_str());
        else if (arg == "--reps") a.reps = uint32_t(std::max(1, std::atoi(value().c_str())));
        else if (arg == "--sizes") a.sizesArg = value();
        else if (arg == "--formats") a.formatsArg = value();
        else if (arg == "--copy-mib") a.copyMib = uint32_t(std::max(1, std::atoi(value().c_str())));
        else if (arg == "--evict-mib") a.evictMib = uint32_t(std::max(1, std::atoi(value().c_str())));
        else if (arg == "--evict") {
            const int c = twoValued(arg, value(), "read", "copy");
            if (c < 0) return 2;
            a.evictByCopy = c == 1;
        }
        else if (arg == "--submit") {
            const int c = twoValued(arg, value(), "repetition", "size");
            if (c < 0) return 2;
            a.submitPerSize = c == 1;
        }
        else if (arg == "--out") a.outDir = value();
        else if (arg == "--methods") a.methodsArg = value();
        else if (arg == "--sampled") a.sampledOnly = true;
        else if (arg == "--cols") a.colsArg = value();
        else if (arg == "--tiles") a.tilesArg = value();
        else if (arg == "--tail") {
            const std::string t = value();
            unsigned tiles = 0, per = 0;
            char end = 0;
            if (std::sscanf(t.c_str(), "%u/%u%c", &tiles, &per, &end) != 2 || per < 1 || per > vkspd::kMaxTilesPerGroup || (per & (per - 1)) != 0) {
                std::fprintf(stderr, "vkspd-bench: --tail: %s is not TILES/PER with PER a power of two from 1 to %u\n", t.c_str(),
                             vkspd::kMaxTilesPerGroup);
                return 2;
            }
            gTail = {tiles, per};
        }
        else if (arg == "--levels") a.levelsBelow = uint32_t(std::max(1, std::atoi(value().c_str())));
        else if (arg == "--no-denorm-preserve") a.skipDenormPreserve = true;
        else {
            std::fprintf(stderr, "vkspd-bench: unknown option %s (see --help)\n", arg.c_str());
            return 2;
        }
    }
    return -1;
}

// The lists of the command line, checked; sizes beyond the device's limit are skipped (said so).
struct Lists {
    std::vector<std::pair<uint32_t, uint32_t>> sizes;
    std::vector<uint32_t> columns, tileCounts;
    std::vector<const FormatChoice*> formats;  // into kFormats
};

// Returns -1 to go on, else 2 (its message printed).
int parseLists(const Args& a, const Gpu& g, Lists* lists) {
    const std::string defaultSizes =
        "1000x600,1920x1080,2560x1440,3840x2160,2047x2047,2048x2048,4095x4095,4096x4096,8191x8191,8192x8192,16384x16384";
    for (const std::string& s : split(a.sizesArg.empty() ? defaultSizes : a.sizesArg)) {
        uint32_t w = 0, h = 0;
        if (std::sscanf(s.c_str(), "%ux%u", &w, &h) != 2 || !w || !h) {
            std::fprintf(stderr, "vkspd-bench: --sizes: %s is not WxH\n", s.c_str());
            return 2;
        }
        if (w > g.properties.limits.maxImageDimension2D || h > g.properties.limits.maxImageDimension2D) {
            std::printf("skipping %ux%u: beyond maxImageDimension2D %u\n", w, h, g.properties.limits.maxImageDimension2D);
            continue;
        }
        lists->sizes.push_back({w, h});
    }
    for (const std::string& c : split(a.colsArg == "none" ? std::string() : a.colsArg)) {
        const int n = std::atoi(c.c_str());
        if (n < 1) {
            std::fprintf(stderr, "vkspd-bench: --cols: %s is not a strip width (1 or more tiles)\n", c.c_str());
            return 2;
        }
        lists->columns.push_back(uint32_t(n));
    }
    for (const std::string& c : split(a.tilesArg == "none" ? std::string() : a.tilesArg)) {
        const int n = std::atoi(c.c_str());
        if (n < 1 || n > int(vkspd::kMaxTilesPerGroup) || (n & (n - 1)) != 0) {
            std::fprintf(stderr, "vkspd-bench: --tiles: %s is not a power of two from 1 to %u\n", c.c_str(),
                         vkspd::kMaxTilesPerGroup);
            return 2;
        }
        lists->tileCounts.push_back(uint32_t(n));
    }
    for (const std::string& f : split(a.formatsArg)) {
        auto it = std::find_if(std::begin(kFormats), std::end(kFormats), [&](const FormatChoice& c) { return f == c.key; });
        if (it == std::end(kFormats)) {
            std::string known;
            for (const FormatChoice& c : kFormats) known += std::string(known.empty() ? "" : ", ") + c.key;
            std::fprintf(stderr, "vkspd-bench: --formats: unknown %s (%s)\n", f.c_str(), known.c_str());
            return 2;
        }
        lists->formats.push_back(&*it);
    }
    return -1;
}

// Occupancy of each variant of the reductions --formats names, from a device of its own with
// VK_KHR_pipeline_executable_properties enabled where present, closed before anything is timed:
// the timed device and its pipelines are created exactly as without it.
std::vector<vkspd::OccupancyRecord> queryOccupancyAlone(const Args& a) {
    std::vector<vkspd::OccupancyRecord> occupancy;
    Gpu sg = openGpu(a.deviceIndex, true);
    vkspd::Context sc = createContext(sg);
    vkspd::OccupancyQueryInfo q;
    q.pipelineExecutableInfoEnabled = sg.pipelineStatistics;
    for (const std::string& key : split(a.formatsArg))  // unknown keys are refused later (parseLists)
        for (const FormatChoice& c : kFormats)
            if (key == c.key && std::find(q.reductions.begin(), q.reductions.end(), c.reduction) == q.reductions.end())
                q.reductions.push_back(c.reduction);
    // The plain-chain and halo-stage kernels are made per fetch (OccupancyRecord::linearFetch),
    // the halo-stage kernel per channel count as well (OccupancyRecord::channels): the rows' counts.
    // The halo-stage kernel per value range too (OccupancyRecord::normalizedValues): the counts
    // of the rows whose format has that flavour.
    std::vector<uint32_t> counts, normalizedCounts;
    for (const std::string& key : split(a.formatsArg))
        for (const FormatChoice& c : kFormats) {
            if (key != c.key) continue;
            if (std::find(counts.begin(), counts.end(), rowChannels(c)) == counts.end())
                counts.push_back(rowChannels(c));
            if (rowNormalized(c) &&
                std::find(normalizedCounts.begin(), normalizedCounts.end(), rowChannels(c)) == normalizedCounts.end())
                normalizedCounts.push_back(rowChannels(c));
        }
    if (vkspd::Result r = queryEveryFlavour(sc, q, counts, &occupancy, normalizedCounts); !r.ok())
        std::fprintf(stderr, "vkspd-bench: occupancy: %s\n", r.message.c_str());
    vkspd::destroyContext(sc);
    closeGpu(sg);
    return occupancy;
}

// The timed device and what the run keeps on it.
struct Bench {
    Gpu g;
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    vkspd::Context context = nullptr;
    std::vector<vkspd::OccupancyRecord> occupancy;
    Copier copier, evicter, streamer;
    FloorReader floorReader;

    // 16-bit float formats get the FP16 variant with half denormals preserved where the device
    // can (a record of its own); 8-bit formats the one without. Each row's reduction has its own.
    const vkspd::OccupancyRecord* occupancyOf(const Method& m, const FormatChoice& row) const {
        if (m.kind != Method::SinglePass || row.custom) return nullptr;  // records of built-in reductions only
        const bool fp16 = m.precision == vkspd::Precision::FP16 || (m.precision == vkspd::Precision::Auto && m.chosenFp16);
        const bool quad = m.path == vkspd::SubgroupPath::Quad || (m.path == vkspd::SubgroupPath::Auto && m.chosenQuad);
        // The library's rules: which flavour a format gets, and whether it is a module of its own.
        const bool half = fp16 && vkspd::usesHalfDenormalFlavour(context, row.format);
        const bool plain = m.tuning.kernel == vkspd::Kernel::PlainChain ||
                           (m.tuning.kernel == vkspd::Kernel::Auto && m.chosenPlain);
        const bool halo = m.tuning.kernel == vkspd::Kernel::HaloStages ||
                          (m.tuning.kernel == vkspd::Kernel::Auto && m.chosenHalo);
        const bool sums = m.tuning.kernel == vkspd::Kernel::SummedLevels ||
                          (m.tuning.kernel == vkspd::Kernel::Auto && m.chosenSums);
        const bool linear = m.fetch == vkspd::Fetch::LinearSampler || (m.fetch == vkspd::Fetch::Auto && m.chosenLinear);
        const bool gather = m.fetch == vkspd::Fetch::Gather || (m.fetch == vkspd::Fetch::Auto && m.chosenGather);
        for (const vkspd::OccupancyRecord& r : occupancy)
            if (r.reduction == row.reduction && r.fp16 == fp16 && r.quad == quad && r.halfDenormals == half &&
                r.plainChain == plain && r.haloStages == halo && r.summedLevels == sums &&
                (!halo || r.channels == rowChannels(row)) &&
                (!(plain || halo || sums) || (r.linearFetch == linear && r.gatherFetch == gather)) &&
                (!halo || (r.oddBase == m.oddBase && r.normalizedValues == rowNormalized(row))))
                return &r;
        return nullptr;
    }
    std::string occupancyText(const Method& m, const FormatChoice& row) const {
        const vkspd::OccupancyRecord* r = occupancyOf(m, row);
        if (!r || r->source == vkspd::OccupancySource::NotAvailable) return "n/a";
        char text[64];
        std::snprintf(text, sizeof text, "%.0f%% %ug %s%s", 100.0 * r->occupancy.occupancy, r->occupancy.groupsPerSm,
                      vkspd::limiterName(r->occupancy.limiter),
                      r->source == vkspd::OccupancySource::Computed ? " (computed)" : "");
        return text;
    }
};

// Opens the timed device with its context and compute passes. Returns -1 to go on, else the exit
// code (its message printed).
int openBench(const Args& a, Bench* b) {
    b->g = openGpu(a.deviceIndex);
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &b->driver;
    vkGetPhysicalDeviceProperties2(b->g.physical, &p2);
    vkspd::ContextCreateInfo ci = contextInfoFor(b->g);
    vkspd::ContextTuning tuning;
    tuning.skipDenormPreserve = a.skipDenormPreserve;
    ci.tuning = &tuning;
    if (vkspd::Result r = vkspd::createContext(ci, &b->context); !r.ok()) {
        std::fprintf(stderr, "vkspd-bench: %s\n", r.message.c_str());
        return kGpuExitCode;
    }
    b->copier = makeCopier(b->g, kCopySpirv, sizeof(kCopySpirv), 4);
    b->evicter = a.evictByCopy ? b->copier : makeCopier(b->g, kEvictSpirv, sizeof(kEvictSpirv), 32);
    b->streamer = makeCopier(b->g, kStreamSpirv, sizeof(kStreamSpirv), 8);
    b->floorReader = makeFloorReader(b->g);
    return -1;
}

// The methods timed on `s`: blit chain, one dispatch per level, the stream row, the general
// kernel's variants, vkspd default, the tuning options and the plain-chain kernel; each where the
// library accepts it for `s` (no FP16 for 32-bit formats, no linear fetch or plain-chain kernel for
// a depth pyramid's Min).
std::vector<Method> methodsFor(const Bench& b, const Lists& lists, const Subject& s, const vkspd::FormatInfo& fi) {
    const Gpu& g = b.g;
    const vkspd::Context context = b.context;
    std::vector<Method> methods;
    // The blit chain filters linearly, and one dispatch per level would read a base level that
    // only the single pass copies from a source: both make Average chains of the image only.
    if (s.row->reduction == vkspd::Reduction::Average && !s.source)
        methods = {{"blit chain", Method::Blit}, {"dispatch per level", Method::PerLevel, vkspd::Precision::FP32}};
    // A chain's bytes through one plain streaming dispatch, where one storage buffer
    // descriptor holds its level 0.
    if (streamBytes(s).first <= g.properties.limits.maxStorageBufferRange)
        methods.push_back({"stream (chain bytes)", Method::Stream});
    // Level 0 through the texture path (floor.comp), where it is the image's own (not a depth
    // source's); the bilinear row where the format can be filtered linearly.
    if (b.floorReader.pipeline && !s.source) {
        methods.push_back({"floor fetch", Method::FloorFetch});
        methods.push_back({"floor gather", Method::FloorGather});
        VkFormatProperties fp;
        vkGetPhysicalDeviceFormatProperties(g.physical, s.format, &fp);
        if (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)
            methods.push_back({"floor linear", Method::FloorLinear});
    }
    for (bool fp16 : {true, false}) {
        if (fp16 && (!fi.fp16Capable || !g.fp16 || s.row->custom)) continue;
        for (bool quad : {true, false}) {
            Method m{std::string("vkspd ") + (fp16 ? "fp16" : "fp32") + (quad ? " quad" : " lds"), Method::SinglePass,
                     fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32,
                     quad ? vkspd::SubgroupPath::Quad : vkspd::SubgroupPath::LdsOnly};
            methods.push_back(m);
        }
    }
    // What generateMips does with every option left at Auto (the library's pick per vendor), and
    // the same on the LDS-only path ("vkspd lds": a device without quad operations).
    auto autoMethod = [&](const char* name, vkspd::SubgroupPath path) {
        Method def{name, Method::SinglePass};
        def.path = path;
        def.fetch = vkspd::Fetch::Auto;
        def.tuning.kernel = vkspd::Kernel::Auto;
        vkspd::DispatchDescription d;
        vkspd::ScheduleDescription sd;
        if (vkspd::describeDispatch(context, infoFor(s, def), &d).ok() &&
            vkspd::describeSchedule(context, infoFor(s, def), &sd).ok()) {
            def.chosenFp16 = d.fp16;
            def.chosenQuad = d.quad;
            def.chosenPlain = sd.plainChain;
            def.chosenHalo = sd.haloStages;
            def.chosenSums = sd.summedLevels;
            def.chosenLinear = d.linearFetch;
            def.chosenGather = d.gatherFetch;
            def.oddBase = sd.haloStages && sd.oddBaseStage;
            def.name += std::string(" (") +
                        (sd.plainChain ? "plain " : sd.haloStages ? "halo " : sd.summedLevels ? "summed " : "") +
                        (d.fp16 ? "fp16" : "fp32") +
                        (d.quad ? " quad" : " lds") + (d.linearFetch ? " linear" : "") +
                        (d.gatherFetch ? " gather" : "") +
                        (sd.plainChain || sd.summedLevels || (sd.haloStages && !sd.oddBaseStage)
                             ? " tiles " + std::to_string(sd.tilesPerGroup)
                             : "") +
                        (sd.oddBaseStage ? " odd base" : "") +
                        (sd.plainChain && sd.tailTilesPerGroup != sd.tilesPerGroup
                             ? " tail " + std::to_string(sd.tailTilesPerGroup)
                             : "") +
                        ")";
        }
        methods.push_back(def);
    };
    autoMethod("vkspd default", vkspd::SubgroupPath::Auto);
    autoMethod("vkspd lds", vkspd::SubgroupPath::LdsOnly);
    // The tuning options on the FP16 quad variant where it runs, else FP32 quad.
    const bool fp16 = fi.fp16Capable && g.fp16 && !s.row->custom;
    const Method tuned{std::string("vkspd ") + (fp16 ? "fp16" : "fp32") + " quad", Method::SinglePass,
                       fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32, vkspd::SubgroupPath::Quad};
    Method linear = tuned;
    linear.name += " linear";
    linear.fetch = vkspd::Fetch::LinearSampler;
    vkspd::DispatchDescription allowed;
    if (vkspd::describeDispatch(context, infoFor(s, linear), &allowed).ok()) methods.push_back(linear);
    for (uint32_t n : lists.columns) {
        Method m = tuned;
        m.name += " cols " + std::to_string(n);
        m.tuning.groupColumns = n;
        methods.push_back(m);
    }
    // A kernel's quad variants that the library takes for `s`: FP16 (where the format allows it)
    // and FP32, each with the linear-sampler fetch, the gather (formats of one channel) and with
    // loads, named "vkspd <name> ...".
    auto kernelVariants = [&](const char* name, vkspd::Kernel kernel) {
        std::vector<Method> variants;
        const std::pair<vkspd::Fetch, const char*> fetches[] = {
            {vkspd::Fetch::LinearSampler, " linear"}, {vkspd::Fetch::Gather, " gather"}, {vkspd::Fetch::Load, " load"}};
        for (bool half : {true, false}) {
            if (half && !fp16) continue;
            for (const auto& fetch : fetches) {
                Method m{std::string("vkspd ") + name + (half ? " fp16" : " fp32") + fetch.second, Method::SinglePass,
                         half ? vkspd::Precision::FP16 : vkspd::Precision::FP32, vkspd::SubgroupPath::Quad,
                         fetch.first};
                m.tuning.kernel = kernel;
                vkspd::DispatchDescription d;
                vkspd::ScheduleDescription sd;
                if (!vkspd::describeDispatch(context, infoFor(s, m), &d).ok() ||
                    !vkspd::describeSchedule(context, infoFor(s, m), &sd).ok())
                    continue;
                m.oddBase = sd.haloStages && sd.oddBaseStage;
                variants.push_back(m);
            }
        }
        return variants;
    };
    // A kernel's variants with the library's tiles per group, and the tiles sweep on the first of
    // them (FP16, else FP32; linear, else gather, else load) right after it, so those rows follow their own
    // pipeline (each fetch is a pipeline of its own).
    auto withTilesSweep = [&](const std::vector<Method>& variants) {
        if (variants.empty()) return;
        const Method base = variants.front();
        methods.push_back(base);
        for (uint32_t n : lists.tileCounts) {
            Method m = base;
            m.name += " tiles " + std::to_string(n);
            m.tuning.tilesPerGroup = n;
            methods.push_back(m);
        }
        methods.insert(methods.end(), variants.begin() + 1, variants.end());
    };
    // The plain-chain kernel where the chain is plain: FP16 (where the format allows it) and FP32,
    // linear-sampler fetch (where allowed) and loads.
    withTilesSweep(kernelVariants("plain", vkspd::Kernel::PlainChain));
    // The halo-stage kernel (Kernel::HaloStages) where it takes the chain.
    for (const Method& m : kernelVariants("halo", vkspd::Kernel::HaloStages)) methods.push_back(m);
    // The summed-levels kernel (Kernel::SummedLevels) where it takes the chain.
    withTilesSweep(kernelVariants("summed", vkspd::Kernel::SummedLevels));
    return methods;
}

// A 2D image of one layer, optimal tiling.
VkImageCreateInfo imageInfo(VkFormat format, uint32_t width, uint32_t height, uint32_t levels, VkImageUsageFlags usage) {
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = format;
    ii.extent = {width, height, 1};
    ii.mipLevels = levels;
    ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.usage = usage;
    return ii;
}

// Usage of every subject's image.
const VkImageUsageFlags kSubjectUsage =
    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

// The depth source of `s` (one level, sampled, written by a copy). Returns false, having said in one
// line why, where the device cannot make it at that size (the row is then skipped at that size).
bool createSource(const Gpu& g, Subject* s) {
    const VkImageCreateInfo ii =
        imageInfo(s->row->source, s->width, s->height, 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    VkImageFormatProperties props;
    VkResult r = vkGetPhysicalDeviceImageFormatProperties(g.physical, ii.format, ii.imageType, ii.tiling, ii.usage, 0, &props);
    if (r == VK_SUCCESS && (s->width > props.maxExtent.width || s->height > props.maxExtent.height))
        r = VK_ERROR_FORMAT_NOT_SUPPORTED;
    if (r == VK_SUCCESS) r = vkCreateImage(g.device, &ii, nullptr, &s->source);
    if (r == VK_SUCCESS) {
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(g.device, s->source, &req);
        r = tryAllocate(g, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &s->sourceMemory);
    }
    if (r == VK_SUCCESS) r = vkBindImageMemory(g.device, s->source, s->sourceMemory, 0);
    if (r == VK_SUCCESS) return true;
    vkDestroyImage(g.device, s->source, nullptr);
    vkFreeMemory(g.device, s->sourceMemory, nullptr);
    s->source = VK_NULL_HANDLE;
    s->sourceMemory = VK_NULL_HANDLE;
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(ii.format, &fi);
    std::printf("skipping %s %ux%u: no sampled %s image of that size on this device (VkResult %d)\n",
                rowName(*s->row).c_str(), s->width, s->height, fi.name, int(r));
    return false;
}

// Subjects and items (the copy floor first); each vkspd method verified against the reference
// before timing. A row whose depth source the device cannot sample is skipped, said in one line.
void prepareItems(const Bench& b, Runner& run, const Args& a, const Lists& lists, std::vector<Subject>* subjects,
                  std::vector<Item>* items) {
    const Gpu& g = b.g;
    auto wanted = [&](const std::string& name) {
        if (a.methodsArg.empty()) return true;
        for (const std::string& part : split(a.methodsArg))
            if (name.find(part) != std::string::npos) return true;
        return false;
    };
    if (!b.floorReader.pipeline && (wanted("floor fetch") || wanted("floor linear") || wanted("floor gather")))
        std::printf("skipping the floor rows: %s\n", b.floorReader.missing.c_str());
    double preparation = 0;  // seconds of level 0, references and checks
    Item copyItem;
    copyItem.subject = SIZE_MAX;
    copyItem.method = {"compute copy", Method::SinglePass};
    items->push_back(copyItem);
    for (const FormatChoice* row : lists.formats) {
        const VkFormat f = row->format;
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(f, &fi);
        if (row->custom && !gAverageCustom) {
            vkspd::Result r = vkspd::createCustomReduction(b.context, kAverageGlsl, &gAverageCustom);
            if (!r.ok()) {
                std::printf("skipping %s: %s\n", rowName(*row).c_str(), r.message.c_str());
                continue;
            }
        }
        if (row->source != VK_FORMAT_UNDEFINED) {
            vkspd::CapabilityQuery q;
            q.format = f;
            q.usage = kSubjectUsage;
            q.reduction = row->reduction;
            q.sourceFormat = row->source;
            vkspd::Capability cap;
            if (!vkspd::queryCapability(b.context, q, &cap).ok() || cap.path != vkspd::Path::SinglePass) {
                std::printf("skipping %s: %s\n", rowName(*row).c_str(), cap.reason.c_str());
                continue;
            }
        }
        for (auto [w, h] : lists.sizes) {
            Subject s{row, f, w, h, std::min(vkspd::fullMipCount(w, h), a.levelsBelow + 1)};
            if (row->source != VK_FORMAT_UNDEFINED && !createSource(g, &s)) continue;
            const VkImageCreateInfo ii = imageInfo(f, w, h, s.levels, kSubjectUsage);
            CHECK_VK(vkCreateImage(g.device, &ii, nullptr, &s.image));
            VkMemoryRequirements req;
            vkGetImageMemoryRequirements(g.device, s.image, &req);
            s.memory = allocate(g, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
            CHECK_VK(vkBindImageMemory(g.device, s.image, s.memory, 0));
            for (uint32_t l = 0; l < s.levels; ++l)
                s.floorBytes += double(vkspd::mipExtent(w, l)) * vkspd::mipExtent(h, l) * fi.bytesPerTexel;
            s.level0Bytes = double(w) * h * fi.bytesPerTexel;
            const auto started = std::chrono::steady_clock::now();
            std::vector<uint8_t> level0 = fillLevel0(run, s);
            subjects->push_back(s);
            const size_t index = subjects->size() - 1;
            const auto filled = std::chrono::steady_clock::now();
            // The reference from level 0 as uploaded.
            const Check check = a.sampledOnly || size_t(w) * h > kFullCheckTexels ? sampledCheck(s, level0) : fullCheck(s, level0);
            const std::vector<Method> methods = methodsFor(b, lists, s, fi);
            // The floor rows' view of level 0 and the sum they are checked against.
            if (std::any_of(methods.begin(), methods.end(), [&](const Method& m) { return m.floor() && wanted(m.name); })) {
                Subject& stored = (*subjects)[index];
                stored.level0Sum = level0ChannelSum(stored, level0);
                VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
                vi.image = stored.image;
                vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
                vi.format = stored.format;
                vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
                CHECK_VK(vkCreateImageView(g.device, &vi, nullptr, &stored.level0View));
            }
            level0 = std::vector<uint8_t>();
            const auto referenced = std::chrono::steady_clock::now();

            for (const Method& m : methods) {
                if (!wanted(m.name)) continue;
                Item it;
                it.subject = index;
                it.method = m;
                if (m.kind != Method::Blit && m.kind != Method::Stream && !m.floor()) {
                    it.verified = verify(run, b.context, s, m, check, &it.worstError);
                    if (!it.verified)
                        std::printf("VERIFY FAILED: %s %ux%u %s (worst %g)\n", rowName(*row).c_str(), w, h, m.name.c_str(), it.worstError);
                }
                items->push_back(it);
            }
            const auto verified = std::chrono::steady_clock::now();
            auto seconds = [](auto from, auto to) { return std::chrono::duration<double>(to - from).count(); };
            preparation += seconds(started, verified);
            std::printf("prepared %s %ux%u: level 0 %.2f s, reference %.2f s (%s), checks %.2f s\n",
                        rowName(*row).c_str(), w, h, seconds(started, filled), seconds(filled, referenced),
                        check.sampled ? "sampled texels" : "every texel", seconds(referenced, verified));
            std::fflush(stdout);
        }
    }

    std::printf("preparation (level 0, references, checks): %.2f s\n", preparation);
}

// What the timed rounds measured besides each item's timings.
struct Rounds {
    uint32_t warmup = 3;  // untimed repetitions before the timed ones
    VkDeviceSize copyBytes = 0;
    std::vector<std::vector<double>> probeGBs;
    double probeBestGBs = 0;
    vkspd_tools::WarmupReport steady;  // The warm-up to a steady state before the first round.
    bool clockAvailable = false;
    std::string clockNote;
    uint32_t clockAfterTimingMhz = 0;
    uint32_t submissions = 0;  // submissions per repetition (--submit)
};

// Brings the GPU to a steady state with the copy floor's copy (vkspd_tools::warmUp).
void warmUpGpu(const Bench& b, const Buffer& from, const Buffer& to, VkDeviceSize bytes,
               const vkspd_tools::SmClock& clock, Rounds* rounds) {
    const Copier& copier = b.copier;
    auto copy = [&](VkCommandBuffer cmd, std::string*) {
        copier.record(cmd, from, to, bytes);
        fullBarrier(cmd);
        return true;
    };
    std::string reason;
    if (!vkspd_tools::warmUp(b.g, copy, vkspd_tools::WarmupRule{}, clock.available() ? &clock : nullptr,
                             &rounds->steady, &reason)) {
        std::fprintf(stderr, "vkspd-bench: %s\n", reason.c_str());
        std::exit(kGpuExitCode);
    }
}

// The timed rounds: every item, interleaved, the L2 evicted before each (its second half timed:
// the read probes), after the warm-up to a steady state and `rounds->warmup` untimed rounds.
void timeItems(const Bench& b, Runner& run, const Args& a, const std::vector<Subject>& subjects,
               std::vector<Item>& items, Rounds* rounds) {
    const Gpu& g = b.g;
    const vkspd::Context context = b.context;
    const Copier &copier = b.copier, &evicter = b.evicter, &streamer = b.streamer;
    const uint32_t copyMib = a.copyMib, evictMib = a.evictMib, reps = a.reps;
    const bool evictByCopy = a.evictByCopy;
    // The floor: a compute copy of copyMib MiB; the L2 eviction: a read of evictMib MiB elsewhere
    // (with --evict copy, a copy to a buffer of its own).
    const VkDeviceSize copyBytes = VkDeviceSize(copyMib) << 20, evictBytes = VkDeviceSize(evictMib) << 20;
    rounds->copyBytes = copyBytes;
    Buffer copyFrom = makeBuffer(g, copyBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    Buffer copyTo = makeBuffer(g, copyBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    Buffer evictFrom = makeBuffer(g, evictBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    Buffer evictTo = makeBuffer(g, evictBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    // The stream row's buffers: the largest level 0 and the largest rest of a chain it times.
    VkDeviceSize streamReadMax = 16, streamWriteMax = 16;
    for (const Item& it : items)
        if (it.method.kind == Method::Stream) {
            streamReadMax = std::max(streamReadMax, streamBytes(subjects[it.subject]).first);
            streamWriteMax = std::max(streamWriteMax, streamBytes(subjects[it.subject]).second);
        }
    Buffer streamFrom = makeBuffer(g, streamReadMax, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    Buffer streamTo = makeBuffer(g, streamWriteMax,
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    {  // Not zeros (a GPU may move zeros faster than data).
        VkCommandBuffer cmd = run.begin();
        vkCmdFillBuffer(cmd, streamFrom.buffer, 0, VK_WHOLE_SIZE, kStreamFill);
        fullBarrier(cmd);
        run.submitAndWait();
    }
    for (Item& it : items) {
        if (it.method.kind != Method::Stream) continue;
        const Subject& s = subjects[it.subject];
        it.verified = verifyStream(run, streamer, streamFrom, streamTo, s);
        if (!it.verified)
            std::printf("VERIFY FAILED: %s %ux%u %s\n", rowName(*s.row).c_str(), s.width, s.height, it.method.name.c_str());
    }
    // The floor rows' sums: room for the largest subject they read.
    const FloorReader& floorReader = b.floorReader;
    VkDeviceSize floorSumBytes = 16;
    for (const Item& it : items)
        if (it.method.floor()) floorSumBytes = std::max(floorSumBytes, floorReader.sumBytes(subjects[it.subject]));
    Buffer floorSums = makeBuffer(g, floorSumBytes,
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
    for (Item& it : items) {
        if (!it.method.floor()) continue;
        const Subject& s = subjects[it.subject];
        it.verified = verifyFloor(run, floorReader, floorSums, s, it.method, &it.worstError);
        if (!it.verified)
            std::printf("VERIFY FAILED: %s %ux%u %s (sums off by %g of level 0's)\n", rowName(*s.row).c_str(), s.width,
                        s.height, it.method.name.c_str(), it.worstError);
    }

    VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    // Per repetition: each item's begin and end, then the read probes (the eviction before each
    // item and one after the last): begin and end of each.
    qpi.queryCount = uint32_t(2 * items.size() + 2 * (items.size() + 1));
    VkQueryPool queries;
    CHECK_VK(vkCreateQueryPool(g.device, &qpi, nullptr, &queries));
    const uint32_t warmup = rounds->warmup;
    std::vector<uint64_t> stamps(qpi.queryCount);
    std::vector<std::vector<double>>& probeGBs = rounds->probeGBs;
    const uint32_t probeBase = uint32_t(2 * items.size());
    const double probeBytes = double(evictBytes - evictBytes / 2) * (evictByCopy ? 2.0 : 1.0);
    // The eviction in two halves, the second timed: the first takes the writeback of the dirty
    // lines the previous item left (up to an L2's worth after the copy floor: the probe after it
    // ran 10-20% slower on an H200 when the whole read was timed), so every probe times the same
    // thing.
    const VkDeviceSize half = evictBytes / 2;
    auto recordProbe = [&](VkCommandBuffer cmd, size_t p) {
        evicter.record(cmd, evictFrom, evictTo, half);  // cold L2
        fullBarrier(cmd);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, probeBase + uint32_t(2 * p));
        evicter.record(cmd, evictFrom, evictTo, evictBytes - half, half);
        fullBarrier(cmd);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, probeBase + uint32_t(2 * p + 1));
    };
    // An idle GPU runs at a low clock: the copy is repeated until its timings are steady first.
    vkspd_tools::SmClock clock;
    vkspd_tools::openSmClock(g, &clock);
    rounds->clockAvailable = clock.available();
    rounds->clockNote = clock.note();
    warmUpGpu(b, copyFrom, copyTo, copyBytes, clock, rounds);
    for (uint32_t rep = 0; rep < warmup + reps; ++rep) {
        VkCommandBuffer cmd = run.begin();
        vkCmdResetQueryPool(cmd, queries, 0, qpi.queryCount);
        uint32_t submissions = 1;
        for (size_t i = 0; i < items.size(); ++i) {
            const Item& it = items[i];
            // --submit size: a new submission where a size's items start (not before the first:
            // the floor's copy shares it).
            if (a.submitPerSize && i > 1 && it.subject != items[i - 1].subject) {
                run.submitAndWait();
                cmd = run.begin();
                ++submissions;
            }
            recordProbe(cmd, i);
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, uint32_t(2 * i));
            if (it.subject == SIZE_MAX) copier.record(cmd, copyFrom, copyTo, copyBytes);
            else if (it.method.kind == Method::Blit) recordBlitChain(cmd, subjects[it.subject]);
            else if (it.method.kind == Method::Stream) {
                const auto [readBytes, writeBytes] = streamBytes(subjects[it.subject]);
                streamer.recordStream(cmd, streamFrom, readBytes, streamTo, writeBytes);
            }
            else if (it.method.floor())
                floorReader.record(cmd, subjects[it.subject], it.method.floorMode(), floorSums);
            else recordVkspd(context, cmd, subjects[it.subject], it.method);
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, uint32_t(2 * i + 1));
            fullBarrier(cmd);
        }
        recordProbe(cmd, items.size());
        run.submitAndWait();
        rounds->submissions = submissions;
        CHECK_VK(vkGetQueryPoolResults(g.device, queries, 0, qpi.queryCount, stamps.size() * 8, stamps.data(), 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        if (rep < warmup) continue;
        const double period = g.properties.limits.timestampPeriod * 1e-3;  // us per tick
        for (size_t i = 0; i < items.size(); ++i) items[i].us.push_back(double(stamps[2 * i + 1] - stamps[2 * i]) * period);
        probeGBs.emplace_back();
        for (size_t p = 0; p <= items.size(); ++p) {
            const double us = double(stamps[probeBase + 2 * p + 1] - stamps[probeBase + 2 * p]) * period;
            probeGBs.back().push_back(probeBytes / (std::max(us, 1e-3) * 1e-6) * 1e-9);
        }
    }
    rounds->clockAfterTimingMhz = clock.readMhz();
    rounds->probeBestGBs = vkspd_bench::bestProbe(probeGBs);
    for (size_t i = 0; i < items.size(); ++i)
        items[i].timings = vkspd_bench::keepCleanTimings(items[i].us, probeGBs, i, rounds->probeBestGBs);
}

// The warm-up's fields of bench.json (each line starts ",\n  ").
std::string steadyJson(const Rounds& r) {
    const vkspd_tools::WarmupProgress& w = r.steady.progress;
    std::ostringstream json;
    json << ",\n  \"warmup_steady\": " << (r.steady.verdict == vkspd_tools::WarmupVerdict::Steady ? "true" : "false")
         << ",\n  \"warmup_ms\": " << w.spanMs << ",\n  \"warmup_gpu_ms\": " << w.gpuMs
         << ",\n  \"warmup_calls\": " << w.calls << ",\n  \"warmup_last_medians_us\": [" << w.previousMedianUs << ", "
         << w.medianUs << "]";
    if (r.clockAvailable)
        json << ",\n  \"sm_clock_mhz\": {\"before_warmup\": " << r.steady.clockBeforeMhz
             << ", \"after_warmup\": " << r.steady.clockAfterMhz << ", \"after_timing\": " << r.clockAfterTimingMhz << "}";
    else
        json << ",\n  \"sm_clock_mhz\": null";
    if (!r.clockNote.empty()) json << ",\n  \"sm_clock_note\": \"" << r.clockNote << "\"";
    return json.str();
}

// The report: the table on standard output, and with --out the CSV, JSON and SVG files. Returns
// the exit code: 1 if a check failed or a file could not be written.
int report(const Bench& b, const Args& a, const Lists& lists, const std::vector<Subject>& subjects,
           const std::vector<Item>& items, const Rounds& rounds) {
    const Gpu& g = b.g;
    const VkPhysicalDeviceDriverProperties& driver = b.driver;
    const uint32_t copyMib = a.copyMib, evictMib = a.evictMib, reps = a.reps, warmup = rounds.warmup;
    const bool evictByCopy = a.evictByCopy;
    const VkDeviceSize copyBytes = rounds.copyBytes;
    const double probeBestGBs = rounds.probeBestGBs;
    const std::string& outDir = a.outDir;
    // The copy reads and writes copyBytes: GB/s of a copy timed at `us`.
    auto copyGBsAt = [&](double us) { return 2.0 * double(copyBytes) / (us * 1e-6) * 1e-9; };
    const double copyMedian = median(items[0].timings.kept);
    const double copyGBs = copyGBsAt(copyMedian);
    char date[32];
    std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    std::printf("\n%s (%s %s), %s, %u repetitions after %u warm-up, L2 evicted before each item\n",
                g.properties.deviceName, driver.driverName, driver.driverInfo, date, reps, warmup);
    const vkspd_tools::WarmupProgress& steady = rounds.steady.progress;
    std::printf("GPU (the floor's copy): %s\n",
                vkspd_tools::warmupSummary(vkspd_tools::WarmupRule{}, steady, rounds.steady.verdict).c_str());
    const std::string clockNote = rounds.clockNote.empty() ? "" : " (" + rounds.clockNote + ")";
    if (rounds.clockAvailable)
        std::printf("SM clock: %u MHz before the warm-up, %u MHz after it, %u MHz after timing%s\n",
                    rounds.steady.clockBeforeMhz, rounds.steady.clockAfterMhz, rounds.clockAfterTimingMhz,
                    clockNote.c_str());
    else
        std::printf("SM clock: not available%s\n", clockNote.c_str());
    std::printf("compute copy floor: %.0f GB/s (%u MiB, median %.1f us); %u MiB %s before each item\n",
                copyGBs, copyMib, copyMedian, evictMib, evictByCopy ? "copied (--evict copy)" : "read");
    std::printf("submissions per repetition: %u (%s)\n", rounds.submissions,
                a.submitPerSize ? "one per size, --submit size" : "one command buffer, --submit repetition");
    // The floor is timed in every repetition with the other items, so its spread shows a GPU whose
    // bandwidth changed during the run (other work on it, clocks): shared GPUs have measured 1700
    // GB/s instead of 4150 and every item 2.5-3.5x slower. The
    // range is over every repetition; the timings that ran in such a drop are left out of the
    // figures (clean_timings.hpp), and only an item left with too few clean timings makes the run
    // unfit to compare.
    const auto floorRange = std::minmax_element(items[0].us.begin(), items[0].us.end());
    const double floorLowGBs = copyGBsAt(*floorRange.second), floorHighGBs = copyGBsAt(*floorRange.first);
    size_t allTimings = 0, leftOut = 0, unsteady = 0;
    for (const Item& it : items) {
        allTimings += it.us.size();
        leftOut += it.timings.steady ? it.us.size() - it.timings.clean : 0;
        unsteady += it.timings.steady ? 0 : 1;
    }
    std::printf("copy floor over the repetitions: %.0f to %.0f GB/s; read probes up to %.0f GB/s; %zu of %zu timings "
                "left out (a read probe before or after them below 90%% of the best: other work on the GPU)%s\n",
                floorLowGBs, floorHighGBs, probeBestGBs, leftOut, allTimings,
                unsteady ? " -- WARNING: some items kept too few clean timings, marked '!': do not compare these figures"
                         : "");
    std::printf("DenormPreserve: %s\n\n", a.skipDenormPreserve ? "off (--no-denorm-preserve)"
                                                                : "added where the device supports it");
    std::printf("%-22s %-12s %-44s %10s %10s %8s %8s %8s %-9s %-28s %s\n", "format", "size", "method", "median us", "min us",
                "GB/s", "% floor", "x blit", "clean", "occupancy", "check");
    // Every CSV row ends with the run's warm-up and SM clocks (empty where not read).
    auto clockCsv = [](bool available, uint32_t mhz) { return available ? std::to_string(mhz) : std::string(); };
    std::ostringstream steadyCsv;
    steadyCsv << ',' << (rounds.steady.verdict == vkspd_tools::WarmupVerdict::Steady ? "yes" : "no") << ','
              << steady.spanMs << ',' << steady.calls << ',' << clockCsv(rounds.clockAvailable, rounds.steady.clockBeforeMhz)
              << ',' << clockCsv(rounds.clockAvailable, rounds.steady.clockAfterMhz) << ','
              << clockCsv(rounds.clockAvailable, rounds.clockAfterTimingMhz);
    std::ostringstream csv, json;
    csv << "gpu,driver,date,format,width,height,method,median_us,min_us,effective_gbs,percent_of_floor,speedup_vs_blit,verified,worst_error,occupancy,clean_timings,timings,"
           "warmup_steady,warmup_ms,warmup_calls,sm_clock_mhz_before_warmup,sm_clock_mhz_after_warmup,sm_clock_mhz_after_timing\n";
    json << "{\n  \"gpu\": \"" << g.properties.deviceName << "\",\n  \"driver\": \"" << driver.driverName << ' '
         << driver.driverInfo << "\",\n  \"date\": \"" << date << "\",\n  \"repetitions\": " << reps
         << steadyJson(rounds)
         << ",\n  \"copy_floor_gbs\": " << copyGBs << ",\n  \"copy_floor_low_gbs\": " << floorLowGBs
         << ",\n  \"copy_floor_high_gbs\": " << floorHighGBs << ",\n  \"read_probe_best_gbs\": " << probeBestGBs
         << ",\n  \"timings_left_out\": " << leftOut
         << ",\n  \"unsteady_items\": " << unsteady << ",\n  \"l2_eviction\": \""
         << (evictByCopy ? "copy" : "read") << "\",\n  \"evict_mib\": " << evictMib
         << ",\n  \"submissions_per_repetition\": " << rounds.submissions << ",\n  \"results\": [\n";
    bool first = true, allVerified = true;
    for (size_t i = 1; i < items.size(); ++i) {
        const Item& it = items[i];
        const Subject& s = subjects[it.subject];
        double blitMedian = 0;
        for (const Item& other : items)
            if (other.subject == it.subject && other.method.kind == Method::Blit) blitMedian = median(other.timings.kept);
        const double med = median(it.timings.kept), mn = *std::min_element(it.timings.kept.begin(), it.timings.kept.end());
        const size_t clean = it.timings.clean;
        const std::string cleanText =
            std::to_string(clean) + "/" + std::to_string(it.us.size()) + (it.timings.steady ? "" : "!");
        const double gbs = bytesCounted(s, it.method) / (med * 1e-6) * 1e-9;
        const double pct = 100.0 * gbs / copyGBs;
        const std::string check = it.method.kind == Method::Blit     ? "approximate"
                                  : it.method.kind == Method::Stream ? (it.verified ? "ok (reads, writes)" : "FAILED")
                                  : it.method.floor()                  ? (it.verified ? "ok (reads)" : "FAILED")
                                  : !it.verified                       ? "FAILED"
                                  : it.method.kind == Method::PerLevel ? "ok (rounds per level)"
                                                                       : "ok";
        allVerified = allVerified && (it.method.kind == Method::Blit || it.verified);
        const std::string occ = it.method.kind == Method::SinglePass ? b.occupancyText(it.method, *s.row) : "-";
        // The speed-up over the blit chain where it was timed at this size (n/a in the report,
        // empty in the CSV, null in the JSON where not: --methods, or a row it cannot make).
        std::string speedup;
        if (blitMedian > 0) {
            std::ostringstream text;
            text << blitMedian / med;
            speedup = text.str();
        }
        char speedupText[32] = "n/a";
        if (blitMedian > 0) std::snprintf(speedupText, sizeof speedupText, "%.1f", blitMedian / med);
        std::printf("%-22s %5ux%-6u %-44s %10.1f %10.1f %8.1f %7.1f%% %8s %-9s %-28s %s\n", rowName(*s.row).c_str(),
                    s.width, s.height, it.method.name.c_str(), med, mn, gbs, pct, speedupText, cleanText.c_str(),
                    occ.c_str(), check.c_str());
        csv << '"' << g.properties.deviceName << "\",\"" << driver.driverName << ' ' << driver.driverInfo << "\"," << date << ','
            << rowName(*s.row) << ',' << s.width << ',' << s.height << ',' << it.method.name << ',' << med << ',' << mn
            << ',' << gbs << ',' << pct << ',' << speedup << ',' << check << ',' << it.worstError << ",\"" << occ
            << "\"," << clean << ',' << it.us.size() << steadyCsv.str() << '\n';
        json << (first ? "" : ",\n") << "    {\"format\": \"" << rowName(*s.row) << "\", \"width\": " << s.width
             << ", \"height\": " << s.height << ", \"method\": \"" << it.method.name << "\", \"median_us\": " << med
             << ", \"min_us\": " << mn << ", \"effective_gbs\": " << gbs << ", \"percent_of_floor\": " << pct
             << ", \"speedup_vs_blit\": " << (speedup.empty() ? "null" : speedup) << ", \"check\": \"" << check
             << "\", \"worst_error\": " << it.worstError << ", \"occupancy\": \"" << occ
             << "\", \"clean_timings\": " << clean << ", \"timings\": " << it.us.size() << "}";
        first = false;
    }
    json << "\n  ]\n}\n";
    if (!outDir.empty()) {
        bool written = true;
        for (auto [name, text] : {std::pair<const char*, std::string>{"/bench.csv", csv.str()}, {"/bench.json", json.str()}}) {
            std::ofstream f(outDir + name);
            f << text;
            f.close();
            written = written && bool(f);
        }
        for (const FormatChoice* f : lists.formats) {
            std::vector<std::string> sizeNames;
            for (auto [w, h] : lists.sizes) sizeNames.push_back(std::to_string(w) + "x" + std::to_string(h));
            std::vector<std::pair<std::string, std::vector<double>>> lines;
            for (size_t i = 1; i < items.size(); ++i) {
                const Item& it = items[i];
                if (subjects[it.subject].row != f) continue;
                auto line = std::find_if(lines.begin(), lines.end(), [&](auto& l) { return l.first == it.method.name; });
                if (line == lines.end()) {
                    lines.push_back({it.method.name, {}});
                    line = lines.end() - 1;
                }
                line->second.push_back(100.0 * bytesCounted(subjects[it.subject], it.method) / (median(it.timings.kept) * 1e-6) * 1e-9 / copyGBs);
            }
            if (lines.empty()) continue;  // a row skipped on this device
            written = written && writeSvg(outDir + "/bench-" + rowName(*f) + ".svg",
                     rowName(*f) + " on " + g.properties.deviceName + ": % of the copy floor (median)", sizeNames, lines);
        }
        if (!written) {
            std::fprintf(stderr, "vkspd-bench: could not write every file under %s\n", outDir.c_str());
            return 1;
        }
        std::printf("\nwrote %s/bench.csv, bench.json and bench-<format>.svg\n", outDir.c_str());
    }
    return allVerified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    if (int code = parseArgs(argc, argv, &args); code >= 0) return code;

    // The output folder is made (or refused) before anything runs.
    if (!args.outDir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(args.outDir, ec);
        if (ec) {
            std::fprintf(stderr, "vkspd-bench: --out %s: cannot create the folder: %s\n", args.outDir.c_str(), ec.message().c_str());
            return 2;
        }
    }

    Bench bench;
    bench.occupancy = queryOccupancyAlone(args);
    if (int code = openBench(args, &bench); code >= 0) return code;
    Runner run(bench.g);
    Lists lists;
    if (int code = parseLists(args, bench.g, &lists); code >= 0) return code;

    std::vector<Subject> subjects;
    std::vector<Item> items;
    prepareItems(bench, run, args, lists, &subjects, &items);
    Rounds rounds;
    timeItems(bench, run, args, subjects, items, &rounds);
    return report(bench, args, lists, subjects, items, rounds);
}
