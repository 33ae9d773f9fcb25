#!/bin/sh
# Builds the test executables with AddressSanitizer + UndefinedBehaviorSanitizer (and
# LeakSanitizer) in build-sanitize/ and runs them.
#   sh scripts/sanitize.sh          the CI subset: unit tests and a handful of small GPU tests
#   sh scripts/sanitize.sh --full   the whole GPU and unit test suites (long on lavapipe)
# VKSPD_SANITIZE_BUILD_DIR names another build folder (default build-sanitize).
# Compiled at -O1 with -g1 (fast enough to run; line tables, so reports still name file and line,
# and a quicker build than -g); samples, bench and fuzz are off.
# Leaks inside the Vulkan loader, driver and validation layer are suppressed by
# tests/sanitizers/lsan.supp (library frames only, never vkspd's).
set -e
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-ci}
dir=${VKSPD_SANITIZE_BUILD_DIR:-build-sanitize}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DVKSPD_SANITIZE=ON -DVKSPD_BUILD_SAMPLES=OFF -DVKSPD_BUILD_BENCH=OFF -DVKSPD_BUILD_FUZZ=OFF \
    -DVKSPD_INSTALL=OFF >/dev/null
cmake --build "$dir" -j2 --target vkspd_unit_tests vkspd_gpu_tests

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"

if [ "$mode" = "--full" ]; then
    unit_filter='*'
    gpu_filter='*'
else
    # Small and quick, but through every layer: the CPU reference, the planner, bad input, a
    # destroyed context, half-maximum values on both precisions, threads on a fresh context.
    unit_filter='*'
    # (CountingTest.EveryInjectedAllocationFailureIsCleanedUp, which compiles the pipeline once per
    # injected failure, runs in the normal suite and in --full: too slow for CI under ASan.)
    gpu_filter='CountingTest.*:GpuTest.BadInput*:GpuTest.CreateContext*:GpuTest.HalfMaxStaysFinite*'
    gpu_filter="$gpu_filter:GpuTest.StressEightThreadsMixedSizesFreshContext:GpuTest.CallerOwnedScratchBuffer"
    gpu_filter="$gpu_filter-CountingTest.EveryInjectedAllocationFailureIsCleanedUp"  # after '-': excluded
fi
# The build folder as given: relative to the checkout, or absolute.
case $dir in
/*) bin=$dir ;;
*) bin=./$dir ;;
esac
echo "sanitize: unit tests ($unit_filter)"
"$bin/tests/vkspd_unit_tests" --gtest_filter="$unit_filter" --gtest_brief=1
echo "sanitize: GPU tests ($gpu_filter)"
"$bin/tests/vkspd_gpu_tests" --gtest_filter="$gpu_filter"
echo "sanitize: passed ($mode)"
