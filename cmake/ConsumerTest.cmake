# ctest driver: installs the build tree into a scratch prefix, then configures, builds and runs
# tests/consumer against it (MODE=find_package) or against the source tree (MODE=subdirectory).
# Inputs: SOURCE_DIR, BINARY_DIR, WORK_DIR, MODE.
file(REMOVE_RECURSE ${WORK_DIR})
set(args -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build -DCMAKE_BUILD_TYPE=Release)
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${WORK_DIR}/prefix
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "cmake --install failed: ${rc}")
  endif()
  # Relocatable: no installed text file (headers, package) may name the source or build tree,
  # nor may the CMake package hold any absolute path (a copy moved to another prefix or machine
  # must still work). Binaries are not checked: debug information names sources by design.
  file(GLOB_RECURSE installed LIST_DIRECTORIES false ${WORK_DIR}/prefix/*.hpp
       ${WORK_DIR}/prefix/*.h ${WORK_DIR}/prefix/*.cmake ${WORK_DIR}/prefix/*.pc)
  foreach(f ${installed})
    file(STRINGS ${f} hits REGEX "${SOURCE_DIR}|${BINARY_DIR}")
    if(hits)
      message(FATAL_ERROR "installed file ${f} names the source or build tree: ${hits}")
    endif()
  endforeach()
  file(GLOB package_files ${WORK_DIR}/prefix/lib*/cmake/vkspd/*.cmake)
  if(NOT package_files)
    message(FATAL_ERROR "no package config installed under ${WORK_DIR}/prefix/lib*/cmake/vkspd")
  endif()
  foreach(f ${package_files})
    file(STRINGS ${f} hits REGEX "[\"; ,]/(usr|home|work|tmp|opt)/")
    if(hits)
      message(FATAL_ERROR "installed package file ${f} holds an absolute path: ${hits}")
    endif()
  endforeach()
  foreach(f vkspdConfig.cmake vkspdConfigVersion.cmake vkspdTargets.cmake)
    if(NOT EXISTS ${WORK_DIR}/prefix/lib/cmake/vkspd/${f} AND
       NOT EXISTS ${WORK_DIR}/prefix/lib64/cmake/vkspd/${f})
      message(FATAL_ERROR "cmake --install did not install ${f}")
    endif()
  endforeach()
  # Move the installed copy: the package must still be found and link from its new place.
  file(RENAME ${WORK_DIR}/prefix ${WORK_DIR}/moved-prefix)
  list(APPEND args -DCMAKE_PREFIX_PATH=${WORK_DIR}/moved-prefix)
else()
  list(APPEND args -DVKSPD_SOURCE_DIR=${SOURCE_DIR})
endif()
foreach(step configure build run)
  if(step STREQUAL "configure")
    set(cmd ${CMAKE_COMMAND} ${args})
  elseif(step STREQUAL "build")
    set(cmd ${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 2)
  else()
    set(cmd ${WORK_DIR}/build/consumer)
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "consumer ${MODE}: ${step} failed: ${rc}")
  endif()
endforeach()
if(MODE STREQUAL "subdirectory")
  # Install rules are on by default only when vkspd is the top-level project: installing the
  # consumer must not install vkspd's headers, library or package.
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${WORK_DIR}/build --prefix ${WORK_DIR}/prefix
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  file(GLOB_RECURSE installed ${WORK_DIR}/prefix/*)
  if(installed)
    message(FATAL_ERROR "add_subdirectory(vkspd) installed files: ${installed}")
  endif()
endif()
