# Call 7 (tenth session): a smaller plain kernel: B1 the later stages' step loop kept rolled
# ([[dont_unroll]]), B2 B1 and stage 0's levels 5-6 made at one call site (a pass past the last
# tile), B3 the one call site alone; against F1 (main at adc6c7b), two rounds; B2's GPU suite
# under validation. The stats files give each build's binary size.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p $OUT/r
for b in F1 B1 B2 B3; do echo "$b $(build-gpu/$b/vkspd-pipeline-stats 2>&1 | grep -E '^average fp16 plain:' | grep -o 'Binary Size=[0-9]*')"; done
SUITE_DEB=build-gpu/vl.deb ROWS='vkspd default|plain fp16 linear' sh bench/ab.sh $OUT/r/ab 2 build-gpu/F1 build-gpu/B1 build-gpu/B3 build-gpu/B2 -- --sizes 1024x1024,2048x2048,4096x4096,8192x8192,16384x16384 --formats rgba8,r8,rgba16f --methods default,"plain fp16 linear" --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g; s/R8_UNORM/r8/g; s/\[vkspd_default_\(plain_fp16_quad_linear_tiles_[0-9]+(_tail_[0-9])?\)\]/:def/g; s/\[vkspd_plain_fp16_linear\]/:lin/g'
(cd $OUT && tar czf r.tgz r && rm -r r)
