// The shader variants, compiled by glslc at build time (cmake/VkspdShaders.cmake) into
// uint32_t initializer lists in the build folder and embedded here.
#include "context.hpp"

namespace vkspd {
namespace {
const uint32_t kFp32Lds[] =
#include "vkspd_fp32_lds.inc"
    ;
const uint32_t kFp32Quad[] =
#include "vkspd_fp32_quad.inc"
    ;
const uint32_t kFp16Lds[] =
#include "vkspd_fp16_lds.inc"
    ;
const uint32_t kFp16Quad[] =
#include "vkspd_fp16_quad.inc"
    ;
}  // namespace

SpirvBlob embeddedSpirv(bool fp16, bool quad) {
    if (fp16) return quad ? SpirvBlob{kFp16Quad, sizeof(kFp16Quad)} : SpirvBlob{kFp16Lds, sizeof(kFp16Lds)};
    return quad ? SpirvBlob{kFp32Quad, sizeof(kFp32Quad)} : SpirvBlob{kFp32Lds, sizeof(kFp32Lds)};
}

}  // namespace vkspd
