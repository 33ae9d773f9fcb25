#!/bin/bash
# Run 8: the landed kernel (v5b: three-way constant-index stores) against v6 (v5b + the stage's
# level descriptors touched in parallel at its start) and v2 (run 4's kernel): bench/ab.sh, two
# rounds; one-group sizes; then v5b's GPU suite under the validation layer.
X=$PWD/build-exp
R=$OUT/r8; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
ROWS='plain fp16 linear' sh bench/ab.sh $R 2 $X/v2 $X/v5b $X/v6 -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 \
  --formats rgba8,rgba16f --methods "plain fp16 linear" --cols none --tiles 4,8 --reps 30 | sed 's/vkspd_plain_fp16_linear_//g; s/vkspd_plain_fp16_linear/t-auto/g'
for v in v2 v5b v6; do
  grep -E "^average fp16 plain:" $R/stats-$v.txt | sed "s/^/$v /" | cut -c1-90
  timeout 60 $X/$v/vkspd-bench --sizes 64x64,512x512 --formats rgba8 --methods "plain fp16 linear" --cols none --tiles 1 --reps 30 > $R/small-$v.txt 2>&1
  echo "$v small (cold, warm): $(grep -E 'plain fp16 linear' $R/small-$v.txt | grep -v '^format' | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { printf "%s:%s ", $2, $(i-3); next } }')"
done
mkdir -p /tmp/vl && dpkg -x $X/tests/vulkan-validationlayers_*.deb /tmp/vl
V="env VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu"
timeout 170 $V $X/tests/vkspd_gpu_tests --gtest_filter=-*Stress* > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?: $(grep -E '^vkspd tests:|^\[  (PASSED|FAILED)  \]' $R/gpu_tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED" $R/gpu_tests.log | head
cd $OUT && tar czf r8.tgz r8 && rm -rf r8
