#!/bin/sh
# Correctness (and warm-cache timings) on a real GPU, from binaries built here and carried over.
# Usage on the device machine, from the repository root:
#   sh bench/gpu_check.sh BIN_DIR OUT_DIR
# BIN_DIR holds vkspd_gpu_tests, vkspd_unit_tests and vkspd (the CLI; Release builds).
BIN=${1:-.gpu}
OUT=${2:-gpu-out}
mkdir -p "$OUT"
{
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
} > "$OUT/gpu.txt"
cat "$OUT/gpu.txt"
VKSPD_TEST_NO_VALIDATION=1 "$BIN/vkspd_gpu_tests" > "$OUT/gpu_tests.log" 2>&1
echo "gpu tests exit $?: $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/gpu_tests.log" | tr '\n' ' ')"
"$BIN/vkspd_unit_tests" > "$OUT/unit_tests.log" 2>&1
echo "unit tests exit $?"
# Every level of large chains against the CPU reference, then warm timings of each variant.
for size in 8192x8192 16384x16384 20000x20000 32768x1024 4096x4096 4095x4095 3840x2160 1920x1080; do
    for opt in "" "--fp32" "--path lds"; do
        echo "== $size $opt"
        "$BIN/vkspd" --random "$size" --linear --no-write --verify --bench 30 $opt 2>&1 |
            grep -E "groups|reference|bench|error|OUT OF"
    done
done > "$OUT/samples.txt" 2>&1
grep -E "^==|reference|bench" "$OUT/samples.txt"
