#!/bin/bash
# Run 5: the fixed cost of a dispatch (about 30 us at every size from 2048^2 in run 4). (1) The
# experiment build x5 (experiments/x5_plain.comp + x3-bench-and-record.patch): election switches
# interleaved in one process, two rounds. (2) The production build at tiny sizes (one group) and
# at --levels 6 (no election, no later stage) against the full chain.
X=$PWD/build-exp
R=$OUT/r5; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
tab() { grep -E "$2" $1 | grep -v "^format" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-34s %9s %9s %7s\n", substr($1, 1, 6), $2, m, $(i-3), $(i-2), $i; next } }'; }
floor() { grep -E "^compute copy floor|^copy floor over" $1 | tr '\n' ' '; echo; }
for n in 1 2; do
  timeout 100 $X/x5/vkspd-bench --sizes 2048x2048,4096x4096,16384x16384 --formats rgba8 --methods "x3" \
    --cols 1,3,5,9,17,33 --tiles none --reps 30 > $R/x5-$n.txt 2>&1
  echo "x5 round $n exit $?"; floor $R/x5-$n.txt; tab $R/x5-$n.txt "x3"
done
timeout 100 $X/main/vkspd-bench --sizes 2x2,64x64,128x128,512x512,2048x2048,4096x4096 --formats rgba8 \
  --methods "default,blit,fp16 quad linear" --cols none --tiles none --reps 30 > $R/small.txt 2>&1
echo "small exit $?"; floor $R/small.txt; tab $R/small.txt "default|linear|blit"
for l in 6 99; do
  timeout 100 $X/main/vkspd-bench --sizes 4096x4096,16384x16384 --formats rgba8,rgba16f --levels $l \
    --methods "plain fp16 linear tiles,fp16 quad linear" --cols none --tiles 1,4,8 --reps 30 > $R/levels$l.txt 2>&1
  echo "levels $l exit $?"; floor $R/levels$l.txt; tab $R/levels$l.txt "tiles|linear"
done
cd $OUT && tar czf r5.tgz r5 && rm -rf r5
