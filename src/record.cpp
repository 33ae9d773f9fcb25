// generateMips: checks the request, then records the barrier from the caller's state, the work of
// the path the image allows (one dispatch, a render pass per level, or a blit per level), and the
// barrier to the caller's final state.
#include "context.hpp"

#include <vkspd/debug.hpp>
#include <vkspd/formats.hpp>
#include <vkspd/tuning.hpp>

#include <algorithm>

namespace vkspd {
namespace {

// MipGenInfo::tuning, or the defaults where it is null.
const Tuning& tuningOf(const MipGenInfo& info) {
    static const Tuning kDefaults{};
    return info.tuning ? *info.tuning : kDefaults;
}

// In 64 bits: base + count - 1 of two uint32_t must not wrap around in the message.
std::string levelRange(uint32_t base, uint32_t count) {
    return std::to_string(base) + ".." + std::to_string(uint64_t(base) + count - 1);
}

// The one rule for mip and layer ranges: `base` inside the image's `total`, `count` (0 = the
// rest) not past it. Sets *resolved to the count the range really has.
Result checkRange(const char* baseName, const char* rangeName, const char* unit, uint32_t base,
                  uint32_t count, uint32_t total, uint32_t* resolved) {
    if (base >= total)
        return fail(VK_ERROR_UNKNOWN, std::string("MipGenInfo::") + baseName + " " +
                                          std::to_string(base) + " is past the image's " +
                                          std::to_string(total) + " " + unit);
    *resolved = count ? count : total - base;
    if (*resolved > total - base)  // not base + count > total: the sum may wrap around
        return fail(VK_ERROR_UNKNOWN, std::string(rangeName) + " range " + levelRange(base, *resolved) +
                                          " exceeds the image's " + std::to_string(total) + " " + unit);
    return {};
}

// Everything generateMips decides before recording.
struct Request {
    Decision decision;
    Plan plan;
    uint32_t levelCount = 0;  // levels in the range including the base
    uint32_t layerCount = 0;  // layers in the range
    bool fp16 = false;
    bool quad = false;
    bool shuffleRelative = false;  // the device has relative subgroup shuffles (the odd-base module)
    bool linearFetch = false;     // Fetch::LinearSampler (checked allowed)
    bool gatherFetch = false;     // Fetch::Gather, or Auto's (checked allowed; the kernel after it)
    uint32_t groupColumns = 0;    // group-ID tiling strip width, at most the tile columns
    bool plainKernel = false;     // shaders/vkspd_plain.comp (plan.tilesPerGroup set for it)
    bool haloKernel = false;      // the same built with VKSPD_HALO (plan switched to its layout)
    bool sumsKernel = false;      // the same built with VKSPD_SUMS (plan switched to its layout)
    bool hasSource = false;   // MipGenInfo::source is used
    Path path() const { return decision.capability.path; }
};

std::string extentText(VkExtent2D e) { return std::to_string(e.width) + "x" + std::to_string(e.height); }

bool undefinedLayout(VkImageLayout l) {
    return l == VK_IMAGE_LAYOUT_UNDEFINED || l == VK_IMAGE_LAYOUT_PREINITIALIZED;
}

// Fetch::LinearSampler only where one bilinear sample equals the load path's 2x2 reduction: the
// Average reduction (a weighted mean), the quad path (the one that reads plain 2x2 footprints) and
// a sampled format the device filters linearly. Called on the single pass once req->quad is known.
Result linearFetchAllowed(Context c, const MipGenInfo& info, const Request* req) {
    if (info.reduction != Reduction::Average)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "Fetch::LinearSampler needs Reduction::Average: a bilinear sample is a mean, not a "
                    "min, max or custom reduction; use Fetch::Load or Auto");
    if (!req->quad)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "Fetch::LinearSampler needs the quad path (SubgroupPath::Quad, or Auto on a device with "
                    "quad subgroup operations): only it reads plain 2x2 footprints; use Fetch::Load or Auto");
    const VkFormat sampled = req->hasSource ? info.source.format : info.format;
    const FormatInfo& sampledInfo = req->hasSource ? req->decision.sourceFormat : req->decision.format;
    // Filter weights are only as fine as subTexelPrecisionBits (8 on common GPUs) and the filter's
    // arithmetic is the device's: measured on lavapipe, 1e-4 relative error at 1100 x 1000
    // RGBA32F (normalized corners), within tolerance for 8-bit and half-float formats only.
    if (!sampledInfo.fp16Capable)
        return fail(VK_ERROR_FORMAT_NOT_SUPPORTED,
                    std::string("Fetch::LinearSampler: ") + sampledInfo.name +
                        " needs more precision than a bilinear sample keeps (only formats the FP16 path "
                        "can hold: 8-bit, 16-bit float, B10G11R11); use Fetch::Load or Auto");
    // sRGB: the sampler decodes before filtering, but NVIDIA's filtered decode is not the exact
    // one: 2 steps off the reference at level 1 on NVIDIA GPUs (a few texels).
    if (sampledInfo.encoding == ChannelEncoding::Srgb8)
        return fail(VK_ERROR_FORMAT_NOT_SUPPORTED,
                    std::string("Fetch::LinearSampler: ") + sampledInfo.name +
                        " is sRGB, and filtered sRGB decoding is not exact on every GPU (2 steps off on "
                        "NVIDIA GPUs); use Fetch::Load or Auto");
    // The sampler reads texel coordinates, whose corners are exact (a normalized corner is rounded
    // unless the extent is a power of two, which moved the weights: 19 units in the last place
    // off at 7680x4320 RGBA16F on an NVIDIA H200), and those allow no array view: one layer.
    if (req->layerCount > 1)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "Fetch::LinearSampler needs one layer (it samples a 2D view in texel coordinates, "
                    "whose corners are exact); use Fetch::Load or Auto, or one layer per call");
    VkFormatProperties fp;
    c->fn.vkGetPhysicalDeviceFormatProperties(c->info.physicalDevice, sampled, &fp);
    if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
        return fail(VK_ERROR_FORMAT_NOT_SUPPORTED,
                    std::string("Fetch::LinearSampler: ") +
                        (req->hasSource ? req->decision.sourceFormat.name : req->decision.format.name) +
                        " lacks VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT on this device; use "
                        "Fetch::Load or Auto");
    return {};
}

// Fetch::Gather where one gather holds a 2x2 block: a format of one channel (one gather per
// channel would take as many instructions as the loads), read from the image itself (gathers from a
// D32 source took 2.3x the loads' time on an NVIDIA H200: docs/PERFORMANCE.md), the quad path and
// one layer (the texel-coordinate view, as the linear sampler's). The kernel is checked once it
// is chosen (checkGatherKernel).
Result gatherFetchAllowed(const Request* req) {
    if (req->hasSource)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "Fetch::Gather reads the image's own base level, not a MipGenInfo::source (which is read "
                    "by loads: gathers from a depth source were slower); use Fetch::Load or Auto");
    if (req->decision.format.channels != 1)
        return fail(VK_ERROR_FORMAT_NOT_SUPPORTED,
                    std::string("Fetch::Gather: ") + req->decision.format.name + " has " +
                        std::to_string(req->decision.format.channels) +
                        " channels; it gathers formats of one channel only; use Fetch::Load or Auto");
    if (!req->quad)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "Fetch::Gather needs the quad path (SubgroupPath::Quad, or Auto on a device with quad "
                    "subgroup operations); use Fetch::Load or Auto");
    if (req->layerCount > 1)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "Fetch::Gather needs one layer (it gathers from a 2D view in texel coordinates); use "
                    "Fetch::Load or Auto, or one layer per call");
    return {};
}

// Fetch::Auto takes the linear sampler where it is allowed and measured faster: on NVIDIA GPUs
// (docs/PERFORMANCE.md); else, there, the gather where it is allowed (checkGatherKernel drops it
// on a kernel that does not gather); Load elsewhere, where neither has been measured.
Result checkFetch(Context c, const MipGenInfo& info, Request* req) {
    req->linearFetch = false;
    req->gatherFetch = false;
    if (info.fetch == Fetch::Load) return {};
    if (info.fetch == Fetch::Gather) {
        Result r = gatherFetchAllowed(req);
        req->gatherFetch = r.ok();
        return r;
    }
    if (info.fetch == Fetch::Auto) {
        const bool nvidia = c->properties.vendorID == kVendorNvidia;
        req->linearFetch = nvidia && linearFetchAllowed(c, info, req).ok();
        req->gatherFetch = nvidia && !req->linearFetch && gatherFetchAllowed(req).ok();
        return {};
    }
    Result r = linearFetchAllowed(c, info, req);
    req->linearFetch = r.ok();
    return r;
}

// The plain-chain, halo-stage and summed-levels kernels' modules for the LDS-only path (no quad
// operations) are compiled at run time: refused where the library has no shaderc. Empty when
// allowed.
std::string ldsPathRefusal(const Request& req) {
    if (req.quad || runtimeCompilerAvailable()) return {};
    return "on the LDS-only path (SubgroupPath::LdsOnly, or Auto on a device without quad operations) its module "
           "is compiled at run time, and this vkspd was built without shaderc";
}

