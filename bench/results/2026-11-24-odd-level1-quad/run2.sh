#!/bin/sh
# odd-level1-quad-rolled.patch: the same design with rolled loops and packed non-finite flags.
# Registers first; the A/B (two ABAB rounds, odd sizes) and the GPU suite only if the FP16 quad
# flavour kept 48 registers.
#   sh bench/results/2026-11-24-odd-level1-quad/run2.sh BASE_BIN CAND_BIN OUT_DIR
BASE=$(cd "$1" && pwd) CAND=$(cd "$2" && pwd) OUT=$3
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
"$CAND/vkspd-pipeline-stats" > "$OUT/stats-cand.txt" 2>&1
grep -E "^average fp16 quad" "$OUT/stats-cand.txt"
grep -qE "^average fp16 quad: \[Register Count=48\]" "$OUT/stats-cand.txt" || { echo "registers over 48: no timing"; exit 0; }
SUITE_DEB=$(ls "$CAND"/vulkan-validationlayers_*.deb) \
    sh bench/ab.sh "$OUT/ab" 2 "$BASE" "$CAND" -- --sizes 1920x1080,3840x2160,4095x4095 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/ab.txt" 2>&1
echo "ab exit $?" >> "$OUT/ab.txt"
