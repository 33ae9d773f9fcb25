# ctest bench.floor: the texture floor rows ('floor fetch': every texel of level 0 once by
# texelFetch; 'floor gather': one textureGather per channel per 2x2 block; 'floor linear': one
# bilinear sample per 2x2 block) run at an odd and a plain size for
# an 8-bit and a half format, each timed and checked (the sums their subgroups write add up to level
# 0's channels: a pass that skips or repeats blocks is FAILED, exit code 1) in the report, the CSV
# and the JSON; --methods floor times nothing else. The Hi-Z row has no floor rows and is no error.
# -DBENCH=<vkspd-bench> -DDIR=<scratch folder>
include(${CMAKE_CURRENT_LIST_DIR}/check_rows.cmake)
file(REMOVE_RECURSE ${DIR})
set(common --reps 2 --cols none --tiles none --copy-mib 8 --evict-mib 8 --methods floor)
execute_process(COMMAND ${BENCH} ${common} --sizes 65x33,64x64 --formats rgba8,rgba16f --out ${DIR}/out
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench.floor: exit ${rc}\n${out}\n${err}")
endif()
file(READ ${DIR}/out/bench.csv csv)
file(READ ${DIR}/out/bench.json json)
foreach(format R8G8B8A8_UNORM R16G16B16A16_SFLOAT)
  foreach(size "65,33" "64,64")
    string(REPLACE "," "x" xsize "${size}")
    foreach(method "floor fetch" "floor gather" "floor linear")
      expect_checked_row(bench.floor ${format} ${size} "${method}" "ok \\(reads\\)")
      if(NOT out MATCHES "\n${format} +${xsize} +${method} +${num} +${num} +${num} +${num}% [^\n]* ok \\(reads\\)\n")
        message(FATAL_ERROR "bench.floor: the report has no checked '${method}' row for ${format} at ${xsize}:\n${out}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(csv MATCHES ",(stream \\(|blit chain,|dispatch per level,|vkspd )" OR out MATCHES "FAILED")
  message(FATAL_ERROR "bench.floor: --methods floor timed another method or a check failed:\n${out}")
endif()
# The Hi-Z row (a depth source fills level 0) takes no floor row: none is timed, and no error.
execute_process(COMMAND ${BENCH} ${common} --sizes 33x17 --formats d32-min,r32f
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR out MATCHES "R32_SFLOAT-Min-D32 +33x17 +floor"
   OR NOT out MATCHES "\nR32_SFLOAT +33x17 +floor fetch [^\n]* ok \\(reads\\)\n")
  message(FATAL_ERROR "bench.floor: d32-min gave exit ${rc} or a floor row (or r32f none):\n${out}\n${err}")
endif()
execute_process(COMMAND ${BENCH} --help OUTPUT_VARIABLE out)
if(NOT out MATCHES "'floor fetch', 'floor gather' and 'floor linear'")
  message(FATAL_ERROR "bench.floor: --help does not describe the floor rows:\n${out}")
endif()
