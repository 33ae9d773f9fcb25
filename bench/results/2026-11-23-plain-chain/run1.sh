#!/bin/bash
# Run 1 of the plain-chain kernel (shaders/vkspd_plain.comp), first look on a lent GPU: registers,
# the benchmark with the general kernel and the plain-chain kernel in one process (tiles-per-group
# sweep; every item checked against the CPU reference first), the CLI's full check of a three-stage
# plain chain, and the GPU suite under the validation layer.
# Binaries: a Release build carried in build-gpu/ with Debian's vulkan-validationlayers .deb.
B=$PWD/build-gpu
R=$OUT/r1; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
$B/vkspd-pipeline-stats > $R/stats.txt 2>&1
grep -E "^average (fp16|fp32) (quad|plain)" $R/stats.txt | sed -E 's/ \[Binary.*//' | cut -c1-150
timeout 380 $B/vkspd-bench --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
  --methods "blit,default,fp16 quad linear,plain" --cols none --tiles 1,2,4,8,16,32 --reps 30 --out $R/bench > $R/bench.txt 2>&1
echo "bench exit $?"
grep -E "^compute copy floor|^copy floor over|VERIFY" $R/bench.txt
grep -E "blit|default|linear|plain" $R/bench.txt | grep -v "^format" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-34s %9s %7s\n", substr($1, 1, 6), $2, m, $(i-3), $i; next } }'
: > $R/cli.txt
for a in "32768x1024" "2048x2 --fetch load"; do
  echo "== $a" >> $R/cli.txt
  timeout 60 $B/vkspd --random $a --linear --no-write --verify --kernel plain >> $R/cli.txt 2>&1; echo "cli $a exit $?"
done
grep -E "dispatch|verified" $R/cli.txt | cut -c1-160
mkdir -p /tmp/vl && dpkg -x $B/vulkan-validationlayers_*.deb /tmp/vl
V="env VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu"
timeout 150 $V $B/vkspd_gpu_tests --gtest_filter=-*Stress* > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?: $(grep -E '^vkspd tests:|^\[  (PASSED|FAILED)  \]' $R/gpu_tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED" $R/gpu_tests.log | head
cd $OUT && tar czf r1.tgz r1 && rm -rf r1
