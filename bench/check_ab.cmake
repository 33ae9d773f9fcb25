# ctest bench.ab: bench/ab.sh on the test device with two builds (copies of this vkspd-bench):
# every run written, the builds alternating A B, B A, a summary line per run with the floor and a
# median per selected row; a failing run fails it (exit 1), bad usage exits 2.
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
if(NOT out MATCHES "A-1 floor [0-9]+ GB/s \\([0-9]+ to [0-9]+ GB/s\\) R8G8B8A8/64x64:[0-9.]+ R8G8B8A8/65x63:[0-9.]+ *\nB-1 floor[^\n]*\nB-2 floor[^\n]*\nA-2 floor")
  message(FATAL_ERROR "bench.ab: unexpected summary (order A-1 B-1 B-2 A-2, floor, two medians):\n${out}")
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
