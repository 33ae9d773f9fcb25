#!/bin/sh
# Sixth session, call 4 (H200): the landed form of the warm-up, I2 (I with its loads moved to a
# data texel nobody writes, Plan::warmTexel, so they race with nothing), against Y (main's plain
# kernel before it): three rounds at the plain sizes; I2's GPU suite under the validation layer;
# I2's stress test (10,000 calls, no validation); the README's bench for I2 with --out. Tarred.
#   sh bench/results/2026-11-24-sixth-session/run4.sh Y I2 LAYERS_DEB OUT_DIR
Y=$1 I2=$2 DEB=$3 OUT=$4
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
mkdir -p "$OUT/ab"
SUITE_DEB="$DEB" sh bench/ab.sh "$OUT/ab" 3 "$Y" "$I2" -- \
    --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
    --methods default --tiles none --cols none --reps 30 > "$OUT/ab/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab/ab.txt"
VKSPD_TEST_NO_VALIDATION=1 VKSPD_STRESS_CALLS=10000 "$I2/vkspd_gpu_tests" --gtest_filter=*Stress* > "$OUT/ab/stress.log" 2>&1
echo "stress exit $?" >> "$OUT/ab/ab.txt"
grep -E '^\[ stress|^\[  (PASSED|FAILED)  \]' "$OUT/ab/stress.log" >> "$OUT/ab/ab.txt"
cat "$OUT/ab/ab.txt"
(cd "$OUT" && tar czf ab.tgz ab && rm -r ab)
n=readme-$(basename "$I2")
mkdir -p "$OUT/$n"
"$I2/vkspd-bench" --sizes 2048x2048,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
    --reps 30 --cols none --tiles 4,8 --out "$OUT/$n" > "$OUT/$n/bench.txt" 2>&1
echo "$n exit $?: $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' "$OUT/$n/bench.txt")"
grep -E "default|stream|blit" "$OUT/$n/bench.txt" | grep -E "^R(8G8B8A8|16G16B16A16)" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-44s %9s %7s %6s %s\n", substr($1, 1, 6), $2, m, $(i-3), $i, $(i+1), $(i+2); next } }'
(cd "$OUT" && tar czf "$n.tgz" "$n" && rm -r "$n")
