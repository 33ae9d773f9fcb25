#!/bin/bash
# A/B at odd and even sizes: base (e675f3e) vs new (taps fetched first, batch 9, + scratch barriers at
# tile edges) vs t3 (taps batch 3 + barriers) vs b (barriers only). GPU suite under validation first (new).
G=$PWD/.gpu
R=$OUT/ab1; mkdir -p $R
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
mkdir -p /tmp/vl && dpkg -x $G/vulkan-validationlayers_*.deb /tmp/vl
VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu timeout 200 $G/new/vkspd_gpu_tests --gtest_filter=-*Stress* > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?: $(grep -E '^\[  (PASSED|FAILED)  \]' $R/gpu_tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED" $R/gpu_tests.log | head
for v in main new t3 b; do $G/$v/vkspd-pipeline-stats > $R/stats-$v.txt 2>&1; echo "$v: $(grep -E '^average' $R/stats-$v.txt | sed -E 's/ \[Stack.*//; s/Register Count=/r/; s/Binary Size=/b/' | tr '\n' ';')"; done
S="--sizes 3840x2160,4095x4095,4096x4096,8192x8192 --formats rgba8,rgba16f --methods default --cols none --reps 30"
for round in 1 2; do
  for v in main new t3 b; do
    echo "== round $round $v"
    $G/$v/vkspd-bench $S > $R/ab-$v-$round.txt 2>&1
    grep -E "floor|vkspd default|FAIL" $R/ab-$v-$round.txt | awk '{print $1,$2,$7,$8,$NF}' | tr '\n' ';'; echo
  done
done
cd $OUT && tar czf ab1.tgz ab1
