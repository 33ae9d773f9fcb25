# Call 3 (tenth session): L1 (the tail strips as landed: MipGenInfo::tailTiles, the library's rule
# the last 2048 tiles in strips of 2 from 128x128 tiles) against main (R1), two rounds; L1's GPU
# suite under validation with synchronization validation; the README's bench with L1 and its
# stress test (10,000 calls, no validation).
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/R1 build-gpu/L1 -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]+(_tail_[0-9])?\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
n=readme-L1; mkdir -p $OUT/$n
build-gpu/L1/vkspd-bench --sizes 2048x2048,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f \
    --reps 30 --cols none --tiles 4,8 --out $OUT/$n > $OUT/$n/bench.txt 2>&1
echo "$n exit $?: $(grep -o 'copy floor: [0-9]* GB/s' $OUT/$n/bench.txt) $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $OUT/$n/bench.txt)"
grep -E "default|stream|blit|tiles" $OUT/$n/bench.txt | grep -E "^R(8G8B8A8|16G16B16A16)" | sed -E 's/ +/ /g; s/vkspd default/def/' | cut -c1-150
VKSPD_TEST_NO_VALIDATION=1 VKSPD_STRESS_CALLS=10000 build-gpu/L1/vkspd_gpu_tests --gtest_filter=*Stress* > $OUT/$n/stress.log 2>&1
echo "stress exit $?"; grep -E '^\[ stress|^\[  (PASSED|FAILED)  \]' $OUT/$n/stress.log
(cd $OUT && tar czf $n.tgz $n && rm -r $n)
