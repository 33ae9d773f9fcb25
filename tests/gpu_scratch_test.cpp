// Scratch memory: a caller-owned scratch buffer shared by requests of different layouts, and the
// slots of the internal ring.
#include "vulkan_harness.hpp"

#include <cstring>

using namespace vkspd_test;

namespace {

struct Image {
    TestImage image;
    std::vector<uint8_t> level0;  // every layer, layer after layer
    vkspd::MipGenInfo info;
};

Image makeImage(Harness* h, VkFormat format, uint32_t w, uint32_t ht, uint32_t layers,
                vkspd::Precision precision, uint32_t seed) {
    Image m;
    m.image = h->createImage(format, w, ht, vkspd::fullMipCount(w, ht), kChainUsage, layers, singlePassFlags(format));
    for (uint32_t layer = 0; layer < layers; ++layer) {
        auto l = randomTexels(format, w, ht, seed * 7 + layer);
        m.level0.insert(m.level0.end(), l.begin(), l.end());
    }
    h->upload(m.image, m.level0.data());
    m.info = chainInfo(m.image);
    m.info.precision = precision;
    return m;
}

// Generates `m` with `scratch` in one submission and checks every level of every layer against
// the CPU reference of its uploaded level 0.
void generateAndCheck(Harness* h, Image& m, VkBuffer scratch, const std::string& what) {
    vkspd::MipGenInfo info = m.info;
    info.scratchBuffer = scratch;
    h->submit([&](VkCommandBuffer cmd) {
        vkspd::Result r = vkspd::generateMips(h->context, cmd, info);
        EXPECT_TRUE(r.ok()) << what << ": " << r.message;
    });
    m.info.before = m.info.after;
    auto gpu = h->readLevels(m.image);
    EXPECT_EQ(gpu[0], m.level0) << what << ": level 0 changed";
    vkspd::DispatchDescription d;
    ASSERT_TRUE(vkspd::describeDispatch(h->context, m.info, &d).ok());
    expectChainMatches(m.image, gpu, 0, m.image.levels, 0, m.image.layers, vkspd::toleranceFor(m.image.format, d.fp16),
                       what);
}

std::string nameOf(const Image& m) {
    return std::to_string(m.image.width) + "x" + std::to_string(m.image.height) + " x" +
           std::to_string(m.image.layers) + (m.info.precision == vkspd::Precision::FP16 ? " fp16" : " fp32");
}

}  // namespace

// One caller-owned buffer of exactly scratchSize(B) bytes serves B, then every A whose scratch
// fits, then B again: requests of different layouts (counters and data at different offsets) in
// turn. Each generation is checked level by level against the CPU reference. Every other buffer
// starts full of non-zero bytes: its contents before a call must not matter.
TEST_F(GpuTest, CallerScratchSharedByRequestsOfDifferentLayouts) {
    const bool fp16 = h->fp16;
    const vkspd::Precision half = fp16 ? vkspd::Precision::FP16 : vkspd::Precision::FP32;
    std::vector<Image> images;
    images.push_back(makeImage(h, VK_FORMAT_R8G8B8A8_UNORM, 63, 65, 1, vkspd::Precision::FP32, 1));
    images.push_back(makeImage(h, VK_FORMAT_R16G16B16A16_SFLOAT, 4095, 3, 2, half, 2));
    images.push_back(makeImage(h, VK_FORMAT_R32G32B32A32_SFLOAT, 127, 127, 3, vkspd::Precision::FP32, 3));
    images.push_back(makeImage(h, VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 2, half, 4));
    images.push_back(makeImage(h, VK_FORMAT_R8G8B8A8_UNORM, 1, 300, 1, half, 5));
    images.push_back(makeImage(h, VK_FORMAT_R16G16B16A16_SFLOAT, 300, 201, 1, vkspd::Precision::FP32, 6));
    images.push_back(makeImage(h, VK_FORMAT_R8G8B8A8_UNORM, 33, 4097, 1, half, 7));  // three stages
    for (Image& b : images) {
        const VkDeviceSize bytes = vkspd::scratchSize(h->context, b.info);
        ASSERT_GT(bytes, 0u) << nameOf(b);
        HostBuffer scratch =
            makeHostBuffer(h, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        std::memset(scratch.mapped, (&b - images.data()) % 2 ? 0 : 0xA5, size_t(bytes));
        generateAndCheck(h, b, scratch.buffer, "B " + nameOf(b) + " first");
        for (Image& a : images) {
            if (&a == &b || vkspd::scratchSize(h->context, a.info) > bytes) continue;
            generateAndCheck(h, a, scratch.buffer, "A " + nameOf(a) + " in B's scratch " + nameOf(b));
            generateAndCheck(h, b, scratch.buffer, "B " + nameOf(b) + " after A " + nameOf(a));
        }
        freeHostBuffer(h, scratch);
    }
    for (Image& m : images) h->destroyImage(m.image);
}
