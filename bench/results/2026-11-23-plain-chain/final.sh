#!/bin/bash
# The session's final device run: bench/gpu_check.sh on the build that landed (binaries in
# build-gpu/ with Debian's vulkan-validationlayers .deb): registers, occupancy, the GPU suite under
# the validation layer, stress at 10,000 calls, the examples, the unit tests, the CLI's full checks
# of large chains and the results benchmark (general and plain-chain kernels, tiles 2, 4, 8).
B=$PWD/build-gpu
export BENCH_ARGS="--sizes 2048x2048,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --reps 30 --cols none --tiles 2,4,8"
export SAMPLE_SIZES="16384x16384 32768x1024 8192x8192 4096x4096 4095x4095"
sh bench/gpu_check.sh $B $OUT/final $B/vulkan-validationlayers_1.3.239.0-2_amd64.deb > $OUT/final-summary.txt 2>&1
echo "gpu_check exit $?"
cat $OUT/final-summary.txt | grep -v "^compute copy floor\|copy floor over" | cut -c1-160
grep -E "^compute copy floor|^copy floor over" $OUT/final/bench.txt
grep -E "default|linear|blit" $OUT/final/bench.txt | grep -v "^format" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-44s %9s %7s %6s\n", substr($1, 1, 6), $2, m, $(i-3), $i, $(i+1); next } }' | grep -v "tiles 2\|load"
cd $OUT && tar czf final.tgz final final-summary.txt && rm -rf final
