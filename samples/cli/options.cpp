#include "options.hpp"

#include <vkspd/reference.hpp>
#include <vkspd/vkspd.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace vkspd_cli {

const std::vector<FormatName>& formatNames() {
    static const std::vector<FormatName> names = {
        {"r8", VK_FORMAT_R8_UNORM},
        {"rg8", VK_FORMAT_R8G8_UNORM},
        {"rgba8", VK_FORMAT_R8G8B8A8_UNORM},
        {"bgra8", VK_FORMAT_B8G8R8A8_UNORM},
        {"rgba8-srgb", VK_FORMAT_R8G8B8A8_SRGB},
        {"bgra8-srgb", VK_FORMAT_B8G8R8A8_SRGB},
        {"r8-snorm", VK_FORMAT_R8_SNORM},
        {"rgba8-snorm", VK_FORMAT_R8G8B8A8_SNORM},
        {"r16", VK_FORMAT_R16_UNORM},
        {"rg16", VK_FORMAT_R16G16_UNORM},
        {"rgba16", VK_FORMAT_R16G16B16A16_UNORM},
        {"r16f", VK_FORMAT_R16_SFLOAT},
        {"rg16f", VK_FORMAT_R16G16_SFLOAT},
        {"rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT},
        {"r32f", VK_FORMAT_R32_SFLOAT},
        {"rg32f", VK_FORMAT_R32G32_SFLOAT},
        {"rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT},
        {"b10g11r11f", VK_FORMAT_B10G11R11_UFLOAT_PACK32},
        {"a2b10g10r10", VK_FORMAT_A2B10G10R10_UNORM_PACK32},
    };
    return names;
}

std::string formatName(VkFormat format) {
    for (const FormatName& n : formatNames())
        if (n.format == format) return n.name;
    vkspd::FormatInfo fi;
    if (vkspd::getFormatInfo(format, &fi)) return fi.name;
    return "VkFormat " + std::to_string(int(format));
}

const char* reductionName(vkspd::Reduction reduction) {
    switch (reduction) {
    case vkspd::Reduction::Average: return "avg";
    case vkspd::Reduction::Min: return "min";
    case vkspd::Reduction::Max: return "max";
    case vkspd::Reduction::MinMax: return "minmax";
    case vkspd::Reduction::Custom: return "custom";
    }
    return "?";
}

namespace {

bool parseCount(const std::string& text, long low, long high, long* value) {
    if (text.empty()) return false;
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (errno || *end || v < low || v > high) return false;
    *value = v;
    return true;
}

}  // namespace

namespace {

// One command-line argument being parsed: "--opt=value" is accepted as well as "--opt value".
struct Arg {
    int argc;
    char** argv;
    int* i;  // The argument's index; value() moves it past a separate value.
    std::string name, inlineValue;
    bool hasInlineValue = false;
    std::string* error;

    bool value(std::string* out) {
        if (hasInlineValue) {
            *out = inlineValue;
            return true;
        }
        if (*i + 1 >= argc) {
            *error = name + " needs a value";
            return false;
        }
        *out = argv[++*i];
        return true;
    }
    bool noValue() {
        if (hasInlineValue) *error = name + " takes no value";
        return !hasInlineValue;
    }
};

// What a group's parser made of an argument.
enum class Parsed {
    NotMine,  // Not one of the group's options.
    Done,
    Failed,   // *error is set.
};

// What the chain is made of: output folder, format, reduction, transfer.
Parsed parseChainOption(Arg& arg, Options* o, bool* sawTransfer) {
    const std::string& name = arg.name;
    std::string* error = arg.error;
    std::string v;
    if (name == "-o" || name == "--output") {
        if (!arg.value(&o->outDir)) return Parsed::Failed;
        if (o->outDir.empty()) {
            *error = name + ": the output folder name is empty";
            return Parsed::Failed;
        }
    } else if (name == "--format") {
        if (!arg.value(&v)) return Parsed::Failed;
        o->format = VK_FORMAT_UNDEFINED;
        for (const FormatName& n : formatNames())
            if (v == n.name) o->format = n.format;
        if (o->format == VK_FORMAT_UNDEFINED) {
            *error = "--format " + v + ": unknown format (--help lists them)";
            return Parsed::Failed;
        }
        o->formatName = v;
    } else if (name == "--reduction") {
        if (!arg.value(&v)) return Parsed::Failed;
        if (v == "avg" || v == "average") o->reduction = vkspd::Reduction::Average;
        else if (v == "min") o->reduction = vkspd::Reduction::Min;
        else if (v == "max") o->reduction = vkspd::Reduction::Max;
        else if (v == "minmax") o->reduction = vkspd::Reduction::MinMax;
        else {
            *error = "--reduction " + v + ": expected avg, min, max or minmax";
            return Parsed::Failed;
        }
    } else if (name == "--srgb" || name == "--linear") {
        if (!arg.noValue()) return Parsed::Failed;
        const Transfer t = name == "--srgb" ? Transfer::Srgb : Transfer::Linear;
        if (*sawTransfer && t != o->transfer) {
            *error = "--srgb and --linear contradict each other";
            return Parsed::Failed;
        }
        *sawTransfer = true;
        o->transfer = t;
    } else {
        return Parsed::NotMine;
    }
    return Parsed::Done;
}

// How the shader runs: precision, subgroup path, fetch, tiling, kernel, tiles, tail.
Parsed parseShaderOption(Arg& arg, Options* o) {
    const std::string& name = arg.name;
    std::string* error = arg.error;
    std::string v;
    if (name == "--fp16" || name == "--fp32") {
        if (!arg.noValue()) return Parsed::Failed;
        const vkspd::Precision p = name == "--fp16" ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
        if (o->precision != vkspd::Precision::Auto && o->precision != p) {
            *error = "--fp16 and --fp32 contradict each other";
            return Parsed::Failed;
        }
        o->precision = p;
    } else if (name == "--path") {
        if (!arg.value(&v)) return Parsed::Failed;
        if (v == "quad") o->subgroupPath = vkspd::SubgroupPath::Quad;
        else if (v == "lds") o->subgroupPath = vkspd::SubgroupPath::LdsOnly;
        else {
            *error = "--path " + v + ": expected quad or lds";
            return Parsed::Failed;
        }
    } else if (name == "--fetch") {
        if (!arg.value(&v)) return Parsed::Failed;
        if (v == "auto") o->fetch = vkspd::Fetch::Auto;
        else if (v == "load") o->fetch = vkspd::Fetch::Load;
        else if (v == "linear") o->fetch = vkspd::Fetch::LinearSampler;
        else if (v == "gather") o->fetch = vkspd::Fetch::Gather;
        else {
            *error = "--fetch " + v + ": expected auto, load, linear or gather";
            return Parsed::Failed;
        }
    } else if (name == "--group-columns") {
        if (!arg.value(&v)) return Parsed::Failed;
        long n = 0;
        if (!parseCount(v, 0, 1 << 20, &n)) {
            *error = "--group-columns " + v + ": expected a strip width in tiles, 0 (off) or more";
            return Parsed::Failed;
        }
        o->tuning.groupColumns = uint32_t(n);
    } else if (name == "--kernel") {
        if (!arg.value(&v)) return Parsed::Failed;
        if (v == "auto") o->tuning.kernel = vkspd::Kernel::Auto;
        else if (v == "plain") o->tuning.kernel = vkspd::Kernel::PlainChain;
        else if (v == "general") o->tuning.kernel = vkspd::Kernel::General;
        else if (v == "halo") o->tuning.kernel = vkspd::Kernel::HaloStages;
        else if (v == "summed") o->tuning.kernel = vkspd::Kernel::SummedLevels;
        else {
            *error = "--kernel " + v + ": expected auto, plain, general, halo or summed";
            return Parsed::Failed;
        }
    } else if (name == "--tiles-per-group") {
        if (!arg.value(&v)) return Parsed::Failed;
        long n = 0;
        if (!parseCount(v, 0, vkspd::kMaxTilesPerGroup, &n) || (n & (n - 1)) != 0) {
            *error = "--tiles-per-group " + v + ": expected 0 (the library's choice) or a power of two from 1 to " +
                     std::to_string(vkspd::kMaxTilesPerGroup);
            return Parsed::Failed;
        }
        o->tuning.tilesPerGroup = uint32_t(n);
    } else if (name == "--tail") {
        if (!arg.value(&v)) return Parsed::Failed;
        const size_t slash = v.find('/');
        long tiles = 0, per = 0;
        if (slash == std::string::npos || !parseCount(v.substr(0, slash), 0, 1L << 30, &tiles) ||
            !parseCount(v.substr(slash + 1), 1, vkspd::kMaxTilesPerGroup, &per) || (per & (per - 1)) != 0) {
            *error = "--tail " + v + ": expected T/P, T tiles (0 or more) in strips of P, a power of two from 1 to " +
                     std::to_string(vkspd::kMaxTilesPerGroup);
            return Parsed::Failed;
        }
        o->tuning.tailTiles = uint32_t(tiles);
        o->tuning.tailTilesPerGroup = uint32_t(per);
    } else {
        return Parsed::NotMine;
    }
    return Parsed::Done;
}

// Which device, and what to do besides writing the chain: checks, reports, timing, extra inputs,
// maps.
Parsed parseRunOption(Arg& arg, Options* o) {
    const std::string& name = arg.name;
    std::string* error = arg.error;
    std::string v;
    if (name == "-h" || name == "--help") {
        if (!arg.noValue()) return Parsed::Failed;
        o->help = true;
    } else if (name == "--device") {
        if (!arg.value(&v)) return Parsed::Failed;
        long index = 0;
        if (v.empty()) {
            *error = "--device needs an index or a name";
            return Parsed::Failed;
        }
        if (parseCount(v, 0, 1 << 20, &index)) {
            o->device.index = int(index);
            o->device.name.clear();
        } else {
            o->device.index = -1;
            o->device.name = v;
        }
    } else if (name == "--list-devices") {
        if (!arg.noValue()) return Parsed::Failed;
        o->listDevices = true;
    } else if (name == "--verify") {
        if (!arg.noValue()) return Parsed::Failed;
        o->verify = true;
    } else if (name == "--no-write") {
        if (!arg.noValue()) return Parsed::Failed;
        o->write = false;
    } else if (name == "--json") {
        if (!arg.value(&o->jsonPath)) return Parsed::Failed;
        if (o->jsonPath.empty()) {
            *error = "--json: the file name is empty";
            return Parsed::Failed;
        }
    } else if (name == "--bench") {
        if (!arg.value(&v)) return Parsed::Failed;
        long n = 0;
        if (!parseCount(v, 1, 100000, &n)) {
            *error = "--bench " + v + ": expected a run count from 1 to 100000";
            return Parsed::Failed;
        }
        o->benchRuns = uint32_t(n);
    } else if (name == "--bench-cold") {
        if (!arg.value(&v)) return Parsed::Failed;
        long n = 0;
        if (!parseCount(v, 1, 100, &n)) {
            *error = "--bench-cold " + v + ": expected a run count from 1 to 100 (each waits 1 s)";
            return Parsed::Failed;
        }
        o->benchColdRuns = uint32_t(n);
    } else if (name == "--random") {
        if (!arg.value(&v)) return Parsed::Failed;
        RandomInput r;
        char tail = 0;
        if (std::sscanf(v.c_str(), "%ux%u%c", &r.width, &r.height, &tail) != 2 || !r.width || !r.height ||
            r.width > 65536 || r.height > 65536) {
            *error = "--random " + v + ": expected WxH with sides from 1 to 65536, e.g. 4096x4096";
            return Parsed::Failed;
        }
        o->randoms.push_back(r);
    } else if (name == "--occupancy") {
        if (!arg.noValue()) return Parsed::Failed;
        o->occupancy = true;
    } else if (name == "--order-map" || name == "--sm-map") {
        if (!arg.value(&v)) return Parsed::Failed;
        if (v.empty()) {
            *error = name + ": the file name is empty";
            return Parsed::Failed;
        }
        (name == "--order-map" ? o->orderMapPath : o->smMapPath) = v;
    } else if (name == "--pipeline-cache") {
        if (!arg.value(&o->pipelineCachePath)) return Parsed::Failed;
        if (o->pipelineCachePath.empty()) {
            *error = "--pipeline-cache: the file name is empty";
            return Parsed::Failed;
        }
    } else if (name == "-q" || name == "--quiet") {
        if (!arg.noValue()) return Parsed::Failed;
        o->quiet = true;
    } else {
        return Parsed::NotMine;
    }
    return Parsed::Done;
}

}  // namespace

bool parseOptions(int argc, char** argv, Options* o, std::string* error) {
    bool sawTransfer = false, onlyInputs = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (onlyInputs || a.empty() || a[0] != '-' || a == "-") {
            o->inputs.push_back(a);
            continue;
        }
        if (a == "--") {
            onlyInputs = true;
            continue;
        }
        Arg arg{argc, argv, &i, a, "", false, error};
        if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
            const size_t eq = a.find('=');
            if (eq != std::string::npos) {
                arg.name = a.substr(0, eq);
                arg.inlineValue = a.substr(eq + 1);
                arg.hasInlineValue = true;
            }
        }
        Parsed p = parseChainOption(arg, o, &sawTransfer);
        if (p == Parsed::NotMine) p = parseShaderOption(arg, o);
        if (p == Parsed::NotMine) p = parseRunOption(arg, o);
        if (p == Parsed::Failed) return false;
        if (p == Parsed::NotMine) {
            *error = "unknown option " + a;
            return false;
        }
    }
    return true;
}

