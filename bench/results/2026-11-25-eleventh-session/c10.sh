# Call 10 (eleventh session): warm code for the elected groups (call 9's stamps: at 4096^2 the last
# quadrant's step, tail and level 5 took 4.5 us on a group that had not run that code, 1.8 us at
# 8192^2): W1 (L1, and every group not elected runs the later stages' code once, as the warm-up
# does, before it ends), W2 (W1 without group 0's warm-up before its strip), against L1, two
# rounds, 2048^2-16384^2, RGBA8 and RGBA16F; W2's GPU suite under validation.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
for b in L1 W1 W2; do echo "$b $(build-gpu/$b/vkspd-pipeline-stats 2>&1 | grep -E '^average fp16 plain:' | tr '\n' ' ')"; done
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/L1 build-gpu/W1 build-gpu/W2 -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]+(_tail_[0-9])?\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
