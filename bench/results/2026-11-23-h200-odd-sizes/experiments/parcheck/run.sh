#!/bin/bash
# par build: stress at 10,000 calls (no validation), the CLI's --verify of odd chains in three variants.
G=$PWD/.gpu
R=$OUT/parcheck; mkdir -p $R
VKSPD_TEST_NO_VALIDATION=1 VKSPD_STRESS_CALLS=10000 timeout 100 $G/par/vkspd_gpu_tests --gtest_filter=*Stress* > $R/stress.log 2>&1
echo "stress exit $?: $(grep -E '^\[ stress|^\[  (PASSED|FAILED)  \]' $R/stress.log | tr '\n' ' ')"
f=0
for s in 4095x4095 3840x2160 1920x1080 8191x4097; do for o in "" "--fp32" "--path lds"; do
  echo "== $s $o" >> $R/samples.txt
  $G/par/vkspd --random $s --linear --no-write --verify $o >> $R/samples.txt 2>&1 || f=$((f+1))
done; done
echo "CLI checks failed: $f; $(grep -c 'verified: every level' $R/samples.txt) verified"
cd $OUT && tar czf parcheck.tgz parcheck
