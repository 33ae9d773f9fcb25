#!/bin/sh
# Fifth session, call 1. Part "ceiling": what the image path alone streams, the plain kernel with
# --levels 1 (fetch level 0, store level 1, nothing else): BASE, R (read-only.patch: no level-1
# store, the fetch kept live), S (store-only.patch: no fetch, the stores kept), default (linear
# fetch) and 'plain fp16 load' (four texel fetches) rows, 4096^2 to 16384^2, two rounds. Part
# "warm": run5.sh of the fourth session (BASE, I, J on the plain sizes, two rounds). Each part is
# tarred when done (the device returns at most 8 files).
#   sh bench/results/2026-11-24-fifth-session/run1.sh A R S I J OUT_DIR
A=$1 R=$2 S=$3 I=$4 J=$5 OUT=$6
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
part() { (cd "$OUT" && tar czf "$1.tgz" "$1" && rm -r "$1"); }
mkdir -p "$OUT/ceiling"
ROWS='vkspd default|vkspd plain fp16 load' sh bench/ab.sh "$OUT/ceiling" 2 "$A" "$R" "$S" -- \
    --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --levels 1 \
    --methods "default,plain fp16 load" --tiles none --cols none --reps 30 > "$OUT/ceiling/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ceiling/ab.txt"
cat "$OUT/ceiling/ab.txt"; part ceiling
mkdir -p "$OUT/warm"
sh bench/ab.sh "$OUT/warm" 2 "$A" "$I" "$J" -- --sizes 256x256,1024x1024,2048x2048,4096x4096,8192x8192 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/warm/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/warm/ab.txt"
cat "$OUT/warm/ab.txt"; part warm
