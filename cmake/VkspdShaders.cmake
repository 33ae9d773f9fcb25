# Compiles shaders/vkspd.comp into its named variants as C initializer lists (glslc -mfmt=c) in
# the build folder. Nothing is written into the source tree.
find_program(VKSPD_GLSLC glslc REQUIRED)

set(VKSPD_SHADER_DIR ${CMAKE_CURRENT_BINARY_DIR}/shaders)
set(VKSPD_SHADER_SOURCE ${PROJECT_SOURCE_DIR}/shaders/vkspd.comp)
set(VKSPD_SHADER_DEPENDS ${VKSPD_SHADER_SOURCE} ${PROJECT_SOURCE_DIR}/shaders/vkspd_shared.h)
set(VKSPD_SHADER_OUTPUTS "")

function(vkspd_shader_variant name fp16 quad)
  set(out ${VKSPD_SHADER_DIR}/vkspd_${name}.inc)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${VKSPD_SHADER_DIR}
    COMMAND ${VKSPD_GLSLC} --target-env=vulkan1.2 -O -fshader-stage=compute
            -DVKSPD_FP16=${fp16} -DVKSPD_QUAD=${quad} -mfmt=c
            -o ${out} ${VKSPD_SHADER_SOURCE}
    DEPENDS ${VKSPD_SHADER_DEPENDS}
    COMMENT "glslc vkspd.comp (${name})"
    VERBATIM)
  set(VKSPD_SHADER_OUTPUTS ${VKSPD_SHADER_OUTPUTS} ${out} PARENT_SCOPE)
endfunction()

vkspd_shader_variant(fp32_lds 0 0)
vkspd_shader_variant(fp32_quad 0 1)
vkspd_shader_variant(fp16_lds 1 0)
vkspd_shader_variant(fp16_quad 1 1)
add_custom_target(vkspd_shaders DEPENDS ${VKSPD_SHADER_OUTPUTS})
