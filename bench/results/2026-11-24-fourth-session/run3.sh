#!/bin/sh
# D (later-stages-twice.patch, timing only): the plain kernel's elected group runs each later
# stage's work twice (the second pass stores the same texels), against BASE: if the later stages'
# ~9.5 us at 4096^2 is a cold start (instructions, first touches), the second pass costs much less
# than the first. Three ABAB rounds on the plain sizes; the results tarred.
#   sh bench/results/2026-11-24-fourth-session/run3.sh BASE_BIN D_BIN OUT_DIR
A=$1 D=$2 OUT=$3
mkdir -p "$OUT/run3"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/run3/gpu.txt"
sh bench/ab.sh "$OUT/run3/ab" 3 "$A" "$D" -- --sizes 256x256,1024x1024,2048x2048,4096x4096,8192x8192 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/run3/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/run3/ab.txt"
cat "$OUT/run3/ab.txt"
(cd "$OUT" && tar czf run3.tgz run3 && rm -r run3)
