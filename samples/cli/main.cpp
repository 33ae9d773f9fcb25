// vkspd: an image file in, a verified mip chain out. Loads each input, generates its whole mip
// chain in one dispatch on a Vulkan device, optionally checks every level against the CPU
// reference and times the dispatch, and writes PNG/HDR levels, a contact sheet and a KTX2 file.
// `vkspd --help` documents every option and exit code.
#include "contact_sheet.hpp"
#include "convert.hpp"
#include "debug_maps.hpp"
#include "gpu_chain.hpp"
#include "image_load.hpp"
#include "image_write.hpp"
#include "interrupt.hpp"
#include "ktx2.hpp"
#include "options.hpp"
#include "output_files.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "verify.hpp"

#include <vkspd/reference.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>

namespace vkspd_cli {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

constexpr const char* kWriter = "vkspd 0.1.0";

// One input: a file, or a --random image.
struct Input {
    std::string name;  // As given, or "random-WxH".
    bool random = false;
    RandomInput size;
};

// How the chain was made, for the summary line.
std::string describePath(const vkspd::DispatchDescription& d, const vkspd::ScheduleDescription& s) {
    if (d.path == vkspd::Path::RenderPass) return "render-pass fallback (one pass per level)";
    if (d.path == vkspd::Path::BlitChain) return "blit-chain fallback (approximate at odd sizes)";
    return "one dispatch of " + std::to_string(d.groupsX) + "x" + std::to_string(d.groupsY) + " groups (" +
           (d.fp16 ? "FP16" : "FP32") + ", " + (d.quad ? "quad" : "LDS-only") +
           (s.plainChain ? ", plain-chain kernel, " + std::to_string(s.tilesPerGroup) + " tiles per group" : "") +
           (s.plainChain && s.tailTilesPerGroup != s.tilesPerGroup
                ? " (" + std::to_string(s.tailTilesPerGroup) + " from tile row " + std::to_string(s.tailRow) + ")"
                : "") +
           (s.haloStages && s.oddBaseStage
                ? ", halo-stage kernel, " + std::to_string(s.stages) + " stages, the first of " +
                      std::to_string(s.levelsPerStage[0]) + " levels in 64x64 tiles of the base with a halo"
                : "") +
           (s.haloStages && !s.oddBaseStage
                ? ", halo-stage kernel, " + std::to_string(s.stages) + " stages, a prefix of " +
                      std::to_string(s.levelsPerStage[0]) + " levels in strips of " +
                      std::to_string(s.tilesPerGroup) + " tiles"
                : "") +
           (s.summedLevels
                ? ", summed-levels kernel, a prefix of " + std::to_string(s.levelsPerStage[0]) +
                      " levels in strips of " + std::to_string(s.tilesPerGroup) + " tiles, the rest summed"
                : "") +
           (d.linearFetch ? ", linear-sampler fetch" : "") + (d.gatherFetch ? ", gather fetch" : "") +
           (s.groupColumns ? ", strips of " + std::to_string(s.groupColumns) + " tiles" : "") + ")";
}

// The name of an input's output folder (in a batch) and KTX2 file: never ".", ".." or a path
// (fileStem), so that every output stays inside -o.
std::string stemOf(const Input& input) {
    if (input.random) return input.name;
    return input.name == "-" ? "stdin" : fileStem(input.name);
}

void makeRandom(const RandomInput& r, LoadedImage* image) {
    const size_t n = size_t(r.width) * r.height * 4;
    auto* p = static_cast<uint8_t*>(std::malloc(n));
    if (!p) return;
    uint32_t state = 12345;
    for (size_t i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;
        p[i] = uint8_t(state >> 24);
    }
    image->width = r.width;
    image->height = r.height;
    image->fileChannels = 4;
    image->type = SampleType::U8;
    image->pixels = std::unique_ptr<void, void (*)(void*)>(p, std::free);
}

// The default format for `image` (see --help).
VkFormat defaultFormat(const LoadedImage& image, const Options& o) {
    const bool minmax = o.reduction == vkspd::Reduction::MinMax;
    switch (image.type) {
    case SampleType::U8:
        if (minmax) return VK_FORMAT_R8G8_UNORM;
        return o.transfer == Transfer::Srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
    case SampleType::U16: return minmax ? VK_FORMAT_R16G16_UNORM : VK_FORMAT_R16G16B16A16_UNORM;
    case SampleType::F32: return minmax ? VK_FORMAT_R32G32_SFLOAT : VK_FORMAT_R16G16B16A16_SFLOAT;
    }
    return VK_FORMAT_R8G8B8A8_UNORM;
}

class Run {
public:
    Run(const Options& o, const vkspd_tools::Gpu& g, vkspd::Context c, Progress& p)
        : o_(o), g_(g), context_(c), progress_(p) {}

