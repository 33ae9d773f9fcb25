#!/bin/bash
# Diagnostic: where the time goes at odd sizes (levels sweep), main build.
G=$PWD/.gpu
R=$OUT/d1; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
{ which ncu nsys nv-nsight-cu-cli; ls -d /usr/local/cuda* /opt/nvidia* 2>&1; } > $R/tools.txt 2>&1; cat $R/tools.txt
for s in 3840x2160 4095x4095 4096x4096; do
  for l in 2 3 4 5 6 full; do
    a="--levels $l"; [ $l = full ] && a=""
    $G/main/vkspd-bench --sizes $s --formats rgba8,rgba16f --methods "vkspd default" --cols none --reps 30 $a > $R/$s-$l.txt 2>&1
    echo "$s L$l: $(grep 'vkspd default' $R/$s-$l.txt | awk '{print $1,$2,$7,$8}' | cut -c1-100 | tr '\n' '|')"
  done
done
cd $OUT && tar czf d1.tgz d1
