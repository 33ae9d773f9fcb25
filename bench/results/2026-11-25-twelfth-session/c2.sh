# Call 2 (prepared in the twelfth session, not run): S3's globaltimer stamps of the plain kernel's
# later stages (stamps-quadrants-diagnostic-S3.patch on main), with the new "barrier passed" stamp
# between a quadrant's step and its levels 2-4, one process, the sizes of the eleventh session's
# stamps table. Build it with bench/variant.sh S3 PATCH, then bench/variant.sh --pack S3.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
build-gpu/S3/vkspd-bench --sizes 2048x2048,4096x4096,8192x8192 --formats rgba8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 > $OUT/stamps.txt 2>&1
grep -E "^STAMPS|copy floor|left out" $OUT/stamps.txt
