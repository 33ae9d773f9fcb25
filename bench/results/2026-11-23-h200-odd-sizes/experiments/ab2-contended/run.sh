#!/bin/bash
# A/B again (ab1 ran with the copy floor at 1700-2000 GB/s, throttled): bench only, ABBA order.
# main = e675f3e; b = scratch barriers at tile edges; t3 = b + taps fetched a row at a time; new = b + all 9 taps first.
G=$PWD/.gpu
R=$OUT/ab2; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
S="--sizes 3840x2160,4095x4095,4096x4096,8192x8192 --formats rgba8,rgba16f --methods default --cols none --reps 30"
for v in main b t3 new new t3 b main; do
  n=1; [ -e $R/ab-$v-1.txt ] && n=2
  $G/$v/vkspd-bench $S > $R/ab-$v-$n.txt 2>&1
  echo "$v-$n $(grep -E 'floor' $R/ab-$v-$n.txt | awk '{print $4}') $(grep -E 'vkspd default' $R/ab-$v-$n.txt | awk '{print $2,$7}' | tr '\n' ' ')"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader >> $R/gpu.txt 2>&1; tail -1 $R/gpu.txt
cd $OUT && tar czf ab2.tgz ab2
