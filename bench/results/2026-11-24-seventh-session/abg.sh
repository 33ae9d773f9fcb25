# Q (landed: level 2 of each step by two quad exchanges) against Q2 (the plain tail's levels 3-6
# at the variant's precision, levels 4 and 6 by two exchanges) and G (the general kernel's quad
# level 2 by two exchanges); then G's GPU suite (ab.sh SUITE_DEB).
OUT=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
SUITE_DEB=build-gpu/vl.deb sh bench/ab.sh $OUT/ab 2 build-gpu/Q build-gpu/Q2 build-gpu/G -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096,8192x8192,16384x16384 --formats rgba8,rgba16f --methods default --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g'
grep -h -E 'average fp16 (plain|quad)' $OUT/ab/stats-*.txt
(cd $OUT && tar czf ab.tgz ab && rm -r ab)
