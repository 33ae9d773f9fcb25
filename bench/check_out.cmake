# ctest bench.out: vkspd-bench --out makes a missing (nested) folder and writes its CSV, JSON and
# SVG there, the CSV with a checked 'stream (chain bytes)' row; the report and the JSON give the
# copy floor's range over the repetitions, the timings left out by the read probes and each row's
# clean timings, and the L2 eviction (a read by default, a copy with --evict copy; another value
# refused with exit code 2); an --out that cannot be made is refused with exit code 2 before
# anything runs. The warm-up to a steady state before the first repetition is reported with the SM
# clock (or why there is none), in the report, the JSON and every CSV row.
# -DBENCH=<vkspd-bench> -DDIR=<scratch folder>
file(REMOVE_RECURSE ${DIR})
set(common --sizes 64x64 --formats rgba8 --reps 1 --methods default,stream --cols none --copy-mib 8 --evict-mib 8)
execute_process(COMMAND ${BENCH} ${common} --out ${DIR}/nested/out RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench.out: exit ${rc}\n${out}\n${err}")
endif()
foreach(f bench.csv bench.json bench-R8G8B8A8_UNORM.svg)
  if(NOT EXISTS ${DIR}/nested/out/${f})
    message(FATAL_ERROR "bench.out: ${f} was not written under ${DIR}/nested/out")
  endif()
endforeach()
if(NOT out MATCHES "copy floor over the repetitions: [0-9]+ to [0-9]+ GB/s")
  message(FATAL_ERROR "bench.out: no line with the copy floor's range:\n${out}")
endif()
file(READ ${DIR}/nested/out/bench.json json)
if(NOT out MATCHES "\nGPU \\(the floor's copy\\): warmed up for [0-9,]+ ms, [0-9,]+ calls \\(GPU work [0-9,]+ ms; "
   OR NOT out MATCHES "\nSM clock: (not available \\(|[0-9]+ MHz before the warm-up, [0-9]+ MHz after it, [0-9]+ MHz after timing)")
  message(FATAL_ERROR "bench.out: no warm-up or SM clock line:\n${out}")
endif()
if(NOT json MATCHES "\"warmup_steady\": (true|false),\n  \"warmup_ms\": [0-9.e+-]+,\n  \"warmup_gpu_ms\": [0-9.e+-]+,\n  \"warmup_calls\": [1-9][0-9]*"
   OR NOT json MATCHES "\"sm_clock_mhz\": (null|{)")
  message(FATAL_ERROR "bench.out: bench.json lacks the warm-up:\n${json}")
endif()
if(NOT json MATCHES "\"copy_floor_low_gbs\": [0-9.e+-]+" OR NOT json MATCHES "\"copy_floor_high_gbs\": [0-9.e+-]+")
  message(FATAL_ERROR "bench.out: bench.json lacks the copy floor's range:\n${json}")
endif()
# The read probes: how many timings were left out, and per row the clean timings. With one
# repetition no item can keep three clean timings, so every row is unsteady ('!') and the report
# says not to compare the run.
if(NOT out MATCHES "copy floor over the repetitions: [0-9]+ to [0-9]+ GB/s; read probes up to [0-9]+ GB/s; [0-9]+ of [0-9]+ timings left out \\(a read probe"
   OR NOT out MATCHES "WARNING: some items kept too few clean timings, marked '!'"
   OR NOT out MATCHES " clean +occupancy" OR NOT out MATCHES "vkspd default[^\n]* [01]/1! ")
  message(FATAL_ERROR "bench.out: no probe report (timings left out, clean column, unsteady rows):\n${out}")
endif()
if(NOT json MATCHES "\"read_probe_best_gbs\": [0-9.e+-]+" OR NOT json MATCHES "\"timings_left_out\": [0-9]+" OR NOT json MATCHES "\"unsteady_items\": [1-9]"
   OR NOT json MATCHES "\"clean_timings\": [01], \"timings\": 1}")
  message(FATAL_ERROR "bench.out: bench.json lacks the probe figures:\n${json}")
endif()
if(NOT json MATCHES "\"l2_eviction\": \"read\"" OR NOT out MATCHES "8 MiB read before each item")
  message(FATAL_ERROR "bench.out: the default eviction is not reported as a read:\n${out}\n${json}")
endif()
execute_process(COMMAND ${BENCH} ${common} --evict copy --out ${DIR}/copy RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${DIR}/copy/bench.json json)
if(NOT rc EQUAL 0 OR NOT json MATCHES "\"l2_eviction\": \"copy\"" OR NOT out MATCHES "8 MiB copied \\(--evict copy\\)")
  message(FATAL_ERROR "bench.out: --evict copy gave exit ${rc} or was not reported:\n${out}\n${err}\n${json}")
endif()
execute_process(COMMAND ${BENCH} ${common} --evict sometimes RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--evict sometimes: expected read or copy")
  message(FATAL_ERROR "bench.out: --evict sometimes gave exit ${rc}, expected 2:\n${err}")
endif()
file(READ ${DIR}/nested/out/bench.csv csv)
if(NOT csv MATCHES ",timings,warmup_steady,warmup_ms,warmup_calls,sm_clock_mhz_before_warmup,sm_clock_mhz_after_warmup,sm_clock_mhz_after_timing\n"
   OR NOT csv MATCHES "vkspd default[^\n]*,(yes|no),[0-9.e+-]+,[1-9][0-9]*,[0-9]*,[0-9]*,[0-9]*\n")
  message(FATAL_ERROR "bench.out: bench.csv lacks the warm-up columns:\n${csv}")
endif()
if(NOT csv MATCHES "vkspd default")
  message(FATAL_ERROR "bench.out: bench.csv has no 'vkspd default' row:\n${csv}")
endif()
# The stream row (a chain's bytes through one plain dispatch), its output checked.
if(NOT csv MATCHES ",stream \\(chain bytes\\),[^\n]*,ok \\(reads, writes\\),")
  message(FATAL_ERROR "bench.out: bench.csv has no checked 'stream (chain bytes)' row:\n${csv}")
endif()
if(csv MATCHES "cols ")
  message(FATAL_ERROR "bench.out: --cols none still timed 'cols N' methods:\n${csv}")
endif()
file(WRITE ${DIR}/a-file "x")
execute_process(COMMAND ${BENCH} ${common} --out ${DIR}/a-file/sub RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot create the folder")
  message(FATAL_ERROR "bench.out: an --out under a file gave exit ${rc}, expected 2:\n${err}")
endif()
