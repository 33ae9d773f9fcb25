#!/bin/sh
# Tiles per group that are not powers of two (experiments/tiles-any-count.patch, never landed:
# the library and the bench accept any count; valid only where a row has at most 64 tiles, so a
# strip stays in one 64x64 block of tiles). At 4096², eight tiles per group make 512 groups, fewer
# than the GPU holds at once (an H200: 132 SMs x 5 groups); seven make 640.
#   sh bench/results/2026-11-24-odd-diagnosis/tiles.sh BIN_DIR OUT_DIR
BIN=$(cd "$1" && pwd) || exit 2
OUT=$2; mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
for round in 1 2 3; do
    (cd "$OUT" && "$BIN/vkspd-bench" --sizes 2048x2048,4096x4096 --formats rgba8,rgba16f --cols none \
        --tiles 2,3,4,5,6,7,8 --methods "default,plain fp16 linear tiles" --out "tiles-$round" > "tiles-$round.txt" 2>&1)
    echo "round $round exit $?"
done
