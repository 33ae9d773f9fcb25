#!/bin/sh
# The merged election arrival, A/B on a clean H200 (the H100 of arrival/ and ab2-degraded/ ran with
# its copy floor at ~1675 GB/s throughout: not comparable). BASE: vkspd-bench and
# vkspd-pipeline-stats at d3c3e66 (the shader before the change); CAND: the same at the change.
#   sh bench/results/2026-11-24-odd-diagnosis/ab3.sh BASE_BIN CAND_BIN OUT_DIR
sh bench/ab.sh "$3/ab3" 4 "$1" "$2" -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30
