#!/bin/sh
# Fifth session, call 4: whole-row stores for the plain kernel's small levels (run3: RGBA8 level
# 2 cost 75 us at 16384^2 for 67 MB, level 3 59 us for 17 MB; RGBA16F's twice the bytes cost a
# third of that). X (level2-from-shared.patch): level 2 stored after the tile's barrier from shared
# memory, one texel per lane (8x4 per warp). Y (level2-3-from-shared.patch): X, and level 3 by
# lanes 0..63 one texel each, level 4 by their quads, levels 5 and 6 after the next barrier.
# Three rounds of A X Y on the plain sizes, then Y's breakdown (--levels 2, 3, 6). Tarred.
#   sh bench/results/2026-11-24-fifth-session/run4.sh A X Y OUT_DIR
A=$1 X=$2 Y=$3 OUT=$4
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
part() { (cd "$OUT" && tar czf "$1.tgz" "$1" && rm -r "$1"); }
mkdir -p "$OUT/ab"
sh bench/ab.sh "$OUT/ab" 3 "$A" "$X" "$Y" -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 \
    --formats rgba8,rgba16f --methods default --tiles none --cols none --reps 30 > "$OUT/ab/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab/ab.txt"; cat "$OUT/ab/ab.txt"; part ab
mkdir -p "$OUT/levels"
for lv in 2 3 6; do
    f="$OUT/levels/$(basename $Y)-levels$lv.txt"
    "$Y/vkspd-bench" --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default \
        --tiles none --cols none --reps 30 --levels $lv > "$f" 2>&1
    printf '%s levels %s: %s\n' "$(basename $Y)" $lv "$(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' "$f")"
    grep -E '^R(8|16)' "$f" | awk '{for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+\/[0-9]+!?$/) c = i
                     printf "   %s %s median %s min %s %s clean %s\n", substr($1,1,8), $2, $(c-5), $(c-4), $(c-2), $c}'
done > "$OUT/levels/summary.txt"
cat "$OUT/levels/summary.txt"; part levels
