#!/usr/bin/env bash
# Builds proofline with its default GPU code (native sm_90 for the H100/H200, sm_80, PTX) and stages the
# binaries plus the shared libraries the GPU machine lacks (oneTBB, spdlog 1.10, fmt 9, Boost.Container) into one folder
# that travels with a device run:
#
#   perf/gpu_stage.sh [TARGET ...]        # default: the GPU tests, the benchmarks and batch_prove
#   # then, on the GPU machine (device tool, carry: ["stage"]):
#   LD_LIBRARY_PATH=stage/lib stage/bin/proofline_gpu_tests
#
# Environment: BUILD_DIR (default build-gpu), STAGE_DIR (default stage), JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build-gpu}
stage_dir=${STAGE_DIR:-stage}
jobs=${JOBS:-2}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(proofline_gpu_tests)
  for optional in bench_memory bench_gpu bench_cpu_arith bench_pipeline batch_prove verify_proof; do
    if grep -rqs "add_executable($optional\b" --include=CMakeLists.txt perf apps; then targets+=("$optional"); fi
  done
fi

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROOFLINE_BUILD_TESTS=ON \
  -DPROOFLINE_BUILD_PERF=ON >/dev/null
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}"

rm -rf "$stage_dir"
mkdir -p "$stage_dir/bin" "$stage_dir/lib"
for target in "${targets[@]}"; do
  binary=$(find "$build_dir" -type f -name "$target" -perm -u+x | head -n 1)
  [ -n "$binary" ] || { echo "gpu_stage: no binary for $target" >&2; exit 1; }
  strip -o "$stage_dir/bin/$target" "$binary"
  # Copy the libraries the GPU machine (Ubuntu 24.04, CUDA 13) does not have; it has libcudart.so.13.
  # (grep finds nothing for a binary that needs none of them: not an error under pipefail.)
  ldd "$binary" | awk '/=> \// {print $3}' | { grep -E 'libtbb|libspdlog|libfmt|libboost_container|libgmp' || true; } |
    while read -r lib; do cp -L "$lib" "$stage_dir/lib/"; done
done
du -sh "$stage_dir"
