#!/bin/sh
# Sixth session, call 5 (H100, after the review): the two landed plain-kernel changes on an H100,
# where the fifth session saw RGBA16F 4096^2 7% slower with levels 2-3 from shared memory. Three
# rounds of Base (main at 6b9a05e, before this session) and I2 (the landed library, b18f970), the
# default row at the plain sizes.
#   sh bench/results/2026-11-24-sixth-session/run5.sh BASE I2 OUT_DIR
BASE=$1 I2=$2 OUT=$3
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
mkdir -p "$OUT/ab"
sh bench/ab.sh "$OUT/ab" 3 "$BASE" "$I2" -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 \
    --formats rgba8,rgba16f --methods default --tiles none --cols none --reps 30 > "$OUT/ab/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab/ab.txt"
cat "$OUT/ab/ab.txt"
(cd "$OUT" && tar czf ab.tgz ab && rm -r ab)
