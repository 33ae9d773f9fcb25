#!/bin/sh
# Sixth session, call 2 (H200): where to warm the plain kernel's later-stage code (call 1: I, group
# 0 running it first, took 4-5 us off 4096^2 RGBA8 and 20 off 16384^2, but added 2.6 us to 4096^2
# RGBA16F). Three rounds of Y (the candidate base), I, W2 (one more row of groups; its first group
# only runs the later stages' code) and W3 (group 0 runs it after its own tiles, before its
# arrival), the default row at the plain sizes; then W2's GPU suite under the validation layer.
#   sh bench/results/2026-11-24-sixth-session/run2.sh Y I W2 W3 LAYERS_DEB OUT_DIR
Y=$1 I=$2 W2=$3 W3=$4 DEB=$5 OUT=$6
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
mkdir -p "$OUT/ab"
SUITE_DEB="$DEB" sh bench/ab.sh "$OUT/ab" 3 "$Y" "$I" "$W3" "$W2" -- \
    --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
    --methods default --tiles none --cols none --reps 30 > "$OUT/ab/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab/ab.txt"
cat "$OUT/ab/ab.txt"
(cd "$OUT" && tar czf ab.tgz ab && rm -r ab)
