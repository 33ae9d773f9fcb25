#!/bin/bash
# Does the repeat stay fast however much is read between items? The default item after the blit
# chain and the same pipeline right after it on the same image ("again"), with 64 MiB to 4 GiB
# read before each item. If the repeat's advantage is held by a cache the read evicts by capacity
# (L2, address translation), it shrinks as the read grows; if it is held somewhere a buffer read
# never touches (descriptors, instruction caches), it stays.
B=$PWD/build-gpu
R=$OUT/run3; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
C=(--sizes 2x2,64x64,256x256,2048x2048,4096x4096 --formats rgba8 --reps 30 --cols none --tiles none
   --methods "blit,default,plain fp16 linear")
for mib in 64 256 1024 4096; do
    n=evict$mib
    echo "vkspd-bench ${C[*]} --evict-mib $mib" > $R/$n.command.txt
    (cd $R && timeout 120 $B/vkspd-bench "${C[@]}" --evict-mib $mib --out $n > $n.txt 2>&1); echo "$n exit $?"
    grep -E "^compute copy floor|^copy floor over|FAILED" $R/$n.txt
    grep -E "^R8G8" $R/$n.txt | grep -v prepared | grep -v blit | cut -c1-108
done
cd $OUT && tar czf run3.tgz run3 && rm -rf run3/*/
