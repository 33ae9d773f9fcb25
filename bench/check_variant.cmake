# ctest bench.variant: bench/variant.sh's refusals, which build nothing (a whole Release build is
# too long for CI; bench/results/2026-11-25-twelfth-session/README.md has the check of a real one):
# bad usage and a missing patch or build exit 2, a patch that does not apply exits 1 after copying
# the tree into VARIANT_ROOT, and nothing is written into the checkout's build-gpu/.
# -DSCRIPT=<variant.sh> -DDIR=<scratch folder>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
get_filename_component(repo ${SCRIPT} DIRECTORY)
get_filename_component(repo ${repo} DIRECTORY)
set(marker ${repo}/build-gpu/bench-variant-test)
foreach(case "usage|2|usage:"
             "bad name|2|NAME must be|bad name"
             "dot name|2|NAME must be|.hidden"
             "missing patch|2|no such patch|T|${DIR}/no-such.patch"
             "pack nothing|2|usage:|--pack"
             "pack missing|2|no build-gpu/bench-variant-test/vkspd-bench|--pack|bench-variant-test")
  string(REPLACE "|" ";" parts "${case}")
  list(POP_FRONT parts what code pattern)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env VARIANT_ROOT=${DIR}/root sh ${SCRIPT} ${parts}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL code OR NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "bench.variant: ${what}: exit ${rc} (expected ${code}), stderr:\n${err}")
  endif()
endforeach()
file(WRITE ${DIR}/bad.patch "--- a/no-such-file.txt\n+++ b/no-such-file.txt\n@@ -1 +1 @@\n-a\n+b\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E env VARIANT_ROOT=${DIR}/root sh ${SCRIPT} bench-variant-test ${DIR}/bad.patch
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "does not apply")
  message(FATAL_ERROR "bench.variant: a patch that does not apply gave exit ${rc}, expected 1:\n${err}")
endif()
if(NOT EXISTS ${DIR}/root/bench-variant-test/src/CMakeLists.txt)
  message(FATAL_ERROR "bench.variant: the tracked files were not copied into VARIANT_ROOT")
endif()
if(EXISTS ${marker})
  message(FATAL_ERROR "bench.variant: a failed build wrote ${marker}")
endif()
