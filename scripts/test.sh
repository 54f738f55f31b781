#!/usr/bin/env bash
# Builds proofline and runs its test suite. On a machine with nvcc >= 12 it builds twice: with the CUDA backend
# (the kernels must compile; the GPU suite runs where there is a GPU and is reported as skipped elsewhere) and
# without it (every CPU test runs there). Exit status is non-zero when any build or test fails.
#
#   scripts/test.sh            # both configurations
#   JOBS=8 scripts/test.sh     # more parallel compile jobs
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=${JOBS:-$(nproc)}

if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "== CUDA build (kernels compile; GPU suite runs only where a GPU exists) =="
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  # Every library with its CUDA code, the programs and the GPU suite; the CPU-only suites are built and run once,
  # below (CUDA_TARGETS=all builds everything here too).
  cmake --build build -j "$jobs" --target ${CUDA_TARGETS:-proofline_gpu_tests proofline_gpu_failover_tests batch_prove verify_proof bench_gpu bench_gpu_msm bench_memory}
  ctest --test-dir build --output-on-failure -L gpu
else
  echo "== no nvcc >= 12 found: CUDA build skipped =="
fi

# The file readers under libFuzzer (tests/fuzz): a clang build of the libraries and tests/fuzz with ASan and UBSan,
# each target for PROOFLINE_FUZZ_SECONDS (10) from its committed corpus (ctest label fuzz).
echo "== fuzz targets (clang, ASan + UBSan, ${PROOFLINE_FUZZ_SECONDS:-10} s each) =="
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROOFLINE_ENABLE_CUDA=OFF \
  -DPROOFLINE_BUILD_TESTS=OFF -DPROOFLINE_BUILD_PERF=OFF -DPROOFLINE_BUILD_FUZZERS=ON -DPROOFLINE_SANITIZE=address \
  -DPROOFLINE_FUZZ_SECONDS="${PROOFLINE_FUZZ_SECONDS:-10}"
cmake --build build-fuzz -j "$jobs" --target proofline_fuzzers
ctest --test-dir build-fuzz --output-on-failure -L fuzz

# Last, so that its summary (every CPU test) is what a log reader sees at the end.
echo "== CPU-only build (every CPU test) =="
cmake -S . -B build-cpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROOFLINE_ENABLE_CUDA=OFF
cmake --build build-cpu -j "$jobs"
ctest --test-dir build-cpu --output-on-failure -j "$jobs"
