#!/bin/sh
# A second try of arrival/'s A/B on the same H100, whose copy floor stayed at ~1675 GB/s (another
# load on the GPU, or its memory): kept for the record, not compared.
sh bench/ab.sh "$3/ab2" 3 "$1" "$2" -- --sizes 1920x1080,3840x2160,4095x4095,4096x4096 \
    --formats rgba8,rgba16f --methods default --cols none --reps 30
