#!/bin/bash
# Run 7: dynamic indexing of the level images (x7-enable-dynamic-indexing.patch enables the
# feature in the tools' device). v2: run 4's kernel (switch stores); v4: every stage through one
# code path with dynamic indexing; v5: v2 with dynamic indexing. bench/ab.sh, two rounds; then the
# binary sizes and one-group sizes (cold and warm).
X=$PWD/build-exp
R=$OUT/r7; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
ROWS='plain fp16 linear' sh bench/ab.sh $R 2 $X/v2 $X/v4 $X/v5 -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 \
  --formats rgba8,rgba16f --methods "plain fp16 linear" --cols none --tiles 4,8 --reps 30 | sed 's/vkspd_plain_fp16_linear_//g; s/vkspd_plain_fp16_linear/t-auto/g'
for v in v2 v4 v5; do
  grep -E "^average fp16 plain:" $R/stats-$v.txt | sed "s/^/$v /" | cut -c1-90
  timeout 60 $X/$v/vkspd-bench --sizes 64x64,512x512 --formats rgba8 --methods "plain fp16 linear" --cols none --tiles 1 --reps 30 > $R/small-$v.txt 2>&1
  echo "$v small (cold, warm): $(grep -E 'plain fp16 linear' $R/small-$v.txt | grep -v '^format' | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { printf "%s:%s ", $2, $(i-3); next } }')"
done
cd $OUT && tar czf r7.tgz r7 && rm -rf r7
