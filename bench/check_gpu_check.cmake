# ctest bench.gpu_check: bench/gpu_check.sh end to end on the test device, with small sizes: the
# binaries gathered into one folder as on the GPU machine, every step run, exit code 0, and the
# files the results READMEs cite written.
# -DSCRIPT=<gpu_check.sh> -DSOURCE=<checkout root> -DDIR=<scratch folder> -DBINS=<file|file|...>
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR}/bin)
string(REPLACE "|" ";" bins "${BINS}")
foreach(f ${bins})
  file(COPY ${f} DESTINATION ${DIR}/bin)
endforeach()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env "TEST_FILTER=Readme.*:GpuTest.DescribeDispatch*" STRESS_CALLS=20 SAMPLE_SIZES=130x66
          "BENCH_ARGS=--sizes 64x64 --formats rgba8 --reps 1 --methods default --cols none --copy-mib 8 --evict-mib 8"
          sh ${SCRIPT} ${DIR}/bin ${DIR}/out
  WORKING_DIRECTORY ${SOURCE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench.gpu_check: exit ${rc}\n${out}\n${err}")
endif()
foreach(f gpu.txt pipeline_stats.txt occupancy.txt gpu_tests.log stress.log example_minimal.txt example_engine.txt
          unit_tests.log samples.txt command.txt bench.txt bench/bench.csv)
  if(NOT EXISTS ${DIR}/out/${f})
    message(FATAL_ERROR "bench.gpu_check: ${f} was not written\n${out}")
  endif()
endforeach()
file(READ ${DIR}/out/gpu_tests.log log)
if(NOT log MATCHES "validation on")
  message(FATAL_ERROR "bench.gpu_check: the GPU suite did not run under the validation layer:\n${log}")
endif()
file(READ ${DIR}/out/samples.txt samples)
string(REGEX MATCHALL "verified: every level" checks "${samples}")
list(LENGTH checks n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "bench.gpu_check: ${n} of 3 full checks verified:\n${samples}")
endif()
# A failing step makes the script fail and is counted: with every binary missing, every step
# fails at once (nothing runs, so this costs no time; a missing binary beside the others ran
# the whole script a second time).
file(REMOVE_RECURSE ${DIR}/empty)
file(MAKE_DIRECTORY ${DIR}/empty)
execute_process(
  COMMAND sh ${SCRIPT} ${DIR}/empty ${DIR}/out2
  WORKING_DIRECTORY ${SOURCE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "[^\n]* exit [0-9]+\n" steps "${out}")
string(REGEX MATCHALL " exit 0\n" passed "${out}")
list(LENGTH steps nSteps)
list(LENGTH passed nPassed)
string(REGEX MATCH "gpu_check: ([0-9]+) step\\(s\\) failed" counted "${out}")
if(rc EQUAL 0 OR NOT counted OR nSteps LESS 9 OR NOT nPassed EQUAL 0 OR NOT CMAKE_MATCH_1 EQUAL nSteps)
  message(FATAL_ERROR "bench.gpu_check: with no binaries, exit ${rc}; expected every step (9) to fail and be counted:\n${out}")
endif()
