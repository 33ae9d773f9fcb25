#!/bin/bash
# Run 4: the plain-chain kernel in SPD's order with a rolling two-step fetch (the layout that
# landed): registers, and the benchmark with the general kernel and the plain kernel's tiles sweep,
# two processes (the second with the sizes in the other order).
X=$PWD/build-exp
R=$OUT/r4; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
$X/main/vkspd-pipeline-stats > $R/stats.txt 2>&1
grep -E "^average (fp16|fp32) (quad|plain)" $R/stats.txt | sed -E 's/ \[Binary.*//' | cut -c1-150
tab() { grep -E "$2" $1 | grep -v "^format" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-34s %9s %9s %7s\n", substr($1, 1, 6), $2, m, $(i-3), $(i-2), $i; next } }'; }
floor() { grep -E "^compute copy floor|^copy floor over" $1 | tr '\n' ' '; echo; }
n=0
for sizes in 2048x2048,4096x4096,8192x8192,16384x16384 16384x16384,8192x8192,4096x4096; do
  n=$((n + 1))
  timeout 240 $X/main/vkspd-bench --sizes $sizes --formats rgba8,rgba16f \
    --methods "default,fp16 quad linear,plain" --cols none --tiles 1,2,4,8,16,32 --reps 30 --out $R/bench$n > $R/bench$n.txt 2>&1
  echo "bench $n exit $?"; floor $R/bench$n.txt; grep VERIFY $R/bench$n.txt; tab $R/bench$n.txt "default|linear|plain"
done
cd $OUT && tar czf r4.tgz r4 && rm -rf r4
