# ctest bench.d32_min: the Hi-Z row (--formats d32-min: an R32_SFLOAT Min pyramid whose level 0 is
# copied from a D32_SFLOAT depth source) runs at an odd and a plain size, every method's output
# checked bit-exactly against the CPU reference (exit code 0), each row timed in the CSV and the
# JSON. The blit chain and one dispatch per level cannot make it, so they are absent and the
# 'x blit' ratio is n/a (empty in the CSV, null in the JSON). A second run checks sampled texels
# (the bench's own Min footprint reference) instead of every texel; a third, without --formats,
# shows the row is in the default list; a fourth runs the r32f-min, r8-min, r16f-min, rgba8-min,
# rgba16f-min and rg16f-minmax rows, and a fifth two of them at sampled texels.
# -DBENCH=<vkspd-bench> -DDIR=<scratch folder>
include(${CMAKE_CURRENT_LIST_DIR}/check_rows.cmake)
file(REMOVE_RECURSE ${DIR})
set(common --formats d32-min --reps 2 --tiles none --copy-mib 8 --evict-mib 8)
execute_process(COMMAND ${BENCH} ${common} --sizes 67x35,64x64 --cols 2 --out ${DIR}/out
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench.d32_min: exit ${rc}\n${out}\n${err}")
endif()
file(READ ${DIR}/out/bench.csv csv)
file(READ ${DIR}/out/bench.json json)
foreach(size "67,35" "64,64")
  foreach(method "stream \\(chain bytes\\)" "vkspd fp32 quad" "vkspd fp32 lds" "vkspd default \\([^,\n]*\\)"
                 "vkspd fp32 quad cols 2")
    expect_checked_row(bench.d32_min R32_SFLOAT-Min-D32 ${size} "${method}" "ok[^\n\"]*")
  endforeach()
endforeach()
if(csv MATCHES "blit chain|dispatch per level|fp16")
  message(FATAL_ERROR "bench.d32_min: a method that cannot make a Min pyramid was timed:\n${csv}")
endif()
if(NOT out MATCHES "R32_SFLOAT-Min-D32 +67x35 +vkspd fp32 quad +${num} +${num} +${num} +${num}% +n/a "
   OR out MATCHES "nan|inf")
  message(FATAL_ERROR "bench.d32_min: the report's 'x blit' column is not n/a:\n${out}")
endif()
if(NOT EXISTS ${DIR}/out/bench-R32_SFLOAT-Min-D32.svg)
  message(FATAL_ERROR "bench.d32_min: bench-R32_SFLOAT-Min-D32.svg was not written")
endif()
execute_process(COMMAND ${BENCH} ${common} --sizes 67x35 --cols none --methods "fp32 lds" --sampled
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "prepared R32_SFLOAT-Min-D32 67x35: [^\n]*sampled texels"
   OR NOT out MATCHES "R32_SFLOAT-Min-D32 +67x35 +vkspd fp32 lds [^\n]* ok\n")
  message(FATAL_ERROR "bench.d32_min: --sampled gave exit ${rc}:\n${out}\n${err}")
endif()
# It is in the default list: a run without --formats times it too, and --help names it.
execute_process(COMMAND ${BENCH} --sizes 33x17 --methods default --cols none --tiles none --reps 1 --copy-mib 8
                --evict-mib 8 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\nR32_SFLOAT-Min-D32 +33x17 +vkspd default [^\n]* ok\n")
  message(FATAL_ERROR "bench.d32_min: a run without --formats gave exit ${rc} or no Hi-Z row:\n${out}\n${err}")
endif()
execute_process(COMMAND ${BENCH} --help OUTPUT_VARIABLE out)
if(NOT out MATCHES "--formats LIST +comma-separated: [^\n]*d32-min")
  message(FATAL_ERROR "bench.d32_min: --help does not name d32-min:\n${out}")
endif()
# The same Min pyramid of an image's own base level (--formats r32f-min, r8-min, r16f-min, on
# request), Min of four channels and the min-max pyramid of two (rgba8-min, rgba16f-min,
# rg16f-minmax): checked like the Hi-Z row, and neither the blit chain nor the dispatch per level,
# which cannot make such a pyramid, is timed.
execute_process(COMMAND ${BENCH} --formats r32f-min,r8-min,r16f-min,rgba8-min,rgba16f-min,rg16f-minmax
                --sizes 64x64,67x35 --reps 2
                --tiles none --cols none --methods "vkspd default,vkspd fp32 quad,blit,dispatch"
                --copy-mib 8 --evict-mib 8 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
foreach(row R32_SFLOAT-Min R8_UNORM-Min R16_SFLOAT-Min R8G8B8A8_UNORM-Min R16G16B16A16_SFLOAT-Min
            R16G16_SFLOAT-MinMax)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\n${row} +64x64 +vkspd default \\([^\n]* ok\n"
     OR NOT out MATCHES "\n${row} +67x35 +vkspd fp32 quad [^\n]* ok\n"
     OR out MATCHES "${row} +[0-9x]+ +(blit chain|dispatch per level)")
    message(FATAL_ERROR "bench.d32_min: the ${row} row gave exit ${rc}:\n${out}\n${err}")
  endif()
endforeach()
# The same rows checked at sampled texels (the bench's own footprint reference, which sizes past
# 4096x4096 take): Min, and MinMax's minimum in R and maximum in G.
execute_process(COMMAND ${BENCH} --formats rgba8-min,rg16f-minmax --sizes 64x64,67x35 --reps 2 --sampled
                --tiles none --cols none --methods "vkspd default,vkspd fp32 quad"
                --copy-mib 8 --evict-mib 8 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
foreach(row R8G8B8A8_UNORM-Min R16G16_SFLOAT-MinMax)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\n${row} +64x64 +vkspd default \\([^\n]* ok\n"
     OR NOT out MATCHES "\n${row} +67x35 +vkspd fp32 quad [^\n]* ok\n")
    message(FATAL_ERROR "bench.d32_min: the ${row} row at sampled texels gave exit ${rc}:\n${out}\n${err}")
  endif()
endforeach()