// Kernel::PlainChain only where shaders/vkspd_plain.comp computes the request: a plain chain
// (Plan::plain), the quad path or its LDS-only module (ldsPathRefusal), no SourceImage read
// through the linear sampler (it copies a source into the base level from the texels it loads)
// and no group-ID tiling (only the general kernel walks strips); a custom reduction runs on its
// FP32 variant, compiled on first use.
// Called on the single pass once req->quad, req->linearFetch and req->groupColumns are known.
// Empty when allowed, else why not.
std::string plainKernelRefusal(const Tuning& tuning, const Request& req) {
    if (!req.plan.plain)
        return "the mip range is not a plain chain: some level it reads has an odd extent (other than 1)";
    if (std::string why = ldsPathRefusal(req); !why.empty()) return why;
    if (req.hasSource && req.linearFetch)
        return "it copies a MipGenInfo::source from the texels it loads, not through Fetch::LinearSampler";
    if (tuning.groupColumns != 0) return "group-ID tiling (Tuning::groupColumns) is the general kernel's";
    return {};
}

// Kernel::HaloStages only where its planner found stages (Plan::halo), the quad path or its
// LDS-only module (ldsPathRefusal), for an odd base relative subgroup shuffles or the run-time compiler
// (which builds the odd-base module without them on first use), and no group-ID tiling (a custom
// reduction runs on its FP32 variant, compiled on first use). Empty when allowed.
std::string haloKernelRefusal(const Tuning& tuning, const Request& req) {
    if (!req.plan.halo.stageCount) return std::string("the mip range does not suit it: ") + req.plan.halo.refusal;
    if (req.plan.halo.oddBase && req.linearFetch)
        return "the base or its level 1 has an odd side, which it reads texel by texel, not through "
               "Fetch::LinearSampler";
    if (req.plan.halo.oddBase && !req.shuffleRelative && !runtimeCompilerAvailable())
        return "the base or its level 1 has an odd side, which it reads with relative subgroup shuffles "
               "(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT), which this device lacks, and this vkspd was built "
               "without shaderc, which compiles the kernel without them";
    if (req.hasSource && req.linearFetch)
        return "it copies a MipGenInfo::source from the texels it loads, not through Fetch::LinearSampler";
    // Measured on an H200: RGBA16F 1280x720 and 3840x2160 through the FP32 path and the linear
    // sampler came out 2 units in the last place off the reference, past its tolerance of 1.
    if (req.linearFetch && !req.fp16 && req.decision.format.encoding != ChannelEncoding::Unorm8 &&
        req.decision.format.encoding != ChannelEncoding::Snorm8)
        return "with Fetch::LinearSampler on the FP32 path it takes 8-bit UNORM and SNORM formats only "
               "(a bilinear sample is not exact enough for the FP32 path's tolerance of the others)";
    if (std::string why = ldsPathRefusal(req); !why.empty()) return why;
    if (tuning.groupColumns != 0) return "group-ID tiling (Tuning::groupColumns) is the general kernel's";
    return {};
}

// Whether every value the dispatch reads is finite and within [-1, 1]: a normalized format read
// from its own base level (a MipGenInfo::source may hold any value of its own format).
bool normalizedValues(const Request& req) { return normalizedEncoding(req.decision.format) && !req.hasSource; }

// Whether every value the dispatch reads lies in [0, 1] (normalizedValues but SNORM): what the
// summed-levels kernel's fixed-point sums hold.
bool unitValues(const Request& req) {
    return normalizedValues(req) && req.decision.format.encoding != ChannelEncoding::Snorm8;
}

// Kernel::SummedLevels only where its planner found a plain prefix with later levels (Plan::sums),
// a built-in reduction, for the average values in [0, 1] (its sums are fixed-point fractions of 1)
// read from the image itself, the quad path or its LDS-only module (ldsPathRefusal) and no
// group-ID tiling. (A SourceImage is read through loads: the linear sampler takes the average only.) Empty
// when allowed.
std::string sumsKernelRefusal(const Tuning& tuning, const Request& req) {
    if (!req.plan.sums.prefix) return std::string("the mip range does not suit it: ") + req.plan.sums.refusal;
    if (req.decision.reduction == VKSPD_REDUCTION_CUSTOM) return "it has no custom reductions";
    if (req.decision.reduction == VKSPD_REDUCTION_AVERAGE && !unitValues(req))
        return std::string("it sums averages of values in [0, 1], those of UNORM and sRGB formats read from the "
                           "image itself, not of ") +
               (req.hasSource ? std::string("a MipGenInfo::source") : std::string(req.decision.format.name)) +
               " (Min, Max and MinMax take any format)";
    if (std::string why = ldsPathRefusal(req); !why.empty()) return why;
    if (tuning.groupColumns != 0) return "group-ID tiling (Tuning::groupColumns) is the general kernel's";
    return {};
}

// The general kernel for `req`: one tile per workgroup, no strips and no tail.
void useGeneralKernel(Request* req) {
    req->plainKernel = false;
    req->haloKernel = false;
    req->sumsKernel = false;
    useGeneralLayout(&req->plan);
    req->plan.tilesPerGroup = 1;
    setTail(&req->plan, 0, 1);
}

static_assert(kMaxTilesPerGroup == VKSPD_MAX_TILES_PER_GROUP, "the public limit is the shader's");

// Tuning::tilesPerGroup and tailTilesPerGroup (`field`): 0 or a power of two up to
// VKSPD_MAX_TILES_PER_GROUP.
Result checkTilesPerGroup(const char* field, uint32_t per) {
    if (per <= VKSPD_MAX_TILES_PER_GROUP && (per & (per - 1)) == 0) return {};
    return fail(VK_ERROR_UNKNOWN, std::string("Tuning::") + field + " " + std::to_string(per) +
                                      " must be 0 (the library's choice) or a power of two from 1 to " +
                                      std::to_string(VKSPD_MAX_TILES_PER_GROUP));
}

// Why `refusal` (plainKernelRefusal or haloKernelRefusal) refuses the request, after Fetch::Auto
// has yielded to loads where the kernel takes loads but not the linear sampler Auto chose: an
// explicit kernel with Fetch::Auto runs wherever one of the two fetches lets it. Empty: allowed,
// with req->linearFetch as the kernel takes it. Where both are refused, the reason given is the
// loads' (what still stands once Auto has yielded: an odd base's missing shuffles, say, not the
// sampler it never takes there).
std::string refusalAfterAutoFetch(std::string (*refusal)(const Tuning&, const Request&), const Tuning& tuning,
                                  const MipGenInfo& info, Request* req) {
    std::string why = refusal(tuning, *req);
    if (why.empty() || info.fetch != Fetch::Auto || !req->linearFetch) return why;
    req->linearFetch = false;
    why = refusal(tuning, *req);
    if (why.empty()) return {};
    req->linearFetch = true;
    return why;
}

// Kernel::Auto on a chain that is not plain: the halo-stage kernel wherever it takes the chain and
// its scratch fits one range, but for 16-byte texels without a source a plain prefix of
// kMinHaloPrefix levels over fewer than kWidePrefixTwoTiles tiles; else the general kernel stays.
// Fetch::Auto keeps its choice (the linear sampler on NVIDIA), or loads where the halo kernel
// refuses the sampler for this request (a depth source, an odd base). Measured on an H200 at first
// use (docs/PERFORMANCE.md, "Halo stages", "Odd bases"): as fast as the general kernel or faster at
// every prefix and format timed (1280x720 to 3840x2160; at a prefix of 2, 1600x900 to 8196x8196:
// RGBA8 4100x4100 85 against 130 us, R32F Min from D32 8196x8196 325 against 1014; on odd bases
// 255x255 to 8191x8191, RGBA8 4095x4095 128 against 293, RGBA32F 255x255 29.8 against 41.6,
// 1023x765 and 4095x3 level or faster), but RGBA32F at a prefix of 2 up to 1089 tiles (1600x900
// 43.8 us against the general kernel's 37.3, 2500x1500 79.6 / 71.5, 2052x2052 81.3 / 68.3; from
// 2145 tiles on it is faster: 4100x2052 105.4 / 109.4, 3004x3004 110.0 / 128.1, 4100x4100 156.4 /
// 188.3, 6148x3076 170.4 / 209.3; layers not measured); the sampler faster than loads at every size
// it took. Custom reductions too (its FP32 variant, compiled on first use: RGBA8 averaged by a
// custom reduction 1920x1080 29.5 against 41.0 us, 3840x2160 47.8 against 85.2, 4095x4095 181.0
// against 250.2; docs/PERFORMANCE.md, "Custom reductions on the plain and halo kernels").
constexpr uint64_t kWidePrefixTwoTiles = 2048;
void autoHaloStages(const Tuning& tuning, const MipGenInfo& info, uint64_t rangeLimit, Request* req) {
    if (req->plan.halo.stageCount == 0) return;
    const HaloPlan& halo = req->plan.halo;
    const uint64_t tiles = uint64_t(req->plan.stages[0].tilesX) * req->plan.stages[0].tilesY * req->plan.layers;
    if (req->decision.format.bytesPerTexel >= 16 && !req->hasSource && !halo.oddBase &&
        halo.stages[0].levels == kMinHaloPrefix && tiles < kWidePrefixTwoTiles)
        return;
    const bool linearFetch = req->linearFetch;
    if (!refusalAfterAutoFetch(haloKernelRefusal, tuning, info, req).empty()) return;
    useHaloStages(&req->plan, tuning.tilesPerGroup, req->decision.format.bytesPerTexel);
    if (req->plan.dataBytes > rangeLimit || req->plan.counterBytes > rangeLimit) {
        useGeneralKernel(req);
        req->linearFetch = linearFetch;
        return;
    }
    req->haloKernel = true;
}

