# Shared by the bench's ctest scripts: include() it, then read a run's bench.csv into `csv` and
# its bench.json into `json` before calling expect_checked_row.
set(num "[0-9][0-9.e+-]*")

# expect_checked_row(TEST FORMAT SIZE METHOD CHECK): bench.csv and bench.json hold a timed row of
# METHOD (a regex) for FORMAT at SIZE ("W,H"), with no blit to compare with (empty in the CSV, null
# in the JSON) and a check that matches CHECK (a regex matching no quote); else TEST fails,
# naming what is missing.
function(expect_checked_row test format size method check)
  string(REPLACE "," ", \"height\": " jsize "${size}")
  # median, min, GB/s, % of floor, no ratio to a blit, the check.
  if(NOT csv MATCHES ",${format},${size},${method},${num},${num},${num},${num},,${check},")
    message(FATAL_ERROR "${test}: bench.csv has no timed, checked '${method}' row for ${format} at ${size}:\n${csv}")
  endif()
  if(NOT json MATCHES "\"format\": \"${format}\", \"width\": ${jsize}, \"method\": \"${method}\", \"median_us\": ${num}, [^\n]*\"speedup_vs_blit\": null, \"check\": \"${check}\"")
    message(FATAL_ERROR "${test}: bench.json has no timed, checked '${method}' row for ${format} at ${size}:\n${json}")
  endif()
endfunction()
