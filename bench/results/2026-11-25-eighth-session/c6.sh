# Call 6 (eighth session): where the plain kernel's later stages go, and which half of C7 counts.
# L (main, dd3c8f9) at --levels 6, then L against D1 (diagnostic: the elected group stops before the
# later stages), D2 (diagnostic: no election, every group returns after its strip), C7a (diagnostic:
# no sRGB branch at the stores) and C7b (diagnostic: the linear fetch only), two rounds.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
build-gpu/L/vkspd-bench --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods "plain fp16 linear" --tiles none --cols none --reps 30 --levels 6 > $OUT/r/L6.txt 2>&1
echo "levels 6: $(grep -o 'copy floor: [0-9]* GB/s' $OUT/r/L6.txt) $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $OUT/r/L6.txt)"
grep -E '^R' $OUT/r/L6.txt | grep 'plain fp16' | sed -E 's/ +/ /g; s/vkspd plain fp16 linear//' | cut -d' ' -f1-4,8
ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/L build-gpu/D1 build-gpu/D2 build-gpu/C7a build-gpu/C7b -- --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
grep -h -E 'average fp16 (plain|quad)' $OUT/r/ab/stats-*.txt
(cd $OUT && tar czf r.tgz r && rm -r r)
