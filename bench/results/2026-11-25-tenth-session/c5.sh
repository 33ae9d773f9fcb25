# Call 5 (tenth session): the later stages' kept-texel fetches ahead of their steps: A1 one step
# ahead, A2 two steps ahead (stage 0's rolling pattern), against L1 (main's shaders), two rounds;
# A2's GPU suite under validation.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/L1 build-gpu/A1 build-gpu/A2 -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]+(_tail_[0-9])?\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
