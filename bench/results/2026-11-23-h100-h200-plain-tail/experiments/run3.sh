#!/bin/bash
# main (plain tail) vs stage-0 fetch batch 2 (fb2) vs later-stage kept fetch batch 2 / 4 (kb2, kb4).
G=$PWD/.gpu
R=$OUT/r3; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1; cat $R/gpu.txt
for v in main fb2 kb2 kb4; do $G/$v/vkspd-pipeline-stats > $R/stats-$v.txt 2>&1; done
grep -H "fp16 quad" $R/stats-*.txt | grep average
S="--sizes 4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods linear --cols none --reps 30"
for round in 1 2; do
  for v in main fb2 kb2 kb4; do
    echo "== round $round $v"
    $G/$v/vkspd-bench $S > $R/ab-$v-$round.txt 2>&1
    grep -E "  vkspd fp16 quad linear|VERIFY" $R/ab-$v-$round.txt | awk '{print $1,$2,$7,$8}' | tr '\n' ';'; echo
  done
done
$G/main/vkspd-bench --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods linear --cols none --reps 30 --levels 6 > $R/l6-main.txt 2>&1
grep -E "  vkspd fp16 quad linear" $R/l6-main.txt | awk '{print $1,$2,$7,$8}' | tr '\n' ';'; echo
cd $OUT && tar czf r3.tgz r3
