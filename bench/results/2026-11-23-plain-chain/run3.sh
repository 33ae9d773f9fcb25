#!/bin/bash
# Run 3: the plain-chain kernel in the quad-transposed order. (1) The production build: registers,
# and the benchmark with the general kernel and the plain kernel (tiles sweep). (2) Two rounds of
# the experiment build x3 (experiments/x3_plain.comp + x3-bench-and-record.patch): switches
# interleaved in one process, so a change of the GPU's bandwidth during the run falls on all.
X=$PWD/build-exp
R=$OUT/r3; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
$X/main/vkspd-pipeline-stats > $R/stats.txt 2>&1
grep -E "^average (fp16|fp32) (quad|plain)" $R/stats.txt | sed -E 's/ \[Binary.*//' | cut -c1-150
tab() { grep -E "$2" $1 | grep -v "^format" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-34s %9s %9s %7s\n", substr($1, 1, 6), $2, m, $(i-3), $(i-2), $i; next } }'; }
floor() { grep -E "^compute copy floor|^copy floor over" $1 | tr '\n' ' '; echo; }
timeout 200 $X/main/vkspd-bench --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
  --methods "default,fp16 quad linear,plain fp16 linear,plain fp32 linear" --cols none --tiles 4,8,16 --reps 30 --out $R/bench > $R/bench.txt 2>&1
echo "bench exit $?"; floor $R/bench.txt; grep VERIFY $R/bench.txt; tab $R/bench.txt "default|linear"
for n in 1 2; do
  timeout 120 $X/x3/vkspd-bench --sizes 4096x4096,16384x16384 --formats rgba8,rgba16f --methods "x3,fp16 quad linear" \
    --cols 1,3,5,9,13,17,33 --tiles none --reps 20 > $R/x3-$n.txt 2>&1
  echo "x3 round $n exit $?"; floor $R/x3-$n.txt; tab $R/x3-$n.txt "x3|linear"
done
cd $OUT && tar czf r3.tgz r3 && rm -rf r3
