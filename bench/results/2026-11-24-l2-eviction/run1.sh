#!/bin/bash
# The L2 eviction before each timed item: a read of 256 MiB (SPEC section 6, --evict read, the
# new default) against the copy used by every earlier result (--evict copy), same build, same
# call, in the order read, copy, read (drift shows as a difference between the two reads).
# Then small sizes under each, for the fixed cost per dispatch.
B=$PWD/build-gpu
R=$OUT/run1; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; git log -1 --format='checkout: %h %s' 2>/dev/null; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
A=(--sizes 2048x2048,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --reps 30
   --cols none --tiles none --methods "blit,default,plain fp16 linear,fp16 quad linear")
S=(--sizes 2x2,64x64,256x256,1024x1024 --formats rgba8 --reps 30 --cols none --tiles none
   --methods "blit,default,plain fp16 linear")
run() {  # name, args...
    local name=$1; shift
    echo "vkspd-bench $*" > $R/$name.command.txt
    (cd $R && timeout 170 $B/vkspd-bench "$@" --out $name > $name.txt 2>&1); echo "$name exit $?"
    grep -E "^compute copy floor|^copy floor over|FAILED" $R/$name.txt
}
run read1 "${A[@]}" --evict read
run copy1 "${A[@]}" --evict copy
run read2 "${A[@]}" --evict read
run small-read "${S[@]}" --evict read
run small-copy "${S[@]}" --evict copy
for n in read1 copy1 read2; do
    echo "== $n"
    grep -E "default|plain fp16 linear|blit" $R/$n.txt | grep -v "^format" | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-44s %9s %7s %6s\n", substr($1, 1, 6), $2, m, $(i-3), $i, $(i+1); next } }'
done
for n in small-read small-copy; do echo "== $n"; grep -E "R8G8" $R/$n.txt | grep -v prepared; done
