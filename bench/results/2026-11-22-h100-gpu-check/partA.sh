#!/bin/bash
# Correctness on the GPU: examples, loaders, reliability, debug maps, occupancy, the GPU suite.
B=.gpu/bin
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /tmp/vl && dpkg -x .gpu/vulkan-validationlayers_*.deb /tmp/vl
VL="VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu"
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } > $OUT/gpu.txt; cat $OUT/gpu.txt
echo "== examples (validation)"
env $VL VKSPD_EXAMPLE_VALIDATION=1 timeout 60 $B/vkspd_example_engine > $OUT/example_engine.txt 2>&1; echo "engine rc=$?"; tail -4 $OUT/example_engine.txt
env $VL VKSPD_EXAMPLE_VALIDATION=1 timeout 60 $B/vkspd_example_minimal > $OUT/example_minimal.txt 2>&1; echo "minimal rc=$?"; tail -2 $OUT/example_minimal.txt
env $VL timeout 60 $B/vkspd_volk_tests > $OUT/volk.txt 2>&1; echo "volk rc=$?"; tail -1 $OUT/volk.txt
echo "== occupancy / maps"
timeout 60 $B/vkspd --occupancy > $OUT/occupancy.txt 2>&1; echo "occupancy rc=$?"; head -40 $OUT/occupancy.txt
timeout 90 $B/vkspd --random 4096x4096 --linear --no-write --order-map $OUT/order-map.png --sm-map $OUT/sm-map.png > $OUT/maps.txt 2>&1; echo "maps rc=$?"; cat $OUT/maps.txt | tail -8
if [ -n "$MAPS_EXTRA" ]; then eval "$MAPS_EXTRA"; fi
echo "== GPU suite under validation"
env $VL timeout ${SUITE_S:-280} $B/vkspd_gpu_tests $SUITE_FILTER > $OUT/gpu_tests.log 2>&1; echo "suite rc=$?"; grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|tests ran" $OUT/gpu_tests.log | tail -15
echo "== stress without validation"
VKSPD_TEST_NO_VALIDATION=1 VKSPD_STRESS_CALLS=10000 timeout 150 $B/vkspd_gpu_tests --gtest_filter='Stress*' > $OUT/stress.log 2>&1; echo "stress rc=$?"; grep -E "OK \]|FAILED|PASSED" $OUT/stress.log | tail -8
