#!/bin/sh
# Whether the later stages' cold start (run4: their first pass costs 13-17 us, a second 3.5-5) is
# their instructions: I (warm-later-code-group0.patch) lets group 0 first run the later stages'
# code on a tile past every level (no store, no election), so the code is in the L2 when the
# elected group needs it; J (warm-later-code-all.patch) lets every group do so (every SM's
# instruction cache). Two rounds of BASE I J on the plain sizes, then two of BASE P (the whole
# tile ahead, run1) from 8192^2 up; tarred. All builds at fc27830's bench (P at 84950b5's).
#   sh bench/results/2026-11-24-fourth-session/run5.sh BASE_BIN I_BIN J_BIN P_BIN OUT_DIR
A=$1 I=$2 J=$3 P=$4 OUT=$5
mkdir -p "$OUT/run5"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/run5/gpu.txt"
sh bench/ab.sh "$OUT/run5/warm" 2 "$A" "$I" "$J" -- --sizes 256x256,1024x1024,2048x2048,4096x4096,8192x8192 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/run5/warm.txt" 2>&1
echo "ab exit $?" >> "$OUT/run5/warm.txt"
cat "$OUT/run5/warm.txt"
sh bench/ab.sh "$OUT/run5/prefetch" 2 "$A" "$P" -- --sizes 8192x8192,16384x16384 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/run5/prefetch.txt" 2>&1
echo "ab exit $?" >> "$OUT/run5/prefetch.txt"
cat "$OUT/run5/prefetch.txt"
(cd "$OUT" && tar czf run5.tgz run5 && rm -r run5)
