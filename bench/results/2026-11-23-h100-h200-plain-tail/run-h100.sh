#!/bin/bash
# Final run of the session: main (plain tail + fetch batch 2) correctness and full bench; A/B of
# the XLAST experiment (levels 5-6 and the arrival in the last 16 threads, image stores after it).
G=$PWD/.gpu
R=$OUT/r4; mkdir -p $R
# The README test reads the README at the path the build was configured in.
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
$G/main/vkspd-pipeline-stats > $R/pipeline_stats.txt 2>&1
$G/main/vkspd --occupancy > $R/occupancy.txt 2>&1
grep -E "average fp16 quad" $R/pipeline_stats.txt
mkdir -p /tmp/vl && dpkg -x $G/vulkan-validationlayers_*.deb /tmp/vl
V="env VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu"
$V timeout 240 $G/main/vkspd_gpu_tests --gtest_filter=-*Stress* > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?: $(grep -E '^\[  (PASSED|FAILED)  \]' $R/gpu_tests.log | tr '\n' ' ')"
VKSPD_TEST_NO_VALIDATION=1 timeout 120 $G/main/vkspd_gpu_tests --gtest_filter=*Stress* > $R/stress.log 2>&1
echo "stress exit $?: $(grep -E '^\[  (PASSED|FAILED)  \]' $R/stress.log | tr '\n' ' ')"
$V $G/main/vkspd_example_minimal > $R/example_minimal.txt 2>&1; echo "example minimal exit $?"
$V $G/main/vkspd_example_engine > $R/example_engine.txt 2>&1; echo "example engine exit $?"
$G/main/vkspd_unit_tests > $R/unit_tests.log 2>&1; echo "unit tests exit $?"
mkdir -p $R/bench
(cd $R && $G/main/vkspd-bench --sizes 3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --reps 30 --cols 4 --out bench > bench.txt 2>&1); echo "bench exit $?"
grep -E "floor|vkspd default|fp16 quad linear  " $R/bench.txt | head -30
S="--sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods linear --cols none --reps 30"
for round in 1 2; do
  for v in main exp1; do
    b=$G/${v%1}/vkspd-bench; e=0; [ $v = exp1 ] && e=1
    echo "== round $round $v"
    VKSPD_EXPERIMENT=$e $b $S > $R/ab-$v-$round.txt 2>&1
    grep -E "  vkspd fp16 quad linear|VERIFY" $R/ab-$v-$round.txt | awk '{print $1,$2,$7,$8}' | tr '\n' ';'; echo
  done
done
cd $OUT && tar czf r4.tgz r4
