#!/bin/sh
# Sixth session, call 3 (H200). Call 2's only clean runs had W2 (an extra row of groups whose first
# group only runs the later stages' code) faster than Y for RGBA8 but at 63 registers. W2b: the same
# extra group, with I's phase loop (one copy of the code). Registers first, three rounds of Y, I,
# W2b at the plain sizes, W2b's GPU suite under the validation layer; then the README's bench
# (bench/gpu_check.sh's arguments) for each build, with --out. Each part tarred.
#   sh bench/results/2026-11-24-sixth-session/run3.sh Y I W2b LAYERS_DEB OUT_DIR
Y=$1 I=$2 W=$3 DEB=$4 OUT=$5
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
mkdir -p "$OUT/ab"
SUITE_DEB="$DEB" sh bench/ab.sh "$OUT/ab" 3 "$Y" "$I" "$W" -- \
    --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
    --methods default --tiles none --cols none --reps 30 > "$OUT/ab/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab/ab.txt"
cat "$OUT/ab/ab.txt"
(cd "$OUT" && tar czf ab.tgz ab && rm -r ab)
for b in "$W" "$I" "$Y"; do
    n=readme-$(basename "$b")
    mkdir -p "$OUT/$n"
    "$b/vkspd-bench" --sizes 2048x2048,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
        --reps 30 --cols none --tiles 4,8 --out "$OUT/$n" > "$OUT/$n/bench.txt" 2>&1
    echo "$n exit $?: $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' "$OUT/$n/bench.txt")"
    grep -E "default|stream|blit" "$OUT/$n/bench.txt" | grep -E "^R(8G8B8A8|16G16B16A16)" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-44s %9s %7s %6s %s\n", substr($1, 1, 6), $2, m, $(i-3), $i, $(i+1), $(i+2); next } }'
    (cd "$OUT" && tar czf "$n.tgz" "$n" && rm -r "$n")
done
