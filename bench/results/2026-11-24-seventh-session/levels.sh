# Where the plain kernel's time goes: --levels N sweeps, default and stream rows, then A/H/H4.
OUT=$1; ROUNDS=${2:-1}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
for n in 2 3 6 99; do
  build-gpu/A/vkspd-bench --sizes 4096x4096,16384x16384 --formats rgba8,rgba16f --methods default,stream --tiles none --cols none --reps 30 --levels $n > $OUT/r/L$n.txt 2>&1
  echo "levels $n: $(grep -o 'copy floor: [0-9]* GB/s' $OUT/r/L$n.txt) $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $OUT/r/L$n.txt)"
  grep -E 'default|stream' $OUT/r/L$n.txt | grep -E '^R' | sed -E 's/ +/ /g; s/vkspd default \(plain fp16 quad linear tiles ([0-9]+)\)/def\1/; s/stream \(chain bytes\)/stream/' | cut -d' ' -f1-6,8,9
done
sh bench/ab.sh $OUT/r/ab $ROUNDS build-gpu/A build-gpu/H build-gpu/H4 -- --sizes 4096x4096,16384x16384 --formats rgba8,rgba16f --methods default --tiles none --cols none --reps 30 2>&1
(cd $OUT && tar czf r.tgz r && rm -r r)
