#!/bin/sh
# Three candidates against BASE (HEAD's shaders) on one GPU, in one device call:
#   F: device-scope fences with buffer semantics only (both kernels),
#   Q: the odd level 1 through quad exchanges, rolled (2026-11-24-odd-level1-quad),
#   P: the plain kernel fetching a whole tile (four steps) ahead instead of two steps.
# Registers of all four first; then two rounds of BASE F Q on the default rows of the general
# kernel's sizes (and 4096^2: F touches the plain kernel too); then two rounds of BASE P on the
# plain sizes. No GPU suite in this call: four builds and a suite exceed the carry limit.
#   sh bench/results/2026-11-24-fourth-session/run1.sh A F Q P OUT_DIR
A=$1 F=$2 Q=$3 P=$4 OUT=$5
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
sh bench/ab.sh "$OUT/odd" 2 "$A" "$F" "$Q" -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/odd.txt" 2>&1
echo "ab exit $?" >> "$OUT/odd.txt"
sh bench/ab.sh "$OUT/plain" 2 "$A" "$P" -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30 > "$OUT/plain.txt" 2>&1
echo "ab exit $?" >> "$OUT/plain.txt"
