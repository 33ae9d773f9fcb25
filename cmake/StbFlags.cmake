# VKSPD_STB_FLAGS: compile options for samples/cli/stb_impl.cpp, the one file that compiles
# stb_image (samples/ and tests/fuzz/ both build it).
# - No warnings: the code is not ours to fix.
# - Automatic variables start at zero: stb_image's BMP reader keeps its palette in an uncleared
#   stack array and looks up every pixel index in it, so a file whose pixels name entries past its
#   palette decoded to whatever the stack held (a 4x1 BMP with a one-entry palette: a different
#   colour from each build and run). GCC 12 has -ftrivial-auto-var-init=zero; clang 14 (the fuzz
#   build) only behind a second flag. (Heap allocations are cleared in stb_impl.cpp itself.)
include(CheckCXXSourceCompiles)
set(VKSPD_STB_FLAGS $<$<CXX_COMPILER_ID:GNU,Clang>:-w>)
foreach(candidate "-ftrivial-auto-var-init=zero"
                  "-ftrivial-auto-var-init=zero;-enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang")
  string(MAKE_C_IDENTIFIER "VKSPD_AUTO_VAR_INIT_${candidate}" result)
  set(CMAKE_REQUIRED_FLAGS "")
  string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${candidate}")
  check_cxx_source_compiles("int main() { int x; (void)x; return 0; }" ${result})
  unset(CMAKE_REQUIRED_FLAGS)
  if(${result})
    list(APPEND VKSPD_STB_FLAGS ${candidate})
    break()
  endif()
endforeach()
