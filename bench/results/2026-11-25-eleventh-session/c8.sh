# Call 8 (eleventh session): the image stores after the arrivals: R1 (a later stage's level-5 and
# level-6 image stores after the arrival that follows them, so the release does not wait for
# them), R2 (R1 and stage 0's last level-6 image store after the strip's arrival), against L1
# (f3e55fb), two rounds, 2048^2-16384^2, RGBA8 and RGBA16F; R2's GPU suite under validation.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
for b in L1 R1 R2; do echo "$b $(build-gpu/$b/vkspd-pipeline-stats 2>&1 | grep -E '^average fp16 plain' | tr '\n' ' ')"; done
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/L1 build-gpu/R1 build-gpu/R2 -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]+(_tail_[0-9])?\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
