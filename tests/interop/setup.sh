#!/usr/bin/env bash
# Installs the pinned snarkjs and circom2 (package.json, package-lock.json beside this script) from the npm registry
# into NODE_DIR/node_modules with `npm ci`. A second run with the same lock file does nothing, so the build
# directory caches the install. Fails loudly (non-zero exit, the reason on stderr) when node or npm is missing or
# the registry cannot be reached: the interop tests must never pass without having run.
#
#   tests/interop/setup.sh NODE_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
node_dir=${1:?usage: setup.sh NODE_DIR}
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "interop setup: '$tool' is not installed (scripts/install-deps.sh installs nodejs and npm)" >&2
    exit 1
  fi
done
mkdir -p "$node_dir"
stamp="$node_dir/.installed-lock.sha256"
want=$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$node_dir/node_modules/snarkjs/build/cli.cjs" ] &&
  [ -f "$node_dir/node_modules/circom2/cli.js" ]; then
  echo "interop setup: snarkjs and circom2 already installed in $node_dir"
  exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$node_dir/"
rm -f "$stamp"
echo "interop setup: npm ci in $node_dir (snarkjs 0.7.6, circom2 0.2.23, circomlib 2.0.5)"
if ! (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error); then
  echo "interop setup: FAILED: npm ci could not install snarkjs and circom2 (is the npm registry reachable?)" >&2
  exit 1
fi
node "$node_dir/node_modules/snarkjs/build/cli.cjs" --version >/dev/null 2>&1 || true
echo "$want" >"$stamp"
echo "interop setup: installed"
