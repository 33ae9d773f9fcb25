# Call 10 (tenth session): G2, the one call site as a specialization constant (VKSPD_SPEC_ONE_SITE,
# set where levels 1 and 2 are plain) against F2 (main at 0e47853), two rounds, the general kernel's
# sizes and its fp16 quad linear row at 4096^2; G2's GPU suite under validation; binary sizes.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for b in F2 G2; do echo "$b $(build-gpu/$b/vkspd-pipeline-stats 2>&1 | grep -E '^average fp16 quad' | sed -E 's/ \[Stack.*//' | tr '\n' ' ')"; done
mkdir -p $OUT/r
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|vkspd fp16 quad linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/F2 build-gpu/G2 -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096 --formats rgba8,rgba16f --methods default,"fp16 quad linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/\[vkspd_default_\((plain_)?fp16_quad_linear(_tiles_[0-9]+)?\)\]/:def/g; s/\[vkspd_fp16_quad_linear\]/:gen/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
