# Call 3 (prepared in the twelfth session, not run): QS (quadrant-levels-by-shuffles-QS.patch: a
# later stage's quadrant makes level 3 through subgroup shuffles and levels 4-5 in the group's last
# 16 lanes, one barrier instead of two) against B0 (main), two rounds, the plain-kernel sizes as
# the eleventh session's call 5; QS's GPU suite under validation. Binaries: bench/variant.sh B0,
# bench/variant.sh QS PATCH, bench/variant.sh --pack B0 QS; vl.deb beside them.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/B0 build-gpu/QS -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