// Kernel::Auto: the summed-levels kernel where it takes the chain, its plain prefix is shorter than
// a tile's six levels (a chain the halo-stage kernel would take in several stages), its own strips
// suit it (summedStripsSuitAuto: at most kSumMaxGroups groups of at most kAutoSumTilesPerGroup
// tiles), texels are at most 4 bytes and its records fit one range; in strips of
// summedTilesPerGroup tiles unless Tuning::tilesPerGroup says otherwise. Fetch::Auto keeps its
// choice where the kernel takes it, else loads. Measured on an H200 at first use
// (docs/PERFORMANCE.md, "Summed levels"), medians in us against the halo-stage kernel that Auto
// took before, same run: RGBA8 640x360 15.2 against 24.6, 1000x600 17.6 / 26.0, 1280x720 16.5 /
// 21.3, 1600x900 22.4 / 28.0, 1920x1080 20.4 / 24.1, 2560x1440 22.7 / 24.0, 3440x1440 27.1 / 34.3,
// 3200x1800 28.7 / 32.5, 3000x2000 29.3 / 44.6; R8 and R32F Min from D32 likewise (R8 2560x1440
// level: 19.9 / 20.1). Where it loses: a prefix of six (plain chains of 256x256 to 1024x1024 and
// 1024x768: 0.2-2.7 us slower than the plain and halo kernels), and in strips of 8 or more
// (3840x2160, 2040 tiles: level for RGBA8, Hi-Z 57.2 against 55.1). Wider texels are not measured.
bool autoSummedLevels(const Tuning& tuning, const MipGenInfo& info, uint64_t rangeLimit, Request* req) {
    const Plan& plan = req->plan;
    if (!plan.sums.prefix || plan.sums.prefix >= VKSPD_TILE_LEVELS || !summedStripsSuitAuto(plan) ||
        req->decision.format.bytesPerTexel > 4)
        return false;
    const bool linearFetch = req->linearFetch;
    if (!refusalAfterAutoFetch(sumsKernelRefusal, tuning, info, req).empty()) return false;
    Plan summed = plan;
    if (!useSummedLevels(&summed, tuning.tilesPerGroup, req->decision.format.bytesPerTexel, req->fp16,
                         tuning.tailTiles, tuning.tailTilesPerGroup) ||
        summed.counterBytes > rangeLimit) {
        req->linearFetch = linearFetch;
        return false;
    }
    req->plan = summed;
    req->sumsKernel = true;
    return true;
}

// The gather is stage 0's fetch in the plain-chain, halo-stage and summed-levels kernels; the
// general kernel and an odd base's stage 0 (which reads its taps texel by texel) load. Fetch::Auto
// drops it there; an explicit Fetch::Gather is an error.
Result checkGatherKernel(const MipGenInfo& info, Request* req) {
    if (!req->gatherFetch) return {};
    const bool oddBase = req->haloKernel && req->plan.halo.oddBase;
    if ((req->plainKernel || req->haloKernel || req->sumsKernel) && !oddBase) return {};
    req->gatherFetch = false;
    if (info.fetch != Fetch::Gather) return {};
    return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                oddBase ? "Fetch::Gather reads 2x2 blocks of the base, but the base or its level 1 has an odd side, "
                          "which the halo-stage kernel reads texel by texel; use Fetch::Load or Auto"
                        : "Fetch::Gather needs the plain-chain, halo-stage or summed-levels kernel, and this request "
                          "runs on the general kernel (asked for, or where Kernel::Auto finds that none of them "
                          "takes it); use Fetch::Load or Auto");
}

Result checkKernel(const Tuning& tuning, const MipGenInfo& info, uint64_t rangeLimit, Request* req) {
    useGeneralKernel(req);
    const uint32_t per = tuning.tilesPerGroup;
    if (Result r = checkTilesPerGroup("tilesPerGroup", per); !r.ok()) return r;
    if (Result r = checkTilesPerGroup("tailTilesPerGroup", tuning.tailTilesPerGroup); !r.ok()) return r;
    if (tuning.kernel == Kernel::General) return {};
    if (tuning.kernel == Kernel::SummedLevels) {
        std::string refusal = sumsKernelRefusal(tuning, *req);
        if (refusal.empty() &&
            !useSummedLevels(&req->plan, per, req->decision.format.bytesPerTexel, req->fp16, tuning.tailTiles,
                             tuning.tailTilesPerGroup,
                             plainMinGroups(req->decision.format.bytesPerTexel, req->fp16, req->linearFetch)))
            refusal = "even a strip of one tile has more shares of the later levels than its shared memory holds";
        if (!refusal.empty())
            return fail(VK_ERROR_FEATURE_NOT_PRESENT, "Kernel::SummedLevels: " + refusal + "; use Kernel::General or Auto");
        req->sumsKernel = true;
        return {};
    }
    // The halo-stage kernel where asked for; Auto takes it wherever it takes the chain
    // (autoHaloStages, below).
    if (tuning.kernel == Kernel::HaloStages) {
        const std::string refusal = refusalAfterAutoFetch(haloKernelRefusal, tuning, info, req);
        if (!refusal.empty())
            return fail(VK_ERROR_FEATURE_NOT_PRESENT, "Kernel::HaloStages: " + refusal + "; use Kernel::General or Auto");
        req->haloKernel = true;
        useHaloStages(&req->plan, per, req->decision.format.bytesPerTexel);
        return {};
    }
    if (tuning.kernel == Kernel::Auto && autoSummedLevels(tuning, info, rangeLimit, req)) return {};
    // Kernel::Auto keeps Fetch::Auto's choice here: where the plain kernel refuses the sampler
    // (a MipGenInfo::source) the general kernel takes it.
    const std::string refusal = tuning.kernel == Kernel::PlainChain
                                    ? refusalAfterAutoFetch(plainKernelRefusal, tuning, info, req)
                                    : plainKernelRefusal(tuning, *req);
    if (!refusal.empty()) {
        if (tuning.kernel == Kernel::Auto) {
            autoHaloStages(tuning, info, rangeLimit, req);
            return {};
        }
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "Kernel::PlainChain: " + refusal + "; use Kernel::General or Auto");
    }
    req->plainKernel = true;
    req->plan.tilesPerGroup =
        tilesPerGroupFor(req->plan, per, req->decision.format.bytesPerTexel,
                         plainMinGroups(req->decision.format.bytesPerTexel, req->fp16, req->linearFetch));
    setTail(&req->plan, tuning.tailTiles, tuning.tailTilesPerGroup);
    return {};
}

// Enum members from a cast or uninitialised memory: named, not silently taken as a default.
Result checkEnums(const MipGenInfo& info, const Tuning& tuning) {
    if (unsigned(info.precision) > unsigned(Precision::FP32))
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::precision " + std::to_string(int(info.precision)) +
                                          " is not a vkspd::Precision (Auto, FP16 or FP32)");
    if (unsigned(info.subgroupPath) > unsigned(SubgroupPath::LdsOnly))
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::subgroupPath " + std::to_string(int(info.subgroupPath)) +
                                          " is not a vkspd::SubgroupPath (Auto, Quad or LdsOnly)");
    if (unsigned(info.fetch) > unsigned(Fetch::Gather))
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::fetch " + std::to_string(int(info.fetch)) +
                                          " is not a vkspd::Fetch (Auto, Load, LinearSampler or Gather)");
    if (unsigned(tuning.kernel) > unsigned(Kernel::SummedLevels))
        return fail(VK_ERROR_UNKNOWN, "Tuning::kernel " + std::to_string(int(tuning.kernel)) +
                                          " is not a vkspd::Kernel (Auto, PlainChain, General, HaloStages or "
                                          "SummedLevels)");
    return {};
}

// The extent, the mip and layer ranges (setting req->levelCount and layerCount) and the layouts.
Result checkImageAndRanges(Context c, const MipGenInfo& info, Request* req) {
    if (info.extent.width == 0 || info.extent.height == 0)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::extent " + extentText(info.extent) +
                                          " is empty: both sides must be at least 1");
    const uint32_t limit = c->properties.limits.maxImageDimension2D;
    if (info.extent.width > limit || info.extent.height > limit)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::extent " + extentText(info.extent) +
                                          " exceeds the device's maxImageDimension2D " + std::to_string(limit));
    const uint32_t full = fullMipCount(info.extent.width, info.extent.height);
    if (info.imageMipLevels == 0 || info.imageMipLevels > full)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::imageMipLevels " + std::to_string(info.imageMipLevels) +
                                          " must be from 1 to " + std::to_string(full) + " for a " +
                                          extentText(info.extent) + " image");
    Result ranges = checkRange("baseMipLevel", "mip", "levels", info.baseMipLevel, info.levelCount,
                               info.imageMipLevels, &req->levelCount);
    if (!ranges.ok()) return ranges;
    if (info.imageArrayLayers == 0 || info.imageArrayLayers > c->properties.limits.maxImageArrayLayers)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::imageArrayLayers " + std::to_string(info.imageArrayLayers) +
                                          " must be from 1 to the device's maxImageArrayLayers " +
                                          std::to_string(c->properties.limits.maxImageArrayLayers));
    ranges = checkRange("baseArrayLayer", "layer", "layers", info.baseArrayLayer, info.layerCount,
                        info.imageArrayLayers, &req->layerCount);
    if (!ranges.ok()) return ranges;
    if (req->layerCount > c->properties.limits.maxComputeWorkGroupCount[2])
        return fail(VK_ERROR_UNKNOWN, std::to_string(req->layerCount) +
                                          " layers exceed the device's maxComputeWorkGroupCount[2] " +
                                          std::to_string(c->properties.limits.maxComputeWorkGroupCount[2]));
    if (undefinedLayout(info.before.layout) && !req->hasSource)
        return fail(VK_ERROR_UNKNOWN,
                    "MipGenInfo::before.layout is UNDEFINED or PREINITIALIZED: a transition from it "
                    "would discard the base level the mips are made from");
    if (undefinedLayout(info.after.layout))
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::after.layout cannot be UNDEFINED or PREINITIALIZED");
    return {};
}

