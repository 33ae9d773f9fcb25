#!/bin/bash
# A/B: base (ab27646) vs main (plain tail) vs exp (main + XL2=1: level 2 stored by every lane).
G=$PWD/.gpu
R=$OUT/r2; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1; cat $R/gpu.txt
$G/main/vkspd-pipeline-stats > $R/stats-main.txt 2>&1
VKSPD_EXPERIMENT=1 $G/exp/vkspd-pipeline-stats > $R/stats-exp1.txt 2>&1
grep "average fp16 quad" $R/stats-*.txt
S="--sizes 3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods linear --cols none --reps 30"
for round in 1 2; do
  for v in base main exp1; do
    b=$G/${v%1}/vkspd-bench; e=0; [ $v = exp1 ] && e=1
    echo "== round $round $v"
    VKSPD_EXPERIMENT=$e $b $S > $R/ab-$v-$round.txt 2>&1
    grep -E "floor|  vkspd fp16 quad linear|VERIFY" $R/ab-$v-$round.txt | awk '{print $1,$2,$7,$8}' | tr '\n' ';'; echo
  done
done
cd $OUT && tar czf r2.tgz r2
