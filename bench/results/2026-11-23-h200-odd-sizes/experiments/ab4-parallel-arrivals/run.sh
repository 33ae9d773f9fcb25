#!/bin/bash
# A/B: new (scratch barriers) vs par (+ the election's up-to-four arrivals of odd stages from threads
# 0..3 in parallel instead of one after the other in thread 0). ABAB x2, then par's GPU suite under validation.
G=$PWD/.gpu
R=$OUT/ab4; mkdir -p $R
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
for v in new par; do $G/$v/vkspd-pipeline-stats > $R/stats-$v.txt 2>&1; echo "$v $(grep -E '^average fp16 quad' $R/stats-$v.txt | sed -E 's/ \[Stack.*//' | tr '\n' ';')"; done
S="--sizes 1920x1080,3840x2160,4095x4095,4096x4096 --formats rgba8,rgba16f --methods default --cols none --reps 30"
for n in 1 2; do for v in new par; do
  $G/$v/vkspd-bench $S > $R/ab-$v-$n.txt 2>&1
  echo "$v-$n $(grep floor $R/ab-$v-$n.txt | awk '{print $4}') $(grep 'vkspd default' $R/ab-$v-$n.txt | awk '{printf "%s:%s ", substr($1,1,4) $2, $8}')"
done; done
mkdir -p /tmp/vl && dpkg -x $G/vulkan-validationlayers_*.deb /tmp/vl
timeout 150 env VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu $G/par/vkspd_gpu_tests --gtest_filter=-*Stress* > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?: $(grep -E '^vkspd tests:|^\[  (PASSED|FAILED)  \]' $R/gpu_tests.log | tr '\n' ' ')"
grep "^\[  FAILED" $R/gpu_tests.log | head -5
cd $OUT && tar czf ab4.tgz ab4