    FileReport process(size_t index, const Input& input, const std::string& outDir) {
        FileReport r;
        r.input = input.name;
        processInto(index, input, outDir, &r);
        r.chain.bytes = {};
        return r;
    }

private:
    bool processInto(size_t index, const Input& input, const std::string& outDir, FileReport* r);
    // The chain of a `format` image of `width` x `height` as the options ask for it (no level 0).
    ChainRequest chainRequest(VkFormat format, uint32_t width, uint32_t height) const;
    // Prints a line on standard output unless --quiet (or --json -).
    void say(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
    bool fail(FileReport* r, int code, const std::string& reason);
    // Whether SIGINT or SIGTERM came; if so, marks `r` interrupted (exit code 128 + the signal),
    // and the caller stops the input: its files not yet committed are removed.
    bool interrupted(FileReport* r);
    bool writeOutputs(FileReport* r, const std::string& stem);
    bool writeMaps(FileReport* r);

    const Options& o_;
    const vkspd_tools::Gpu& g_;
    vkspd::Context context_;
    Progress& progress_;
};

void Run::say(const char* fmt, ...) {
    if (o_.quiet || o_.jsonPath == "-") return;
    progress_.clear();
    va_list args;
    va_start(args, fmt);
    std::vprintf(fmt, args);
    va_end(args);
    std::fflush(stdout);
}

bool Run::fail(FileReport* r, int code, const std::string& reason) {
    r->exitCode = code;
    r->error = reason;
    progress_.clear();
    std::fprintf(stderr, "vkspd: %s: %s\n", r->input.c_str(), reason.c_str());
    return false;
}

bool Run::interrupted(FileReport* r) {
    const int signal = interruptSignal();
    if (!signal) return false;
    r->exitCode = 128 + signal;
    r->error = std::string("interrupted by ") + signalName(signal);
    return true;
}

ChainRequest Run::chainRequest(VkFormat format, uint32_t width, uint32_t height) const {
    ChainRequest req;
    req.format = format;
    req.width = width;
    req.height = height;
    req.reduction = o_.reduction;
    req.precision = o_.precision;
    req.subgroupPath = o_.subgroupPath;
    req.fetch = o_.fetch;
    req.tuning = o_.tuning;
    req.benchRuns = o_.benchRuns;
    req.benchColdRuns = o_.benchColdRuns;
    req.debugMap = !o_.orderMapPath.empty() || !o_.smMapPath.empty();
    req.smBuiltins = g_.smBuiltins;
    return req;
}

bool Run::processInto(size_t index, const Input& input, const std::string& outDir, FileReport* rp) {
    FileReport& r = *rp;
    const std::string& name = input.name;

    // Load, checking the header against this device before decoding: its size limit, and whether
    // the chain can be made at all (checkChain: for example, the single pass's scratch past the
    // device's maxStorageBufferRange), so such an input costs no decoding or upload.
    progress_.update(index, name, "loading", 0.0);
    auto t = Clock::now();
    LoadedImage image;
    int refusedCode = 0;
    auto accept = [&](uint32_t width, uint32_t height, SampleType type, std::string* why) {
        LoadedImage header;
        header.type = type;
        const VkFormat format = o_.format != VK_FORMAT_UNDEFINED ? o_.format : defaultFormat(header, o_);
        int code = kExitVulkan;
        if (checkChain(g_, context_, chainRequest(format, width, height), why, &code)) return true;
        refusedCode = code;
        return false;
    };
    if (input.random) {
        std::string why;
        if (input.size.width <= g_.properties.limits.maxImageDimension2D &&
            input.size.height <= g_.properties.limits.maxImageDimension2D &&
            !accept(input.size.width, input.size.height, SampleType::U8, &why))
            return fail(rp, refusedCode, why);
        makeRandom(input.size, &image);
        if (!image.pixels) return fail(rp, kExitBadInput, "out of memory for the random image");
        if (image.width > g_.properties.limits.maxImageDimension2D ||
            image.height > g_.properties.limits.maxImageDimension2D)
            return fail(rp, kExitBadInput,
                        std::to_string(image.width) + "x" + std::to_string(image.height) +
                            " exceeds this device's maxImageDimension2D (" +
                            std::to_string(g_.properties.limits.maxImageDimension2D) + ")");
    } else {
        std::vector<uint8_t> file;
        std::string why;
        if (!readImageFile(name, &file, &why, [] { return interruptSignal() != 0; }))
            return interrupted(rp) ? false : fail(rp, kExitBadInput, why);
        if (interrupted(rp)) return false;
        LoadLimits limits;
        limits.maxDimension = g_.properties.limits.maxImageDimension2D;
        limits.accept = accept;
        if (!loadImage(file.data(), file.size(), limits, &image, &why))
            return fail(rp, refusedCode ? refusedCode : kExitBadInput, why);
    }
    r.width = image.width;
    r.height = image.height;
    r.fileChannels = image.fileChannels;
    r.fileBits = bitsOf(image.type);
    r.srgbInput = image.type != SampleType::F32 && o_.transfer == Transfer::Srgb;
    r.timings.loadMs = msSince(t);
    if (interrupted(rp)) return false;

    // Level 0 in the GPU format.
    progress_.update(index, name, "converting", 0.1);
    t = Clock::now();
    r.format = o_.format != VK_FORMAT_UNDEFINED ? o_.format : defaultFormat(image, o_);
    std::vector<uint8_t> level0;
    {
        std::string why;
        if (!makeLevel0(image, r.format, r.srgbInput, o_.reduction == vkspd::Reduction::MinMax, &level0, &why))
            return fail(rp, kExitVulkan, why);
    }
    image = LoadedImage{};  // the decoded file is no longer needed
    r.timings.convertMs = msSince(t);
    if (interrupted(rp)) return false;

    // The chain on the device.
    progress_.update(index, name, "generating", 0.2);
    ChainRequest req = chainRequest(r.format, r.width, r.height);
    req.level0 = &level0;
    {
        std::string why;
        int code = kExitVulkan;
        if (!runChain(g_, context_, req, &r.chain, &why, &code)) return fail(rp, code, why);
    }
    r.ran = true;
    r.timings.gpuMs = r.chain.gpuMs;
    if (interrupted(rp)) return false;
    level0 = {};
    const vkspd::DispatchDescription& d = r.chain.dispatch;
    say("%s: %ux%u %s, %u levels, %s reduction, on %s: %s\n", name.c_str(), r.width, r.height,
        formatName(r.format).c_str(), r.chain.levels, reductionName(o_.reduction), g_.properties.deviceName,
        describePath(d, r.chain.schedule).c_str());

    if (o_.benchRuns || o_.benchColdRuns) say("%s", benchText(r.chain, o_.benchRuns, o_.benchColdRuns).c_str());

    if (!r.chain.map.empty() && !writeMaps(&r)) return false;

    // --verify against the CPU reference.
    if (o_.verify) {
        progress_.update(index, name, "verifying", 0.5);
        t = Clock::now();
        r.verified = true;
        r.verification = verifyChain(r.format, o_.reduction, d.path, d.fp16, r.width, r.height, r.chain.bytes,
                                     r.chain.offsets);
        r.timings.verifyMs = msSince(t);
        const Verification& v = r.verification;
        for (const LevelCheck& c : v.levels)
            say("  level %2u %5ux%-5u worst error %.3g %s%s\n", c.level, c.width, c.height, c.error.worst, v.unit,
                c.error.overTolerance || c.error.nanMismatch ? "  OUT OF TOLERANCE" : "");
        if (!v.problem.empty()) {
            fail(rp, kExitVerifyFailed, "cannot verify: " + v.problem);
        } else if (!v.ok) {
            fail(rp, kExitVerifyFailed, "a level is outside the tolerance of the CPU reference");
        } else {
            say("  verified: every level within %g %s of the CPU reference\n", v.tolerance, v.unit);
        }
    }

    // The files (also after a failed verification: they show what went wrong).
    if (interrupted(rp)) return false;
    if (o_.write) {
        progress_.update(index, name, "writing", 0.7);
        t = Clock::now();
        r.outputDir = outDir;
        const int firstCode = r.exitCode;
        const std::string firstError = r.error;
        if (writeOutputs(&r, stemOf(input))) {
            say("  wrote %s/: %u level files, contact_sheet.png, %s\n", outDir.c_str(), r.chain.levels,
                r.outputs.empty() ? "" : r.outputs.back().substr(r.outputs.back().find_last_of('/') + 1).c_str());
        } else if (firstCode != 0 && !interruptSignal()) {
            // The verification failed first: its code and message stand (the write error was printed).
            r.exitCode = firstCode;
            r.error = firstError;
        }
        r.timings.writeMs = msSince(t);
    }
    return r.exitCode == 0;
}

// Every file of the input, or none: `files` removes its temporaries and the folders it created
// unless it is committed (a failed write, or SIGINT/SIGTERM before the commit). The commit itself,
// renames only, is not interrupted.
bool Run::writeOutputs(FileReport* r, const std::string& stem) {
    std::string why;
    OutputSet files;
    if (interrupted(r)) return false;
    if (!files.makeFolder(r->outputDir, &why)) return fail(r, kExitOutput, why);
    const ChainResult& c = r->chain;
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(r->format, &fi);
    ContactSheet sheet = planContactSheet(r->width, r->height, c.levels);
    std::vector<uint8_t> encoded;
    for (uint32_t l = 0; l < c.levels; ++l) {
        const uint32_t w = vkspd::mipExtent(r->width, l), h = vkspd::mipExtent(r->height, l);
        ViewImage view;
        if (!viewLevel(r->format, c.bytes.data() + c.offsets[l], w, h, &view))
            return fail(r, kExitVulkan, "this build of the library cannot decode " + formatName(r->format));
        if (!encodeView(view, &encoded)) return fail(r, kExitOutput, "cannot encode level " + std::to_string(l));
        char file[64];
        std::snprintf(file, sizeof file, "/level_%02u_%ux%u%s", l, w, h, extensionFor(view));
        if (!files.add(r->outputDir + file, encoded, &why)) return fail(r, kExitOutput, "cannot write " + why);
        placeLevel(&sheet, l, view);
        if (interrupted(r)) return false;
    }
    if (!encodePng8(sheet.rgba.data(), sheet.width, sheet.height, 4, &encoded))
        return fail(r, kExitOutput, "cannot encode the contact sheet");
    sheet.rgba = {};
    if (!files.add(r->outputDir + "/contact_sheet.png", encoded, &why)) return fail(r, kExitOutput, "cannot write " + why);
    if (interrupted(r)) return false;
    r->contactSheetFirstLevel = sheet.firstLevel;

    std::vector<Ktx2Level> levels;
    for (uint32_t l = 0; l < c.levels; ++l) {
        const size_t end = l + 1 < c.levels ? c.offsets[l + 1] : c.bytes.size();
        levels.push_back({c.bytes.data() + c.offsets[l], end - c.offsets[l]});
    }
    if (!writeKtx2(r->format, r->width, r->height, levels, kWriter, &encoded, &why))
        return fail(r, kExitVulkan, why);
    if (!files.add(r->outputDir + "/" + stem + ".ktx2", encoded, &why)) return fail(r, kExitOutput, "cannot write " + why);
    if (interrupted(r)) return false;
    if (!files.commit(&why)) return fail(r, kExitOutput, "cannot write " + why);
    r->outputs = files.paths();
    return true;
}

// --order-map and --sm-map: the pictures of the debug map, and the tiles per SM.
bool Run::writeMaps(FileReport* r) {
    const ChainResult& c = r->chain;
    const uint32_t tx = c.dispatch.groupsX, ty = c.dispatch.groupsY;
    std::string why;
    if (!mapIsComplete(c.map, &why)) return fail(r, kExitVulkan, "the debug map is incomplete: " + why);
    std::vector<uint8_t> encoded;
    auto write = [&](const std::string& path, const Picture& p) {
        if (!encodePng8(p.rgba.data(), p.width, p.height, 4, &encoded))
            return fail(r, kExitOutput, "cannot encode " + path);
        if (!writeFileAtomically(path, encoded, &why)) return fail(r, kExitOutput, "cannot write " + why);
        return true;
    };
    if (!o_.orderMapPath.empty()) {
        if (!write(o_.orderMapPath, renderOrderMap(c.map, tx, ty))) return false;
        say("  order map: %s: %ux%u tiles of 64x64, dark blue finished first (0), yellow last (%u)\n",
            o_.orderMapPath.c_str(), tx, ty, tx * ty - 1);
    }
    if (!o_.smMapPath.empty()) {
        if (!write(o_.smMapPath, renderSmMap(c.map, tx, ty, g_.smCount))) return false;
        const SmTileCounts n = countTilesPerSm(c.map, g_.smCount);
        uint32_t maxWarp = 0;
        for (const vkspd::DebugMapTile& t : c.map) maxWarp = std::max(maxWarp, t.warpId);
        say("  SM map: %s: %ux%u tiles over %u SMs; tiles per SM min %u, median %g, max %u; %u SMs got none; "
            "warp ids 0..%u\n",
            o_.smMapPath.c_str(), tx, ty, n.sms, n.min, n.median, n.max, n.idle, maxWarp);
    }
    return true;
}

bool validationRequested() {
    const char* v = std::getenv("VKSPD_VALIDATION");
    return v && *v && std::strcmp(v, "0") != 0;
}

int listDevices(const Options& o) {
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkInstance instance = vkspd_tools::createInstance(validationRequested(), &messenger);
    const std::vector<VkPhysicalDevice> devices = vkspd_tools::physicalDevices(instance);
    if (devices.empty()) {
        std::fprintf(stderr, "vkspd: no Vulkan device (install mesa-vulkan-drivers for lavapipe)\n");
        vkspd_tools::destroyInstance(instance, messenger);
        return kExitVulkan;
    }
    std::string error;
    const int chosen = vkspd_tools::chooseDevice(devices, o.device, &error);
    for (size_t i = 0; i < devices.size(); ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devices[i], &p);
        std::printf("%zu: %s (%s, Vulkan %u.%u.%u, maxImageDimension2D %u)%s\n", i, p.deviceName,
                    vkspd_tools::deviceTypeName(p.deviceType), VK_API_VERSION_MAJOR(p.apiVersion),
                    VK_API_VERSION_MINOR(p.apiVersion), VK_API_VERSION_PATCH(p.apiVersion),
                    p.limits.maxImageDimension2D, int(i) == chosen ? "  <- chosen" : "");
    }
    vkspd_tools::destroyInstance(instance, messenger);
    if (chosen < 0) {
        std::fprintf(stderr, "vkspd: %s\n", error.c_str());
        return kExitUsage;
    }
    return kExitOk;
}

// --pipeline-cache FILE: the bytes of FILE where it exists (empty where it does not); false, with
// the reason, where it cannot be read or is not a Vulkan pipeline cache (a header of version one:
// its size, 32, and version, 1, in its first words), which the run then leaves as it is.
bool readPipelineCacheFile(const std::string& path, std::vector<uint8_t>* bytes, std::string* reason) {
    bytes->clear();
    struct stat st;
    if (stat(path.c_str(), &st) != 0 && errno == ENOENT) return true;
    // The header first, so that a large file of another kind is refused without reading it.
    uint32_t header[2] = {0, 0};
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        if (std::fread(header, sizeof header, 1, f) != 1) header[0] = 0;
        std::fclose(f);
    }
    if (header[0] == 32 && header[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && !readFile(path, bytes, reason)) {
        *reason = "cannot read it: " + *reason;
        return false;
    }
    if (bytes->size() < 32) {
        *reason = "not a Vulkan pipeline cache (no header of version one); left as it is";
        return false;
    }
    return true;
}

// Whether --pipeline-cache FILE can be written at the end: its folder exists.
bool pipelineCacheFolderExists(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    struct stat st;
    return stat(folder.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Whether a pipeline cache's bytes were made by this device and driver (its header's vendor,
// device and cache UUID): others start an empty cache, which the run's end writes over them.
bool pipelineCacheMatches(const std::vector<uint8_t>& bytes, const VkPhysicalDeviceProperties& p) {
    uint32_t ids[2];
    std::memcpy(ids, bytes.data() + 8, sizeof ids);
    return ids[0] == p.vendorID && ids[1] == p.deviceID &&
           std::memcmp(bytes.data() + 16, p.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

// Writes the pipeline cache's data to `path` (atomically); false, with the reason, if it cannot.
bool writePipelineCacheFile(VkDevice device, VkPipelineCache cache, const std::string& path, std::string* reason) {
    size_t size = 0;
    std::vector<uint8_t> bytes;
    VkResult r = vkGetPipelineCacheData(device, cache, &size, nullptr);
    if (r == VK_SUCCESS) {
        bytes.resize(size);
        r = vkGetPipelineCacheData(device, cache, &size, bytes.data());
        bytes.resize(size);
    }
    if (r != VK_SUCCESS) {
        *reason = "vkGetPipelineCacheData failed (VkResult " + std::to_string(int(r)) + ")";
        return false;
    }
    return writeFileAtomically(path, bytes, reason);
}

int runMain(int argc, char** argv) {
    Options o;
    std::string error;
    if (!parseOptions(argc, argv, &o, &error)) {
        std::fprintf(stderr, "vkspd: %s (see vkspd --help)\n", error.c_str());
        return kExitUsage;
    }
    if (o.help) {
        std::fputs(helpText().c_str(), stdout);
        return kExitOk;
    }
    if (o.listDevices) return listDevices(o);
    const bool maps = !o.orderMapPath.empty() || !o.smMapPath.empty();
    if (maps && o.inputs.size() + o.randoms.size() != 1) {
        std::fprintf(stderr, "vkspd: --order-map and --sm-map take exactly one input (a file or --random WxH)\n");
        return kExitUsage;
    }
    if (maps && o.reduction != vkspd::Reduction::Average) {
        std::fprintf(stderr, "vkspd: --order-map and --sm-map have a debug variant for --reduction avg only\n");
        return kExitUsage;
    }
    if (o.inputs.empty() && o.randoms.empty() && !o.occupancy) {
        std::fprintf(stderr, "vkspd: no input image (usage: vkspd IMAGE... [options]; see vkspd --help)\n");
        return kExitUsage;
    }
    if (o.format != VK_FORMAT_UNDEFINED) {
        vkspd::FormatInfo fi;
        if (!vkspd::getFormatInfo(o.format, &fi)) {
            std::fprintf(stderr, "vkspd: --format %s: not supported by this build of the library\n",
                         o.formatName.c_str());
            return kExitVulkan;
        }
        if (o.reduction == vkspd::Reduction::MinMax && fi.channels != 2) {
            std::fprintf(stderr, "vkspd: --reduction minmax needs a two-channel --format (rg8, rg16, rg16f, rg32f), "
                                 "not %s\n", o.formatName.c_str());
            return kExitUsage;
        }
    }
    std::vector<uint8_t> cacheBytes;
    if (!o.pipelineCachePath.empty() && !readPipelineCacheFile(o.pipelineCachePath, &cacheBytes, &error)) {
        std::fprintf(stderr, "vkspd: --pipeline-cache %s: %s\n", o.pipelineCachePath.c_str(), error.c_str());
        return kExitUsage;
    }
    if (!o.pipelineCachePath.empty() && !pipelineCacheFolderExists(o.pipelineCachePath)) {
        std::fprintf(stderr, "vkspd: --pipeline-cache %s: its folder does not exist\n", o.pipelineCachePath.c_str());
        return kExitOutput;
    }
    std::vector<Input> inputs;
    for (const std::string& f : o.inputs) inputs.push_back({f, false, {}});
    for (const RandomInput& r : o.randoms)
        inputs.push_back({"random-" + std::to_string(r.width) + "x" + std::to_string(r.height), true, r});

    // Output folders: DIR for one input, DIR/NAME for several (NAME-2... where names repeat). NAME
    // is a stem (stemOf), so every folder is inside DIR. They are created with an input's first
    // file (and removed again if it fails); that they can be is checked here, before any work.
    std::vector<std::string> outDirs;
    std::set<std::string> used;
    for (const Input& in : inputs) {
        if (inputs.size() == 1) {
            outDirs.push_back(o.outDir);
            break;
        }
        const std::string stem = stemOf(in);
        std::string folder = stem;
        for (int k = 2; used.count(folder); ++k) folder = stem + "-" + std::to_string(k);
        used.insert(folder);
        outDirs.push_back(o.outDir + "/" + folder);
    }
    if (o.write && !inputs.empty() && !canCreateFolder(o.outDir, &error)) {
        std::fprintf(stderr, "vkspd: %s\n", error.c_str());
        return kExitOutput;
    }

    // From here on SIGINT and SIGTERM stop the run between steps (interrupt.hpp); until here
    // nothing was written, and they end the process as usual.
    installInterruptHandlers();
    vkspd_tools::GpuOptions gpuOptions = o.device;
    gpuOptions.validation = validationRequested();
    gpuOptions.pipelineStatistics = o.occupancy;
    gpuOptions.smBuiltins = !o.smMapPath.empty();
    // The driver's and the layers' threads start with SIGINT and SIGTERM blocked: the main thread
    // handles them.
    auto blocked = std::make_unique<InterruptsBlocked>();
    vkspd_tools::Gpu g = vkspd_tools::openGpu(gpuOptions);
    if (!o.smMapPath.empty() && !g.smBuiltins) {
        std::fprintf(stderr,
                     "vkspd: --sm-map: %s %s, so the SM that ran each tile cannot be recorded "
                     "(NVIDIA GPUs have it); --order-map works on every device\n",
                     g.properties.deviceName,
                     g.smBuiltinsPresent ? "lacks the shaderSMBuiltins feature of VK_NV_shader_sm_builtins"
                                         : "does not have VK_NV_shader_sm_builtins");
        vkspd_tools::closeGpu(g);
        return kExitNoSmBuiltins;
    }
    // --pipeline-cache: the context's pipelines go into a cache, from the file where this device
    // and driver made it.
    VkPipelineCache cache = VK_NULL_HANDLE;
    if (!o.pipelineCachePath.empty()) {
        if (!cacheBytes.empty() && !pipelineCacheMatches(cacheBytes, g.properties)) {
            if (!o.quiet)
                std::fprintf(stderr, "vkspd: --pipeline-cache %s: made by another device or driver; starting empty\n",
                             o.pipelineCachePath.c_str());
            cacheBytes.clear();
        }
        VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
        ci.initialDataSize = cacheBytes.size();
        ci.pInitialData = cacheBytes.empty() ? nullptr : cacheBytes.data();
        if (VkResult r = vkCreatePipelineCache(g.device, &ci, nullptr, &cache); r != VK_SUCCESS) {
            std::fprintf(stderr, "vkspd: --pipeline-cache: vkCreatePipelineCache failed (VkResult %d)\n", int(r));
            vkspd_tools::closeGpu(g);
            return kExitVulkan;
        }
    }
    vkspd::ContextCreateInfo contextInfo = vkspd_tools::contextInfoFor(g);
    contextInfo.pipelineCache = cache;
    vkspd::Context context = nullptr;
    if (vkspd::Result r = vkspd::createContext(contextInfo, &context); !r.ok()) {
        std::fprintf(stderr, "vkspd: %s\n", r.message.c_str());
        if (cache) vkDestroyPipelineCache(g.device, cache, nullptr);
        vkspd_tools::closeGpu(g);
        return kExitVulkan;
    }
    blocked.reset();
    // Writes the cache back to its file and destroys it (with the context, before the device);
    // returns `exitCode`, or kExitOutput where it succeeded and the file could not be written.
    auto finishCache = [&](int exitCode) {
        vkspd::destroyContext(context);
        context = nullptr;
        if (!cache) return exitCode;
        std::string reason;
        if (!writePipelineCacheFile(g.device, cache, o.pipelineCachePath, &reason)) {
            std::fprintf(stderr, "vkspd: --pipeline-cache %s: %s\n", o.pipelineCachePath.c_str(), reason.c_str());
            if (exitCode == kExitOk) exitCode = kExitOutput;
        }
        vkDestroyPipelineCache(g.device, cache, nullptr);
        cache = VK_NULL_HANDLE;
        return exitCode;
    };

    if (o.occupancy) {
        vkspd::OccupancyQueryInfo q;
        q.pipelineExecutableInfoEnabled = g.pipelineStatistics;
        q.reductions = {vkspd::Reduction::Average, vkspd::Reduction::Min, vkspd::Reduction::Max,
                        vkspd::Reduction::MinMax};
        std::vector<vkspd::OccupancyRecord> records;
        if (vkspd::Result r = vkspd::queryOccupancy(context, q, &records); !r.ok()) {
            std::fprintf(stderr, "vkspd: --occupancy: %s\n", r.message.c_str());
            finishCache(kExitVulkan);
            vkspd_tools::closeGpu(g);
            return kExitVulkan;
        }
        std::fputs(occupancyTable(records, g.properties.deviceName).c_str(), stdout);
        std::fflush(stdout);
        if (inputs.empty()) {
            const int code = finishCache(vkspd_tools::validationMessageCount() ? kExitVulkan : kExitOk);
            vkspd_tools::closeGpu(g);
            if (interruptSignal()) return 128 + interruptSignal();
            return code;
        }
    }

    Progress progress(inputs.size(), o.quiet);
    Run run(o, g, context, progress);
    std::vector<FileReport> reports;
    int exitCode = kExitOk;
    size_t failed = 0;
    size_t finished = 0;  // inputs done, failed or not, before a signal
    for (size_t i = 0; i < inputs.size() && !interruptSignal(); ++i) {
        reports.push_back(run.process(i, inputs[i], outDirs[i]));
        const FileReport& r = reports.back();
        if (interruptSignal() && r.exitCode == 128 + interruptSignal()) {
            progress.finish(i, inputs[i].name, "interrupted");
            break;
        }
        ++finished;
        if (r.exitCode != 0) {
            ++failed;
            if (exitCode == kExitOk) exitCode = r.exitCode;
        }
        progress.finish(i, inputs[i].name, r.exitCode ? "failed (exit code " + std::to_string(r.exitCode) + ")" : "ok");
    }
    progress.clear();

    exitCode = finishCache(exitCode);
    vkspd_tools::closeGpu(g);

    const unsigned validationMessages = vkspd_tools::validationMessageCount();
    if (validationMessages) {
        std::fprintf(stderr, "vkspd: %u validation message(s)\n", validationMessages);
        if (exitCode == kExitOk) exitCode = kExitVulkan;
    }
    if (const int signal = interruptSignal()) {
        // 128 + the signal, as a shell reports a command the signal ended.
        exitCode = 128 + signal;
        std::fprintf(stderr, "vkspd: interrupted (%s) after %zu of %zu inputs; no file of an unfinished input was kept\n",
                     signalName(signal), finished, inputs.size());
    } else if (inputs.size() > 1 && failed && !o.quiet) {
        std::fprintf(stderr, "vkspd: %zu of %zu inputs failed\n", failed, inputs.size());
    }

    if (!o.jsonPath.empty()) {
        RunInfo info;
        info.gpu = &g;
        info.reduction = o.reduction;
        info.precision = o.precision;
        info.subgroupPath = o.subgroupPath;
        info.exitCode = exitCode;
        info.validation = gpuOptions.validation;
        info.validationMessages = validationMessages;
        const std::string json = jsonReport(info, reports);
        if (o.jsonPath == "-") {
            std::fputs(json.c_str(), stdout);
        } else if (!writeFileAtomically(o.jsonPath, std::vector<uint8_t>(json.begin(), json.end()), &error)) {
            std::fprintf(stderr, "vkspd: cannot write the report %s\n", error.c_str());
            if (exitCode == kExitOk) exitCode = kExitOutput;
        }
    }
    return exitCode;
}

}  // namespace
}  // namespace vkspd_cli

int main(int argc, char** argv) { return vkspd_cli::runMain(argc, argv); }
