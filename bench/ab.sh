#!/bin/sh
# A/B of builds on one GPU, in one device call: each build's vkspd-bench with the same arguments,
# ROUNDS rounds, the builds in turn and in reverse order every other round (A B, B A, ...), so drift
# over the call falls on both. Each experiment in docs/PERFORMANCE.md was measured this way.
#
# usage: sh bench/ab.sh OUT_DIR ROUNDS BIN_DIR... [-- BENCH_ARGUMENT...]
#   BIN_DIR: a folder with vkspd-bench (and vkspd-pipeline-stats, optional: the registers of the
#   variants STATS selects are printed first; and vkspd, optional: SASS below); its name names the
#   build in the output. BENCH_ARGUMENTs replace the default
#   --sizes 1920x1080,3840x2160,4095x4095,4096x4096 --formats rgba8,rgba16f --methods default --cols none --reps 30
# Environment: ROWS, an extended regular expression selecting the report rows summarised
# (default 'vkspd default'). STATS, an extended regular expression selecting the
# vkspd-pipeline-stats lines (variants) whose registers are printed (default: the FP16 general,
# plain-chain and summed-levels kernels, '^average fp16 (quad|plain|summed)'; the halo kernel's
# odd-base module for RGBA8, say: '^average fp16 halo odd base normalized:'). SASS, CLI runs
# "SIZE:FORMAT ..." ('4095x4095:rgba8 3840x2160:rgba8', say): first, each BIN_DIR's vkspd (the CLI,
# where there is one) runs each once with --pipeline-cache, and scripts/nvidia_sass.py prints the
# registers and instructions of the pipelines it made, and with nvdisasm their barriers and
# convergence regions (NVIDIA only; seconds a build, where
# vkspd-pipeline-stats compiles every flavour: about 90 s on an H200); the caches, the CLI's logs
# and the machine code stay in OUT_DIR. REVERSE=1: the even rounds run the --sizes list backwards
# (their summary lines say "(sizes reversed)"), so each size's first use follows another item: a
# first-use figure moves with what ran before it (docs/PERFORMANCE.md, "How to measure"), and a
# change whose gain holds in one order only shows as rounds that disagree; `--submit size` among
# the BENCH_ARGUMENTs submits each size on its own, so that every size's first row is a first use
# in any order. SUITE_DEB, Debian's vulkan-validationlayers package: after the rounds, the last
# BIN_DIR's vkspd_gpu_tests (the candidate's GPU suite) runs under that validation layer with the
# gtest filter TEST_FILTER (default: all but the stress tests), so one device call times a change
# and checks it.
# Writes OUT_DIR/ab-NAME-ROUND.txt (each report), OUT_DIR/stats-NAME.txt (registers), with SASS
# OUT_DIR/sass-NAME-SIZE-FORMAT* and, with
# SUITE_DEB, OUT_DIR/gpu_tests.log; prints one line per run: the build, the round, the copy floor,
# its range over the repetitions and how many timings the bench left out because other work took
# the GPU's bandwidth around them (its warning, when an item kept too few clean timings, is
# repeated there: do not compare that run), then size:median for every selected row (with '!'
# for such an unsteady item); with SUITE_DEB, the suite's exit status and result line. Exit
# code 1 when a run or the suite fails (a check against the CPU reference included), 2 for bad
# usage.
usage="usage: sh bench/ab.sh OUT_DIR ROUNDS BIN_DIR... [-- BENCH_ARGUMENT...]"
[ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
out=$1 rounds=$2
shift 2
case $rounds in '' | *[!0-9]*) echo "ab.sh: ROUNDS must be a number: $rounds" >&2; exit 2 ;; esac
bins=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    [ -x "$1/vkspd-bench" ] || { echo "ab.sh: no vkspd-bench in $1" >&2; exit 2; }
    bins="$bins $(cd "$1" && pwd)"
    shift
done
[ -n "$bins" ] || { echo "$usage" >&2; exit 2; }
last=${bins##* }
if [ -n "${SUITE_DEB:-}" ]; then
    [ -f "$SUITE_DEB" ] || { echo "ab.sh: SUITE_DEB is not a file: $SUITE_DEB" >&2; exit 2; }
    [ -x "$last/vkspd_gpu_tests" ] || { echo "ab.sh: SUITE_DEB set but no vkspd_gpu_tests in $last" >&2; exit 2; }
fi
if [ "${1:-}" = "--" ]; then
    shift
else
    set -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096 --formats rgba8,rgba16f --methods default --cols none --reps 30
fi
reverse=${REVERSE:-0}
case $reverse in
    0 | 1) ;;
    *) echo "ab.sh: REVERSE must be 0 or 1: $reverse" >&2; exit 2 ;;
esac
if [ "$reverse" = 1 ]; then
    prev="" sized=0
    for a in "$@"; do
        [ "$prev" = "--sizes" ] && sized=1
        prev=$a
    done
    [ "$sized" = 1 ] || { echo "ab.sh: REVERSE=1 needs a --sizes list among the bench arguments" >&2; exit 2; }
fi

