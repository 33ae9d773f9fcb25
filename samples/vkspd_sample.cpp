// vkspd-sample: loads an image, generates its whole mip chain in one dispatch on a Vulkan device,
// verifies every level against the CPU reference and writes each level as a PNG.
// (The full CLI of SPEC section 5 grows from this.)
#include <vkspd/reference.hpp>
#include <vkspd/vkspd.hpp>

#include "common/gpu.hpp"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

using namespace vkspd_tools;

enum Exit { kOk = 0, kVerifyFailed = 1, kUsage = 2, kBadInput = 3, kVulkanError = kGpuExitCode, kOutputError = 5 };

const char* kUsageText =
    "usage: vkspd-sample [IMAGE] [options]\n"
    "\n"
    "Generates every mip level of IMAGE (PNG, JPEG, TGA, BMP, PSD, GIF, HDR; default: the bundled\n"
    "samples/data/vkspd-sample.png) in one compute dispatch, checks each level against the CPU\n"
    "reference, and writes level_NN_WxH.png files.\n"
    "\n"
    "options:\n"
    "  -o DIR        output folder (default: vkspd-out; created if missing)\n"
    "  --device N    Vulkan device index (default: first discrete GPU, else any GPU, else CPU)\n"
    "  --fp32        32-bit arithmetic (default: FP16 where the device supports it)\n"
    "  --lds         shared-memory-only path, no quad subgroup operations\n"
    "  --no-write    verify only, write no files\n"
    "  --random WxH  use a WxH image of random texels instead of a file\n"
    "  --bench N     also time N more dispatches with GPU timestamps (after 5 warm-up runs;\n"
    "                the image stays in GENERAL and caches stay warm between runs) and print\n"
    "                the median and minimum\n"
    "  -h, --help    this text\n"
    "\n"
    "exit codes: 0 ok, 1 a level is outside tolerance, 2 bad arguments, 3 unreadable image,\n"
    "4 Vulkan error, 5 cannot write output\n"
    "\n"
    "example: vkspd-sample photo.jpg -o mips\n";

