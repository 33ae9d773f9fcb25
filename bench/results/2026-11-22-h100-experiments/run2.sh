#!/bin/bash
B=.gpu/exp/vkspd-bench
X="--formats rgba8 --reps 15 --copy-mib 512 --evict-mib 128 --methods"
for e in 2 8 10; do echo "== exp $e"; VKSPD_EXPERIMENT=$e timeout 60 $B --sizes 4096x4096,4095x4095 $X "fp16 quad" > $OUT/b-exp$e.txt 2>&1; grep -E "quad|floor" $OUT/b-exp$e.txt; done
for c in 0 1 2 4 8 16; do echo "== cols $c"; VKSPD_GROUP_COLUMNS=$c timeout 60 $B --sizes 4096x4096 $X "fp16 quad" > $OUT/b-c$c.txt 2>&1; grep -E "quad|floor" $OUT/b-c$c.txt; done
echo "== levels 6"; timeout 60 $B --sizes 4096x4096 $X "fp16 quad" --levels 6 > $OUT/b-l6.txt 2>&1; grep -E "quad|floor" $OUT/b-l6.txt
