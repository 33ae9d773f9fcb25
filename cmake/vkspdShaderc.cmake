# Finds the static shaderc that custom reductions (createCustomReduction) compile with, and makes
# the imported target vkspd::shaderc. Used by the build and, installed next to vkspdConfig.cmake,
# by consumers of an installed vkspd: the package names the target, never the archives' paths,
# so an installed copy stays relocatable. Sets VKSPD_SHADERC_FOUND.
# Debian's libshaderc_combined.a holds shaderc only: glslang comes from glslang-dev (split into
# several archives) and SPIRV-Tools from spirv-tools.
set(VKSPD_SHADERC_FOUND ON)
set(_vkspd_shaderc_libraries "")
foreach(part shaderc_combined SPIRV glslang MachineIndependent OSDependent GenericCodeGen
             OGLCompiler SPIRV-Tools-opt SPIRV-Tools)
  find_library(VKSPD_LIB_${part} NAMES ${part})
  if(VKSPD_LIB_${part})
    list(APPEND _vkspd_shaderc_libraries ${VKSPD_LIB_${part}})
  elseif(NOT part STREQUAL "OGLCompiler")  # absent from some glslang versions
    set(VKSPD_SHADERC_FOUND OFF)
  endif()
endforeach()
find_path(VKSPD_SHADERC_INCLUDE_DIR shaderc/shaderc.h)
if(NOT VKSPD_SHADERC_INCLUDE_DIR)
  set(VKSPD_SHADERC_FOUND OFF)
endif()
if(VKSPD_SHADERC_FOUND AND NOT TARGET vkspd::shaderc)
  add_library(vkspd::shaderc INTERFACE IMPORTED GLOBAL)
  set_target_properties(vkspd::shaderc PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${VKSPD_SHADERC_INCLUDE_DIR}")
  # The archives depend on each other in circles: link them as a group.
  string(REPLACE ";" "," _vkspd_shaderc_group "${_vkspd_shaderc_libraries}")
  target_link_libraries(vkspd::shaderc INTERFACE "$<LINK_GROUP:RESCAN,${_vkspd_shaderc_group}>")
endif()
unset(_vkspd_shaderc_libraries)
unset(_vkspd_shaderc_group)
