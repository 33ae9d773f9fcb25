#!/bin/bash
# Issue 6 experiment sweep (developer build with VKSPD_EXPERIMENT / VKSPD_GROUP_COLUMNS hooks).
B=.gpu/exp/vkspd-bench
S="--sizes 4096x4096,8192x8192,3840x2160,4095x4095 --formats rgba8,rgba16f --reps 20"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt 2>&1
for e in 0 1 2 8 11; do
  echo "== exp $e cols 0"; VKSPD_EXPERIMENT=$e VKSPD_PIPELINE_STATS=1 .gpu/exp/vkspd-pipeline-stats > $OUT/stats-exp$e.txt 2>&1
  VKSPD_EXPERIMENT=$e $B $S --methods "fp16 quad,fp32 quad,copy" --out $OUT/exp$e > $OUT/exp$e.txt 2>&1; grep -E "quad|copy|floor" $OUT/exp$e.txt
done
for e in 0 11; do for c in 1 2 4 8 16; do
  echo "== exp $e cols $c"; VKSPD_EXPERIMENT=$e VKSPD_GROUP_COLUMNS=$c $B $S --methods "fp16 quad" --out $OUT/exp$e-c$c > $OUT/exp$e-c$c.txt 2>&1; grep -E "quad|copy|floor" $OUT/exp$e-c$c.txt
done; done
for e in 0 11; do echo "== exp $e levels 6"; VKSPD_EXPERIMENT=$e $B --sizes 4096x4096,8192x8192 --formats rgba8 --reps 20 --levels 6 --methods "fp16 quad" > $OUT/exp$e-l6.txt 2>&1; grep -E "quad|copy|floor" $OUT/exp$e-l6.txt; done