// A SourceImage: at least two levels, the base level's extent, defined layouts.
Result checkSource(const MipGenInfo& info, VkExtent2D base, const Request& req) {
    if (!req.hasSource) return {};
    if (req.levelCount < 2)
        return fail(VK_ERROR_UNKNOWN, "with a MipGenInfo::source the mip range needs at least 2 levels (the "
                                      "copy of the source and one reduced level)");
    if (info.source.extent.width != base.width || info.source.extent.height != base.height)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::source.extent " + extentText(info.source.extent) +
                                          " must equal the extent of level " + std::to_string(info.baseMipLevel) +
                                          " of the image, " + extentText(base));
    if (undefinedLayout(info.source.before.layout) || undefinedLayout(info.source.after.layout))
        return fail(VK_ERROR_UNKNOWN,
                    "MipGenInfo::source.before.layout and source.after.layout must be defined layouts "
                    "(the source is read)");
    return {};
}

// The counters must fit one storage-buffer range, the data the ranges the kernel can bind: the
// general kernel's data binding is split into up to dataRangeSlots ranges (planDataRanges); the
// plain-chain and halo-stage kernels bind theirs (the kept levels) as one.
Result checkScratchFits(Context c, const MipGenInfo& info, VkExtent2D base, Request* req) {
    // Edge records of odd levels dominate: 276 texels of `channels` floats per 64x64 tile and
    // layer, so one layer of 16383x16383 RGBA needs 289 MB, more than the 2^27 bytes a device may
    // allow in one range.
    const uint64_t range = c->properties.limits.maxStorageBufferRange;
    const bool ranged = !req->plainKernel && !req->haloKernel && !req->sumsKernel;
    if (ranged) planDataRanges(&req->plan, c->dataRangeLimit);
    const uint32_t slots = ranged ? c->dataRangeSlots : 1;
    const bool dataOver = req->plan.dataRanges > slots || (!ranged && req->plan.dataBytes > range);
    if (dataOver || req->plan.counterBytes > range) {
        const uint64_t bytes = dataOver ? req->plan.dataBytes : req->plan.counterBytes;
        const std::string deviceRange = "the device's maxStorageBufferRange " + std::to_string(range);
        uint64_t limit = range;
        std::string limitText = deviceRange;
        if (dataOver && ranged) {
            limit = uint64_t(slots) * dataRangeBytes(req->plan);
            limitText = std::to_string(limit) + " bytes (" + std::to_string(slots) + " ranges of at most " +
                        (c->dataRangeLimit < range ? "ContextTuning::maxDataRangeBytes " +
                                                         std::to_string(c->dataRangeLimit)
                                                   : deviceRange) +
                        ")";
        } else if (dataOver) {
            limitText += " (this kernel binds its data as one range)";
        }
        const uint64_t perLayer = bytes / req->plan.layers;
        std::string advice = perLayer <= limit ? "; generate fewer layers per call (at most " +
                                                     std::to_string(limit / perLayer) + ")"
                                               : "; one layer of this mip range is already too large for this "
                                                 "kernel on this device";
        if (dataOver && !ranged && c->dataRangeSlots > 1)
            advice += ", or use Kernel::General (it binds its data in up to " + std::to_string(c->dataRangeSlots) +
                      " ranges)";
        return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                    "mip range " + levelRange(info.baseMipLevel, req->levelCount) + " of " +
                        std::to_string(req->plan.layers) + " layer(s) of " + extentText(base) + " needs " +
                        std::to_string(bytes) + " bytes of scratch " + (dataOver ? "data" : "counters") +
                        ", more than " + limitText + advice);
    }
    return {};
}

// Whether Precision::Auto may take the FP32 variants for a request the FP16 ones could run: Min
// and Max on NVIDIA, where the plain-chain or summed-levels kernel takes it (checkRequest).
// There the FP16 variants' NaN-propagating minimum and maximum of halves (nanMin, nanMax) cost
// more than the FP32 ones' (H200: RGBA8 Min 4096x4096 94.0 -> 59.1 us, R8 Min 8192x8192 226.8 ->
// 122.8, RGBA8 Min 1920x1080 27.7 -> 24.5); on the halo-stage kernel the FP32 variants run fewer
// groups per SM and were slower (RGBA8 Min 4095x4095 156.4 -> 252.8 us, R8 Min 3840x2160 36.2 ->
// 42.7), and MinMax on the plain-chain kernel gained at 2048x2048 but lost at 8192x8192 (162.5 ->
// 177.5): docs/PERFORMANCE.md, "FP32 for Min and Max on NVIDIA".
bool autoPrefersFp32(Context c, const MipGenInfo& info, const Request& req) {
    const uint32_t r = req.decision.reduction;
    return info.precision == Precision::Auto && req.fp16 && (r == VKSPD_REDUCTION_MIN || r == VKSPD_REDUCTION_MAX) &&
           c->properties.vendorID == kVendorNvidia;
}

// Precision: sets req->fp16, or refuses a precision the format or the device cannot take.
// Precision::Auto takes FP16 where it can; checkRequest may then take FP32 (autoPrefersFp32).
Result choosePrecision(Context c, const MipGenInfo& info, Request* req) {
    const bool fp16Possible = req->decision.fp16Possible;
    switch (info.precision) {
    case Precision::FP16:
        if (!fp16Possible)
            return fail(VK_ERROR_FORMAT_NOT_SUPPORTED,
                        std::string("Precision::FP16 cannot hold the precision of ") +
                            (req->hasSource && !req->decision.sourceFormat.fp16Capable ? req->decision.sourceFormat.name
                                                                                       : req->decision.format.name) +
                            (req->decision.reduction == VKSPD_REDUCTION_CUSTOM ? " with a custom reduction" : "") +
                            "; use FP32 or Auto");
        if (!c->info.shaderFloat16Enabled)
            return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                        "Precision::FP16 needs shaderFloat16 enabled on the device "
                        "(ContextCreateInfo::shaderFloat16Enabled)");
        req->fp16 = true;
        break;
    case Precision::FP32: req->fp16 = false; break;
    case Precision::Auto: req->fp16 = fp16Possible && c->info.shaderFloat16Enabled; break;
    default:
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::precision " + std::to_string(int(info.precision)) +
                                          " is not a vkspd::Precision");
    }
    return {};
}

// Subgroup path: sets req->quad, or refuses the quad path on a device without quad operations;
// also req->shuffleRelative, the device's relative shuffles, which the halo-stage kernel's refusal
// (haloKernelRefusal, given the request alone) needs for an odd base.
Result chooseSubgroupPath(Context c, const MipGenInfo& info, Request* req) {
    switch (info.subgroupPath) {
    case SubgroupPath::Quad:
        if (!c->quadSupported)
            return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                        "SubgroupPath::Quad: this device lacks VK_SUBGROUP_FEATURE_QUAD_BIT in compute");
        req->quad = true;
        break;
    case SubgroupPath::LdsOnly: req->quad = false; break;
    case SubgroupPath::Auto: req->quad = c->quadSupported; break;
    default:
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::subgroupPath " + std::to_string(int(info.subgroupPath)) +
                                          " is not a vkspd::SubgroupPath");
    }
    req->shuffleRelative = c->shuffleRelativeSupported;
    return {};
}

// A caller's scratch offset: a storage buffer offset and a vkCmdFillBuffer offset.
Result checkScratchOffset(Context c, const MipGenInfo& info) {
    if (!info.scratchBuffer) return {};
    const VkDeviceSize align = std::max<VkDeviceSize>(c->properties.limits.minStorageBufferOffsetAlignment, 4);
    if (info.scratchOffset % align != 0)
        return fail(VK_ERROR_UNKNOWN, "MipGenInfo::scratchOffset " + std::to_string(info.scratchOffset) +
                                          " is not a multiple of " + std::to_string(align) +
                                          " (minStorageBufferOffsetAlignment, and 4)");
    return {};
}

// The fetch, the group columns and the kernel for a request whose precision and subgroup path
// are chosen.
Result chooseFetchAndKernel(Context c, const MipGenInfo& info, const Tuning& tuning, Request* req) {
    if (Result r = checkFetch(c, info, req); !r.ok()) return r;
    req->groupColumns = std::min(tuning.groupColumns, req->plan.groupsX());
    if (Result r = checkKernel(tuning, info, c->dataRangeLimit, req); !r.ok()) return r;
    return checkGatherKernel(info, req);
}

