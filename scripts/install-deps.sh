#!/usr/bin/env bash
# Installs what proofline needs on Debian 12 (only what is missing): the compiler toolchain, CMake and Ninja,
# oneTBB, Boost.Container, spdlog, doctest, GMP (the tests' big-integer oracle) and Node.js/npm (interop tests).
# The CUDA toolkit is optional and not installed here: with nvcc >= 12 on PATH or in /usr/local/cuda the
# CUDA backend is built, otherwise the CPU backend alone.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libtbb-dev libboost-container-dev libspdlog-dev doctest-dev
          libgmp-dev ccache)
packages+=(clang libclang-rt-14-dev)  # the libFuzzer builds of the file readers (tests/fuzz)
packages+=(libpq-dev postgresql)      # the fleet's queue: libpq, and a server its tests start in a temporary folder
packages+=(locales)                   # a German locale for that server's messages (made by the tests, not installed)
packages+=(rustc golang-go python3)   # the C ABI's examples in Rust, Go and Python (compilers only, no registries)
packages+=(nasm nlohmann-json3-dev)   # circom's C++ witness generators (fr.asm, JSON inputs), built in-process
packages+=(wabt)                      # wasm2c and its runtime: circom's --wasm output as an in-process generator
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
# Node.js may come from another repository (with npm bundled): only ask Debian for it when absent.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
