// The shader variants, compiled by glslc at build time (cmake/VkspdShaders.cmake) into
// uint32_t initializer lists in the build folder and embedded here, and the compute shader's
// GLSL text for custom reductions compiled at run time.
#include "context.hpp"

namespace vkspd {
namespace {

const uint32_t kFp32LdsAverage[] =
#include "vkspd_fp32_lds_average.inc"
    ;
const uint32_t kFp32QuadAverage[] =
#include "vkspd_fp32_quad_average.inc"
    ;
const uint32_t kFp16LdsAverage[] =
#include "vkspd_fp16_lds_average.inc"
    ;
const uint32_t kFp16QuadAverage[] =
#include "vkspd_fp16_quad_average.inc"
    ;
const uint32_t kFp32LdsMin[] =
#include "vkspd_fp32_lds_min.inc"
    ;
const uint32_t kFp32QuadMin[] =
#include "vkspd_fp32_quad_min.inc"
    ;
const uint32_t kFp16LdsMin[] =
#include "vkspd_fp16_lds_min.inc"
    ;
const uint32_t kFp16QuadMin[] =
#include "vkspd_fp16_quad_min.inc"
    ;
const uint32_t kFp32LdsMax[] =
#include "vkspd_fp32_lds_max.inc"
    ;
const uint32_t kFp32QuadMax[] =
#include "vkspd_fp32_quad_max.inc"
    ;
const uint32_t kFp16LdsMax[] =
#include "vkspd_fp16_lds_max.inc"
    ;
const uint32_t kFp16QuadMax[] =
#include "vkspd_fp16_quad_max.inc"
    ;
const uint32_t kFp32LdsMinMax[] =
#include "vkspd_fp32_lds_minmax.inc"
    ;
const uint32_t kFp32QuadMinMax[] =
#include "vkspd_fp32_quad_minmax.inc"
    ;
const uint32_t kFp16LdsMinMax[] =
#include "vkspd_fp16_lds_minmax.inc"
    ;
const uint32_t kFp16QuadMinMax[] =
#include "vkspd_fp16_quad_minmax.inc"
    ;
const uint32_t kPlainFp32Average[] =
#include "vkspd_plain_fp32_average.inc"
    ;
const uint32_t kPlainFp16Average[] =
#include "vkspd_plain_fp16_average.inc"
    ;
const uint32_t kPlainFp32Min[] =
#include "vkspd_plain_fp32_min.inc"
    ;
const uint32_t kPlainFp16Min[] =
#include "vkspd_plain_fp16_min.inc"
    ;
const uint32_t kPlainFp32Max[] =
#include "vkspd_plain_fp32_max.inc"
    ;
const uint32_t kPlainFp16Max[] =
#include "vkspd_plain_fp16_max.inc"
    ;
const uint32_t kPlainFp32MinMax[] =
#include "vkspd_plain_fp32_minmax.inc"
    ;
const uint32_t kPlainFp16MinMax[] =
#include "vkspd_plain_fp16_minmax.inc"
    ;
const uint32_t kHaloFp32Average[] =
#include "vkspd_plain_halo_fp32_average.inc"
    ;
const uint32_t kHaloFp16Average[] =
#include "vkspd_plain_halo_fp16_average.inc"
    ;
const uint32_t kHaloFp32Min[] =
#include "vkspd_plain_halo_fp32_min.inc"
    ;
const uint32_t kHaloFp16Min[] =
#include "vkspd_plain_halo_fp16_min.inc"
    ;
const uint32_t kHaloFp32Max[] =
#include "vkspd_plain_halo_fp32_max.inc"
    ;
const uint32_t kHaloFp16Max[] =
#include "vkspd_plain_halo_fp16_max.inc"
    ;
const uint32_t kHaloFp32MinMax[] =
#include "vkspd_plain_halo_fp32_minmax.inc"
    ;
const uint32_t kHaloFp16MinMax[] =
#include "vkspd_plain_halo_fp16_minmax.inc"
    ;
const uint32_t kOddFp32Average[] =
#include "vkspd_plain_odd_fp32_average.inc"
    ;
const uint32_t kOddFp16Average[] =
#include "vkspd_plain_odd_fp16_average.inc"
    ;
const uint32_t kOddFp32Min[] =
#include "vkspd_plain_odd_fp32_min.inc"
    ;
const uint32_t kOddFp16Min[] =
#include "vkspd_plain_odd_fp16_min.inc"
    ;
const uint32_t kOddFp32Max[] =
#include "vkspd_plain_odd_fp32_max.inc"
    ;
const uint32_t kOddFp16Max[] =
#include "vkspd_plain_odd_fp16_max.inc"
    ;
const uint32_t kOddFp32MinMax[] =
#include "vkspd_plain_odd_fp32_minmax.inc"
    ;
const uint32_t kOddFp16MinMax[] =
#include "vkspd_plain_odd_fp16_minmax.inc"
    ;
const uint32_t kDebugFp32Lds[] =
#include "vkspd_debug_fp32_lds.inc"
    ;
const uint32_t kDebugFp32Quad[] =
#include "vkspd_debug_fp32_quad.inc"
    ;
const uint32_t kDebugFp16Lds[] =
#include "vkspd_debug_fp16_lds.inc"
    ;
const uint32_t kDebugFp16Quad[] =
#include "vkspd_debug_fp16_quad.inc"
    ;
const uint32_t kDebugFp32LdsSm[] =
#include "vkspd_debug_fp32_lds_sm.inc"
    ;
const uint32_t kDebugFp32QuadSm[] =
#include "vkspd_debug_fp32_quad_sm.inc"
    ;
const uint32_t kDebugFp16LdsSm[] =
#include "vkspd_debug_fp16_lds_sm.inc"
    ;
const uint32_t kDebugFp16QuadSm[] =
#include "vkspd_debug_fp16_quad_sm.inc"
    ;
const uint32_t kSumsFp32Average[] =
#include "vkspd_plain_sums_fp32_average.inc"
    ;
const uint32_t kSumsFp16Average[] =
#include "vkspd_plain_sums_fp16_average.inc"
    ;
const uint32_t kSumsFp32Min[] =
#include "vkspd_plain_sums_fp32_min.inc"
    ;
const uint32_t kSumsFp16Min[] =
#include "vkspd_plain_sums_fp16_min.inc"
    ;
const uint32_t kSumsFp32Max[] =
#include "vkspd_plain_sums_fp32_max.inc"
    ;
const uint32_t kSumsFp16Max[] =
#include "vkspd_plain_sums_fp16_max.inc"
    ;
const uint32_t kSumsFp32MinMax[] =
#include "vkspd_plain_sums_fp32_minmax.inc"
    ;
const uint32_t kSumsFp16MinMax[] =
#include "vkspd_plain_sums_fp16_minmax.inc"
    ;
const uint32_t kLevelVert[] =
#include "vkspd_level_vert.inc"
    ;
const uint32_t kLevelFrag[] =
#include "vkspd_level_frag.inc"
    ;
const char kComputeText[] =
#include "vkspd.comp.text.inc"
    ;
const char kPlainText[] =
#include "vkspd_plain.comp.text.inc"
    ;
const char kSharedText[] =
#include "vkspd_shared.h.text.inc"
    ;
const char kCommonText[] =
#include "vkspd_common.glsl.text.inc"
    ;
const char kSumsText[] =
#include "vkspd_sums.glsl.text.inc"
    ;

#define BLOB(a) SpirvBlob{a, sizeof(a)}
// [reduction][fp16][quad]
const SpirvBlob kCompute[4][2][2] = {
    {{BLOB(kFp32LdsAverage), BLOB(kFp32QuadAverage)}, {BLOB(kFp16LdsAverage), BLOB(kFp16QuadAverage)}},
    {{BLOB(kFp32LdsMin), BLOB(kFp32QuadMin)}, {BLOB(kFp16LdsMin), BLOB(kFp16QuadMin)}},
    {{BLOB(kFp32LdsMax), BLOB(kFp32QuadMax)}, {BLOB(kFp16LdsMax), BLOB(kFp16QuadMax)}},
    {{BLOB(kFp32LdsMinMax), BLOB(kFp32QuadMinMax)}, {BLOB(kFp16LdsMinMax), BLOB(kFp16QuadMinMax)}},
};
// [reduction][fp16]
const SpirvBlob kPlain[4][2] = {
    {BLOB(kPlainFp32Average), BLOB(kPlainFp16Average)},
    {BLOB(kPlainFp32Min), BLOB(kPlainFp16Min)},
    {BLOB(kPlainFp32Max), BLOB(kPlainFp16Max)},
    {BLOB(kPlainFp32MinMax), BLOB(kPlainFp16MinMax)},
};
// [smBuiltins][fp16][quad]
const SpirvBlob kDebug[2][2][2] = {
    {{BLOB(kDebugFp32Lds), BLOB(kDebugFp32Quad)}, {BLOB(kDebugFp16Lds), BLOB(kDebugFp16Quad)}},
    {{BLOB(kDebugFp32LdsSm), BLOB(kDebugFp32QuadSm)}, {BLOB(kDebugFp16LdsSm), BLOB(kDebugFp16QuadSm)}},
};
// [reduction][fp16]: vkspd_plain.comp built with VKSPD_HALO
const SpirvBlob kHalo[4][2] = {
    {BLOB(kHaloFp32Average), BLOB(kHaloFp16Average)},
    {BLOB(kHaloFp32Min), BLOB(kHaloFp16Min)},
    {BLOB(kHaloFp32Max), BLOB(kHaloFp16Max)},
    {BLOB(kHaloFp32MinMax), BLOB(kHaloFp16MinMax)},
};
// [reduction][fp16]: vkspd_plain.comp built with VKSPD_HALO=2 (stage 0 on an odd base)
const SpirvBlob kOdd[4][2] = {
    {BLOB(kOddFp32Average), BLOB(kOddFp16Average)},
    {BLOB(kOddFp32Min), BLOB(kOddFp16Min)},
    {BLOB(kOddFp32Max), BLOB(kOddFp16Max)},
    {BLOB(kOddFp32MinMax), BLOB(kOddFp16MinMax)},
};
// [reduction][fp16]: vkspd_plain.comp built with VKSPD_SUMS=1 (the summed-levels kernel)
const SpirvBlob kSums[4][2] = {
    {BLOB(kSumsFp32Average), BLOB(kSumsFp16Average)},
    {BLOB(kSumsFp32Min), BLOB(kSumsFp16Min)},
    {BLOB(kSumsFp32Max), BLOB(kSumsFp16Max)},
    {BLOB(kSumsFp32MinMax), BLOB(kSumsFp16MinMax)},
};
#undef BLOB

}  // namespace

SpirvBlob embeddedSpirv(uint32_t reduction, bool fp16, bool quad) {
    return kCompute[reduction < 4 ? reduction : 0][fp16 ? 1 : 0][quad ? 1 : 0];
}

SpirvBlob embeddedPlainSpirv(uint32_t reduction, bool fp16, bool halo, bool oddBase) {
    return (halo ? (oddBase ? kOdd : kHalo) : kPlain)[reduction < 4 ? reduction : 0][fp16 ? 1 : 0];
}

SpirvBlob embeddedSumsSpirv(uint32_t reduction, bool fp16) { return kSums[reduction < 4 ? reduction : 0][fp16 ? 1 : 0]; }

SpirvBlob embeddedDebugSpirv(bool fp16, bool quad, bool smBuiltins) {
    return kDebug[smBuiltins ? 1 : 0][fp16 ? 1 : 0][quad ? 1 : 0];
}

SpirvBlob embeddedLevelShader(bool fragment) {
    return fragment ? SpirvBlob{kLevelFrag, sizeof(kLevelFrag)} : SpirvBlob{kLevelVert, sizeof(kLevelVert)};
}

const char* embeddedComputeText() { return kComputeText; }
const char* embeddedPlainText() { return kPlainText; }
const char* embeddedSharedText() { return kSharedText; }
const char* embeddedCommonText() { return kCommonText; }
const char* embeddedSumsText() { return kSumsText; }

}  // namespace vkspd
