#!/bin/bash
# The results benchmark (the arguments of 2026-11-23-plain-chain/final-bench.sh) under the
# SPEC eviction (a 256 MiB read before each item, the default from 2026-11-24): the README table.
B=$PWD/build-gpu
R=$OUT/bench; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
A="--sizes 2048x2048,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --reps 30 --cols none --tiles 4,8"
echo "vkspd-bench $A --out bench" > $R/command.txt
(cd $R && timeout 500 $B/vkspd-bench $A --out bench > bench.txt 2>&1); echo "bench exit $?"
grep -E "^compute copy floor|^copy floor over|VERIFY" $R/bench.txt
grep -E "default|linear|blit|tiles" $R/bench.txt | grep -v "^format" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-44s %9s %7s %6s\n", substr($1, 1, 6), $2, m, $(i-3), $i, $(i+1); next } }'
cd $OUT && tar czf bench.tgz bench && rm -rf bench
