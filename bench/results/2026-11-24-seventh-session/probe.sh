# Per-texel or per-byte: rgba8, r8 (a quarter of the bytes, the same texels) and rgba16f, full chain
# and --levels 1, 2, 6; default, stream and plain fp16 linear/load rows. Two passes.
OUT=$1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/p
for pass in 1 2; do
for n in 99 2 1 6; do
  [ $pass = 2 ] && [ $n = 6 ] && continue
  f=$OUT/p/L$n-$pass.txt
  build-gpu/M/vkspd-bench --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,stream,"plain fp16" --tiles none --cols none --reps 30 --levels $n > $f 2>&1
  echo "levels $n pass $pass: $(grep -o 'copy floor: [0-9]* GB/s' $f) $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $f)"
  grep -E 'default|stream|plain' $f | grep -E '^R' | sed -E 's/ +/ /g; s/vkspd default \(plain fp16 quad linear tiles ([0-9]+)\)/def\1/; s/stream \(chain bytes\)/stream/; s/vkspd plain fp16 //' | cut -d' ' -f1-5,7,8 | sed -E 's/^R8G8B8A8_UNORM/rgba8/; s/^R8_UNORM/r8/; s/^R16G16B16A16_SFLOAT/rgba16f/'
done
done
(cd $OUT && tar czf p.tgz p && rm -r p)
