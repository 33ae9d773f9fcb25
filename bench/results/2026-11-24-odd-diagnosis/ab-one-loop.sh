#!/bin/sh
# Review mend: the merged election arrival as one loop (counts of tiles in this tile's block
# summed, others arriving on their own) instead of a condition and a fallback loop. Same
# arrivals; checked for registers (both FP16 flavours), A/B against d5bcd9e, GPU suite under
# validation.
#   sh bench/results/2026-11-24-odd-diagnosis/ab-one-loop.sh BASE_BIN CAND_BIN OUT_DIR
BASE=$1 CAND=$2 OUT=$3
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
SUITE_DEB=$(ls "$CAND"/vulkan-validationlayers_*.deb) \
    sh bench/ab.sh "$OUT/ab" 3 "$BASE" "$CAND" -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab.txt"
