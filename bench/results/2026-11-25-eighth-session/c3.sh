# Call 3 (eighth session): wave probe (M0, --levels 3, RGBA8 8192 wide, 32..128 rows of tiles),
# then M0 against W7 (levels 5-6, the kept texel and the arrival on the group's last quad), K (later
# stages fetch two steps ahead and skip steps past level 1) and WK (both), two rounds; WK's GPU suite.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
build-gpu/M0/vkspd-bench --sizes 8192x2048,8192x4096,8192x5120,8192x6656,8192x7168,8192x8192 --formats rgba8 --methods "plain fp16 linear" --tiles none --cols none --reps 30 --levels 3 > $OUT/r/waves.txt 2>&1
grep -o 'copy floor: [0-9]* GB/s' $OUT/r/waves.txt; grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $OUT/r/waves.txt
grep -E '^R8' $OUT/r/waves.txt | sed -E 's/ +/ /g' | cut -d' ' -f1,2,7-9
ROWS='vkspd default|plain fp16 linear' SUITE_DEB=build-gpu/vl.deb sh bench/ab.sh $OUT/r/ab 2 build-gpu/M0 build-gpu/W7 build-gpu/K build-gpu/WK -- --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
