# Tiles per group after this session's changes (Q2b = 71d9537's SPIR-V): the plain fp16 linear
# rows with 4, 8, 16 and 32 tiles per group, two passes.
OUT=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for pass in 1 2; do
  f=$OUT/tiles-$pass.txt
  build-gpu/Q2b/vkspd-bench --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods "plain fp16 linear tiles" --tiles 4,8,16,32 --cols none --reps 30 > $f 2>&1
  echo "pass $pass: $(grep -o 'read probes up to [0-9]* GB/s; [0-9]* of [0-9]*' $f)"
  grep -E '^R' $f | grep tiles | sed -E 's/ +/ /g; s/vkspd plain fp16 linear //' | cut -d' ' -f1-5,9
done
