#!/bin/sh
# Correctness and the benchmark on a real GPU, from a Release build made on the development machine
# and carried over (the lent GPU machines have no Vulkan loader, validation layers or compilers).
#
# Usage on the device machine, from the repository root (the Vulkan loader installed first, see
# docs/PERFORMANCE.md for how it is carried):
#   sh bench/gpu_check.sh BIN_DIR OUT_DIR [VALIDATION_LAYERS_DEB]
# BIN_DIR holds vkspd_gpu_tests, vkspd_unit_tests, vkspd (the CLI), vkspd-bench,
# vkspd-pipeline-stats, vkspd_example_minimal and vkspd_example_engine (Release builds).
# VALIDATION_LAYERS_DEB: Debian's vulkan-validationlayers package, unpacked and used for the GPU
# suite and the examples, which run under the validation layer with synchronization validation
# as every test must. Without it they use the layers installed on the machine (and fail where
# there are none); NO_VALIDATION=1 runs them without, on purpose (the logs say so).
# Exit code: 0 when every step passed, 1 when any failed (each step's status is printed).
# Environment: BENCH_ARGS replaces the benchmark's arguments (default: the sizes and formats of
# the README's table, every kernel); STRESS_CALLS the stress test's call count (default 10000);
# SAMPLE_SIZES the sizes the CLI verifies in full (default: what fits one 10-minute device call
# with the rest, about 40-60 s per chain of 8192^2 and above; 16384x16384 and 20000x20000 do not
# fit); TEST_FILTER the GPU suite's gtest filter (default: all but the stress
# tests, which run after it without validation); LIBRARY the commit the binaries were built
# from, for gpu.txt (default: the checkout's HEAD, which on a machine the checkout was copied to
# may not be the build's).
BIN=${1:?usage: sh bench/gpu_check.sh BIN_DIR OUT_DIR [VALIDATION_LAYERS_DEB]}
OUT=${2:?usage: sh bench/gpu_check.sh BIN_DIR OUT_DIR [VALIDATION_LAYERS_DEB]}
DEB=${3:-}
BIN=$(cd "$BIN" && pwd) || exit 2
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
BENCH_ARGS=${BENCH_ARGS:---sizes 1000x600,1920x1080,2048x2048,2560x1440,3840x2160,4095x4095,4096x4096,8191x8191,8192x8192,16384x16384 --formats rgba8,rgba16f,d32-min --reps 30 --cols none --tiles 2,4,8}
{
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
    if [ -n "${LIBRARY:-}" ]; then echo "library: $LIBRARY"; else git rev-parse HEAD 2>/dev/null | sed 's/^/checkout: /'; fi
} > "$OUT/gpu.txt"
cat "$OUT/gpu.txt"

failed=0
# step NAME STATUS: prints the status, counts a failure.
step() {
    echo "$1 exit $2"
    [ "$2" -eq 0 ] || failed=$((failed + 1))
}

validated="env"
if [ -n "$DEB" ]; then
    layers=$(mktemp -d)
    dpkg -x "$DEB" "$layers" || { echo "gpu_check: cannot unpack $DEB" >&2; exit 2; }
    validated="env VK_LAYER_PATH=$layers/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=$layers/usr/lib/x86_64-linux-gnu"
fi
if [ "${NO_VALIDATION:-0}" = 1 ]; then
    validated="env VKSPD_TEST_NO_VALIDATION=1"
fi

"$BIN/vkspd-pipeline-stats" > "$OUT/pipeline_stats.txt" 2>&1
step "pipeline stats" $?
"$BIN/vkspd" --occupancy > "$OUT/occupancy.txt" 2>&1
step "occupancy" $?
$validated "$BIN/vkspd_gpu_tests" "--gtest_filter=${TEST_FILTER:--*Stress*}" > "$OUT/gpu_tests.log" 2>&1
step "gpu tests" $?
grep -E '^vkspd tests:|^\[  (PASSED|FAILED)  \]' "$OUT/gpu_tests.log"
VKSPD_TEST_NO_VALIDATION=1 VKSPD_STRESS_CALLS=${STRESS_CALLS:-10000} "$BIN/vkspd_gpu_tests" --gtest_filter=*Stress* > "$OUT/stress.log" 2>&1
step "stress" $?
grep -E '^\[ stress|^\[  (PASSED|FAILED)  \]' "$OUT/stress.log"
$validated "$BIN/vkspd_example_minimal" > "$OUT/example_minimal.txt" 2>&1
step "example minimal" $?
$validated "$BIN/vkspd_example_engine" > "$OUT/example_engine.txt" 2>&1
step "example engine" $?
"$BIN/vkspd_unit_tests" > "$OUT/unit_tests.log" 2>&1
step "unit tests" $?
grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' "$OUT/unit_tests.log"

# Every level of large chains against the CPU reference through the CLI (the benchmark checks
# sampled texels above 4096x4096), with the CLI's warm timings. SAMPLE_SIZES replaces the sizes.
samples=0
: > "$OUT/samples.txt"
for size in ${SAMPLE_SIZES:-8192x8192 32768x1024 4096x4096 4095x4095 3840x2160 1920x1080}; do
    for opt in "" "--fp32" "--path lds"; do
        echo "== $size $opt" >> "$OUT/samples.txt"
        # shellcheck disable=SC2086
        "$BIN/vkspd" --random "$size" --linear --no-write --verify --bench 30 $opt >> "$OUT/samples.txt" 2>&1 ||
            samples=$((samples + 1))
    done
done
step "full checks of large chains ($samples failed)" $samples
grep -E "^==|verified|error" "$OUT/samples.txt"

# The benchmark (no validation: timings), from OUT so its --out folder lands there.
echo "vkspd-bench $BENCH_ARGS --out bench" > "$OUT/command.txt"
# shellcheck disable=SC2086
(cd "$OUT" && "$BIN/vkspd-bench" $BENCH_ARGS --out bench > bench.txt 2>&1)
step "bench" $?
grep -E "floor|vkspd default|VERIFY" "$OUT/bench.txt"
echo "gpu_check: $failed step(s) failed"
[ "$failed" -eq 0 ]
