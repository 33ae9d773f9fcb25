# Call 2 (eighth session): where M0's time goes (--levels 1, 2, 3, 4, 6, r8 and rgba8), then M0
# against B1 (no level-1 bounds test inside the image) and diagnostics X1 (no quad exchange) and
# X2 (no level-1 store), two rounds.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
for n in 1 2 3 4 6; do
  build-gpu/M0/vkspd-bench --sizes 8192x8192,16384x16384 --formats rgba8,r8 --methods "plain fp16 linear" --tiles none --cols none --reps 30 --levels $n > $OUT/r/L$n.txt 2>&1
  echo "levels $n: $(grep -o 'copy floor: [0-9]* GB/s' $OUT/r/L$n.txt) $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $OUT/r/L$n.txt)"
  grep -E 'plain fp16' $OUT/r/L$n.txt | grep -E '^R' | sed -E 's/ +/ /g' | cut -d' ' -f1-6
done
ROWS='plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/M0 build-gpu/B1 build-gpu/X1 build-gpu/X2 -- --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,r8 --methods "plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R8_UNORM/r8/g; s/\[vkspd_plain_fp16_linear\]//g'
(cd $OUT && tar czf r.tgz r && rm -r r)