// Everything generateMips checks before it records, in this order: the context and the enums,
// the format and path, the image and its ranges, the source, the plan; then, on the single pass,
// the scratch size, precision, subgroup path, fetch, kernel and the caller's scratch offset.
Result checkRequest(Context c, const MipGenInfo& info, Request* req) {
    if (!c) return fail(VK_ERROR_UNKNOWN, "the context is null");
    if (!contextIsLive(c)) return fail(VK_ERROR_UNKNOWN, deadContextMessage(c));
    if (!info.image) return fail(VK_ERROR_UNKNOWN, "MipGenInfo::image is null");
    const Tuning& tuning = tuningOf(info);
    if (Result r = checkEnums(info, tuning); !r.ok()) return r;
    FormatInfo format;
    if (!getFormatInfo(info.format, &format))
        return fail(VK_ERROR_FORMAT_NOT_SUPPORTED, "MipGenInfo::format " + std::to_string(int(info.format)) +
                                                       " is not one vkspd supports (docs/FILTER.md lists them)");
    // usage 0: an image made for the single pass.
    VkImageUsageFlags usage = info.usage;
    VkImageCreateFlags createFlags = info.createFlags;
    if (!usage) {
        usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
        if (format.encoding == ChannelEncoding::Srgb8) createFlags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    }
    req->hasSource = info.source.image != VK_NULL_HANDLE;
    if (info.reduction == Reduction::Custom && !info.customReduction)
        return fail(VK_ERROR_UNKNOWN, "Reduction::Custom needs MipGenInfo::customReduction (createCustomReduction)");
    req->decision = decide(c, info.format, usage, createFlags, info.reduction,
                           req->hasSource ? info.source.format : VK_FORMAT_UNDEFINED, info.customReduction != nullptr);
    if (req->path() == Path::None)
        return fail(VK_ERROR_FORMAT_NOT_SUPPORTED, "MipGenInfo::format: " + req->decision.capability.reason);

    if (Result r = checkImageAndRanges(c, info, req); !r.ok()) return r;
    const VkExtent2D base{mipExtent(info.extent.width, info.baseMipLevel),
                          mipExtent(info.extent.height, info.baseMipLevel)};
    if (Result r = checkSource(info, base, *req); !r.ok()) return r;
    const uint32_t channels = req->decision.reduction == VKSPD_REDUCTION_MINMAX   ? 2
                              : req->decision.reduction == VKSPD_REDUCTION_CUSTOM ? 4
                                                                                  : format.channels;
    std::string error;
    if (!makePlan(base.width, base.height, req->levelCount - 1, req->layerCount, channels, &req->plan, &error))
        return fail(VK_ERROR_UNKNOWN, "mip range " + levelRange(info.baseMipLevel, req->levelCount) + ": " + error);

    if (req->path() != Path::SinglePass) return {};

    if (Result r = choosePrecision(c, info, req); !r.ok()) return r;
    if (Result r = chooseSubgroupPath(c, info, req); !r.ok()) return r;
    // Precision::Auto: Min and Max on NVIDIA in FP32 where the plain-chain or summed-levels kernel
    // takes the chain at FP16 and again at FP32 (autoPrefersFp32): the kernel is chosen again from
    // the request before it, since the summed levels' strips depend on the precision.
    const bool fp32Preferred = autoPrefersFp32(c, info, *req);
    Request fp32;
    if (fp32Preferred) {
        fp32 = *req;
        fp32.fp16 = false;
    }
    if (Result r = chooseFetchAndKernel(c, info, tuning, req); !r.ok()) return r;
    if (fp32Preferred && (req->plainKernel || req->sumsKernel) && chooseFetchAndKernel(c, info, tuning, &fp32).ok() &&
        (fp32.plainKernel || fp32.sumsKernel))
        *req = fp32;
    // After the kernel: the halo-stage kernel's scratch is its own.
    if (Result r = checkScratchFits(c, info, base, req); !r.ok()) return r;
    return checkScratchOffset(c, info);
}

VkDeviceSize userScratchBytes(Context c, const Plan& plan) {
    const VkDeviceSize align = c->properties.limits.minStorageBufferOffsetAlignment;
    return alignUp(plan.counterBytes, align > 256 ? align : 256) + plan.dataBytes;
}

// Legacy stage/access masks for devices without synchronization2: every legacy bit has the same
// value in the 2 enums; the 2-only bits map to the legacy bit that contains them.
VkPipelineStageFlags legacyStages(VkPipelineStageFlags2 s, bool source) {
    VkPipelineStageFlags out = VkPipelineStageFlags(s & 0x7FFFFFFFull);
    if (s & (VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT |
             VK_PIPELINE_STAGE_2_RESOLVE_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT))
        out |= VK_PIPELINE_STAGE_TRANSFER_BIT;
    if (s & (VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT))
        out |= VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
    if (!out) out = source ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    return out;
}

VkAccessFlags legacyAccess(VkAccessFlags2 a) {
    VkAccessFlags out = VkAccessFlags(a & 0x7FFFFFFFull);
    if (a & (VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT))
        out |= VK_ACCESS_SHADER_READ_BIT;
    if (a & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) out |= VK_ACCESS_SHADER_WRITE_BIT;
    return out;
}

struct ImageBarrier {
    VkImage image;
    VkImageAspectFlags aspect;
    uint32_t baseLevel, levels, baseLayer, layers;
    VkPipelineStageFlags2 srcStages, dstStages;
    VkAccessFlags2 srcAccess, dstAccess;
    VkImageLayout oldLayout, newLayout;
};

