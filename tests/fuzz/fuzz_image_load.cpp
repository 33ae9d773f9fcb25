// libFuzzer target for the CLI's loading path (samples/cli/image_load.cpp, stb_image behind it):
// any bytes must either load within the limits or be refused with a reason, never crash, hang
// or read out of bounds. Built with clang -fsanitize=fuzzer,address,undefined when
// VKSPD_BUILD_FUZZ is on; the normal build links it into vkspd_fuzz_corpus_replay instead.
#include "image_load.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

// Small enough that the fuzzer's 2 GiB memory limit holds for any input, and that the slowest
// inputs known stay well inside its 10 s timeout on a loaded CI machine: at 8 MiB decoded, a JPEG
// of four components in 16 scans each (image_load.cpp's limit) loads in 0.9 s here under the
// sanitizers.
constexpr uint32_t kMaxDimension = 4096;
constexpr uint64_t kMaxDecodedBytes = 8ull << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    vkspd_cli::LoadLimits limits;
    limits.maxDimension = kMaxDimension;
    limits.maxDecodedBytes = kMaxDecodedBytes;
    vkspd_cli::LoadedImage image;
    std::string reason;
    if (!vkspd_cli::loadImage(data, size, limits, &image, &reason)) {
        if (reason.empty()) {
            std::fprintf(stderr, "refused without a reason\n");
            std::abort();
        }
        return 0;
    }
    if (image.width == 0 || image.height == 0 || image.width > kMaxDimension || image.height > kMaxDimension ||
        !image.pixels || image.fileChannels < 1 || image.fileChannels > 4) {
        std::fprintf(stderr, "loaded an image outside the limits: %ux%u, %u channels\n", image.width, image.height,
                     image.fileChannels);
        std::abort();
    }
    // Touch every decoded byte, so a short buffer shows under AddressSanitizer.
    const size_t bytes = image.texelCount() * 4 * (vkspd_cli::bitsOf(image.type) / 8);
    const auto* p = static_cast<const volatile uint8_t*>(image.pixels.get());
    uint8_t sum = 0;
    for (size_t i = 0; i < bytes; ++i) sum = uint8_t(sum + p[i]);
    (void)sum;
    return 0;
}
