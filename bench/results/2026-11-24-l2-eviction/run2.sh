#!/bin/bash
# What the first-use cost follows: the same "vkspd default" item timed after different
# predecessors on the same image (the --methods filter keeps the bench's order: blit chain,
# dispatch per level, the general variants, default, ..., plain fp16 linear). L2 evicted by a
# read before every item.
B=$PWD/build-gpu
R=$OUT/run2; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
C=(--sizes 2x2,64x64,256x256,2048x2048,4096x4096 --formats rgba8 --reps 30 --cols none --tiles none)
run() {  # name, methods
    echo "vkspd-bench ${C[*]} --methods \"$2\"" > $R/$1.command.txt
    (cd $R && timeout 120 $B/vkspd-bench "${C[@]}" --methods "$2" --out $1 > $1.txt 2>&1); echo "$1 exit $?"
    grep -E "^copy floor over|FAILED" $R/$1.txt
    grep -E "^R8G8" $R/$1.txt | grep -v prepared | cut -c1-108
}
run after-blit "blit,default,plain fp16 linear"
run after-perlevel "dispatch per level,default,plain fp16 linear"
run after-general "fp32 lds,default,plain fp16 linear"
run default-alone "default,plain fp16 linear"
run after-blit-again "blit,default,plain fp16 linear"
cd $OUT && tar czf run2.tgz run2 && rm -rf run2/*/