// Records `count` image barriers in one command; with `scratch`, also orders the previous
// dispatch's scratch accesses before this one's (and, with `clear`, before a vkCmdFillBuffer
// that clears the counters first: recordCounterClear).
void recordBarriers(Context c, VkCommandBuffer cmd, const ImageBarrier* barriers, uint32_t count, bool scratch,
                    bool clear = false) {
    const VkPipelineStageFlags2 compute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    const VkAccessFlags2 scratchAccess = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    if (c->fn.vkCmdPipelineBarrier2) {
        VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        mb.srcStageMask = compute;
        mb.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
        mb.dstStageMask = compute | (clear ? VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT : 0);
        mb.dstAccessMask = scratchAccess | (clear ? VK_ACCESS_2_TRANSFER_WRITE_BIT : 0);
        VkImageMemoryBarrier2 ib[2];
        for (uint32_t i = 0; i < count; ++i) {
            const ImageBarrier& b = barriers[i];
            ib[i] = VkImageMemoryBarrier2{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
            ib[i].srcStageMask = b.srcStages;
            ib[i].srcAccessMask = b.srcAccess;
            ib[i].dstStageMask = b.dstStages;
            ib[i].dstAccessMask = b.dstAccess;
            ib[i].oldLayout = b.oldLayout;
            ib[i].newLayout = b.newLayout;
            ib[i].srcQueueFamilyIndex = ib[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            ib[i].image = b.image;
            ib[i].subresourceRange = {b.aspect, b.baseLevel, b.levels, b.baseLayer, b.layers};
        }
        VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        di.memoryBarrierCount = scratch ? 1 : 0;
        di.pMemoryBarriers = &mb;
        di.imageMemoryBarrierCount = count;
        di.pImageMemoryBarriers = ib;
        c->fn.vkCmdPipelineBarrier2(cmd, &di);
        return;
    }
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | (clear ? VK_ACCESS_TRANSFER_WRITE_BIT : 0);
    VkImageMemoryBarrier ib[2];
    VkPipelineStageFlags src = 0, dst = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const ImageBarrier& b = barriers[i];
        ib[i] = VkImageMemoryBarrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        ib[i].srcAccessMask = legacyAccess(b.srcAccess);
        ib[i].dstAccessMask = legacyAccess(b.dstAccess);
        ib[i].oldLayout = b.oldLayout;
        ib[i].newLayout = b.newLayout;
        ib[i].srcQueueFamilyIndex = ib[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        ib[i].image = b.image;
        ib[i].subresourceRange = {b.aspect, b.baseLevel, b.levels, b.baseLayer, b.layers};
        src |= legacyStages(b.srcStages, true);
        dst |= legacyStages(b.dstStages, false);
    }
    if (scratch) {
        src |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        dst |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | (clear ? VK_PIPELINE_STAGE_TRANSFER_BIT : 0);
    }
    c->fn.vkCmdPipelineBarrier(cmd, src, dst, 0, scratch ? 1 : 0, &mb, 0, nullptr, count, ib);
}

// Zero-fills `bytes` of counters at `offset` of a caller's scratch buffer, after recordBarriers(...,
// clear = true), and makes the zeros visible to the dispatch. Another request's data may lie where
// this one's counters are (their offsets depend on the layout), so they are cleared every time.
void recordCounterClear(Context c, VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize bytes) {
    c->fn.vkCmdFillBuffer(cmd, buffer, offset, bytes, 0);
    if (c->fn.vkCmdPipelineBarrier2) {
        VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        mb.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
        mb.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        mb.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
        mb.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
        VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        di.memoryBarrierCount = 1;
        di.pMemoryBarriers = &mb;
        c->fn.vkCmdPipelineBarrier2(cmd, &di);
        return;
    }
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    c->fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb,
                               0, nullptr, 0, nullptr);
}

// A barrier on levels [first, first + count) of the request's layers of the image.
ImageBarrier levelsBarrier(const MipGenInfo& info, const Request& req, uint32_t first, uint32_t count,
                           VkPipelineStageFlags2 srcStages, VkAccessFlags2 srcAccess, VkImageLayout oldLayout,
                           VkPipelineStageFlags2 dstStages, VkAccessFlags2 dstAccess, VkImageLayout newLayout) {
    return {info.image, VK_IMAGE_ASPECT_COLOR_BIT, first, count, info.baseArrayLayer, req.layerCount,
            srcStages, dstStages, srcAccess, dstAccess, oldLayout, newLayout};
}

VkImageAspectFlags sourceAspect(const Request& req) {
    return req.decision.sourceFormat.depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

// The source image's subresources between the caller's states and `layout` for `stages`.
ImageBarrier sourceBarrier(const MipGenInfo& info, const Request& req, bool toUse, VkImageLayout layout,
                           VkPipelineStageFlags2 stages) {
    const ImageState& s = toUse ? info.source.before : info.source.after;
    const VkAccessFlags2 read = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    ImageBarrier b{info.source.image, sourceAspect(req), info.source.mipLevel, 1, info.source.baseArrayLayer,
                   req.layerCount, s.stages, stages, s.access, read, s.layout, layout};
    if (!toUse) {
        b.srcStages = stages;
        b.srcAccess = read;
        b.dstStages = s.stages;
        b.dstAccess = s.access;
        b.oldLayout = layout;
        b.newLayout = s.layout;
    }
    return b;
}

uint32_t pushFlags(const Request& req) {
    uint32_t flags = 0;
    if (req.decision.format.encoding == ChannelEncoding::Srgb8 && req.path() == Path::SinglePass) flags |= VKSPD_FLAG_SRGB;
    if (req.hasSource) flags |= VKSPD_FLAG_COPY_BASE;
    // MinMax only: the plain and halo kernels' other modules do not test it (sourceTexel).
    if (req.hasSource && req.decision.reduction == VKSPD_REDUCTION_MINMAX && req.decision.sourceFormat.channels == 1)
        flags |= VKSPD_FLAG_EXPAND_MINMAX;
    if (req.linearFetch) flags |= VKSPD_FLAG_LINEAR_FETCH;
    return flags;
}

// --- The single pass ------------------------------------------------------------------------

// What a single-pass dispatch binds, made before anything is recorded.
struct SinglePassBindings {
    VkImageView sourceView = VK_NULL_HANDLE;
    VkImageView sourceTexelView = VK_NULL_HANDLE;  // the sampled level's first layer, 2D
    // Element k is level base + k (element 0: the base, written only as the copy of a source).
    std::array<VkImageView, VKSPD_MAX_LEVELS + 1> levelViews{};
    VkPipeline pipeline = VK_NULL_HANDLE;
};

// The views and the pipeline of a single-pass dispatch (everything that can fail).
Result prepareSinglePass(Context c, const MipGenInfo& info, const Request& req, const DebugMapInfo* map,
                         SinglePassBindings* b) {
    Result r;
    // The sampled level as an array (texelFetch) and its first layer in 2D (the linear fetch):
    // both on every dispatch, as every kernel declares both bindings.
    for (VkImageViewType type : {VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_VIEW_TYPE_2D}) {
        const bool array = type == VK_IMAGE_VIEW_TYPE_2D_ARRAY;
        VkImageView* view = array ? &b->sourceView : &b->sourceTexelView;
        if (req.hasSource) {
            r = getView(c, info.source.image, info.source.format, sourceAspect(req), type, VK_IMAGE_USAGE_SAMPLED_BIT,
                        info.source.mipLevel, info.source.baseArrayLayer, array ? req.layerCount : 1, view);
        } else {
            r = getView(c, info.image, info.format, VK_IMAGE_ASPECT_COLOR_BIT, type, VK_IMAGE_USAGE_SAMPLED_BIT,
                        info.baseMipLevel, info.baseArrayLayer, array ? req.layerCount : 1, view);
        }
        if (!r.ok()) return r;
    }
    for (uint32_t k = req.hasSource ? 0 : 1; k <= req.plan.levels; ++k) {
        r = getView(c, info.image, req.decision.format.storageFormat, VK_IMAGE_ASPECT_COLOR_BIT,
                    VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_USAGE_STORAGE_BIT, info.baseMipLevel + k,
                    info.baseArrayLayer, req.layerCount, &b->levelViews[k]);
        if (!r.ok()) return r;
    }
    if (map) {
        if (req.plan.dataRanges > 1)
            return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                        "the debug map's variant binds its scratch data as one range; this request needs " +
                            std::to_string(req.plan.dataRanges) + " (maxStorageBufferRange)");
        return getDebugPipeline(c, req.fp16, req.quad, map->smBuiltinsEnabled, &b->pipeline);
    }
    if (req.plainKernel || req.haloKernel || req.sumsKernel)
        return getPlainPipeline(c, req.decision.reduction, req.fp16, &b->pipeline,
                                halfDenormalsMatter(req.decision.format), (pushFlags(req) & VKSPD_FLAG_SRGB) != 0u,
                                req.hasSource, req.haloKernel, normalizedValues(req), req.plan.channels,
                                req.linearFetch, req.haloKernel && req.plan.halo.oddBase, req.sumsKernel,
                                info.customReduction, req.gatherFetch, req.quad);
    return getComputePipeline(c, req.decision.reduction, req.fp16, req.quad, info.customReduction, &b->pipeline,
                              halfDenormalsMatter(req.decision.format), oneSiteFor(req.plan), req.plan.dataRangeShift);
}

// The scratch of a dispatch: the caller's buffer (counters, then data at the next aligned
// offset), or the ring's next slot.
Result scratchFor(Context c, const MipGenInfo& info, const Plan& plan, ScratchRange* scratch) {
    if (!info.scratchBuffer) return acquireScratch(c, plan, scratch);
    const VkDeviceSize align = c->properties.limits.minStorageBufferOffsetAlignment;
    scratch->counters = scratch->data = info.scratchBuffer;
    scratch->countersOffset = info.scratchOffset;
    scratch->dataOffset = info.scratchOffset + alignUp(plan.counterBytes, align > 256 ? align : 256);
    return {};
}

// Zero-fills the debug map before the dispatch writes it.
void recordDebugMapClear(Context c, VkCommandBuffer cmd, const DebugMapInfo& map, VkDeviceSize bytes) {
    c->fn.vkCmdFillBuffer(cmd, map.buffer, map.offset, bytes, 0);
    VkBufferMemoryBarrier b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.buffer = map.buffer;
    b.offset = map.offset;
    b.size = bytes;
    c->fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
                               nullptr, 1, &b, 0, nullptr);
}