bool writeFileAtomically(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t w, uint32_t h) {
    const std::string tmp = path + ".tmp";
    if (!stbi_write_png(tmp.c_str(), int(w), int(h), 4, rgba.data(), int(w * 4))) return false;
    return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string input = VKSPD_SAMPLE_IMAGE, outDir = "vkspd-out";
    int deviceIndex = -1;
    bool fp32 = false, lds = false, write = true;
    uint32_t randomW = 0, randomH = 0, benchRuns = 0;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](const char* opt) -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "vkspd-sample: %s needs a value (see --help)\n", opt);
                std::exit(kUsage);
            }
            return argv[++i];
        };
        if (a == "-h" || a == "--help") {
            std::fputs(kUsageText, stdout);
            return kOk;
        } else if (a == "-o") {
            outDir = value("-o");
        } else if (a == "--device") {
            std::string v = value("--device");
            char* end = nullptr;
            long d = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end || d < 0) {
                std::fprintf(stderr, "vkspd-sample: --device %s: expected a device index\n", v.c_str());
                return kUsage;
            }
            deviceIndex = int(d);
        } else if (a == "--fp32") {
            fp32 = true;
        } else if (a == "--lds") {
            lds = true;
        } else if (a == "--no-write") {
            write = false;
        } else if (a == "--random") {
            std::string v = value("--random");
            if (std::sscanf(v.c_str(), "%ux%u", &randomW, &randomH) != 2 || !randomW || !randomH ||
                randomW > 65536 || randomH > 65536) {
                std::fprintf(stderr, "vkspd-sample: --random %s: expected WxH, e.g. 4096x4096\n", v.c_str());
                return kUsage;
            }
        } else if (a == "--bench") {
            std::string v = value("--bench");
            char* end = nullptr;
            long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end || n < 1 || n > 100000) {
                std::fprintf(stderr, "vkspd-sample: --bench %s: expected a run count from 1 to 100000\n", v.c_str());
                return kUsage;
            }
            benchRuns = uint32_t(n);
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "vkspd-sample: unknown option %s (see --help)\n", a.c_str());
            return kUsage;
        } else {
            input = a;
        }
    }

    int w = 0, h = 0, comp = 0;
    std::vector<uint8_t> level0;
    if (randomW) {
        w = int(randomW), h = int(randomH);
        input = "random " + std::to_string(w) + "x" + std::to_string(h);
        level0.resize(size_t(w) * size_t(h) * 4);
        uint32_t state = 12345;
        for (uint8_t& b : level0) {
            state = state * 1664525u + 1013904223u;
            b = uint8_t(state >> 24);
        }
    } else {
        stbi_uc* pixels = stbi_load(input.c_str(), &w, &h, &comp, 4);
        if (!pixels) {
            std::fprintf(stderr, "vkspd-sample: %s: %s\n", input.c_str(), stbi_failure_reason());
            return kBadInput;
        }
        level0.assign(pixels, pixels + size_t(w) * size_t(h) * 4);
        stbi_image_free(pixels);
    }

    Gpu g = openGpu(deviceIndex);
    const uint32_t width = uint32_t(w), height = uint32_t(h);
    if (width > g.properties.limits.maxImageDimension2D || height > g.properties.limits.maxImageDimension2D) {
        std::fprintf(stderr, "vkspd-sample: %s: %ux%u exceeds the device limit %u\n", input.c_str(),
                     width, height, g.properties.limits.maxImageDimension2D);
        return kBadInput;
    }
    const uint32_t levels = vkspd::fullMipCount(width, height);
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;

    vkspd::Context context = vkspd_tools::createContext(g);

    // Image, staging buffer (level 0 in, every level out) and a command buffer.
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = format;
    ii.extent = {width, height, 1};
    ii.mipLevels = levels;
    ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
               VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImage image;
    CHECK_VK(vkCreateImage(g.device, &ii, nullptr, &image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(g.device, image, &req);
    VkDeviceMemory imageMemory = allocate(g, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CHECK_VK(vkBindImageMemory(g.device, image, imageMemory, 0));

    std::vector<VkDeviceSize> offsets;
    VkDeviceSize total = 0;
    for (uint32_t l = 0; l < levels; ++l) {
        offsets.push_back(total);
        total += VkDeviceSize(vkspd::mipExtent(width, l)) * vkspd::mipExtent(height, l) * 4;
    }
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = total;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer staging;
    CHECK_VK(vkCreateBuffer(g.device, &bi, nullptr, &staging));
    vkGetBufferMemoryRequirements(g.device, staging, &req);
    VkDeviceMemory stagingMemory =
        allocate(g, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    CHECK_VK(vkBindBufferMemory(g.device, staging, stagingMemory, 0));
    uint8_t* mapped = nullptr;
    CHECK_VK(vkMapMemory(g.device, stagingMemory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&mapped)));
    std::memcpy(mapped, level0.data(), level0.size());

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = g.family;
    VkCommandPool pool;
    CHECK_VK(vkCreateCommandPool(g.device, &pci, nullptr, &pool));
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = pool;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    CHECK_VK(vkAllocateCommandBuffers(g.device, &cai, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK_VK(vkBeginCommandBuffer(cmd, &begin));

    imageBarrier(cmd, image, levels, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy up{};
    up.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    up.imageExtent = {width, height, 1};
    vkCmdCopyBufferToImage(cmd, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &up);

    vkspd::MipGenInfo info;
    info.image = image;
    info.format = format;
    info.extent = {width, height};
    info.imageMipLevels = levels;
    info.before = {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT};
    info.after = {VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT};
    info.precision = fp32 ? vkspd::Precision::FP32 : vkspd::Precision::Auto;
    info.subgroupPath = lds ? vkspd::SubgroupPath::LdsOnly : vkspd::SubgroupPath::Auto;
    vkspd::DispatchDescription described;
    if (vkspd::Result r = vkspd::describeDispatch(context, info, &described); !r.ok()) {
        std::fprintf(stderr, "vkspd-sample: %s\n", r.message.c_str());
        return kVulkanError;
    }
    if (vkspd::Result r = vkspd::generateMips(context, cmd, info); !r.ok()) {
        std::fprintf(stderr, "vkspd-sample: %s\n", r.message.c_str());
        return kVulkanError;
    }
    for (uint32_t l = 0; l < levels; ++l) {
        VkBufferImageCopy down{};
        down.bufferOffset = offsets[l];
        down.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
        down.imageExtent = {vkspd::mipExtent(width, l), vkspd::mipExtent(height, l), 1};
        vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging, 1, &down);
    }
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                         nullptr, 0, nullptr);
    endSubmitWait(g, cmd);

    std::printf("%s: %ux%u, %u levels on %s (%s, %s), one dispatch of %ux%u groups\n", input.c_str(),
                width, height, levels, g.properties.deviceName, described.fp16 ? "FP16" : "FP32",
                described.quad ? "quad" : "LDS-only", described.groupsX, described.groupsY);

    // Verify against the CPU reference.
    std::vector<float> texels(level0.size());
    vkspd::decodeTexels(format, level0.data(), size_t(width) * height, texels.data());
    auto ref = vkspd::referenceChain(texels.data(), width, height, 4, levels);
    const double tol = vkspd::toleranceFor(format, described.fp16);
    bool ok = true;
    for (uint32_t l = 1; l < levels; ++l) {
        vkspd::LevelError e = vkspd::compareLevel(format, mapped + offsets[l], ref[l], tol);
        ok = ok && e.overTolerance == 0;
        std::printf("  level %2u %5ux%-5u worst error %.0f ulp%s\n", l, ref[l].width, ref[l].height,
                    e.worst, e.overTolerance ? "  OUT OF TOLERANCE" : "");
    }
    std::printf("%s: every level within %.0f ulp of the CPU reference: %s\n", input.c_str(), tol,
                ok ? "yes" : "NO");

    int status = ok ? kOk : kVerifyFailed;
    if (benchRuns) {
        const uint32_t warmup = 5, runs = warmup + benchRuns;
        VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpi.queryCount = 2 * runs;
        VkQueryPool queries;
        CHECK_VK(vkCreateQueryPool(g.device, &qpi, nullptr, &queries));
        CHECK_VK(vkResetCommandPool(g.device, pool, 0));
        CHECK_VK(vkBeginCommandBuffer(cmd, &begin));
        vkCmdResetQueryPool(cmd, queries, 0, 2 * runs);
        // Time the dispatch, not layout transitions: the image stays in GENERAL between runs.
        imageBarrier(cmd, image, levels, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        vkspd::MipGenInfo again = info;
        again.before = again.after = {VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
        for (uint32_t r = 0; r < runs; ++r) {
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, 2 * r);
            if (vkspd::Result gr = vkspd::generateMips(context, cmd, again); !gr.ok()) {
                std::fprintf(stderr, "vkspd-sample: %s\n", gr.message.c_str());
                return kVulkanError;
            }
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, 2 * r + 1);
        }
        endSubmitWait(g, cmd);
        std::vector<uint64_t> stamps(2 * runs);
        CHECK_VK(vkGetQueryPoolResults(g.device, queries, 0, 2 * runs, stamps.size() * 8, stamps.data(), 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        std::vector<double> us;
        for (uint32_t r = warmup; r < runs; ++r)
            us.push_back(double(stamps[2 * r + 1] - stamps[2 * r]) * g.properties.limits.timestampPeriod * 1e-3);
        std::sort(us.begin(), us.end());
        double bytes = 0;
        for (uint32_t l = 0; l < levels; ++l)
            bytes += double(vkspd::mipExtent(width, l)) * vkspd::mipExtent(height, l) * 4;
        const double median = us[us.size() / 2];
        std::printf("bench: %u runs (warm caches, GENERAL layout): median %.1f us, min %.1f us, "
                    "%.1f GB/s effective (level 0 read + levels 1.. written)\n",
                    benchRuns, median, us.front(), bytes / (median * 1e-6) * 1e-9);
        vkDestroyQueryPool(g.device, queries, nullptr);
    }
    if (write) {
        mkdir(outDir.c_str(), 0755);
        for (uint32_t l = 0; l < levels && status != kOutputError; ++l) {
            const uint32_t lw = vkspd::mipExtent(width, l), lh = vkspd::mipExtent(height, l);
            char name[64];
            std::snprintf(name, sizeof(name), "/level_%02u_%ux%u.png", l, lw, lh);
            std::vector<uint8_t> rgba(mapped + offsets[l], mapped + offsets[l] + size_t(lw) * lh * 4);
            if (!writeFileAtomically(outDir + name, rgba, lw, lh)) {
                std::fprintf(stderr, "vkspd-sample: cannot write %s%s\n", outDir.c_str(), name);
                status = kOutputError;
            }
        }
        if (status != kOutputError) std::printf("wrote %u PNG files to %s/\n", levels, outDir.c_str());
    }

    vkspd::forgetImage(context, image);
    vkspd::destroyContext(context);
    vkDestroyCommandPool(g.device, pool, nullptr);
    vkDestroyBuffer(g.device, staging, nullptr);
    vkFreeMemory(g.device, stagingMemory, nullptr);
    vkDestroyImage(g.device, image, nullptr);
    vkFreeMemory(g.device, imageMemory, nullptr);
    vkDestroyDevice(g.device, nullptr);
    vkDestroyInstance(g.instance, nullptr);
    return status;
}
