# Call 2: T1 against T2 (the later stages' four kept-texel loads of a step under one branch, coherent) and T3 (the same from a non-coherent readonly alias), with stamps, two rounds.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/T1 build-gpu/T2 build-gpu/T3 -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
for b in T1 T2 T3; do echo "== $b"; grep -h 'STAMPS.*linear:' $OUT/r/ab/ab-$b-1.txt; done
(cd $OUT && tar czf r.tgz r && rm -r r)
