# Call 14 (ninth session, review): the GPU suite of 59827de (R1) under validation with
# synchronization validation, the new PlainChainKeepsTexelsOfOneToThreeChannels among it.
OUT=$1
tar xJf build-gpu/pack.txz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
mkdir -p /tmp/vl && dpkg -x build-gpu/vl.deb /tmp/vl
export VK_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu
build-gpu/R1/vkspd_gpu_tests --gtest_filter=-*Stress* > $OUT/gpu_tests.log 2>&1
echo "gpu tests exit $?"; grep -E "validation|KeepsTexels|^\[  (PASSED|FAILED)" $OUT/gpu_tests.log | head
