#!/usr/bin/env bash
# Call 5: pl_submit_scalars copies each job's witness; into buffers used again (new libproofline) or into a
# fresh allocation per job (old libproofline, the build of call 4). The same bench_capi binary (its C++ side
# is linked in, its C side loads libproofline.so.1) with either library: 2^20 x128, C ABI vs C++ in the same
# process, submitted with at most 16 jobs unfinished (a client whose witnesses come one by one) and all at
# once, old then new. stage/new.txz: bench_capi and the new libraries; stage/oldlib.txz: the old
# libproofline.so.1.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p "$out/c5" /tmp/kc /tmp/new
tar xJf stage/new.txz -C /tmp/new && tar xJf stage/oldlib.txz -C /tmp
bench() {  # variant, name, options
  local libs=/tmp/new/lib; [ "$1" = old ] && libs=/tmp/oldlib:/tmp/new/lib
  local name=$2; shift 2
  LD_LIBRARY_PATH=$libs timeout 150 /tmp/new/bin/bench_capi --log-n 20 --count 128 --reps 3 --warmup 8 \
    --backend cuda --key-cache /tmp/kc --json "$out/c5/$name.json" "$@" > "$out/c5/$name.log" 2>&1
  echo "$name rc=$? $(grep -E 'overhead' "$out/c5/$name.log") t=$((SECONDS - start))"
}
bench old paced_old --outstanding 16
bench new paced_new --outstanding 16
bench old all_old
bench new all_new
cd "$out" && tar czf c5.tgz c5 && rm -rf c5
