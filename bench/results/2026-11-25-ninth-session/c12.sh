# Call 12 (ninth session): W1 (main, 8f9599f) against K1 (FP16 variants keep their level-6 texels
# as packed halves) and K2 (K1, and the later stages fetch all four steps' kept texels before the
# first step), two rounds; K2's GPU suite.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
ROWS='vkspd default|plain fp16 linear' SUITE_DEB=build-gpu/vl.deb sh bench/ab.sh $OUT/r/ab 2 build-gpu/W1 build-gpu/K1 build-gpu/K2 -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
for b in W1 K1 K2; do echo "$b $(grep -h -E 'average fp16 plain' $OUT/r/ab/stats-$b.txt | tr '\n' ' ')"; done
(cd $OUT && tar czf r.tgz r && rm -r r)
