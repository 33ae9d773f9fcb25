#!/bin/bash
# A/B again for 3840x2160 (ab4: par's RGBA16F 82.3 against new's 73.8; main's first ab3 round was 86.0): new vs par, ABAB x3.
G=$PWD/.gpu
R=$OUT/ab5; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
S="--sizes 3840x2160,4095x4095 --formats rgba8,rgba16f --methods default --cols none --reps 30"
for n in 1 2 3; do for v in par new; do
  $G/$v/vkspd-bench $S > $R/ab-$v-$n.txt 2>&1
  echo "$v-$n $(grep floor $R/ab-$v-$n.txt | awk '{print $4}') $(grep 'vkspd default' $R/ab-$v-$n.txt | awk '{printf "%s:%s ", substr($1,1,4) $2, $8}')"
done; done
cd $OUT && tar czf ab5.tgz ab5
