# Call 4 (eighth session): M0 against W7 (levels 5-6, the kept texel and the arrival on the
# group's last quad) and C7 (diagnostic: W7 without the sRGB branch and the four-load fetch path,
# the hot code smaller), two rounds from 2048^2; W7's GPU suite under validation.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
for v in M0 W7 C7; do build-gpu/$v/vkspd-pipeline-stats | grep -E '^average fp16 plain' | sed "s/^/$v /"; done
ROWS='vkspd default|plain fp16 linear' SUITE_DEB=build-gpu/vl.deb sh bench/ab.sh $OUT/r/ab 2 build-gpu/M0 build-gpu/C7 build-gpu/W7 -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
