# Call 2 (tenth session): the tail strips without divisions (N2; VKSPD_EXP_TAIL="tiles,per" read by
# the experiment build's record.cpp) against main (R1): n0 no tail, h1024 / t1024 the last 1024
# tiles in strips of 2 / 1, h2048 / q2048 the last 2048 in strips of 2 / 4.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/R1 build-gpu/n0 build-gpu/h1024 build-gpu/t1024 build-gpu/h2048 build-gpu/q2048 -- --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
