#!/bin/sh
# Installs what vkspd needs to build and test on Debian 12, skipping what is already there.
# Everything comes from Debian's own packages. clang-14 and libclang-rt-14-dev
# (libFuzzer) build the image loader's fuzz target that the test suite runs for 30 seconds; zstd
# unpacks the NVIDIA driver's pipeline caches for scripts/nvidia_sass.py (and its test).
set -e
PACKAGES="build-essential cmake ninja-build pkg-config python3 zstd
libvulkan-dev libvulkan-volk-dev libshaderc-dev glslang-dev spirv-tools glslc vulkan-validationlayers
mesa-vulkan-drivers libgtest-dev libstb-dev
clang-14 libclang-rt-14-dev
doxygen"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "vkspd: installing$missing"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
