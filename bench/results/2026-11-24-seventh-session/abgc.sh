# Q2b (71d9537's shaders) against GC (the general kernel's quad level 2 by quadReducePairs, the
# three-exchange quadReduce removed), three rounds at the general kernel's sizes and 4096^2 as a
# control; then GC's GPU suite under validation.
OUT=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
SUITE_DEB=build-gpu/vl.deb sh bench/ab.sh $OUT/ab 3 build-gpu/Q2b build-gpu/GC -- --sizes 1920x1080,2560x1440,3840x2160,4095x4095,4096x4096 --formats rgba8,rgba16f --methods default --tiles none --cols none --reps 30 2>&1 | sed -E 's/R8G8B8A8/rgba8/g; s/R16G16B1/rgba16f/g'
grep -h -E 'average fp16 (quad|plain)' $OUT/ab/stats-*.txt
(cd $OUT && tar czf ab.tgz ab && rm -r ab)
