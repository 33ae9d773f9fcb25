#!/bin/bash
# Run 2: where the plain-chain kernel's time goes. Timing-only builds of vkspd-bench whose plain
# kernel is experiments/e_NAME.comp (experiments/plain_exp.glsl with one switch), each timing the
# plain kernel at 8 tiles per group; then the production build at --levels 1, 2, 3 and 6.
# Binaries in build-exp/NAME/vkspd-bench; the production build in build-exp/main/.
X=$PWD/build-exp
R=$OUT/r2; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
S="--sizes 4096x4096,16384x16384 --formats rgba8,rgba16f --cols none --tiles 8 --reps 20"
row() { grep -E "$2" $1 | grep -v "^format" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { printf "%s/%s:%s ", substr($1, 1, 5), $2, $(i-3); next } }'; }
for n in main base nol1 nostores spdload spdstore spdboth noprefetch; do
  m="plain fp16 linear tiles 8"; [ $n = main ] && m="plain fp16 linear tiles 8,fp16 quad linear"
  timeout 100 $X/$n/vkspd-bench $S --methods "$m" > $R/$n.txt 2>&1
  echo "$n floor $(grep '^compute copy floor' $R/$n.txt | awk '{print $4}') plain: $(row $R/$n.txt 'plain fp16 linear tiles 8')"
done
echo "main general linear: $(row $R/main.txt 'vkspd fp16 quad linear')"
for l in 1 2 3 6; do
  timeout 100 $X/main/vkspd-bench $S --levels $l --methods "plain fp16 linear tiles 8,fp16 quad linear" > $R/levels$l.txt 2>&1
  echo "levels $l floor $(grep '^compute copy floor' $R/levels$l.txt | awk '{print $4}') plain: $(row $R/levels$l.txt 'plain fp16 linear tiles 8') general: $(row $R/levels$l.txt 'vkspd fp16 quad linear')"
done
cd $OUT && tar czf r2.tgz r2 && rm -rf r2
