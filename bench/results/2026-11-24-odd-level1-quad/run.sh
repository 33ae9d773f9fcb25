#!/bin/sh
# The generic level 1 with quad exchanges (levelOneRowsQuad): a thread makes three rows of one
# column, each source row read once per run and its third tap from the next quad lane. A/B on one
# GPU, then the candidate's GPU suite under the validation layer. BASE: vkspd-bench and vkspd-pipeline-stats at
# ce56156; CAND: the same with the change.
#   sh bench/results/2026-11-24-odd-level1-quad/run.sh BASE_BIN CAND_BIN OUT_DIR
BASE=$(cd "$1" && pwd) CAND=$(cd "$2" && pwd) OUT=$3
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
SUITE_DEB=$(ls "$CAND"/vulkan-validationlayers_*.deb) \
    sh bench/ab.sh "$OUT/ab" 3 "$BASE" "$CAND" -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096,8192x8192 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab.txt"
