# ctest script: builds vkspd_fuzz_image_load with clang in WORK_DIR/build (only that target) and
# fuzzes for SECONDS from tests/fuzz/corpus/ with libFuzzer's SEED. A crashing or hanging input
# is kept in WORK_DIR/artifacts/ and fails the test. New inputs go to WORK_DIR/corpus (never the
# source tree).
# With a fixed SEED (the test's) every machine starts the same run: WORK_DIR/corpus is emptied
# first, and the committed files are given by name in sorted order (-seed_inputs). libFuzzer sorts
# its seeds by size only, so from a folder, files of equal size ran in the folder's listing order,
# which differs between file systems, and CI took other paths than a local run with the same seed.
# (Two runs here still differed by one coverage feature at the start: close, not exact.)
# SEED=0 picks a new seed and keeps the grown corpus between runs. To fuzz longer:
#   cmake -DSOURCE_DIR=$PWD -DWORK_DIR=/tmp/vkspd-fuzz -DGENERATOR=Ninja -DSECONDS=3600 -DSEED=0 \
#         -P tests/fuzz/RunFuzz.cmake
find_program(VKSPD_CLANGXX NAMES clang++-14 clang++)
if(NOT VKSPD_CLANGXX)
  message("fuzz: skipped (no clang++ with libFuzzer; apt-get install clang-14)")
  return()
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
          -DCMAKE_CXX_COMPILER=${VKSPD_CLANGXX} -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKSPD_BUILD_FUZZ=ON
          -DVKSPD_BUILD_TESTS=OFF -DVKSPD_BUILD_SAMPLES=OFF -DVKSPD_BUILD_BENCH=OFF -DVKSPD_INSTALL=OFF
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "fuzz: configuring the clang build failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build --target vkspd_fuzz_image_load RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "fuzz: building vkspd_fuzz_image_load failed")
endif()
if(NOT SEED EQUAL 0)
  file(REMOVE_RECURSE ${WORK_DIR}/corpus)
endif()
file(MAKE_DIRECTORY ${WORK_DIR}/corpus ${WORK_DIR}/artifacts)
file(GLOB seeds LIST_DIRECTORIES false ${SOURCE_DIR}/tests/fuzz/corpus/*)
list(SORT seeds)
string(REPLACE ";" "," seeds "${seeds}")
file(WRITE ${WORK_DIR}/seed_inputs.txt "${seeds}")
execute_process(
  COMMAND ${WORK_DIR}/build/tests/fuzz/vkspd_fuzz_image_load -seed=${SEED} -max_total_time=${SECONDS} -timeout=10
          -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=${WORK_DIR}/artifacts/
          -seed_inputs=@${WORK_DIR}/seed_inputs.txt ${WORK_DIR}/corpus
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "fuzz: an input made the loader fail; it is in ${WORK_DIR}/artifacts/ "
                      "(add it to tests/fuzz/corpus/ with the fix)")
endif()
message("fuzz: ${SECONDS} s without a failure")
