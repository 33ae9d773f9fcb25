#!/bin/sh
# The merged election arrival (one atomic per group where the four counted tiles share a block),
# A/B against the build before it, then the GPU suite of the new build under validation.
#   sh bench/results/2026-11-24-odd-diagnosis/ab-arrival.sh BASE_BIN CAND_BIN LAYERS_DEB OUT_DIR
BASE=$1 CAND=$2 DEB=$3 OUT=$4
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
date -u +"date: %Y-%m-%dT%H:%M:%SZ" >> "$OUT/gpu.txt"
SUITE_DEB=$DEB sh bench/ab.sh "$OUT/ab" 3 "$BASE" "$CAND" -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab.txt"
