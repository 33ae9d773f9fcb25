#!/bin/sh
# Checks that the normal shader variants (those generateMips uses) compile to the same SPIR-V at
# git revision REV (default: main) and in the working tree: debug-only changes (issue 7's
# VKSPD_DEBUG_MAP blocks) must leave them byte for byte unchanged. Uses the flags of
# cmake/VkspdShaders.cmake. Prints one line per variant: "same" (byte for byte), "same code"
# (the same instructions in the same order, only result IDs numbered differently: what a
# refactor that moves code into a helper gives; spirv-dis needed), or "DIFFERENT". Exit code 1 if
# any is DIFFERENT: then the change can alter speed and needs the benchmark (bench/NOTES.md).
# usage: scripts/compare_normal_spirv.sh [REV]
set -eu
rev=${1:-main}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old"
git -C "$root" show "$rev:shaders/vkspd.comp" >"$tmp/old/vkspd.comp"
git -C "$root" show "$rev:shaders/vkspd_shared.h" >"$tmp/old/vkspd_shared.h"
status=0
r=0
for reduction in average min max minmax; do
  for fp16 in 0 1; do
    for quad in 0 1; do
      flags="--target-env=vulkan1.2 -O -fshader-stage=compute -DVKSPD_FP16=$fp16 -DVKSPD_QUAD=$quad -DVKSPD_REDUCTION=$r"
      glslc $flags -o "$tmp/old.spv" "$tmp/old/vkspd.comp"
      glslc $flags -o "$tmp/new.spv" "$root/shaders/vkspd.comp"
      name="$reduction fp16=$fp16 quad=$quad"
      if cmp -s "$tmp/old.spv" "$tmp/new.spv"; then
        echo "same      $name"
      elif command -v spirv-dis >/dev/null 2>&1 &&
           for v in old new; do
             spirv-dis --raw-id "$tmp/$v.spv" | grep -v '^;' | sed 's/%[0-9]*/%/g; s/^ *//' >"$tmp/$v.txt"
           done && cmp -s "$tmp/old.txt" "$tmp/new.txt"; then
        echo "same code $name (result IDs renumbered)"
      else
        echo "DIFFERENT $name"
        status=1
      fi
    done
  done
  r=$((r + 1))
done
exit $status
