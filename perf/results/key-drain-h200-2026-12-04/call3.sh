#!/usr/bin/env bash
# Call 3: the whole GPU suite on the build with L's shared sort and keys in use that give up MSM tables
# (a new key registered while another key's jobs hold its SRS: the busy key drains, is uploaded again with
# fewer tables, and the new key is resident beside it).
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/st && tar xJf stage/bins.txz -C /tmp/st
export LD_LIBRARY_PATH=/tmp/st/lib
mkdir -p "$out/c3"
timeout 540 /tmp/st/bin/proofline_gpu_tests --duration=true > "$out/c3/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c3/gpu_tests.log" | tr '\n' ' ') t=$((SECONDS - start))"
grep -E "in use|gives up|keeps MSM|drain" "$out/c3/gpu_tests.log" | head -20
