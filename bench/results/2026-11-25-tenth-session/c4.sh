# Call 4 (tenth session): the tail with L1's `vkspd-bench --tail T/P` (one binary): rule (the
# library's: 2048/2 from 128x128 tiles), none (0/1), q1024 (1024/4), h4096 (4096/2), h512 (512/2;
# these apply at 4096^2 too, where the rule gives none), two rounds.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/rule build-gpu/none build-gpu/q1024 build-gpu/h4096 build-gpu/h512 -- --sizes 4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]+(_tail_[0-9])?\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
