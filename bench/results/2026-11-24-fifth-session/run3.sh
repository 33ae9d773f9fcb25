#!/bin/sh
# Fifth session, call 3: where the plain kernel's time goes, level by level. BASE with --levels
# 1..6 and the full chain (levels 1: fetch and level-1 store only, no barrier; 2: plus the quad's
# level 2; 3..6: plus the per-tile barrier and the 16-lane tail; full: plus the election and the
# later stages), and R / S (read-only / store-only.patch) at --levels 1; RGBA8 and RGBA16F,
# 4096^2 to 16384^2; two rounds, in reverse order the second time. Tarred.
#   sh bench/results/2026-11-24-fifth-session/run3.sh A R S OUT_DIR
A=$1 R=$2 S=$3 OUT=$4
mkdir -p "$OUT/levels"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/levels/gpu.txt"
ARGS="--sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default --tiles none --cols none --reps 30"
one() { # BIN LEVELS ROUND
    f="$OUT/levels/$(basename $1)-levels$2-$3.txt"
    if [ "$2" = full ]; then "$1/vkspd-bench" $ARGS > "$f" 2>&1; else "$1/vkspd-bench" $ARGS --levels $2 > "$f" 2>&1; fi
    printf '%s levels %s round %s: %s\n' "$(basename $1)" "$2" "$3" "$(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' "$f")"
    grep -E '^R(8|16)' "$f" | awk '{for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+\/[0-9]+!?$/) c = i
                     printf "   %s %s median %s min %s %s clean %s\n", substr($1,1,8), $2, $(c-5), $(c-4), $(c-2), $c}'
}
for r in 1 2; do
    if [ $r = 1 ]; then order="1 2 3 4 5 6 full"; else order="full 6 5 4 3 2 1"; fi
    [ $r = 2 ] && { one "$S" 1 $r; one "$R" 1 $r; }
    for lv in $order; do one "$A" $lv $r; done
    [ $r = 1 ] && { one "$R" 1 $r; one "$S" 1 $r; }
done > "$OUT/levels/summary.txt"
cat "$OUT/levels/summary.txt"
(cd "$OUT" && tar czf levels.tgz levels && rm -r levels)