std::string helpText() {
    std::string formats;
    for (const FormatName& n : formatNames()) {
        vkspd::FormatInfo fi;
        const bool known = vkspd::getFormatInfo(n.format, &fi);
        char line[128];
        std::snprintf(line, sizeof line, "    %-12s %s%s\n", n.name, known ? fi.name : "",
                      known ? "" : "(not in this build of the library)");
        formats += line;
    }
    return std::string(
               "usage: vkspd IMAGE... [options]\n"
               "\n"
               "Generates every mip level of each IMAGE in one compute dispatch on a Vulkan device,\n"
               "reads the chain back and writes, into the output folder:\n"
               "  level_NN_WxH.png   every level (16-bit PNG for 16- and 10-bit formats; Radiance\n"
               "                     .hdr instead for float formats)\n"
               "  contact_sheet.png  the whole chain side by side (8-bit sRGB preview; floats\n"
               "                     clamped to [0, 1]; starts at the first level of at most 4096)\n"
               "  NAME.ktx2          the whole chain in the GPU format (KTX 2.0, no supercompression)\n"
               "Inputs: PNG, JPEG, TGA, BMP, PSD, GIF (first frame) and Radiance HDR; '-' reads\n"
               "standard input (its files are named stdin).\n"
               "\n"
               "options:\n"
               "  -o, --output DIR   output folder (default: vkspd-out; created with the first output).\n"
               "                     With several inputs each gets DIR/NAME/, NAME being the file\n"
               "                     name without its extension (NAME-2, NAME-3... if two share it;\n"
               "                     '.' and '..' become '_' and '__'); nothing is written outside DIR\n"
               "  --format NAME      GPU format of the chain (default: rgba8-srgb for 8-bit input,\n"
               "                     rgba8 with --linear, rgba16 for 16-bit input, rgba16f for HDR;\n"
               "                     with --reduction minmax: rg8, rg16 or rg32f). Channels beyond\n"
               "                     the format's are dropped. Names:\n") +
           formats +
           "                     sRGB formats filter in linear light; UNORM formats take the\n"
           "                     file's values unchanged; SNORM maps 0..1 to -1..1; float formats\n"
           "                     take linear values (8/16-bit sRGB input is decoded to linear)\n"
           "  --reduction R      avg (default: exact area-weighted box filter), min, max (per\n"
           "                     channel, over every texel with a non-zero weight), or minmax\n"
           "                     (a two-channel chain: level 0 holds (v, v) for the first channel v\n"
           "                     of the image; each level holds the (min, max) of the one above)\n"
           "  --srgb, --linear   how 8- and 16-bit files are encoded: sRGB colour (default) or\n"
           "                     linear data; HDR files are always linear\n"
           "  --fp16, --fp32     arithmetic of the shader (default: FP16 where the format and\n"
           "                     device allow it, else FP32; FP32 for min and max on NVIDIA\n"
           "                     where the plain or summed kernel runs the chain)\n"
           "  --path quad|lds    quad subgroup operations or shared memory only (default: quad\n"
           "                     where the device supports it)\n"
           "  --fetch F          auto, load, linear or gather: where level 1 is a plain 2x2\n"
           "                     reduction, four texel loads, one linear-sampler fetch (avg\n"
           "                     reduction, quad path, a format the FP16 path holds, not sRGB;\n"
           "                     with --kernel halo --fp32, 8-bit UNORM/SNORM only) or one\n"
           "                     gather of the four texels (a one-channel format, quad path,\n"
           "                     the plain, halo or summed kernel, not an odd base); elsewhere\n"
           "                     an error names the rule; the same output. Default auto: on\n"
           "                     NVIDIA linear where allowed, else gather where allowed\n"
           "                     (measured faster there), else load\n"
           "  --group-columns N  group-ID tiling: groups walk strips N tiles wide (default 0: off;\n"
           "                     the same output; general kernel only)\n"
           "  --kernel K         auto, plain, general, halo or summed: the plain-chain kernel (chains\n"
           "                     whose every level is a 2x2 reduction: each axis of every level read\n"
           "                     even or 1, such as square powers of two; quad path, built-in\n"
           "                     reductions), the general kernel (every size), the halo-stage\n"
           "                     kernel (chains with a level that is not plain: after a plain\n"
           "                     prefix, such as 1920x1080, or from the base in tiles with a halo,\n"
           "                     such as 4095x4095) or the summed-levels kernel (after a plain\n"
           "                     prefix of two or more levels, such as 1920x1080 or 4096x4096, every\n"
           "                     later level combined from the prefix's last at once: avg of UNORM\n"
           "                     and sRGB formats, min, max and minmax of any); the same output.\n"
           "                     Default auto: summed where it applies with a prefix of 2 to 5\n"
           "                     levels, at most 1024 tiles of 64x64 and texels of at most 4 bytes\n"
           "                     (1920x1080, 2560x1440 or 1000x600 rgba8, a Hi-Z pyramid at\n"
           "                     1920x1080), else plain where it applies, else halo where it\n"
           "                     applies (3840x2160, 1920x1080 rgba16f, 4095x4095, 1366x768),\n"
           "                     else general\n"
           "  --tiles-per-group N  plain-chain kernel and the halo-stage and summed-levels kernels'\n"
           "                     prefix: 64x64 tiles one group reduces, a power of two from 1 to " +
           std::to_string(vkspd::kMaxTilesPerGroup) + "\n"
           "                     (default 0: the library's choice); the same output\n"
           "  --tail T/P         plain-chain kernel (and the summed-levels kernel on a plain chain):\n"
           "                     the last T tiles (whole tile rows) in strips of P\n"
           "                     tiles, so the last groups to start end sooner (0/1: none; default:\n"
           "                     the library's rule, 2048/2 from 128x128 tiles); the same output\n"
           "  --device N|NAME    device by index or by part of its name (default: the first\n"
           "                     discrete GPU, else any GPU, else the CPU implementation lavapipe)\n"
           "  --list-devices     list the Vulkan devices with their index and exit\n"
           "  --verify           compare every level with the CPU reference and print the worst\n"
           "                     error per level; exit code 1 if one is out of tolerance (1 ulp for\n"
           "                     UNORM, SNORM, sRGB and packed formats; 1 ulp for 16-bit float on\n"
           "                     the FP32 path, 4 on the FP16 path; 2^-20 relative for 32-bit float;\n"
           "                     bit-exact for min, max and minmax)\n"
           "  --json FILE        write a machine-readable report (device, sizes, format, path,\n"
           "                     timings, errors per level, outputs) to FILE ('-': standard output)\n"
           "  --bench N          time N dispatches back to back with GPU timestamps on a GPU\n"
           "                     brought to a steady state, and print the median, the minimum and\n"
           "                     the effective GB/s (level 0 read + levels 1.. written); image kept\n"
           "                     in GENERAL layout, caches warm. An idle GPU runs at a low clock,\n"
           "                     so the dispatch is first repeated in batches until at least 500 ms\n"
           "                     of GPU work have run and the batches of the last 250 ms of it agree\n"
           "                     within 3% (at most 3 s); the warm-up is printed, and the SM clock\n"
           "                     before and after it and after timing where NVML is present\n"
           "                     (NVIDIA), else why not. The figure of a GPU kept busy\n"
           "  --bench-cold N     time N dispatches (1 to 100), each alone after 1 s with the GPU\n"
           "                     idle: what a tool converting one texture meets, idle clock\n"
           "                     included; prints the median, minimum and maximum and the SM clock\n"
           "                     before each where NVML is present. Runs before --bench if both\n"
           "                     are given\n"
           "  --no-write         write no image files (for --verify, --bench or --json alone)\n"
           "  --random WxH       also process a WxH image of random 8-bit RGBA texels\n"
           "  --occupancy        print, for each built-in shader variant (reduction, FP16/FP32,\n"
           "                     quad/LDS-only, plain-chain and halo-stage kernels; those two as\n"
           "                     built for four channels and texel loads, the halo-stage one with\n"
           "                     a plain prefix), registers per thread, shared memory per group,\n"
           "                     subgroup size, groups and warps per SM and the resource that\n"
           "                     limits them (driver statistics where the device has\n"
           "                     VK_KHR_pipeline_executable_properties, else computed from its\n"
           "                     limits, else 'not available'); needs no input image\n"
           "  --order-map FILE   write FILE (PNG): the 64x64 tiles of the first input coloured by\n"
           "                     the order in which their groups finished (a debug variant of the\n"
           "                     dispatch, average reduction only); works on every device\n"
           "  --sm-map FILE      write FILE (PNG): the tiles coloured by the SM that ran them, with\n"
           "                     a legend, and print the tiles per SM (min/median/max); needs\n"
           "                     VK_NV_shader_sm_builtins (NVIDIA), else exit code 6\n"
           "  --pipeline-cache FILE  keep the compiled pipelines in FILE (a Vulkan pipeline cache):\n"
           "                     read at the start where it was made by this device and driver,\n"
           "                     written at the end, so a later run compiles nothing. A FILE that\n"
           "                     is not a Vulkan pipeline cache is an error (exit code 2) and is\n"
           "                     left as it is; on NVIDIA it also holds the machine code\n"
           "                     (scripts/nvidia_sass.py)\n"
           "  -q, --quiet        print errors only (no progress, no summary)\n"
           "  -h, --help         this text\n"
           "\n"
           "A progress bar is drawn on standard error when it is a terminal, and plain lines are\n"
           "printed for batches when it is not. Errors are one line each: 'vkspd: FILE: reason'. A\n"
           "failed input does not stop a batch. Each output file is written under a temporary name\n"
           "and renamed once complete; if any output of an input fails, none of its new files is kept.\n"
           "\n"
           "exit codes:\n"
           "  0  success\n"
           "  1  --verify found a level outside the tolerance\n"
           "  2  bad arguments\n"
           "  3  an input is missing, unreadable, truncated, corrupt, of an unsupported type, of\n"
           "     zero size, larger than the device's maxImageDimension2D, 2 GiB or more decoded, or\n"
           "     a chain this device cannot make at that size (its single-pass scratch past\n"
           "     maxStorageBufferRange): found from the header, before decoding\n"
           "  4  no usable Vulkan device, a Vulkan error, or the device or library cannot produce\n"
           "     the requested format\n"
           "  5  cannot create the output folder or write an output file\n"
           "  6  --sm-map on a device without VK_NV_shader_sm_builtins\n"
           "  130, 143  stopped by SIGINT, SIGTERM: the input in flight is finished or removed, no\n"
           "     temporary file is left\n"
           "With several inputs, the exit code is that of the first input that failed.\n"
           "\n"
           "environment:\n"
           "  VKSPD_VALIDATION=1  run under the Khronos validation layer with synchronization\n"
           "                      validation; any message is printed and makes the exit code 4\n"
           "\n"
           "examples:\n"
           "  vkspd photo.jpg -o mips --verify\n"
           "  vkspd normal.png --linear --format rgba8-snorm\n"
           "  vkspd depth.hdr --reduction minmax --format rg32f --json report.json\n"
           "  vkspd textures/*.png -o out --quiet\n"
           "  vkspd --random 4096x4096 --format rgba16f --bench 50 --no-write\n"
           "  vkspd --occupancy\n"
           "  vkspd --random 4096x4096 --no-write --order-map order.png --sm-map sm.png\n";
}

}  // namespace vkspd_cli
