#!/usr/bin/env bash
# Builds proofline and runs its test suite. On a machine with nvcc >= 12 it builds twice: with the CUDA backend
# (the kernels must compile; the GPU suite runs where there is a GPU and is reported as skipped elsewhere) and
# without it (every CPU test runs there). The fuzz targets build in a third, clang-instrumented tree. Exit status
# is non-zero when any build or test fails.
#
#   scripts/test.sh            # both configurations and the fuzz targets
#   JOBS=8 scripts/test.sh     # more parallel compile jobs
#
# Each phase prints its wall and CPU time ("phase ...: N s wall"), so a slow CI run shows where the time went.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=${JOBS:-$(nproc)}
root=$PWD

# The CUDA and CPU-only trees compile most host files with the same flags; only the absolute path of each tree's
# include root (build*/include) differs. ccache rewrites paths under its base directory to relative ones, so the
# second tree takes those objects from the cache instead of compiling them again. Files that include no CUDA
# header hit even where the CUDA tree adds its include directory: ccache's preprocessor mode hashes what the
# preprocessor produced, not the -I/-isystem options that led there.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
# The fuzz tree compiles with line tables (-gline-tables-only), and ccache keys objects with debug information
# on the folder they were compiled in unless told not to: a checkout in another folder would compile that tree
# again. The only cost is a stale compilation folder in those line tables.
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}

TIMEFORMAT='%R s wall, %U s user, %S s system'
phase() {  # phase NAME COMMAND...: runs the command and reports how long it took
  local name=$1
  shift
  echo "== $name: started $(date -u +%H:%M:%S) =="
  local TIMEFORMAT="phase $name: $TIMEFORMAT"
  time "$@"
}

# snarkjs and circom2 for the interop and circom tests: npm ci waits on the network, not the CPU, so it runs
# during the builds. The interop setup test runs the same script later: it finds the install done, or installs
# again and fails loudly with the reason.
node_dir=$root/build-cpu/interop/node
npm_log=$root/build-cpu/interop/npm-prefetch.log
npm_pid=
if command -v npm >/dev/null 2>&1; then
  mkdir -p "$(dirname "$npm_log")"
  tests/interop/setup.sh "$node_dir" >"$npm_log" 2>&1 &
  npm_pid=$!
fi

# The file readers under libFuzzer (tests/fuzz): a clang build of the libraries they link and tests/fuzz with ASan
# and UBSan. It compiles in the background at low priority, on the cores the other builds leave idle
# (configuration, link steps, the last long files); its targets run later, each on a core of its own.
fuzz_seconds=${PROOFLINE_FUZZ_SECONDS:-10}
fuzz_log=$root/build-fuzz/build.log
build_fuzzers() {
  renice -n 10 -p "$BASHPID" >/dev/null
  # -O1 and line tables only: the instrumented libraries build in about 60 % of the CPU time of -O2 -g, and a
  # 10-second run loses little to the slower code (libFuzzer's own advice for ASan builds is -O1 or -O2).
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" -DPROOFLINE_ENABLE_CUDA=OFF \
    -DPROOFLINE_BUILD_TESTS=OFF -DPROOFLINE_BUILD_PERF=OFF -DPROOFLINE_BUILD_FUZZERS=ON -DPROOFLINE_SANITIZE=address \
    -DPROOFLINE_FUZZ_SECONDS="$fuzz_seconds"
  cmake --build build-fuzz -j "$jobs" --target proofline_fuzzers
}
mkdir -p build-fuzz
# Its own process group (set -m), so that an early exit stops the whole background build, compilers included.
set -m
(phase "fuzz build (background)" build_fuzzers) >"$fuzz_log" 2>&1 &
fuzz_pid=$!
set +m
trap 'kill -- -"$fuzz_pid" 2>/dev/null || true' EXIT

cuda_build() {
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  # Every library with its CUDA code, the programs and the GPU suite; the CPU-only suites are built and run once,
  # below (CUDA_TARGETS=all builds everything here too).
  cmake --build build -j "$jobs" --target ${CUDA_TARGETS:-proofline_gpu_tests proofline_gpu_failover_tests \
    batch_prove verify_proof bench_gpu bench_gpu_msm bench_memory}
}
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "== CUDA build (kernels compile; GPU suite runs only where a GPU exists) =="
  phase "CUDA build" cuda_build
  phase "GPU tests" ctest --test-dir build --output-on-failure -L gpu
else
  echo "== no nvcc >= 12 found: CUDA build skipped =="
fi

cpu_build() {
  cmake -S . -B build-cpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROOFLINE_ENABLE_CUDA=OFF
  cmake --build build-cpu -j "$jobs"
}
echo "== CPU-only build (every CPU test) =="
phase "CPU build" cpu_build

echo "== fuzz targets (clang, ASan + UBSan, $fuzz_seconds s each) =="
fuzz_status=0
wait "$fuzz_pid" || fuzz_status=$?
cat "$fuzz_log"
if [ "$fuzz_status" -ne 0 ]; then
  echo "== fuzz build FAILED (exit $fuzz_status): the log above says why ==" >&2
  exit "$fuzz_status"
fi
phase "fuzz run" ctest --test-dir build-fuzz --output-on-failure -L fuzz -j "$jobs"

# Last, so that its summary (every CPU test) is what a log reader sees at the end.
if [ -n "$npm_pid" ]; then
  wait "$npm_pid" || echo "== npm prefetch failed (the interop setup test retries and reports why) =="
  cat "$npm_log"
fi
phase "CPU tests" ctest --test-dir build-cpu --output-on-failure -j "$jobs"
