#!/bin/sh
# With vkspd-bench's read probes (84950b5: timings taken while other work took the GPU's
# bandwidth are left out), all timing-only builds but P:
#   BASE: HEAD's shaders;
#   D (later-stages-twice.patch): the plain kernel's elected group runs each later stage twice;
#   E (no-later-stages.patch): the elected group stops before the later stages (its check FAILS);
#   P (prefetch-tile-ahead.patch): the plain kernel fetches a whole tile ahead (a candidate).
# BASE - E is what the later stages cost, D - BASE what they cost a second time, warm.
# Three rounds of BASE D E on the plain sizes to 4096^2, two of BASE P from 4096^2 up; tarred.
#   sh bench/results/2026-11-24-fourth-session/run4.sh BASE_BIN D_BIN E_BIN P_BIN OUT_DIR
A=$1 D=$2 E=$3 P=$4 OUT=$5
mkdir -p "$OUT/run4"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/run4/gpu.txt"
sh bench/ab.sh "$OUT/run4/tail" 3 "$A" "$D" "$E" -- --sizes 256x256,1024x1024,2048x2048,4096x4096 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/run4/tail.txt" 2>&1
echo "ab exit $? (E's checks fail by design)" >> "$OUT/run4/tail.txt"
cat "$OUT/run4/tail.txt"
sh bench/ab.sh "$OUT/run4/prefetch" 2 "$A" "$P" -- --sizes 4096x4096,8192x8192,16384x16384 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/run4/prefetch.txt" 2>&1
echo "ab exit $?" >> "$OUT/run4/prefetch.txt"
cat "$OUT/run4/prefetch.txt"
(cd "$OUT" && tar czf run4.tgz run4 && rm -r run4)
