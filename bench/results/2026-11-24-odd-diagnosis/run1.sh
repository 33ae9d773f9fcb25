#!/bin/sh
# Timing-only switches in the general kernel (experiments/switches.patch, never landed): what
# bounds the odd sizes. Run on the device from the repository root:
#   sh bench/results/2026-11-24-odd-diagnosis/run1.sh BIN_DIR OUT_DIR
# The "cols N" methods carry the switches in N >> 8 (groupColumns; tiling stays off):
#   256 X1 no divisions in the three-tap weights      512 X2 one tap per level-1 output
#   1024 X4 no level-1 stores                          1536 X2 + X4
#   2048 X8 later stages read no kept texel            4096 X16 no tile-edge exchange
#   7936 all of them
# Outputs with a switch on are wrong by design (their check says FAILED); the base is the
# "vkspd fp16 quad" row (the same pipeline, no switch).
BIN=$(cd "$1" && pwd) || exit 2
OUT=$2; mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
mkdir -p "$OUT"
{
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader
} > "$OUT/gpu.txt"
cat "$OUT/gpu.txt"
"$BIN/vkspd-pipeline-stats" > "$OUT/pipeline_stats.txt" 2>&1
args="--sizes 3840x2160,4095x4095 --formats rgba8,rgba16f --cols 256,512,1024,1536,2048,4096,7936"
for levels in full 2 6; do
    extra=""
    [ "$levels" = full ] || extra="--levels $levels"
    for round in 1 2; do
        echo "== levels $levels round $round" | tee -a "$OUT/command.txt"
        # shellcheck disable=SC2086
        (cd "$OUT" && "$BIN/vkspd-bench" $args $extra --methods "fp16 quad" --out "bench-$levels-$round" > "bench-$levels-$round.txt" 2>&1)
        grep -E "floor|fp16 quad" "$OUT/bench-$levels-$round.txt" | grep -v VERIFY
    done
done
