// vkspd-bench: the measurement protocol of SPEC section 6 in one process. For every format and
// size it times, interleaved and with the L2 evicted before each item: the blit chain, one
// dispatch per level (vkspd with two-level ranges: the same exact kernel), and each vkspd
// single-pass variant; plus the compute-shader copy that sets the bandwidth floor. Every
// vkspd method's output is checked against the CPU reference once before timing.
#include <vkspd/debug.hpp>
#include <vkspd/reference.hpp>
#include <vkspd/vkspd.hpp>

#include "../samples/common/gpu.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace vkspd_tools;

namespace {

const uint32_t kCopySpirv[] =
#include "vkspd_bench_copy.inc"
    ;

const char* kUsageText =
    "usage: vkspd-bench [options]\n"
    "\n"
    "Times mip generation on the GPU (SPEC section 6): blit chain, one dispatch per level, and\n"
    "every vkspd single-pass variant, against a compute-shader copy floor measured in the same\n"
    "run; interleaved, GPU timestamps, the L2 evicted before each item, median and minimum.\n"
    "Each vkspd method is first checked against the CPU reference (one dispatch per level\n"
    "against a reference that rounds every level, as that method does). Exit code 1 if a check\n"
    "fails. The occupancy column gives each single-pass variant's occupancy, the groups per SM\n"
    "and the resource that limits them (as vkspd --occupancy; 'computed' where the driver does not\n"
    "report registers, n/a where the device has no per-SM figures).\n"
    "\n"
    "options:\n"
    "  --device N        Vulkan device index (default: first discrete GPU, else any)\n"
    "  --reps N          timed repetitions (default 30; 3 warm-up repetitions come first)\n"
    "  --sizes LIST      comma-separated WxH (default: the SPEC list, up to the device limit)\n"
    "  --formats LIST    comma-separated: rgba8, rgba16f, r32f, rgba32f (default: all)\n"
    "  --copy-mib N      size of the copy that sets the floor (default 1024)\n"
    "  --evict-mib N     size of the copy run before each item to evict the L2 (default 256)\n"
    "  --out DIR         write DIR/bench.csv, DIR/bench.json and DIR/bench-<format>.svg\n"
    "  --no-denorm-preserve  run the shaders as built, without the DenormPreserve execution mode\n"
    "                    the library adds where the device supports it (ContextCreateInfo::\n"
    "                    skipDenormPreserve), to measure what keeping FP32 denormals costs\n"
    "  -h, --help        this text\n"
    "\n"
    "example: vkspd-bench --reps 50 --out bench/results/today\n";

struct FormatChoice {
    const char* key;
    VkFormat format;
};
const FormatChoice kFormats[] = {{"rgba8", VK_FORMAT_R8G8B8A8_UNORM},
                                 {"rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT},
                                 {"r32f", VK_FORMAT_R32_SFLOAT},
                                 {"rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT}};

struct Method {
    std::string name;
    enum Kind { Blit, PerLevel, SinglePass } kind;
    vkspd::Precision precision = vkspd::Precision::Auto;
    vkspd::SubgroupPath path = vkspd::SubgroupPath::Auto;
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

// One (format, size) under test: an image with a full chain in GENERAL layout.
struct Subject {
    VkFormat format;
    uint32_t width, height, levels;
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    double floorBytes = 0;  // level 0 read once + every other level written once
};

struct Item {
    size_t subject;  // index into subjects; SIZE_MAX for the copy floor
    Method method;
    bool verified = false;
    double worstError = 0;
    std::vector<double> us;  // one per timed repetition
};

const VkImageLayout kGeneral = VK_IMAGE_LAYOUT_GENERAL;
const vkspd::ImageState kComputeState = {kGeneral, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                         VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};

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
    info.precision = m.precision;
    info.subgroupPath = m.path;
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

struct Copier {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    PFN_vkCmdPushDescriptorSetKHR push = nullptr;

    void record(VkCommandBuffer cmd, const Buffer& from, const Buffer& to, VkDeviceSize bytes) const {
        VkDescriptorBufferInfo infos[2] = {{from.buffer, 0, bytes}, {to.buffer, 0, bytes}};
        VkWriteDescriptorSet w[2] = {};
        for (int i = 0; i < 2; ++i) {
            w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            w[i].dstBinding = uint32_t(i);
            w[i].descriptorCount = 1;
            w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w[i].pBufferInfo = &infos[i];
        }
        uint32_t count = uint32_t(bytes / 16);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        push(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, w);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
        vkCmdDispatch(cmd, std::min<uint32_t>(65535, std::max<uint32_t>(1, count / (256 * 8))), 1, 1);
    }
};

Copier makeCopier(const Gpu& g) {
    Copier c;
    c.push = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(g.device, "vkCmdPushDescriptorSetKHR"));
    VkDescriptorSetLayoutBinding b[2] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
                                         {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    li.bindingCount = 2;
    li.pBindings = b;
    CHECK_VK(vkCreateDescriptorSetLayout(g.device, &li, nullptr, &c.setLayout));
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo pi{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pi.setLayoutCount = 1;
    pi.pSetLayouts = &c.setLayout;
    pi.pushConstantRangeCount = 1;
    pi.pPushConstantRanges = &range;
    CHECK_VK(vkCreatePipelineLayout(g.device, &pi, nullptr, &c.layout));
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = sizeof(kCopySpirv);
    mi.pCode = kCopySpirv;
    VkShaderModule module;
    CHECK_VK(vkCreateShaderModule(g.device, &mi, nullptr, &module));
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.layout = c.layout;
    CHECK_VK(vkCreateComputePipelines(g.device, VK_NULL_HANDLE, 1, &ci, nullptr, &c.pipeline));
    vkDestroyShaderModule(g.device, module, nullptr);
    return c;
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

// Random level 0 for `format`: UNORM uniform, floats in [0.25, 4).
void fillLevel0(Runner& run, const Subject& s) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(s.format, &fi);
    const size_t texels = size_t(s.width) * s.height, bytes = texels * fi.bytesPerTexel;
    Buffer staging = makeBuffer(run.g, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    std::mt19937_64 rng(s.width * 7919ull + s.height + uint64_t(s.format));
    std::uniform_real_distribution<double> unit(0.0, 1.0), wide(0.25, 4.0);
    std::vector<double> row(size_t(s.width) * fi.channels);
    for (uint32_t y = 0; y < s.height; ++y) {
        for (double& v : row) v = fi.encoding == vkspd::ChannelEncoding::Unorm8 ? unit(rng) : wide(rng);
        vkspd::encodeTexels(s.format, row.data(), s.width,
                            static_cast<uint8_t*>(staging.mapped) + size_t(y) * s.width * fi.bytesPerTexel);
    }
    VkCommandBuffer cmd = run.begin();
    imageBarrier(cmd, s.image, s.levels, VK_IMAGE_LAYOUT_UNDEFINED, kGeneral, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {s.width, s.height, 1};
    vkCmdCopyBufferToImage(cmd, staging.buffer, s.image, kGeneral, 1, &region);
    fullBarrier(cmd);
    run.submitAndWait();
    freeBuffer(run.g, staging);
}

// Runs the method once and compares levels `firstChecked`.. with the reference; returns worst.
bool verify(Runner& run, vkspd::Context context, const Subject& s, const Method& m,
            const std::vector<vkspd::ReferenceLevel>& ref, double* worst) {
    vkspd::DispatchDescription d;  // which path the library runs decides the tolerance
    if (!vkspd::describeDispatch(context, infoFor(s, m), &d).ok()) return false;
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(s.format, &fi);
    const uint32_t firstChecked = (size_t(s.width) * s.height > (4096u * 4096u)) ? 2 : 1;
    VkDeviceSize total = 0;
    std::vector<VkDeviceSize> offsets(s.levels, 0);
    for (uint32_t l = firstChecked; l < s.levels; ++l) {
        offsets[l] = total;
        total += (VkDeviceSize(vkspd::mipExtent(s.width, l)) * vkspd::mipExtent(s.height, l) * fi.bytesPerTexel + 15) & ~15ull;
    }
    Buffer readback = makeBuffer(run.g, total, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    VkCommandBuffer cmd = run.begin();
    bool ok = recordVkspd(context, cmd, s, m);
    fullBarrier(cmd);
    for (uint32_t l = firstChecked; l < s.levels; ++l) {
        VkBufferImageCopy region{};
        region.bufferOffset = offsets[l];
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
        region.imageExtent = {vkspd::mipExtent(s.width, l), vkspd::mipExtent(s.height, l), 1};
        vkCmdCopyImageToBuffer(cmd, s.image, kGeneral, readback.buffer, 1, &region);
    }
    fullBarrier(cmd);
    run.submitAndWait();
    double tol = vkspd::toleranceFor(s.format, d.fp16);
    // One dispatch per level rounds every level; 2x2 averages of 8-bit or half values often land
    // exactly halfway between two codes, and a GPU may break those ties otherwise than the CPU,
    // so the difference can grow by one unit per level (an H200 differed by 2-5 ulp).
    if (m.kind == Method::PerLevel) tol *= double(s.levels - 1);
    *worst = 0;
    for (uint32_t l = firstChecked; ok && l < s.levels; ++l) {
        vkspd::LevelError e = vkspd::compareLevel(s.format, static_cast<uint8_t*>(readback.mapped) + offsets[l], ref[l], tol);
        *worst = std::max(*worst, e.worst);
        ok = e.overTolerance == 0;
    }
    freeBuffer(run.g, readback);
    return ok;
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

std::string formatName(VkFormat f) {
    vkspd::FormatInfo fi;
    vkspd::getFormatInfo(f, &fi);
    return fi.name;
}

// A line plot of % of the copy floor against size, one line per method.
void writeSvg(const std::string& path, const std::string& title, const std::vector<std::string>& sizes,
              const std::vector<std::pair<std::string, std::vector<double>>>& lines) {
    const int w = 900, h = 460, left = 60, right = 200, top = 40, bottom = 70;
    const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"};
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
        const char* c = colours[m % 7];
        f << "<polyline fill='none' stroke='" << c << "' stroke-width='2' points='";
        for (size_t i = 0; i < lines[m].second.size(); ++i) f << x(i) << ',' << y(lines[m].second[i]) << ' ';
        f << "'/>\n";
        f << "<line x1='" << w - right + 16 << "' x2='" << w - right + 40 << "' y1='" << top + 18 * m + 6 << "' y2='" << top + 18 * m + 6 << "' stroke='" << c << "' stroke-width='3'/>";
        f << "<text x='" << w - right + 46 << "' y='" << top + 18 * m + 10 << "'>" << lines[m].first << "</text>\n";
    }
    f << "</svg>\n";
}

}  // namespace

int main(int argc, char** argv) {
    int deviceIndex = -1;
    uint32_t reps = 30, copyMib = 1024, evictMib = 256;
    std::string sizesArg, formatsArg = "rgba8,rgba16f,r32f,rgba32f", outDir;
    bool skipDenormPreserve = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "vkspd-bench: %s needs a value (see --help)\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "-h" || a == "--help") {
            std::fputs(kUsageText, stdout);
            return 0;
        } else if (a == "--device") deviceIndex = std::atoi(value().c_str());
        else if (a == "--reps") reps = uint32_t(std::max(1, std::atoi(value().c_str())));
        else if (a == "--sizes") sizesArg = value();
        else if (a == "--formats") formatsArg = value();
        else if (a == "--copy-mib") copyMib = uint32_t(std::max(1, std::atoi(value().c_str())));
        else if (a == "--evict-mib") evictMib = uint32_t(std::max(1, std::atoi(value().c_str())));
        else if (a == "--out") outDir = value();
        else if (a == "--no-denorm-preserve") skipDenormPreserve = true;
        else {
            std::fprintf(stderr, "vkspd-bench: unknown option %s (see --help)\n", a.c_str());
            return 2;
        }
    }

    // Occupancy of each variant (issue 7), from a device of its own with
    // VK_KHR_pipeline_executable_properties enabled where present, closed before anything is timed:
    // the timed device and its pipelines are created exactly as without it.
    std::vector<vkspd::OccupancyRecord> occupancy;
    {
        Gpu sg = openGpu(deviceIndex, true);
        vkspd::Context sc = createContext(sg);
        vkspd::OccupancyQueryInfo q;
        q.pipelineExecutableInfoEnabled = sg.pipelineStatistics;
        if (vkspd::Result r = vkspd::queryOccupancy(sc, q, &occupancy); !r.ok())
            std::fprintf(stderr, "vkspd-bench: occupancy: %s\n", r.message.c_str());
        vkspd::destroyContext(sc);
        closeGpu(sg);
    }
    auto occupancyOf = [&](const Method& m) -> const vkspd::OccupancyRecord* {
        if (m.kind != Method::SinglePass) return nullptr;
        for (const vkspd::OccupancyRecord& r : occupancy)
            if (r.fp16 == (m.precision == vkspd::Precision::FP16) && r.quad == (m.path == vkspd::SubgroupPath::Quad))
                return &r;
        return nullptr;
    };
    auto occupancyText = [&](const Method& m) -> std::string {
        const vkspd::OccupancyRecord* r = occupancyOf(m);
        if (!r || r->source == vkspd::OccupancySource::NotAvailable) return "n/a";
        char text[64];
        std::snprintf(text, sizeof text, "%.0f%% %ug %s%s", 100.0 * r->occupancy.occupancy, r->occupancy.groupsPerSm,
                      vkspd::limiterName(r->occupancy.limiter),
                      r->source == vkspd::OccupancySource::Computed ? " (computed)" : "");
        return text;
    };

    Gpu g = openGpu(deviceIndex);
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &driver;
    vkGetPhysicalDeviceProperties2(g.physical, &p2);
    vkspd::Context context = nullptr;
    {
        vkspd::ContextCreateInfo ci = contextInfoFor(g);
        ci.skipDenormPreserve = skipDenormPreserve;
        if (vkspd::Result r = vkspd::createContext(ci, &context); !r.ok()) {
            std::fprintf(stderr, "vkspd-bench: %s\n", r.message.c_str());
            return kGpuExitCode;
        }
    }
    Copier copier = makeCopier(g);
    Runner run(g);

    std::vector<std::pair<uint32_t, uint32_t>> sizes;
    const std::string defaultSizes = "1920x1080,2560x1440,3840x2160,2047x2047,2048x2048,4095x4095,4096x4096,8192x8192,16384x16384";
    for (const std::string& s : split(sizesArg.empty() ? defaultSizes : sizesArg)) {
        uint32_t w = 0, h = 0;
        if (std::sscanf(s.c_str(), "%ux%u", &w, &h) != 2 || !w || !h) {
            std::fprintf(stderr, "vkspd-bench: --sizes: %s is not WxH\n", s.c_str());
            return 2;
        }
        if (w > g.properties.limits.maxImageDimension2D || h > g.properties.limits.maxImageDimension2D) {
            std::printf("skipping %ux%u: beyond maxImageDimension2D %u\n", w, h, g.properties.limits.maxImageDimension2D);
            continue;
        }
        sizes.push_back({w, h});
    }
    std::vector<VkFormat> formats;
    for (const std::string& f : split(formatsArg)) {
        auto it = std::find_if(std::begin(kFormats), std::end(kFormats), [&](const FormatChoice& c) { return f == c.key; });
        if (it == std::end(kFormats)) {
            std::fprintf(stderr, "vkspd-bench: --formats: unknown %s (rgba8, rgba16f, r32f, rgba32f)\n", f.c_str());
            return 2;
        }
        formats.push_back(it->format);
    }

    // Subjects and items; each vkspd method verified against the reference before timing.
    std::vector<Subject> subjects;
    std::vector<Item> items;
    Item copyItem;
    copyItem.subject = SIZE_MAX;
    copyItem.method = {"compute copy", Method::SinglePass};
    items.push_back(copyItem);
    for (VkFormat f : formats) {
        vkspd::FormatInfo fi;
        vkspd::getFormatInfo(f, &fi);
        for (auto [w, h] : sizes) {
            Subject s{f, w, h, vkspd::fullMipCount(w, h)};
            VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
            ii.imageType = VK_IMAGE_TYPE_2D;
            ii.format = f;
            ii.extent = {w, h, 1};
            ii.mipLevels = s.levels;
            ii.arrayLayers = 1;
            ii.samples = VK_SAMPLE_COUNT_1_BIT;
            ii.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                       VK_IMAGE_USAGE_TRANSFER_DST_BIT;
            CHECK_VK(vkCreateImage(g.device, &ii, nullptr, &s.image));
            VkMemoryRequirements req;
            vkGetImageMemoryRequirements(g.device, s.image, &req);
            s.memory = allocate(g, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
            CHECK_VK(vkBindImageMemory(g.device, s.image, s.memory, 0));
            for (uint32_t l = 0; l < s.levels; ++l)
                s.floorBytes += double(vkspd::mipExtent(w, l)) * vkspd::mipExtent(h, l) * fi.bytesPerTexel;
            fillLevel0(run, s);
            subjects.push_back(s);
            const size_t index = subjects.size() - 1;

            // The reference from level 0 as uploaded.
            std::vector<float> texels(size_t(w) * h * fi.channels);
            {
                Buffer rb = makeBuffer(g, size_t(w) * h * fi.bytesPerTexel, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
                VkCommandBuffer cmd = run.begin();
                VkBufferImageCopy region{};
                region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
                region.imageExtent = {w, h, 1};
                vkCmdCopyImageToBuffer(cmd, s.image, kGeneral, rb.buffer, 1, &region);
                run.submitAndWait();
                vkspd::decodeTexels(f, rb.mapped, size_t(w) * h, texels.data());
                freeBuffer(g, rb);
            }
            auto ref = vkspd::referenceChain(texels.data(), w, h, fi.channels, s.levels);
            // One dispatch per level stores (rounds) every level before the next reads it: its
            // reference rounds each level to the format too.
            std::vector<vkspd::ReferenceLevel> rounded(1, ref[0]);
            for (uint32_t l = 1; l < s.levels; ++l) {
                const vkspd::ReferenceLevel& above = rounded.back();
                std::vector<uint8_t> bytes(size_t(above.width) * above.height * fi.bytesPerTexel);
                vkspd::encodeTexels(f, above.texels.data(), size_t(above.width) * above.height, bytes.data());
                std::vector<float> decoded(above.texels.size());
                vkspd::decodeTexels(f, bytes.data(), size_t(above.width) * above.height, decoded.data());
                rounded.push_back(vkspd::referenceChain(decoded.data(), above.width, above.height, fi.channels, 2)[1]);
            }
            texels = std::vector<float>();

            std::vector<Method> methods = {{"blit chain", Method::Blit},
                                           {"dispatch per level", Method::PerLevel, vkspd::Precision::FP32}};
            for (bool fp16 : {true, false}) {
                if (fp16 && (!fi.fp16Capable || !g.fp16)) continue;
                for (bool quad : {true, false}) {
                    Method m{std::string("vkspd ") + (fp16 ? "fp16" : "fp32") + (quad ? " quad" : " lds"), Method::SinglePass,
                             fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32,
                             quad ? vkspd::SubgroupPath::Quad : vkspd::SubgroupPath::LdsOnly};
                    methods.push_back(m);
                }
            }
            for (const Method& m : methods) {
                Item it;
                it.subject = index;
                it.method = m;
                if (m.kind != Method::Blit) {
                    it.verified = verify(run, context, s, m, m.kind == Method::PerLevel ? rounded : ref, &it.worstError);
                    if (!it.verified)
                        std::printf("VERIFY FAILED: %s %ux%u %s (worst %g)\n", formatName(f).c_str(), w, h, m.name.c_str(), it.worstError);
                }
                items.push_back(it);
            }
            std::printf("prepared %s %ux%u\n", formatName(f).c_str(), w, h);
            std::fflush(stdout);
        }
    }

    // The floor: a compute copy of copyMib MiB; the L2 eviction: a copy of evictMib MiB elsewhere.
    const VkDeviceSize copyBytes = VkDeviceSize(copyMib) << 20, evictBytes = VkDeviceSize(evictMib) << 20;
    Buffer copyFrom = makeBuffer(g, copyBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    Buffer copyTo = makeBuffer(g, copyBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    Buffer evictFrom = makeBuffer(g, evictBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    Buffer evictTo = makeBuffer(g, evictBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);

    VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpi.queryCount = uint32_t(2 * items.size());
    VkQueryPool queries;
    CHECK_VK(vkCreateQueryPool(g.device, &qpi, nullptr, &queries));
    const uint32_t warmup = 3;
    std::vector<uint64_t> stamps(2 * items.size());
    for (uint32_t rep = 0; rep < warmup + reps; ++rep) {
        VkCommandBuffer cmd = run.begin();
        vkCmdResetQueryPool(cmd, queries, 0, qpi.queryCount);
        for (size_t i = 0; i < items.size(); ++i) {
            const Item& it = items[i];
            copier.record(cmd, evictFrom, evictTo, evictBytes);  // cold L2
            fullBarrier(cmd);
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, uint32_t(2 * i));
            if (it.subject == SIZE_MAX) copier.record(cmd, copyFrom, copyTo, copyBytes);
            else if (it.method.kind == Method::Blit) recordBlitChain(cmd, subjects[it.subject]);
            else recordVkspd(context, cmd, subjects[it.subject], it.method);
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, uint32_t(2 * i + 1));
            fullBarrier(cmd);
        }
        run.submitAndWait();
        CHECK_VK(vkGetQueryPoolResults(g.device, queries, 0, qpi.queryCount, stamps.size() * 8, stamps.data(), 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        if (rep < warmup) continue;
        for (size_t i = 0; i < items.size(); ++i)
            items[i].us.push_back(double(stamps[2 * i + 1] - stamps[2 * i]) * g.properties.limits.timestampPeriod * 1e-3);
    }

    // Report.
    const double copyMedian = median(items[0].us);
    const double copyGBs = 2.0 * double(copyBytes) / (copyMedian * 1e-6) * 1e-9;
    char date[32];
    std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    std::printf("\n%s (%s %s), %s, %u repetitions after %u warm-up, L2 evicted before each item\n",
                g.properties.deviceName, driver.driverName, driver.driverInfo, date, reps, warmup);
    std::printf("compute copy floor: %.0f GB/s (%u MiB, median %.1f us); %u MiB copied before each item\n",
                copyGBs, copyMib, copyMedian, evictMib);
    std::printf("DenormPreserve: %s\n\n", skipDenormPreserve ? "off (--no-denorm-preserve)"
                                                              : "added where the device supports it");
    std::printf("%-22s %-12s %-20s %10s %10s %8s %8s %8s %-28s %s\n", "format", "size", "method", "median us", "min us",
                "GB/s", "% floor", "x blit", "occupancy", "check");
    std::ostringstream csv, json;
    csv << "gpu,driver,date,format,width,height,method,median_us,min_us,effective_gbs,percent_of_floor,speedup_vs_blit,verified,worst_error,occupancy\n";
    json << "{\n  \"gpu\": \"" << g.properties.deviceName << "\",\n  \"driver\": \"" << driver.driverName << ' '
         << driver.driverInfo << "\",\n  \"date\": \"" << date << "\",\n  \"repetitions\": " << reps
         << ",\n  \"copy_floor_gbs\": " << copyGBs << ",\n  \"results\": [\n";
    bool first = true, allVerified = true;
    for (size_t i = 1; i < items.size(); ++i) {
        const Item& it = items[i];
        const Subject& s = subjects[it.subject];
        double blitMedian = 0;
        for (const Item& other : items)
            if (other.subject == it.subject && other.method.kind == Method::Blit) blitMedian = median(other.us);
        const double med = median(it.us), mn = *std::min_element(it.us.begin(), it.us.end());
        const double gbs = s.floorBytes / (med * 1e-6) * 1e-9;
        const double pct = 100.0 * gbs / copyGBs;
        const std::string check = it.method.kind == Method::Blit ? "approximate"
                                  : !it.verified                       ? "FAILED"
                                  : it.method.kind == Method::PerLevel ? "ok (rounds per level)"
                                                                       : "ok";
        allVerified = allVerified && (it.method.kind == Method::Blit || it.verified);
        const std::string occ = it.method.kind == Method::SinglePass ? occupancyText(it.method) : "-";
        std::printf("%-22s %5ux%-6u %-20s %10.1f %10.1f %8.1f %7.1f%% %8.1f %-28s %s\n", formatName(s.format).c_str(), s.width,
                    s.height, it.method.name.c_str(), med, mn, gbs, pct, blitMedian / med, occ.c_str(), check.c_str());
        csv << '"' << g.properties.deviceName << "\",\"" << driver.driverName << ' ' << driver.driverInfo << "\"," << date << ','
            << formatName(s.format) << ',' << s.width << ',' << s.height << ',' << it.method.name << ',' << med << ',' << mn
            << ',' << gbs << ',' << pct << ',' << blitMedian / med << ',' << check << ',' << it.worstError << ",\"" << occ
            << "\"\n";
        json << (first ? "" : ",\n") << "    {\"format\": \"" << formatName(s.format) << "\", \"width\": " << s.width
             << ", \"height\": " << s.height << ", \"method\": \"" << it.method.name << "\", \"median_us\": " << med
             << ", \"min_us\": " << mn << ", \"effective_gbs\": " << gbs << ", \"percent_of_floor\": " << pct
             << ", \"speedup_vs_blit\": " << blitMedian / med << ", \"check\": \"" << check
             << "\", \"worst_error\": " << it.worstError << ", \"occupancy\": \"" << occ << "\"}";
        first = false;
    }
    json << "\n  ]\n}\n";
    if (!outDir.empty()) {
        std::ofstream(outDir + "/bench.csv") << csv.str();
        std::ofstream(outDir + "/bench.json") << json.str();
        for (VkFormat f : formats) {
            std::vector<std::string> sizeNames;
            for (auto [w, h] : sizes) sizeNames.push_back(std::to_string(w) + "x" + std::to_string(h));
            std::vector<std::pair<std::string, std::vector<double>>> lines;
            for (size_t i = 1; i < items.size(); ++i) {
                const Item& it = items[i];
                if (subjects[it.subject].format != f) continue;
                auto line = std::find_if(lines.begin(), lines.end(), [&](auto& l) { return l.first == it.method.name; });
                if (line == lines.end()) {
                    lines.push_back({it.method.name, {}});
                    line = lines.end() - 1;
                }
                line->second.push_back(100.0 * subjects[it.subject].floorBytes / (median(it.us) * 1e-6) * 1e-9 / copyGBs);
            }
            writeSvg(outDir + "/bench-" + formatName(f) + ".svg",
                     formatName(f) + " on " + g.properties.deviceName + ": % of the copy floor (median)", sizeNames, lines);
        }
        std::printf("\nwrote %s/bench.csv, bench.json and bench-<format>.svg\n", outDir.c_str());
    }
    return allVerified ? 0 : 1;
}
