#!/bin/sh
# Builds the binaries of one experiment for a device call (bench/ab.sh's BIN_DIRs): the tracked
# files of this checkout as they are now, with PATCH files applied in order, as a Release build in
# a folder of its own, and the three programs an A/B call runs, stripped, in build-gpu/NAME
# (vkspd-bench, vkspd-pipeline-stats, vkspd_gpu_tests). Every session since 2026-11-23 did this by
# hand; the results folders keep the patches, so a build can be made again from them.
#
# usage: sh bench/variant.sh NAME [PATCH...]
#        sh bench/variant.sh --pack NAME...
# The first form prints build-gpu/NAME when done. --pack writes build-gpu/pack.txz from the named
# build-gpu/ folders (what a call carries, with .gl/; the cN.sh scripts untar it first) and says
# its size (a call carries 64 MiB at most).
# Environment: VARIANT_ROOT, where the trees and builds go (default /tmp/vkspd-variants; a
# second build of the same NAME is incremental).
set -e
usage="usage: sh bench/variant.sh NAME [PATCH...] | sh bench/variant.sh --pack NAME..."
cd "$(dirname "$0")/.."
repo=$(pwd)
if [ "${1:-}" = "--pack" ]; then
    shift
    [ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
    for name in "$@"; do
        [ -x "build-gpu/$name/vkspd-bench" ] || { echo "variant.sh: no build-gpu/$name/vkspd-bench" >&2; exit 2; }
    done
    tar cJf build-gpu/pack.txz -C build-gpu "$@"
    echo "build-gpu/pack.txz: $(du -k build-gpu/pack.txz | cut -f1) KiB ($*)"
    exit 0
fi
name=${1:?$usage}
shift
case $name in *[!A-Za-z0-9_.-]* | .*) echo "variant.sh: NAME must be letters, digits, _ . -: $name" >&2; exit 2 ;; esac
for patch in "$@"; do
    [ -f "$patch" ] || { echo "variant.sh: no such patch: $patch" >&2; exit 2; }
done
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "variant.sh: not a git checkout (it copies the tracked files)" >&2; exit 2; }
root=${VARIANT_ROOT:-/tmp/vkspd-variants}
tree=$root/$name/src
build=$root/$name/build
rm -rf "$tree"
mkdir -p "$tree"
git ls-files -z | xargs -0 cp --parents -t "$tree"
for patch in "$@"; do
    patch=$(cd "$(dirname "$patch")" && pwd)/$(basename "$patch")
    (cd "$tree" && git apply "$patch") || { echo "variant.sh: $patch does not apply" >&2; exit 1; }
    echo "applied $patch"
done
cmake -S "$tree" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$root/$name/configure.log" 2>&1 ||
    { echo "variant.sh: configuring failed, see $root/$name/configure.log" >&2; exit 1; }
cmake --build "$build" --target vkspd-bench vkspd-pipeline-stats vkspd_gpu_tests > "$root/$name/build.log" 2>&1 ||
    { echo "variant.sh: building failed, see $root/$name/build.log" >&2; exit 1; }
mkdir -p "$repo/build-gpu/$name"
for program in bench/vkspd-bench bench/vkspd-pipeline-stats tests/vkspd_gpu_tests; do
    strip -o "$repo/build-gpu/$name/$(basename $program)" "$build/$program"
done
echo "build-gpu/$name"
