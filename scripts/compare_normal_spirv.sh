#!/bin/sh
# Checks that the normal shader variants (those generateMips uses) compile to the same SPIR-V at
# git revision REV (default: main) and in the working tree: debug-only changes (the
# VKSPD_DEBUG_MAP blocks) and refactors must leave them unchanged. Uses the flags of
# cmake/VkspdShaders.cmake. Covers vkspd.comp (4 reductions x FP16/FP32 x quad/LDS) and, where the
# revision has it, vkspd_plain.comp (4 reductions x FP16/FP32: plain, VKSPD_HALO=1, and
# VKSPD_HALO=2, the odd-base module, where both sides build it; with VKSPD_SUMS=1, the
# summed-levels module, where both sides build it). Prints one line per variant:
#   "same"      byte for byte;
#   "same code" the same instructions in the same order, only result IDs numbered differently
#               (what a refactor that moves code into a helper gives; spirv-dis needed);
#   "same body" every function body the same and the same declarations in another order (what
#               moving helpers into an included file gives; spirv-dis needed);
#   "new"       not built at REV (no such file, or no odd-base module there);
#   "DIFFERENT" otherwise.
# Exit code 1 if any is DIFFERENT: then the change can alter speed and needs the benchmark
# (docs/PERFORMANCE.md).
# usage: scripts/compare_normal_spirv.sh [REV]
set -eu
rev=${1:-main}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old"
for f in vkspd.comp vkspd_shared.h vkspd_common.glsl vkspd_plain.comp vkspd_sums.glsl; do
  git -C "$root" show "$rev:shaders/$f" >"$tmp/old/$f" 2>/dev/null || rm -f "$tmp/old/$f"
done
status=0

# normalize FILE.spv OUT: the disassembly with result IDs removed (OUT.txt), its declarations
# (before the first function) sorted (OUT.decl) and its function bodies (OUT.body).
normalize() {
  spirv-dis --raw-id "$1" | grep -v '^;' | sed 's/%[0-9]*/%/g; s/^ *//' >"$2.txt"
  awk '/OpFunction /{exit} 1' "$2.txt" | sort >"$2.decl"
  awk '/OpFunction /{f=1} f' "$2.txt" >"$2.body"
}

# compare NAME SOURCE FLAGS...: compiles the old and new SOURCE with FLAGS and prints the verdict.
compare() {
  name=$1 source=$2
  shift 2
  if [ ! -f "$root/shaders/$source" ]; then
    [ -f "$tmp/old/$source" ] && { echo "DIFFERENT $name (removed since $rev)"; status=1; }
    return
  fi
  if [ ! -f "$tmp/old/$source" ]; then
    echo "new       $name (not in $rev)"
    return
  fi
  glslc "$@" -o "$tmp/old.spv" "$tmp/old/$source"
  glslc "$@" -o "$tmp/new.spv" "$root/shaders/$source"
  if cmp -s "$tmp/old.spv" "$tmp/new.spv"; then
    echo "same      $name"
    return
  fi
  if command -v spirv-dis >/dev/null 2>&1; then
    normalize "$tmp/old.spv" "$tmp/o"
    normalize "$tmp/new.spv" "$tmp/n"
    if cmp -s "$tmp/o.txt" "$tmp/n.txt"; then
      echo "same code $name (result IDs renumbered)"
      return
    fi
    if cmp -s "$tmp/o.body" "$tmp/n.body" && cmp -s "$tmp/o.decl" "$tmp/n.decl"; then
      echo "same body $name (declarations in another order)"
      return
    fi
  fi
  echo "DIFFERENT $name"
  status=1
}

r=0
for reduction in average min max minmax; do
  for fp16 in 0 1; do
    for quad in 0 1; do
      compare "$reduction fp16=$fp16 quad=$quad" vkspd.comp --target-env=vulkan1.2 -O -fshader-stage=compute \
        -DVKSPD_FP16=$fp16 -DVKSPD_QUAD=$quad -DVKSPD_REDUCTION=$r
    done
    compare "$reduction fp16=$fp16 plain" vkspd_plain.comp --target-env=vulkan1.2 -O -fshader-stage=compute \
      -DVKSPD_FP16=$fp16 -DVKSPD_QUAD=1 -DVKSPD_REDUCTION=$r
    compare "$reduction fp16=$fp16 halo" vkspd_plain.comp --target-env=vulkan1.2 -O -fshader-stage=compute \
      -DVKSPD_FP16=$fp16 -DVKSPD_QUAD=1 -DVKSPD_REDUCTION=$r -DVKSPD_HALO=1
    # Before the odd-base module, VKSPD_HALO=2 built the VKSPD_HALO=1 kernel: nothing to compare.
    if grep -q 'VKSPD_HALO == 2' "$tmp/old/vkspd_plain.comp" 2>/dev/null; then
      compare "$reduction fp16=$fp16 odd" vkspd_plain.comp --target-env=vulkan1.2 -O -fshader-stage=compute \
        -DVKSPD_FP16=$fp16 -DVKSPD_QUAD=1 -DVKSPD_REDUCTION=$r -DVKSPD_HALO=2
    elif [ -f "$root/shaders/vkspd_plain.comp" ]; then
      echo "new       $reduction fp16=$fp16 odd (not in $rev)"
    fi
    # Before its other reductions, the summed-levels module was built for the average only.
    if [ -f "$tmp/old/vkspd_sums.glsl" ] && { [ $r = 0 ] || ! grep -q 'VKSPD_SUMS && (VKSPD_HALO ||' "$tmp/old/vkspd_plain.comp"; }; then
      compare "$reduction fp16=$fp16 sums" vkspd_plain.comp --target-env=vulkan1.2 -O -fshader-stage=compute \
        -DVKSPD_FP16=$fp16 -DVKSPD_QUAD=1 -DVKSPD_REDUCTION=$r -DVKSPD_SUMS=1
    elif [ -f "$root/shaders/vkspd_sums.glsl" ]; then
      echo "new       $reduction fp16=$fp16 sums (not in $rev)"
    fi
  done
  r=$((r + 1))
done
exit $status
