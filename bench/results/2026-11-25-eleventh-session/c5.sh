# Call 5 (eleventh session): L1 (the quadrants as landed: Q5's code, docs and tests) against M0 (main
# at 4b95d93), two rounds, 1024^2-16384^2, RGBA8, R8, RGBA16F; L1's GPU suite under validation,
# then the stress test (10,000 calls, no validation) after it, timed.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
for b in M0 L1; do echo "$b $(build-gpu/$b/vkspd-pipeline-stats 2>&1 | grep -E '^average fp16 plain:' | tr '\n' ' ')"; done
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/M0 build-gpu/L1 -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]+(_tail_[0-9])?\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g; s/ (r8|rgba16f)\/1024x1024:(def|lin):[0-9.!]*//g'
t0=$(date +%s.%N)
VKSPD_TEST_NO_VALIDATION=1 VKSPD_STRESS_CALLS=10000 build-gpu/L1/vkspd_gpu_tests --gtest_filter=*Stress* > $OUT/r/stress.log 2>&1
echo "stress exit $? in $(echo "$(date +%s.%N) - $t0" | bc) s"; grep -E '^\[ stress|^\[  (PASSED|FAILED)  \]|record' $OUT/r/stress.log | head -5
(cd $OUT && tar czf r.tgz r && rm -r r)