// Pushes the dispatch's descriptors: source, level array, counters, data (and the debug map).
void pushSinglePassDescriptors(Context c, VkCommandBuffer cmd, VkPipelineLayout layout, const Request& req,
                               const SinglePassBindings& b, const ScratchRange& scratch, const DebugMapInfo* map,
                               VkDeviceSize mapBytes) {
    const Plan& plan = req.plan;
    // The samplers are not immutable: the texel-coordinate binding's is LINEAR only for
    // Fetch::LinearSampler (one layer: linearFetchAllowed); texelFetch ignores the array's.
    const VkImageLayout sourceLayout = req.hasSource ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL;
    VkDescriptorImageInfo source{c->sampler, b.sourceView, sourceLayout};
    VkDescriptorImageInfo sourceTexels{req.linearFetch ? c->linearTexelSampler : c->texelSampler, b.sourceTexelView,
                                       sourceLayout};
    VkDescriptorImageInfo levels[VKSPD_MAX_LEVELS + 1];
    for (uint32_t k = 0; k <= VKSPD_MAX_LEVELS; ++k) {
        // Elements the shader never writes repeat level base + 1 (or the base): every element of a
        // statically used array must be a valid descriptor.
        VkImageView v = k <= plan.levels ? b.levelViews[k] : VK_NULL_HANDLE;
        if (!v) v = b.levelViews[req.hasSource ? 0 : 1];
        levels[k] = {VK_NULL_HANDLE, v, VK_IMAGE_LAYOUT_GENERAL};
    }
    VkDescriptorBufferInfo counters{scratch.counters, scratch.countersOffset, plan.counterBytes};
    // Data past one range: the plan's ranges, and the first one again in the bindings of ranges
    // it does not have (the ranged kernel declares every binding of the layout).
    VkDescriptorBufferInfo data[VKSPD_MAX_DATA_RANGES];
    const uint64_t rangeBytes = dataRangeBytes(plan);
    const uint32_t dataBindings = plan.dataRanges > 1 ? c->dataRangeSlots : 1;
    for (uint32_t k = 0; k < dataBindings; ++k) {
        const uint64_t first = k < plan.dataRanges ? k * rangeBytes : 0;
        data[k] = {scratch.data, scratch.dataOffset + first, std::min(rangeBytes, plan.dataBytes - first)};
    }
    VkDescriptorBufferInfo mapInfo{map ? map->buffer : VK_NULL_HANDLE, map ? map->offset : 0, mapBytes};
    VkWriteDescriptorSet writes[6 + VKSPD_MAX_DATA_RANGES - 1] = {};
    for (auto& w : writes) w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[0].dstBinding = VKSPD_BINDING_SOURCE;
    writes[0].descriptorCount = 1;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[0].pImageInfo = &source;
    writes[1].dstBinding = VKSPD_BINDING_DEST;
    writes[1].descriptorCount = VKSPD_MAX_LEVELS + 1;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    writes[1].pImageInfo = levels;
    writes[2].dstBinding = VKSPD_BINDING_COUNTERS;
    writes[2].descriptorCount = 1;
    writes[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[2].pBufferInfo = &counters;
    writes[3].dstBinding = VKSPD_BINDING_DATA;
    writes[3].descriptorCount = 1;
    writes[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[3].pBufferInfo = &data[0];
    writes[4].dstBinding = VKSPD_BINDING_SOURCE_TEXELS;
    writes[4].descriptorCount = 1;
    writes[4].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[4].pImageInfo = &sourceTexels;
    uint32_t count = 5;
    if (map) {
        writes[count].dstBinding = VKSPD_BINDING_DEBUG_MAP;
        writes[count].descriptorCount = 1;
        writes[count].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[count++].pBufferInfo = &mapInfo;
    }
    for (uint32_t k = 1; k < dataBindings; ++k) {
        writes[count].dstBinding = VKSPD_BINDING_DATA_RANGE1 + k - 1;
        writes[count].descriptorCount = 1;
        writes[count].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[count++].pBufferInfo = &data[k];
    }
    c->fn.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, count, writes);
}

// The single pass: barriers from `before`, the caller's scratch cleared (where given), the
// dispatch, barriers to `after`. With `map`, the debug variant (debug.hpp): its own pipeline and
// layout, and the map zero-filled before the dispatch.
Result recordSinglePass(Context c, VkCommandBuffer cmd, const MipGenInfo& info, const Request& req,
                        const DebugMapInfo* map = nullptr) {
    const Plan& plan = req.plan;
    const VkPipelineStageFlags2 compute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    const VkAccessFlags2 shaderAccess = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

    // Everything that can fail happens before the first command is recorded.
    SinglePassBindings bindings;
    if (Result r = prepareSinglePass(c, info, req, map, &bindings); !r.ok()) return r;
    const VkPipelineLayout layout = map ? c->debug.layout : c->pipelineLayout;
    // Nothing below can fail: a scratch slot, once taken, is always used.
    ScratchRange scratch;
    if (Result r = scratchFor(c, info, plan, &scratch); !r.ok()) return r;

    ImageBarrier before[2] = {
        levelsBarrier(info, req, info.baseMipLevel, req.levelCount, info.before.stages, info.before.access,
                      info.before.layout, compute, shaderAccess, VK_IMAGE_LAYOUT_GENERAL),
        {}};
    if (req.hasSource) before[1] = sourceBarrier(info, req, true, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, compute);
    recordBarriers(c, cmd, before, req.hasSource ? 2 : 1, true, info.scratchBuffer != VK_NULL_HANDLE);
    if (info.scratchBuffer) recordCounterClear(c, cmd, scratch.counters, scratch.countersOffset, plan.counterBytes);
    const VkDeviceSize mapBytes =
        kDebugMapHeaderBytes + VkDeviceSize(plan.groupsX()) * plan.groupsY() * plan.layers * sizeof(DebugMapTile);
    if (map) recordDebugMapClear(c, cmd, *map, mapBytes);

    c->fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, bindings.pipeline);
    pushSinglePassDescriptors(c, cmd, layout, req, bindings, scratch, map, mapBytes);
    if (req.haloKernel) {
        shader::HaloPushConstants pc = haloPushConstantsFor(plan);
        pc.flags |= pushFlags(req);
        c->fn.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
    } else if (req.sumsKernel) {
        shader::SumPushConstants pc = sumPushConstantsFor(plan);
        pc.flags |= pushFlags(req);
        c->fn.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
    } else {
        shader::PushConstants pc = pushConstantsFor(plan);
        pc.flags |= pushFlags(req);
        pc.groupColumns = req.groupColumns;
        c->fn.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
    }
    c->fn.vkCmdDispatch(cmd, plan.groupsX(), plan.groupsY(), plan.layers);

    ImageBarrier after[2] = {
        levelsBarrier(info, req, info.baseMipLevel, req.levelCount, compute, shaderAccess, VK_IMAGE_LAYOUT_GENERAL,
                      info.after.stages, info.after.access, info.after.layout),
        {}};
    if (req.hasSource) after[1] = sourceBarrier(info, req, false, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, compute);
    recordBarriers(c, cmd, after, req.hasSource ? 2 : 1, false);
    return {};
}

// --- The render-pass fallback ---------------------------------------------------------------

Result recordRenderPasses(Context c, VkCommandBuffer cmd, const MipGenInfo& info, const Request& req) {
    const uint32_t base = info.baseMipLevel, levels = req.levelCount, layers = req.layerCount;
    VkRenderPass renderPass = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    Result r = getLevelPipeline(c, info.format, &renderPass, &pipeline);
    if (!r.ok()) return r;
    // Views and framebuffers first: nothing is recorded unless all exist.
    std::vector<VkImageView> sampled(levels);  // level base + k, all layers of the range
    std::vector<VkFramebuffer> framebuffers(size_t(levels) * layers);  // [k * layers + layer]
    for (uint32_t k = 0; k < levels; ++k) {
        if (k + 1 < levels) {
            r = getView(c, info.image, info.format, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                        VK_IMAGE_USAGE_SAMPLED_BIT, base + k, info.baseArrayLayer, layers, &sampled[k]);
            if (!r.ok()) return r;
        }
        if (k == 0 && !req.hasSource) continue;
        const VkExtent2D e{mipExtent(info.extent.width, base + k), mipExtent(info.extent.height, base + k)};
        for (uint32_t l = 0; l < layers; ++l) {
            VkImageView attachment;
            r = getView(c, info.image, info.format, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_VIEW_TYPE_2D,
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, base + k, info.baseArrayLayer + l, 1, &attachment,
                        renderPass, &e, &framebuffers[size_t(k) * layers + l]);
            if (!r.ok()) return r;
        }
    }
    VkImageView sourceView = VK_NULL_HANDLE;
    if (req.hasSource) {
        r = getView(c, info.source.image, info.source.format, sourceAspect(req), VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                    VK_IMAGE_USAGE_SAMPLED_BIT, info.source.mipLevel, info.source.baseArrayLayer, layers, &sourceView);
        if (!r.ok()) return r;
    }

    const VkPipelineStageFlags2 fragment = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    const VkPipelineStageFlags2 output = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkAccessFlags2 sampledRead = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    const VkAccessFlags2 colorWrite = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    const VkImageLayout readLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    const VkImageLayout writeLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    const ImageState& b = info.before;
    {
        // The base level is read (or, from a source, written first); the others are written.
        ImageBarrier first[2];
        uint32_t n = 0;
        if (req.hasSource) {
            first[n++] = levelsBarrier(info, req, base, levels, b.stages, b.access, b.layout, output, colorWrite,
                                       writeLayout);
            first[n++] = sourceBarrier(info, req, true, readLayout, fragment);
        } else {
            first[n++] = levelsBarrier(info, req, base, 1, b.stages, b.access, b.layout, fragment, sampledRead,
                                       readLayout);
            first[n++] = levelsBarrier(info, req, base + 1, levels - 1, b.stages, b.access, b.layout, output,
                                       colorWrite, writeLayout);
        }
        recordBarriers(c, cmd, first, n, false);
    }
    c->fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    const uint32_t expand = pushFlags(req) & VKSPD_FLAG_EXPAND_MINMAX;
    for (uint32_t k = req.hasSource ? 0 : 1; k < levels; ++k) {
        const VkExtent2D e{mipExtent(info.extent.width, base + k), mipExtent(info.extent.height, base + k)};
        const VkViewport viewport{0.0f, 0.0f, float(e.width), float(e.height), 0.0f, 1.0f};
        const VkRect2D area{{0, 0}, e};
        c->fn.vkCmdSetViewport(cmd, 0, 1, &viewport);
        c->fn.vkCmdSetScissor(cmd, 0, 1, &area);
        VkDescriptorImageInfo image{VK_NULL_HANDLE, k == 0 ? sourceView : sampled[k - 1], readLayout};
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstBinding = 0;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        write.pImageInfo = &image;
        c->fn.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->levelPipelineLayout, 0, 1, &write);
        for (uint32_t l = 0; l < layers; ++l) {
            const uint32_t push[5] = {mipExtent(info.extent.width, base + k - (k ? 1 : 0)),
                                      mipExtent(info.extent.height, base + k - (k ? 1 : 0)), l,
                                      req.decision.reduction, k == 0 ? (VKSPD_FLAG_COPY_BASE | expand) : 0u};
            c->fn.vkCmdPushConstants(cmd, c->levelPipelineLayout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push, push);
            VkRenderPassBeginInfo rb{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
            rb.renderPass = renderPass;
            rb.framebuffer = framebuffers[size_t(k) * layers + l];
            rb.renderArea = area;
            c->fn.vkCmdBeginRenderPass(cmd, &rb, VK_SUBPASS_CONTENTS_INLINE);
            c->fn.vkCmdDraw(cmd, 3, 1, 0, 0);
            c->fn.vkCmdEndRenderPass(cmd);
        }
        // The level just written is read by the next one.
        const ImageBarrier done = levelsBarrier(info, req, base + k, 1, output, colorWrite, writeLayout, fragment,
                                                sampledRead, readLayout);
        recordBarriers(c, cmd, &done, 1, false);
    }
    ImageBarrier last[2] = {levelsBarrier(info, req, base, levels, fragment | output, sampledRead | colorWrite,
                                          readLayout, info.after.stages, info.after.access, info.after.layout),
                            {}};
    if (req.hasSource) last[1] = sourceBarrier(info, req, false, readLayout, fragment);
    recordBarriers(c, cmd, last, req.hasSource ? 2 : 1, false);
    return {};
}

// --- The blit chain -------------------------------------------------------------------------

