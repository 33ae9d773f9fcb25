#!/bin/bash
# The same main build on an H200: full bench (the results command), registers, occupancy, GPU suite under validation.
G=$PWD/.gpu
R=$OUT/r5; mkdir -p $R
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
$G/main/vkspd-pipeline-stats > $R/pipeline_stats.txt 2>&1
$G/main/vkspd --occupancy > $R/occupancy.txt 2>&1
mkdir -p $R/bench
(cd $R && $G/main/vkspd-bench --sizes 3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --reps 30 --cols 4 --out bench > bench.txt 2>&1); echo "bench exit $?"
grep -E "floor|vkspd default|fp16 quad linear  " $R/bench.txt | cut -c1-120 | head -30
mkdir -p /tmp/vl && dpkg -x $G/vulkan-validationlayers_*.deb /tmp/vl
VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu timeout 150 $G/main/vkspd_gpu_tests --gtest_filter=-*Stress* > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?: $(grep -E '^\[  (PASSED|FAILED)  \]' $R/gpu_tests.log | tr '\n' ' ')"
cd $OUT && tar czf r5.tgz r5
