#!/bin/bash
# 1) Experiment: the later stages' generic level 1 with its data-buffer taps fetched first (k3: a row
#    at a time, k9: all nine) against new (HEAD: scratch barriers). 2) gpu_check.sh on new.
# 3) Whether Nsight Compute (ncu) on this machine sees a Vulkan dispatch at all.
G=$PWD/.gpu
R=$OUT/fin1; mkdir -p $R/exp
for v in new k3 k9; do $G/$v/vkspd-pipeline-stats > $R/exp/stats-$v.txt 2>&1; echo "$v $(grep -E '^average fp16 quad' $R/exp/stats-$v.txt | sed -E 's/ \[Stack.*//' | tr '\n' ';')"; done
S="--sizes 1920x1080,3840x2160,4095x4095,4096x4096 --formats rgba8,rgba16f --methods default --cols none --reps 30"
for n in 1 2; do for v in new k3 k9; do
  $G/$v/vkspd-bench $S > $R/exp/ab-$v-$n.txt 2>&1
  echo "$v-$n $(grep floor $R/exp/ab-$v-$n.txt | awk '{print $4}') $(grep 'vkspd default' $R/exp/ab-$v-$n.txt | awk '{printf "%s:%s ", substr($1,1,4) $2, $8}')"
done; done
STRESS_CALLS=10000 SAMPLE_SIZES="8192x8192 4096x4096 4095x4095 3840x2160 1920x1080 32768x1024" \
  timeout 400 sh bench/gpu_check.sh $G/new $R/gc $G/vulkan-validationlayers_1.3.239.0-2_amd64.deb > $R/gc.txt 2>&1
echo "gpu_check exit $?"; cat $R/gc.txt | cut -c1-160
export PATH=$PATH:/usr/local/cuda/bin
(timeout 60 ncu --target-processes all --metrics gpu__time_duration.sum $G/new/vkspd-bench --sizes 1024x1024 --formats rgba8 --methods default --cols none --reps 2 > $R/ncu.txt 2>&1; echo "ncu exit $?" >> $R/ncu.txt)
tail -5 $R/ncu.txt
cd $OUT && tar czf fin1.tgz fin1
