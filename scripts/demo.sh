#!/usr/bin/env bash
# Installs what is missing, builds proofline (with the CUDA backend when nvcc >= 12 is present) and runs
# batch_prove on a small synthetic batch on whatever backend this machine has. Extra arguments go to batch_prove.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "${JOBS:-$(nproc)}" --target batch_prove
exec build/apps/batch_prove "$@"
