# ctest bench.ab: bench/ab.sh on the test device with two builds (copies of this vkspd-bench):
# every run written, the builds alternating A B, B A, a summary line per run with the floor and a
# median per selected row; a failing run fails it (exit 1), bad usage exits 2; REVERSE=1 runs the
# even rounds' sizes backwards; SUITE_DEB runs the last build's GPU suite under a layers package
# (below).
# -DSCRIPT=<ab.sh> -DBENCH=<vkspd-bench> -DDIR=<scratch folder>
file(REMOVE_RECURSE ${DIR})
foreach(build A B)
  file(MAKE_DIRECTORY ${DIR}/${build})
  file(COPY ${BENCH} DESTINATION ${DIR}/${build})
endforeach()
set(args --sizes 64x64,65x63 --formats rgba8 --reps 1 --methods default --cols none --copy-mib 8 --evict-mib 8)
execute_process(COMMAND sh ${SCRIPT} ${DIR}/out 2 ${DIR}/A ${DIR}/B -- ${args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench.ab: exit ${rc}\n${out}\n${err}")
endif()
foreach(f ab-A-1.txt ab-B-1.txt ab-B-2.txt ab-A-2.txt)
  if(NOT EXISTS ${DIR}/out/${f})
    message(FATAL_ERROR "bench.ab: ${f} was not written\n${out}")
  endif()
endforeach()
if(NOT out MATCHES "A-1 floor [0-9]+ GB/s \\([0-9]+ to [0-9]+ GB/s; read probes up to [0-9]+ GB/s; [0-9]+ of [0-9]+ left out[^)\n]*\\) R8G8B8A8/64x64:[0-9.]+!? R8G8B8A8/65x63:[0-9.]+!? *\nB-1 floor[^\n]*\nB-2 floor[^\n]*\nA-2 floor")
  message(FATAL_ERROR "bench.ab: unexpected summary (order A-1 B-1 B-2 A-2, floor, two medians):\n${out}")
endif()
# One repetition leaves every row unsteady: the bench's warning and each median's '!' carry over.
if(NOT out MATCHES "left out -- WARNING: some items kept too few clean timings[^\n]*\\) R8G8B8A8/64x64:[0-9.]+! R8G8B8A8/65x63:[0-9.]+!")
  message(FATAL_ERROR "bench.ab: an unsteady run's warning or '!' marks are missing:\n${out}")
endif()
execute_process(COMMAND sh ${SCRIPT} ${DIR}/out-bad 1 ${DIR}/A -- --sizes 0x0
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "bench.ab: a failing run gave exit ${rc}, expected 1:\n${out}\n${err}")
endif()
execute_process(COMMAND sh ${SCRIPT} ${DIR}/out-usage 1 ${DIR}/no-such-build RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "no vkspd-bench in")
  message(FATAL_ERROR "bench.ab: a folder without vkspd-bench gave exit ${rc}, expected 2:\n${err}")
endif()

# REVERSE=1: the even rounds run the --sizes list backwards, and say so; the odd ones as given.
execute_process(COMMAND ${CMAKE_COMMAND} -E env REVERSE=1 sh ${SCRIPT} ${DIR}/out-reverse 2 ${DIR}/A -- ${args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "A-1 floor [^\n]* R8G8B8A8/64x64:[0-9.]+!? R8G8B8A8/65x63:[0-9.]+!? *\nA-2 \\(sizes reversed\\) floor [^\n]* R8G8B8A8/65x63:[0-9.]+!? R8G8B8A8/64x64:[0-9.]+!?")
  message(FATAL_ERROR "bench.ab: REVERSE=1 gave exit ${rc}, or its second round did not run the sizes backwards:\n${out}\n${err}")
endif()
file(READ ${DIR}/out-reverse/ab-A-2.txt report)
if(NOT report MATCHES "65x63[^\n]*vkspd default[^\n]*\n[^\n]*64x64[^\n]*vkspd default")
  message(FATAL_ERROR "bench.ab: the reversed round's report does not list 65x63 first:\n${report}")
endif()
foreach(bad "REVERSE=1;--formats;rgba8" "REVERSE=yes;--sizes;64x64")
  list(POP_FRONT bad env)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} sh ${SCRIPT} ${DIR}/out-reverse-bad 1 ${DIR}/A -- ${bad}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "REVERSE")
    message(FATAL_ERROR "bench.ab: ${env} with ${bad} gave exit ${rc}, expected 2 naming REVERSE:\n${err}")
  endif()
endforeach()

# SUITE_DEB: the last build's vkspd_gpu_tests runs after the rounds under the layers unpacked from
# the package, with the default filter; its status is printed and a failure fails the script. A
# stand-in suite (a shell script) and package (dpkg-deb) take the place of the real ones, so this
# checks the wiring, not the layers.
set(pkg ${DIR}/fake-layers)
file(WRITE ${pkg}/DEBIAN/control "Package: fake-layers\nVersion: 1\nArchitecture: all\nMaintainer: vkspd tests <tests@vkspd.invalid>\nDescription: stand-in for vulkan-validationlayers\n")
file(WRITE ${pkg}/usr/share/vulkan/explicit_layer.d/fake_layer.json "{}\n")
execute_process(COMMAND dpkg-deb --root-owner-group --build ${pkg} ${DIR}/fake-layers.deb
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench.ab: dpkg-deb failed: ${err}")
endif()
file(WRITE ${DIR}/suite/vkspd_gpu_tests
     "#!/bin/sh\necho \"layers: $(ls \"$VK_LAYER_PATH\")\"\necho \"args: $*\"\n"
     "if [ \"\${FAKE_SUITE_EXIT:-0}\" = 0 ]; then echo '[  PASSED  ] 1 test.'; else echo '[  FAILED  ] 1 test.'; fi\n"
     "exit \${FAKE_SUITE_EXIT:-0}\n")
file(CHMOD ${DIR}/suite/vkspd_gpu_tests PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
file(COPY ${BENCH} DESTINATION ${DIR}/suite)
set(one --sizes 64x64 --formats rgba8 --reps 1 --methods default --cols none --copy-mib 8 --evict-mib 8)
execute_process(COMMAND ${CMAKE_COMMAND} -E env SUITE_DEB=${DIR}/fake-layers.deb
                        sh ${SCRIPT} ${DIR}/out-suite 1 ${DIR}/A ${DIR}/suite -- ${one}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\ngpu tests \\(suite\\) exit 0\n\\[  PASSED  \\] 1 test\\.")
  message(FATAL_ERROR "bench.ab: SUITE_DEB with a passing suite gave exit ${rc}:\n${out}\n${err}")
endif()
file(READ ${DIR}/out-suite/gpu_tests.log log)
if(NOT log MATCHES "layers: fake_layer\\.json\nargs: --gtest_filter=-\\*Stress\\*\n")
  message(FATAL_ERROR "bench.ab: the suite did not run under the package's layers with the default filter:\n${log}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env SUITE_DEB=${DIR}/fake-layers.deb FAKE_SUITE_EXIT=1
                        sh ${SCRIPT} ${DIR}/out-suite-fails 1 ${DIR}/suite -- ${one}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT out MATCHES "gpu tests \\(suite\\) exit 1")
  message(FATAL_ERROR "bench.ab: a failing suite gave exit ${rc}, expected 1:\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env SUITE_DEB=${DIR}/fake-layers.deb
                        sh ${SCRIPT} ${DIR}/out-suite-usage 1 ${DIR}/suite ${DIR}/A
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "no vkspd_gpu_tests in")
  message(FATAL_ERROR "bench.ab: SUITE_DEB with a last build lacking the suite gave exit ${rc}, expected 2:\n${err}")
endif()

# SASS: each build's CLI runs each configuration with --pipeline-cache and nvidia_sass.py reads
# the cache; on a device that is not NVIDIA the script's refusal is the line, and the cache and the
# CLI's log stay in OUT_DIR. A build without the CLI says so. (-DCLI=<vkspd>, where the sample is built.)
if(DEFINED CLI)
  file(COPY ${CLI} DESTINATION ${DIR}/A)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "SASS=64x64:rgba8 65x63:r8"
                          sh ${SCRIPT} ${DIR}/out-sass 1 ${DIR}/A ${DIR}/B -- ${one}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^A 64x64 rgba8: (pipeline-0: [0-9]+ registers, [0-9]+ instructions[^\n]*|nvidia_sass: [^\n]*not NVIDIA) *\nA 65x63 r8: [^\n]+\nB: no vkspd \\(the CLI\\) for SASS\n")
    message(FATAL_ERROR "bench.ab: SASS gave exit ${rc} and not the expected lines:\n${out}\n${err}")
  endif()
  foreach(f sass-A-64x64-rgba8.cache sass-A-65x63-r8.cache sass-A-64x64-rgba8.log)
    if(NOT EXISTS ${DIR}/out-sass/${f})
      message(FATAL_ERROR "bench.ab: SASS did not leave ${f}:\n${out}")
    endif()
  endforeach()
  # A configuration the CLI refuses is named with its log.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "SASS=0x0:rgba8"
                          sh ${SCRIPT} ${DIR}/out-sass-bad 1 ${DIR}/A -- ${one}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT out MATCHES "A 0x0 rgba8: the CLI failed \\([^)]*sass-A-0x0-rgba8\\.log\\)")
    message(FATAL_ERROR "bench.ab: SASS with a configuration the CLI refuses:\n${out}\n${err}")
  endif()
endif()
