#!/bin/sh
# Level 1 of the generic path from source rows staged in shared memory (FP16 variants), A/B on
# one GPU. BASE: vkspd-bench and vkspd-pipeline-stats at 2e98728 (shader of d5bcd9e); CAND: the
# same with the staged level 1, plus its GPU suite under the validation layer.
#   sh bench/results/2026-11-24-staged-level1/run1.sh BASE_BIN CAND_BIN OUT_DIR
BASE=$(cd "$1" && pwd) CAND=$(cd "$2" && pwd) OUT=$3
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv,noheader > "$OUT/gpu.txt"
ROWS='vkspd default|fp16 lds' SUITE_DEB=$(ls "$CAND"/vulkan-validationlayers_*.deb) \
    sh bench/ab.sh "$OUT/ab" 3 "$BASE" "$CAND" -- \
    --sizes 1920x1080,3840x2160,4095x4095,4096x4096 --formats rgba8,rgba16f \
    --methods 'default,fp16 lds' --cols none --tiles none --reps 30 > "$OUT/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab.txt"
