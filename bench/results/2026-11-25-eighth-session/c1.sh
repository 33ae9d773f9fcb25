# Call 1 (eighth session): registers and internal representations of M0 and P4, then M0 (main) against
# P3, P4 (stage-0 samples fetched three or four steps ahead) and E1 (diagnostic: the election's
# atomic relaxed), two rounds, plain sizes.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/ir
for v in M0 P4; do mkdir -p $OUT/ir/$v; build-gpu/$v/vkspd-pipeline-stats --ir $OUT/ir/$v > $OUT/ir/$v/stats.txt 2>&1; grep -E '^average fp16 plain' $OUT/ir/$v/stats.txt; done
ls $OUT/ir/M0 | head; du -sh $OUT/ir
ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/ab 2 build-gpu/M0 build-gpu/P3 build-gpu/P4 build-gpu/E1 -- --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
grep -h -E 'average fp16 plain' $OUT/ab/stats-*.txt
(cd $OUT && tar czf ab.tgz ab ir && rm -r ab ir)
