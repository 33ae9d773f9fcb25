#!/bin/bash
# The GPU suite under validation (synchronization validation on) and the unit tests, on the build
# of main at 877cf99 (every format through the plain-chain kernel in the format tests).
cd "$(dirname "$0")/../../.."
R=$OUT/suite; mkdir -p $R
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } > $R/gpu.txt 2>&1; cat $R/gpu.txt
L=$(mktemp -d); dpkg -x build-gpu/vulkan-validationlayers_1.3.239.0-2_amd64.deb $L
env VK_LAYER_PATH=$L/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=$L/usr/lib/x86_64-linux-gnu \
    VKSPD_STRESS_CALLS=1000 timeout 500 build-gpu/vkspd_gpu_tests > $R/gpu_tests.log 2>&1; echo "gpu tests exit $?"
grep -E '^vkspd tests:|^\[  (PASSED|FAILED)  \]|FAILED' $R/gpu_tests.log | head -20
build-gpu/vkspd_unit_tests > $R/unit_tests.log 2>&1; echo "unit tests exit $?"
grep -E '^\[  (PASSED|FAILED)  \]' $R/unit_tests.log
