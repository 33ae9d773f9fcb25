#!/bin/sh
# Run 2 of the timing-only switches (experiments/switches.patch; see run1.sh): where the time after
# stage 0's levels goes at odd sizes. "cols 128" is the general kernel with no switch (128 strips
# wider than the image: the identity tile order), the base for the switched rows:
#   512 X2 one tap per level-1 output    2048 X8 later stages read no kept texel
#   4096 X16 no tile-edge exchange       8192 X32 an elected group stops before the later stages
#   sh bench/results/2026-11-24-odd-diagnosis/run2.sh BIN_DIR OUT_DIR
BIN=$(cd "$1" && pwd) || exit 2
OUT=$2; mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
{
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader
} > "$OUT/gpu.txt"
cat "$OUT/gpu.txt"
args="--sizes 3840x2160,4095x4095 --formats rgba8,rgba16f --cols 128,512,2048,4096,8192"
for levels in full 6; do
    extra=""
    [ "$levels" = full ] || extra="--levels $levels"
    for round in 1 2 3; do
        [ "$levels" = 6 ] && [ "$round" != 1 ] && continue
        echo "== levels $levels round $round" | tee -a "$OUT/command.txt"
        # shellcheck disable=SC2086
        (cd "$OUT" && "$BIN/vkspd-bench" $args $extra --methods "fp16 quad" --out "bench-$levels-$round" > "bench-$levels-$round.txt" 2>&1)
    done
done
"$BIN/vkspd-pipeline-stats" > "$OUT/pipeline_stats.txt" 2>&1
