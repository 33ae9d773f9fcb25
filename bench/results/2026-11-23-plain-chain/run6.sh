#!/bin/bash
# Run 6: every stage through one code path (v3, production) against run 4's kernel (v2: later
# stages in a copy of their own): bench/ab.sh, two rounds, plain kernel at the default and at 1, 4
# and 8 tiles per group, the general kernel for reference; then one-group sizes.
X=$PWD/build-exp
R=$OUT/r6; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
ROWS='plain fp16 linear|fp16 quad linear' sh bench/ab.sh $R 2 $X/v2 $X/v3 -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 \
  --formats rgba8,rgba16f --methods "plain fp16 linear,fp16 quad linear" --cols none --tiles 1,4,8 --reps 30
for v in v2 v3; do
  timeout 60 $X/$v/vkspd-bench --sizes 64x64,128x128,512x512 --formats rgba8 --methods "plain fp16 linear,fp16 quad linear" \
    --cols none --tiles none --reps 30 > $R/small-$v.txt 2>&1
  echo "$v small: $(grep -E 'plain fp16 linear|fp16 quad linear' $R/small-$v.txt | grep -v '^format' | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { printf "%s[%s]:%s ", $2, $4 $5 $6, $(i-3); next } }')"
done
cd $OUT && tar czf r6.tgz r6 && rm -rf r6
