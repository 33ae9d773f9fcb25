# Q (landed) at --levels 1, 2, 6 and full (r8, rgba8; 4096^2, 16384^2), then Q against Q3 (the plain
# tail at the variant's precision, and the sample's corner from the warp's part plus the lane's),
# three rounds, and Q3's GPU suite under validation.
OUT=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/ab
for n in 1 2 6; do
  f=$OUT/ab/Q-L$n.txt
  build-gpu/Q/vkspd-bench --sizes 4096x4096,16384x16384 --formats rgba8,r8 --methods stream,"plain fp16 linear" --tiles none --cols none --reps 30 --levels $n > $f 2>&1
  echo "Q levels $n: $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $f)"
  grep -E 'stream|plain' $f | grep -E '^R' | sed -E 's/ +/ /g; s/stream \(chain bytes\)/stream/; s/vkspd plain fp16 //' | cut -d' ' -f1-5,7,8
done
ROWS='vkspd default|plain fp16 linear' SUITE_DEB=build-gpu/vl.deb sh bench/ab.sh $OUT/ab 3 build-gpu/Q build-gpu/Q3 -- --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
grep -h -E 'average fp16 plain' $OUT/ab/stats-*.txt
(cd $OUT && tar czf ab.tgz ab && rm -r ab)
