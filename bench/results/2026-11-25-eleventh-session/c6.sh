# Call 6 (eleventh session): L1 (the later stages per quadrant, as landed): the README's bench with
# --out (the README table), then the stress test (10,000 calls, no validation; its pipelines
# compile in it, since no suite runs first).
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $OUT/gpu.txt
build-gpu/L1/vkspd-pipeline-stats | grep -E '^average fp16 (plain|quad)'
n=readme-L1; mkdir -p $OUT/$n
build-gpu/L1/vkspd-bench --sizes 2048x2048,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
    --reps 30 --cols none --tiles 4,8 --out $OUT/$n > $OUT/$n/bench.txt 2>&1
echo "$n exit $?: $(grep -o 'copy floor: [0-9]* GB/s' $OUT/$n/bench.txt) $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $OUT/$n/bench.txt)"
grep -E "default|stream|blit|tiles" $OUT/$n/bench.txt | grep -E "^R(8G8B8A8|16G16B16A16)" | sed -E 's/ +/ /g; s/vkspd default/def/' | cut -c1-150
VKSPD_TEST_NO_VALIDATION=1 VKSPD_STRESS_CALLS=10000 build-gpu/L1/vkspd_gpu_tests --gtest_filter=*Stress* > $OUT/$n/stress.log 2>&1
echo "stress exit $?"; grep -E '^\[ stress|^\[  (PASSED|FAILED)  \]' $OUT/$n/stress.log
(cd $OUT && tar czf $n.tgz $n && rm -r $n)
