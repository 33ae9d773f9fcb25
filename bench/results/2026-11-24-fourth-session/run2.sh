#!/bin/sh
# W (warm-descriptors.patch, timing only): every group's lanes 1..levels-1 first load texel (0, 0)
# of one level view each, so the SM holds every view's descriptor before a store needs it, against
# BASE, three ABAB rounds from 64x64 to 8192^2; the results tarred (the device returns few files).
#   sh bench/results/2026-11-24-fourth-session/run2.sh BASE_BIN W_BIN OUT_DIR
A=$1 W=$2 OUT=$3
mkdir -p "$OUT/run2"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/run2/gpu.txt"
sh bench/ab.sh "$OUT/run2/ab" 3 "$A" "$W" -- --sizes 64x64,256x256,1920x1080,2048x2048,3840x2160,4096x4096,8192x8192 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/run2/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/run2/ab.txt"
cat "$OUT/run2/ab.txt"
(cd "$OUT" && tar czf run2.tgz run2 && rm -r run2)
