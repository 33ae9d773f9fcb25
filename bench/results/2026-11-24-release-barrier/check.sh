#!/bin/bash
# The whole device check (bench/gpu_check.sh with its defaults: the GPU suite and examples under
# validation, stress 10,000 calls, unit tests, the CLI's full checks, the results benchmark) with
# the exchange's lighter first barrier (the README's table).
cd "$(dirname "$0")/../../.."
timeout 590 sh bench/gpu_check.sh build-gpu $OUT/check build-gpu/vulkan-validationlayers_1.3.239.0-2_amd64.deb
echo "gpu_check exit $?"
grep -E "default|tiles|blit" $OUT/check/bench.txt | grep -E "^R(8G8B8A8|16G16B16A16)" | grep -v prepared | awk '{ for (i = 4; i <= NF; ++i) if ($i ~ /%$/) { m = ""; for (k = 3; k < i - 3; ++k) m = m " " $k; printf "%-6s %-12s %-44s %9s %7s %6s\n", substr($1, 1, 6), $2, m, $(i-3), $i, $(i+1); next } }'
cd $OUT && tar czf check.tgz check && rm -rf check
