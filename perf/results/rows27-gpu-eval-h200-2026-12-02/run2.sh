#!/usr/bin/env bash
# Call 2: the whole GPU suite on the final tree's binaries.
set -u
tar xJf stage/bins.txz -C stage
export LD_LIBRARY_PATH=$PWD/stage/lib
export PROOFLINE_SNARKJS_FIXTURES=$PWD/tests/fixtures/snarkjs
timeout 540 stage/bin/proofline_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "rc $?" >> $OUT/gpu_tests.log
tail -5 $OUT/gpu_tests.log
