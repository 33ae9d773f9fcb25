#!/bin/bash
# Issue 6 experiment run (wt-exp: XELECT, XTAIL, XSKIP specialization constants via VKSPD_EXPERIMENT).
B=$PWD/.gpu/bin
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1; cat $R/gpu.txt
for e in 0,0,0 0,1,0; do VKSPD_EXPERIMENT=$e $B/vkspd-pipeline-stats > $R/stats-$e.txt 2>&1; done
grep "fp16 quad:" $R/stats-*.txt
run() { # name exp args...
  local n=$1 e=$2; shift 2
  echo "== $n exp $e $*"
  VKSPD_EXPERIMENT=$e $B/vkspd-bench --methods linear --cols none --reps 20 "$@" > $R/$n.txt 2>&1
  grep -E "floor|linear" $R/$n.txt | grep -v prepared
}
S="--sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f"
run a-base 0,0,0 $S
run b-tail 0,1,0 $S
run c-relaxed 1,0,0 $S
run d-tail-relaxed 1,1,0 $S
run e-tail-skip1 0,1,1 $S
run f-tail-skip2 0,1,2 $S
run g-tail-skip3 0,1,3 $S
run h-base 0,0,0 $S
run l3-base 0,0,0 --sizes 4096x4096,8192x8192 --formats rgba8,rgba16f --levels 3
run l3-skip1 0,0,1 --sizes 4096x4096,8192x8192 --formats rgba8,rgba16f --levels 3
run l6-tail 0,1,0 --sizes 4096x4096,8192x8192 --formats rgba8,rgba16f --levels 6
run l6-base 0,0,0 --sizes 4096x4096,8192x8192 --formats rgba8,rgba16f --levels 6
# Correctness of the tail on the GPU, under validation (synchronization validation on).
mkdir -p /tmp/vl && dpkg -x .gpu/vulkan-validationlayers_*.deb /tmp/vl
VKSPD_EXPERIMENT=0,1,0 VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu timeout 200 $B/vkspd_gpu_tests --gtest_filter=-*Stress* > $R/gpu_tests_tail.log 2>&1
echo "gpu tests (tail) exit $?: $(grep -E '^\[  (PASSED|FAILED)  \]' $R/gpu_tests_tail.log | tr '\n' ' ')"
grep -E "^\[  FAILED" $R/gpu_tests_tail.log | head
cd $OUT && tar czf r.tgz r
