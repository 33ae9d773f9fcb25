# Compiles the shaders into their named variants as C initializer lists (glslc -mfmt=c) in the
# build folder, and embeds the compute shader's GLSL text for run-time custom reductions (shaderc).
# Nothing is written into the source tree.
find_program(VKSPD_GLSLC glslc REQUIRED)

set(VKSPD_SHADER_DIR ${CMAKE_CURRENT_BINARY_DIR}/shaders)
set(VKSPD_SHADER_SOURCE ${PROJECT_SOURCE_DIR}/shaders/vkspd.comp)
set(VKSPD_SHADER_SHARED ${PROJECT_SOURCE_DIR}/shaders/vkspd_shared.h)
set(VKSPD_SHADER_COMMON ${PROJECT_SOURCE_DIR}/shaders/vkspd_common.glsl)
set(VKSPD_SHADER_DEPENDS ${VKSPD_SHADER_SOURCE} ${VKSPD_SHADER_SHARED} ${VKSPD_SHADER_COMMON})
set(VKSPD_SHADER_OUTPUTS "")

# One compute shader compiled (Vulkan 1.2, optimized) into a C initializer list:
#   vkspd_glslc(OUT file SOURCE file COMMENT text DEPENDS files... FLAGS glslc-flags...)
# Used for every embedded compute variant and by bench/ for its copy and eviction kernels.
function(vkspd_glslc)
  cmake_parse_arguments(arg "" "OUT;SOURCE;COMMENT" "DEPENDS;FLAGS" ${ARGN})
  get_filename_component(dir ${arg_OUT} DIRECTORY)
  add_custom_command(
    OUTPUT ${arg_OUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${VKSPD_GLSLC} --target-env=vulkan1.2 -O -fshader-stage=compute ${arg_FLAGS} -mfmt=c
            -o ${arg_OUT} ${arg_SOURCE}
    DEPENDS ${arg_SOURCE} ${arg_DEPENDS}
    COMMENT "glslc ${arg_COMMENT}"
    VERBATIM)
endfunction()

# One compute variant: FP16 or FP32, quad or LDS-only, one built-in reduction.
function(vkspd_shader_variant name fp16 quad reduction)
  set(out ${VKSPD_SHADER_DIR}/vkspd_${name}.inc)
  vkspd_glslc(OUT ${out} SOURCE ${VKSPD_SHADER_SOURCE} DEPENDS ${VKSPD_SHADER_DEPENDS}
              COMMENT "vkspd.comp (${name})"
              FLAGS -DVKSPD_FP16=${fp16} -DVKSPD_QUAD=${quad} -DVKSPD_REDUCTION=${reduction})
  set(VKSPD_SHADER_OUTPUTS ${VKSPD_SHADER_OUTPUTS} ${out} PARENT_SCOPE)
endfunction()

# Reductions in the order of VKSPD_REDUCTION_* (shaders/vkspd_shared.h); custom is compiled at run
# time.
set(reductions average min max minmax)
foreach(r RANGE 3)
  list(GET reductions ${r} rname)
  vkspd_shader_variant(fp32_lds_${rname} 0 0 ${r})
  vkspd_shader_variant(fp32_quad_${rname} 0 1 ${r})
  vkspd_shader_variant(fp16_lds_${rname} 1 0 ${r})
  vkspd_shader_variant(fp16_quad_${rname} 1 1 ${r})
endforeach()

# The plain-chain kernel (vkspd_plain.comp): quad only, the built-in reductions, FP16 and FP32.
# VKSPD_PLAIN_SHADER replaces its source for performance experiments (docs/PERFORMANCE.md): a build
# whose plain-chain kernel is a modified copy, the library and tools otherwise unchanged.
set(VKSPD_PLAIN_SHADER "" CACHE FILEPATH "Experiments only: another source for the plain-chain kernel")
if(VKSPD_PLAIN_SHADER)
  set(VKSPD_PLAIN_SOURCE ${VKSPD_PLAIN_SHADER})
  message(WARNING "the plain-chain kernel is built from ${VKSPD_PLAIN_SHADER} (an experiment)")
else()
  set(VKSPD_PLAIN_SOURCE ${PROJECT_SOURCE_DIR}/shaders/vkspd_plain.comp)
endif()
# The same source with VKSPD_HALO=1 is the halo-stage kernel (plain prefix, then halo stages), with
# VKSPD_HALO=2 the same kernel whose stage 0 reads an odd base in tiles; with VKSPD_SUMS=1 the
# summed-levels kernel (plain prefix, then every later level summed).
function(vkspd_plain_variant name fp16 reduction halo)
  set(out ${VKSPD_SHADER_DIR}/vkspd_plain_${name}.inc)
  # -I: an experiment's copy (VKSPD_PLAIN_SHADER) may lie outside shaders/ and still include.
  vkspd_glslc(OUT ${out} SOURCE ${VKSPD_PLAIN_SOURCE}
              DEPENDS ${VKSPD_SHADER_SHARED} ${VKSPD_SHADER_COMMON} ${PROJECT_SOURCE_DIR}/shaders/vkspd_sums.glsl
              COMMENT "vkspd_plain.comp (${name})"
              FLAGS -DVKSPD_FP16=${fp16} -DVKSPD_QUAD=1 -DVKSPD_REDUCTION=${reduction} -DVKSPD_HALO=${halo}
                    ${ARGN} -I ${PROJECT_SOURCE_DIR}/shaders)
  set(VKSPD_SHADER_OUTPUTS ${VKSPD_SHADER_OUTPUTS} ${out} PARENT_SCOPE)
endfunction()
foreach(r RANGE 3)
  list(GET reductions ${r} rname)
  vkspd_plain_variant(fp32_${rname} 0 ${r} 0)
  vkspd_plain_variant(fp16_${rname} 1 ${r} 0)
  vkspd_plain_variant(halo_fp32_${rname} 0 ${r} 1)
  vkspd_plain_variant(halo_fp16_${rname} 1 ${r} 1)
  vkspd_plain_variant(odd_fp32_${rname} 0 ${r} 2)
  vkspd_plain_variant(odd_fp16_${rname} 1 ${r} 2)
  vkspd_plain_variant(sums_fp32_${rname} 0 ${r} 0 -DVKSPD_SUMS=1)
  vkspd_plain_variant(sums_fp16_${rname} 1 ${r} 0 -DVKSPD_SUMS=1)
endforeach()

# Debug variants for include/vkspd/debug.hpp (average only): a per-tile map at an extra binding,
# and with VK_NV_shader_sm_builtins the SM and warp ids. Separate outputs: the variants above are
# compiled exactly as without them.
function(vkspd_debug_variant name fp16 quad sm)
  set(out ${VKSPD_SHADER_DIR}/vkspd_debug_${name}.inc)
  set(extra "")
  if(sm)
    set(extra -DVKSPD_SM_BUILTINS)
  endif()
  vkspd_glslc(OUT ${out} SOURCE ${VKSPD_SHADER_SOURCE} DEPENDS ${VKSPD_SHADER_DEPENDS}
              COMMENT "vkspd.comp (debug ${name})"
              FLAGS -DVKSPD_FP16=${fp16} -DVKSPD_QUAD=${quad} -DVKSPD_REDUCTION=0 -DVKSPD_DEBUG_MAP ${extra})
  set(VKSPD_SHADER_OUTPUTS ${VKSPD_SHADER_OUTPUTS} ${out} PARENT_SCOPE)
endfunction()
foreach(sm 0 1)
  set(suffix "")
  if(sm)
    set(suffix _sm)
  endif()
  vkspd_debug_variant(fp32_lds${suffix} 0 0 ${sm})
  vkspd_debug_variant(fp32_quad${suffix} 0 1 ${sm})
  vkspd_debug_variant(fp16_lds${suffix} 1 0 ${sm})
  vkspd_debug_variant(fp16_quad${suffix} 1 1 ${sm})
endforeach()

# The render-pass fallback: a full-screen triangle and the exact filter per level.
foreach(stage vert frag)
  set(out ${VKSPD_SHADER_DIR}/vkspd_level_${stage}.inc)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${VKSPD_SHADER_DIR}
    COMMAND ${VKSPD_GLSLC} --target-env=vulkan1.2 -O -mfmt=c -o ${out}
            ${PROJECT_SOURCE_DIR}/shaders/vkspd_level.${stage}
    DEPENDS ${PROJECT_SOURCE_DIR}/shaders/vkspd_level.${stage} ${VKSPD_SHADER_SHARED}
    COMMENT "glslc vkspd_level.${stage}"
    VERBATIM)
  list(APPEND VKSPD_SHADER_OUTPUTS ${out})
endforeach()

# GLSL text for shaderc: the compute shader and the files it includes, and the plain-chain,
# halo-stage and summed-levels kernels' (custom reductions, the LDS-only path, the odd-base module
# without relative shuffles), as NAME.text.inc.
foreach(src ${VKSPD_SHADER_SOURCE} ${VKSPD_SHADER_SHARED} ${VKSPD_SHADER_COMMON} ${VKSPD_PLAIN_SOURCE}
        ${PROJECT_SOURCE_DIR}/shaders/vkspd_sums.glsl)
  get_filename_component(fname ${src} NAME)
  if(src STREQUAL VKSPD_PLAIN_SOURCE)
    set(fname vkspd_plain.comp)  # the name the library includes, whatever VKSPD_PLAIN_SHADER names
  endif()
  set(out ${VKSPD_SHADER_DIR}/${fname}.text.inc)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${src} -DOUT=${out} -P ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    DEPENDS ${src} ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    COMMENT "embed ${fname}"
    VERBATIM)
  list(APPEND VKSPD_SHADER_OUTPUTS ${out})
endforeach()

add_custom_target(vkspd_shaders DEPENDS ${VKSPD_SHADER_OUTPUTS})
