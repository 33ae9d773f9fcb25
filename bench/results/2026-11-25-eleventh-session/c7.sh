# Call 7 and 9 (eleventh session; call 7 met a degraded GPU, call 9 ran it again): S1 = f3e55fb with globaltimer stamps (the ninth session's
# stamps-diagnostic.patch, its later-stage records per quadrant: start, step, tail, level 5, the
# tile's election, level 6, the group's index), 2048^2-16384^2 RGBA8 and RGBA16F, one process.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
build-gpu/S1/vkspd-pipeline-stats 2>&1 | grep -E '^average fp16 plain:'
build-gpu/S1/vkspd-bench --sizes 2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 > $OUT/stamps.txt 2>&1
echo "exit $?"; grep -E "copy floor|read probes" $OUT/stamps.txt | head -3
grep -E "^STAMPS" $OUT/stamps.txt | sed -E 's/R8G8B8A8_UNORM/rgba8/; s/R16G16B16A16_SFLOAT/rgba16f/'
