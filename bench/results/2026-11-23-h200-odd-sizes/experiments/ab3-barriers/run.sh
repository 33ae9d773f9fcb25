#!/bin/bash
# A/B: main (e675f3e) vs new (scratch barriers at tile edges instead of device-scope fences), ABAB x3,
# then the GPU suite and the examples under the validation layer (new).
G=$PWD/.gpu
R=$OUT/ab3; mkdir -p $R
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; nvidia-smi; } > $R/gpu.txt 2>&1; head -1 $R/gpu.txt; grep -A3 "Processes" $R/gpu.txt
S="--sizes 1920x1080,3840x2160,4095x4095,4096x4096 --formats rgba8,rgba16f --methods default --cols none --reps 30"
for n in 1 2 3; do for v in main new; do
  $G/$v/vkspd-bench $S > $R/ab-$v-$n.txt 2>&1
  echo "$v-$n $(grep floor $R/ab-$v-$n.txt | awk '{print $4}') $(grep 'vkspd default' $R/ab-$v-$n.txt | awk '{printf "%s:%s ", substr($1,1,4) $2, $8}')"
done; done
mkdir -p /tmp/vl && dpkg -x $G/vulkan-validationlayers_*.deb /tmp/vl
V="env VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu"
timeout 200 $V $G/new/vkspd_gpu_tests --gtest_filter=-*Stress* > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?: $(grep -E '^vkspd tests:|^\[  (PASSED|FAILED)  \]' $R/gpu_tests.log | tr '\n' ' ')"
for e in minimal engine; do $V $G/new/vkspd_example_$e > $R/example_$e.txt 2>&1; echo "example $e exit $?"; done
$G/new/vkspd-pipeline-stats > $R/stats-new.txt 2>&1; grep "^average fp16 quad" $R/stats-new.txt | cut -c1-80
cd $OUT && tar czf ab3.tgz ab3
