# Call 1 (twelfth session): the general kernel's kept-texel loads nonprivate (G1: stage >= 1's
# source texels; G2: G1 and the tile-edge records), against B0 (main at 30b998f), two rounds,
# the general-kernel sizes; G2's GPU suite under validation.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
SUITE_DEB=build-gpu/vl.deb sh bench/ab.sh $OUT/r/ab 2 build-gpu/B0 build-gpu/G1 build-gpu/G2 -- --sizes 1920x1080,3840x2160,4095x4095,1000x1000 --formats rgba8,rgba16f,r8 --methods default --cols none --tiles none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
