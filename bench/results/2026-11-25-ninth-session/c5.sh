# Call 5: U3 against G1 and G2 (general-kept-loads.patch; G2 with NARROW) at the general kernel's sizes, two rounds; G2's GPU suite. Mostly degraded: only G1-1 and G2-1 clean.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
SUITE_DEB=build-gpu/vl.deb sh bench/ab.sh $OUT/r/ab 2 build-gpu/U3 build-gpu/G1 build-gpu/G2 -- --sizes 1920x1080,2560x1440,3840x2160,2047x2047,4095x4095,4096x4096 --formats rgba8,r8,rgba16f --methods default --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
