# Call 3 (eleventh session): the warm-up with the quadrants: Q3 (Q1 with no warm-up), Q4 (Q1 with
# the warm-up run by one more column of workgroups, whose first runs it alone: no stage-0 strip
# waits for it) against M0 and Q1, two rounds, 1024^2-16384^2, RGBA8, R8, RGBA16F; Q4's GPU suite.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
for b in M0 Q1 Q3 Q4; do echo "$b $(build-gpu/$b/vkspd-pipeline-stats 2>&1 | grep -E '^average fp16 plain:' | tr '\n' ' ')"; done
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/M0 build-gpu/Q1 build-gpu/Q3 build-gpu/Q4 -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]+(_tail_[0-9])?\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g; s/ (r8|rgba16f)\/1024x1024:(def|lin):[0-9.!]*//g'
(cd $OUT && tar czf r.tgz r && rm -r r)
