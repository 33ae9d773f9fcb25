# Call 13 (ninth session): T7 (W1 = 8f9599f with globaltimer stamps) once at the plain sizes, then
# W1's tiles per group 4 and 8 at RGBA8 and RGBA16F 4096^2-16384^2, two rounds.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/st 1 build-gpu/T7 -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
grep -h 'STAMPS.*:' $OUT/r/st/ab-T7-1.txt | grep -v medians | sed -E 's/R8G8B8A8_UNORM/rgba8/; s/R16G16B16A16_SFLOAT/rgba16f/; s/vkspd plain fp16 linear/lin/; s/vkspd default \(plain fp16 quad linear tiles ([0-9])\)/def/'
ROWS='plain fp16 linear' sh bench/ab.sh $OUT/r/tiles 2 build-gpu/W1 -- --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods "plain fp16 linear" --tiles 4,8 --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/\[vkspd_plain_fp16_linear\]/:lin/g; s/\[vkspd_plain_fp16_linear_tiles_([0-9])\]/:t\1/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
