#!/usr/bin/env bash
# On the H200 (carry: ["stage"], stage/circom.txz from prep.sh): a circom batch whose witnesses the circuit's
# generator computes in-process, one single-threaded calculator call per job, at several synthesis
# concurrencies, beside the same jobs from .wtns files. Every proof verified by proofline before it is written.
#   run.sh $OUT NAME [RUNS...]     # default: wtns default 16 default 16 4 8 12
# A run: default (no --synth-threads), N (--synth-threads N), wtns or wtns:N (the same from the .wtns files).
set -u
out=${1:?OUT} name=${2:?name}
shift 2
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(wtns default 16 default 16 4 8 12)
mkdir -p /tmp/x && tar xJf stage/circom.txz -C /tmp/x && cd /tmp/x/cg
export LD_LIBRARY_PATH=$PWD/lib
dir=$out/$name && mkdir -p "$dir"
nproc >"$dir/machine.txt" && nvidia-smi -L >>"$dir/machine.txt"
pl=(bin/proofline)
start=$SECONDS
"${pl[@]}" witness --circuit heavy_cpp --input inputs/*.json --out wtns --cache-dir cache >"$dir/witness.log" 2>&1
echo "witness rc=$? $(tail -1 "$dir/witness.log") t=$((SECONDS - start))"
i=0
for run in "${runs[@]}"; do
  i=$((i + 1)) tag=$(printf '%02d-%s' "$i" "${run/:/-}") extra=()
  case $run in
    wtns*) src=(--wtns wtns/*.wtns) ;;
    *) src=(--circuit heavy_cpp --input inputs/*.json) ;;
  esac
  threads=${run#wtns} threads=${threads#:}
  [ -z "$threads" ] || [ "$threads" = default ] || extra=(--synth-threads "$threads")
  rm -rf proofs && "${pl[@]}" batch heavy.zkey "${src[@]}" "${extra[@]}" --cache-dir cache --out proofs --no-progress --log-level info \
    --report "$dir/$tag.json" >"$dir/$tag.log" 2>&1
  echo "$tag rc=$? $(tail -1 "$dir/$tag.log") t=$((SECONDS - start))"
done
cd "$out" && tar czf "$name.tgz" "$name" && rm -rf "$name"
