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

echo "== CPU-only build (every CPU test) =="
cmake -S . -B build-cpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROOFLINE_ENABLE_CUDA=OFF
cmake --build build-cpu -j "$jobs"
ctest --test-dir build-cpu --output-on-failure -j "$jobs"

if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "== CUDA build (kernels compile; GPU suite runs only where a GPU exists) =="
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build build -j "$jobs"
  ctest --test-dir build --output-on-failure -L gpu
else
  echo "== no nvcc >= 12 found: CUDA build skipped =="
fi