void recordBlits(Context c, VkCommandBuffer cmd, const MipGenInfo& info, const Request& req) {
    const uint32_t base = info.baseMipLevel, levels = req.levelCount;
    const VkPipelineStageFlags2 blit = VK_PIPELINE_STAGE_2_BLIT_BIT;
    const VkAccessFlags2 read = VK_ACCESS_2_TRANSFER_READ_BIT, write = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    const VkImageLayout src = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    const ImageState& b = info.before;
    const ImageBarrier first[2] = {
        levelsBarrier(info, req, base, 1, b.stages, b.access, b.layout, blit, read, src),
        levelsBarrier(info, req, base + 1, levels - 1, b.stages, b.access, b.layout, blit, write, dst)};
    recordBarriers(c, cmd, first, 2, false);
    for (uint32_t k = 1; k < levels; ++k) {
        VkImageBlit region{};
        region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, base + k - 1, info.baseArrayLayer, req.layerCount};
        region.srcOffsets[1] = {int32_t(mipExtent(info.extent.width, base + k - 1)),
                                int32_t(mipExtent(info.extent.height, base + k - 1)), 1};
        region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, base + k, info.baseArrayLayer, req.layerCount};
        region.dstOffsets[1] = {int32_t(mipExtent(info.extent.width, base + k)),
                                int32_t(mipExtent(info.extent.height, base + k)), 1};
        c->fn.vkCmdBlitImage(cmd, info.image, src, info.image, dst, 1, &region, VK_FILTER_LINEAR);
        const ImageBarrier done = levelsBarrier(info, req, base + k, 1, blit, write, dst, blit, read, src);
        recordBarriers(c, cmd, &done, 1, false);
    }
    const ImageBarrier last =
        levelsBarrier(info, req, base, levels, blit, read | write, src, info.after.stages, info.after.access,
                      info.after.layout);
    recordBarriers(c, cmd, &last, 1, false);
}

}  // namespace

Result describeDispatch(Context c, const MipGenInfo& info, DispatchDescription* d) noexcept {
    return guarded([&]() -> Result {
        Request req;
        Result r = checkRequest(c, info, &req);
        if (!r.ok()) return r;
        if (d) {
            *d = DispatchDescription{};
            d->path = req.path();
            if (req.path() != Path::SinglePass) return {};
            d->groupsX = req.plan.levels ? req.plan.groupsX() : 0;
            d->groupsY = req.plan.levels ? req.plan.groupsY() : 0;
            d->groupsZ = req.plan.levels ? req.plan.layers : 0;
            d->levelsWritten = req.plan.levels;
            d->fp16 = req.fp16;
            d->quad = req.quad;
            d->linearFetch = req.linearFetch;
            d->gatherFetch = req.gatherFetch;
            d->denormalsPreserved = denormalsPreserved(c, req.fp16, halfDenormalsMatter(req.decision.format));
            d->scratchBytes = userScratchBytes(c, req.plan);
            d->scratchDataRanges = req.plan.dataRanges;
        }
        return {};
    });
}

Result describeSchedule(Context c, const MipGenInfo& info, ScheduleDescription* s) noexcept {
    return guarded([&]() -> Result {
        Request req;
        Result r = checkRequest(c, info, &req);
        if (!r.ok()) return r;
        if (req.path() != Path::SinglePass)
            return fail(VK_ERROR_FEATURE_NOT_PRESENT,
                        "describeSchedule: the request takes a fallback path (queryCapability says which), "
                        "not the single pass");
        if (s) {
            *s = ScheduleDescription{};
            s->plainChain = req.plainKernel;
            s->haloStages = req.haloKernel;
            s->summedLevels = req.sumsKernel;
            s->oddBaseStage = req.haloKernel && req.plan.halo.oddBase;
            s->stages = req.haloKernel ? req.plan.halo.stageCount : req.sumsKernel ? 1 : req.plan.stageCount;
            for (uint32_t st = 0; st < s->stages; ++st)
                s->levelsPerStage[st] = req.haloKernel  ? req.plan.halo.stages[st].levels
                                        : req.sumsKernel ? req.plan.sums.prefix
                                                         : req.plan.stages[st].levels;
            s->tilesPerGroup = req.plan.tilesPerGroup;
            s->tailRow = req.plan.tailRow;
            s->tailTilesPerGroup = req.plan.tailTilesPerGroup;
            s->groupColumns = req.groupColumns;
            for (uint32_t st = 0; !req.haloKernel && !req.sumsKernel && st < req.plan.stageCount; ++st)
                s->exactOddEdges = s->exactOddEdges || req.plan.stages[st].depMaskX || req.plan.stages[st].depMaskY;
        }
        return {};
    });
}

VkDeviceSize scratchSize(Context c, const MipGenInfo& info) noexcept {
    VkDeviceSize bytes = 0;
    guarded([&]() -> Result {
        Request req;
        Result r = checkRequest(c, info, &req);
        if (r.ok() && req.path() == Path::SinglePass) bytes = userScratchBytes(c, req.plan);
        return r;
    });
    return bytes;
}

namespace {
Result generateMipsImpl(Context c, VkCommandBuffer cmd, const MipGenInfo& info);
}

Result generateMips(Context c, VkCommandBuffer cmd, const MipGenInfo& info) noexcept {
    // Everything that allocates happens before the first command is recorded, so an exception
    // leaves the command buffer untouched.
    return guarded([&] { return generateMipsImpl(c, cmd, info); });
}

namespace {
Result generateMipsImpl(Context c, VkCommandBuffer cmd, const MipGenInfo& info) {
    if (!cmd) return fail(VK_ERROR_UNKNOWN, "generateMips: the command buffer is null");
    Request req;
    Result r = checkRequest(c, info, &req);
    if (!r.ok()) {
        r.message = "generateMips: " + r.message;
        return r;
    }
    if (req.plan.levels == 0 && !req.hasSource) {
        // Nothing to compute: only the state change the caller asked for.
        if (info.before.layout != info.after.layout || info.before.stages != info.after.stages ||
            info.before.access != info.after.access) {
            const ImageBarrier b = levelsBarrier(info, req, info.baseMipLevel, req.levelCount, info.before.stages,
                                                 info.before.access, info.before.layout, info.after.stages,
                                                 info.after.access, info.after.layout);
            recordBarriers(c, cmd, &b, 1, false);
        }
        return {};
    }
    switch (req.path()) {
        case Path::SinglePass: r = recordSinglePass(c, cmd, info, req); break;
        case Path::RenderPass: r = recordRenderPasses(c, cmd, info, req); break;
        case Path::BlitChain: recordBlits(c, cmd, info, req); break;
        case Path::None: break;
    }
    if (!r.ok()) r.message = "generateMips: " + r.message;
    return r;
}

// The request generateMipsDebugMap can run: the single pass with the average, a level to write.
Result checkDebugRequest(Context c, const MipGenInfo& info, Request* req) {
    Result r = checkRequest(c, info, req);
    if (!r.ok()) return r;
    if (req->path() != Path::SinglePass)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the debug map needs the single pass (SAMPLED | STORAGE usage); "
                                                  "this image takes a fallback path");
    if (info.reduction != Reduction::Average)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the debug map has a variant for Reduction::Average only");
    if (req->plan.levels == 0) return fail(VK_ERROR_UNKNOWN, "the debug map needs a range with a level to write");
    if (tuningOf(info).kernel == Kernel::PlainChain || tuningOf(info).kernel == Kernel::HaloStages ||
        tuningOf(info).kernel == Kernel::SummedLevels)
        return fail(VK_ERROR_FEATURE_NOT_PRESENT, "the debug map has variants of the general kernel only "
                                                  "(Kernel::General or Auto)");
    // The map is one record per tile of the general kernel (one tile per workgroup).
    useGeneralKernel(req);
    return {};
}

}  // namespace

VkDeviceSize debugMapSize(Context c, const MipGenInfo& info) noexcept {
    VkDeviceSize bytes = 0;
    guarded([&]() -> Result {
        Request req;
        Result r = checkDebugRequest(c, info, &req);
        if (r.ok())
            bytes = kDebugMapHeaderBytes +
                    VkDeviceSize(req.plan.groupsX()) * req.plan.groupsY() * req.plan.layers * sizeof(DebugMapTile);
        return r;
    });
    return bytes;
}

Result generateMipsDebugMap(Context c, VkCommandBuffer cmd, const MipGenInfo& info, const DebugMapInfo& map) noexcept {
    return guarded([&]() -> Result {
        if (!cmd) return fail(VK_ERROR_UNKNOWN, "generateMipsDebugMap: the command buffer is null");
        if (!map.buffer) return fail(VK_ERROR_UNKNOWN, "generateMipsDebugMap: DebugMapInfo::buffer is null");
        if (c && !contextIsLive(c)) return fail(VK_ERROR_UNKNOWN, "generateMipsDebugMap: " + deadContextMessage(c));
        // A storage buffer offset, and a vkCmdFillBuffer offset (a multiple of 4).
        const VkDeviceSize align =
            std::max<VkDeviceSize>(c ? c->properties.limits.minStorageBufferOffsetAlignment : 1, 4);
        if (map.offset % align != 0)
            return fail(VK_ERROR_UNKNOWN, "generateMipsDebugMap: DebugMapInfo::offset " + std::to_string(map.offset) +
                                              " is not a multiple of " + std::to_string(align) +
                                              " (minStorageBufferOffsetAlignment, and 4)");
        Request req;
        Result r = checkDebugRequest(c, info, &req);
        if (r.ok()) r = recordSinglePass(c, cmd, info, req, &map);
        if (!r.ok()) r.message = "generateMipsDebugMap: " + r.message;
        return r;
    });
}

}  // namespace vkspd
