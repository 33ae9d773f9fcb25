#!/bin/sh
# Sixth session, call 1 (H200). Three rounds of A (main at bfc4f42: the bench's stream row), Y (the
# fifth session's level2-3-from-shared: level 2 stored from shared memory one texel per lane, level
# 3 by 64 lanes, level 4 by their quads, levels 5-6 after the next barrier) and I (Y, and group 0
# first runs the later stages' code on a tile past every level: is their 10-12 us cold start the
# instruction fetch?), the default and stream rows at the plain sizes and the two odd ones. Then
# Y's GPU suite under the validation layer. Tarred (the device returns at most 8 files).
#   sh bench/results/2026-11-24-sixth-session/run1.sh A Y I LAYERS_DEB OUT_DIR
A=$1 Y=$2 I=$3 DEB=$4 OUT=$5
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
mkdir -p "$OUT/ab"
ROWS='vkspd default|stream' SUITE_DEB="$DEB" sh bench/ab.sh "$OUT/ab" 3 "$A" "$I" "$Y" -- \
    --sizes 1024x1024,2048x2048,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
    --methods default,stream --tiles none --cols none --reps 30 > "$OUT/ab/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab/ab.txt"
cat "$OUT/ab/ab.txt"
(cd "$OUT" && tar czf ab.tgz ab && rm -r ab)