# Runs vkspd-bench $1 into report $2 with the bench arguments after them, the --sizes list backwards
# where $3 is 1.
run_bench() {
    bench=$1 report=$2 backwards=$3
    shift 3
    if [ "$backwards" = 1 ]; then
        n=$# prev=""
        while [ "$n" -gt 0 ]; do
            a=$1
            shift
            [ "$prev" = "--sizes" ] && a=$(printf '%s\n' "$a" | awk -F, '{ for (i = NF; i > 0; --i) printf "%s%s", $i, (i > 1 ? "," : "\n") }')
            set -- "$@" "$a"
            prev=$a
            n=$((n - 1))
        done
    fi
    "$bench" "$@" > "$report" 2>&1
}
mkdir -p "$out" || exit 2
rows=${ROWS:-vkspd default}
show_method=0
[ -n "${ROWS:-}" ] && show_method=1  # several rows per size: name the method

reversed=""
for b in $bins; do reversed="$b $reversed"; done
if [ -n "${SASS:-}" ]; then
    sass="$(cd "$(dirname "$0")/.." && pwd)/scripts/nvidia_sass.py"
    for b in $bins; do
        name=$(basename "$b")
        if [ ! -x "$b/vkspd" ]; then
            echo "$name: no vkspd (the CLI) for SASS"
            continue
        fi
        for c in $SASS; do
            size=${c%%:*} format=${c#*:}
            at="$out/sass-$name-$size-$format"
            rm -rf "$at" "$at.cache"
            mkdir -p "$at"
            if "$b/vkspd" --random "$size" --format "$format" --no-write --pipeline-cache "$at.cache" > "$at.log" 2>&1; then
                code=$(python3 "$sass" "$at.cache" "$at" 2>&1 | sed -E 's/;.*//' | tr '\n' ' ')
            else
                code="the CLI failed ($at.log)"
            fi
            echo "$name $size $format: $code"
        done
    done
fi
for b in $bins; do
    name=$(basename "$b")
    if [ -x "$b/vkspd-pipeline-stats" ]; then
        "$b/vkspd-pipeline-stats" > "$out/stats-$name.txt" 2>&1
        regs=$(grep -E "${STATS:-^average fp16 (quad|plain|summed)}" "$out/stats-$name.txt" |
               sed -E 's/^([^:]*):.*Register Count=([0-9]+).*/\1 \2;/' | tr '\n' ' ')
        echo "$name registers: ${regs:-not reported by this device}"
    fi
done
failed=0
round=1
while [ "$round" -le "$rounds" ]; do
    order=$bins
    [ $((round % 2)) -eq 0 ] && order=$reversed
    for b in $order; do
        name=$(basename "$b")
        report="$out/ab-$name-$round.txt"
        backwards=0 label=""
        [ "$reverse" = 1 ] && [ $((round % 2)) -eq 0 ] && backwards=1 label=" (sizes reversed)"
        run_bench "$b/vkspd-bench" "$report" "$backwards" "$@" || failed=1
        floor=$(grep '^compute copy floor' "$report" | awk '{print $4}')
        range=$(grep '^copy floor over the repetitions' "$report" |
            sed -E 's/^copy floor over the repetitions: //; s/ timings left out \(a read probe[^)]*\)/ left out/')
        # A report row: format, size, method (several words), median, min, GB/s, % of floor,
        # x blit, clean, ...: the median is three fields before the first one ending in '%'; a
        # clean count ending in '!' (too few clean timings: unsteady) marks the median with '!'.
        medians=$(grep -E "$rows" "$report" | grep -v '^format ' | awk -v show="$show_method" '{
            for (i = 4; i <= NF; ++i) if ($i ~ /%$/) {
                method = ""
                if (show) { for (k = 3; k < i - 3; ++k) method = method (k > 3 ? "_" : "") $k; method = "[" method "]" }
                print substr($1, 1, 8) "/" $2 method ":" $(i - 3) ($(i + 2) ~ /!$/ ? "!" : ""); next
            }
        }' | tr '\n' ' ')
        echo "$name-$round$label floor $floor GB/s ($range) $medians"
    done
    round=$((round + 1))
done
[ "$failed" -eq 0 ] || echo "ab.sh: a run failed (see its report)"
if [ -n "${SUITE_DEB:-}" ]; then
    layers=$(mktemp -d)
    if dpkg -x "$SUITE_DEB" "$layers"; then
        VK_LAYER_PATH=$layers/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=$layers/usr/lib/x86_64-linux-gnu \
            "$last/vkspd_gpu_tests" "--gtest_filter=${TEST_FILTER:--*Stress*}" > "$out/gpu_tests.log" 2>&1
        status=$?
    else
        echo "ab.sh: cannot unpack $SUITE_DEB" > "$out/gpu_tests.log"
        status=1
    fi
    rm -rf "$layers"
    echo "gpu tests ($(basename "$last")) exit $status"
    grep -E '^\[  (PASSED|FAILED)  \]' "$out/gpu_tests.log"
    [ "$status" -eq 0 ] || failed=1
fi
exit "$failed"
