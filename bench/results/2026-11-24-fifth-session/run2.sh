#!/bin/sh
# Fifth session, call 2: do the level stores cost less with the image format declared in the
# shader? (run1: stores alone, store-only.patch, ran at ~190 G texels/s for RGBA8 and RGBA16F
# alike, on a degraded GPU.) F / H: store-format-rgba8 / -rgba16f.patch (levelImages declared
# rgba8 / rgba16f: only that format's rows are valid); T / U: the same on top of store-only.patch.
# nvidia-smi's clocks and event reasons before and after (what the degraded state is).
#   sh bench/results/2026-11-24-fifth-session/run2.sh A S F H T U P OUT_DIR
A=$1 S=$2 F=$3 H=$4 T=$5 U=$6 P=$7 OUT=$8
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt"
part() { (cd "$OUT" && tar czf "$1.tgz" "$1" && rm -r "$1"); }
smi() { nvidia-smi -q -d PERFORMANCE,CLOCK,POWER,TEMPERATURE > "$OUT/smi/$1.txt" 2>&1; }
mkdir -p "$OUT/smi"; smi 0-start
ab() { name=$1; shift; mkdir -p "$OUT/$name"; sh bench/ab.sh "$OUT/$name" "$@" > "$OUT/$name/ab.txt" 2>&1
       echo "ab exit $?" >> "$OUT/$name/ab.txt"; cat "$OUT/$name/ab.txt"; smi "$name"; part "$name"; }
L1="--sizes 4096x4096,8192x8192,16384x16384 --levels 1 --methods default --tiles none --cols none --reps 30"
FULL="--sizes 1920x1080,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --methods default --tiles none --cols none --reps 30"
ab format8 2 "$A" "$F" -- --formats rgba8 $FULL
ab ceiling8 1 "$A" "$S" "$F" "$T" -- --formats rgba8 $L1
ab format16 2 "$A" "$H" -- --formats rgba16f $FULL
ab ceiling16 1 "$A" "$S" "$H" "$U" -- --formats rgba16f $L1
ab prefetch 1 "$A" "$P" -- --formats rgba8,rgba16f --sizes 4096x4096,8192x8192,16384x16384 --methods default --cols none --reps 30
(cd "$OUT" && tar czf smi.tgz smi && rm -r smi)
