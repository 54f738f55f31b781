#!/usr/bin/env bash
# The CPU prover before and after a change, in interleaved processes on the same keys and witnesses, for a
# machine shared with other work, where two figures are comparable only side by side. Variants, in this order
# every round: "before" (BEFORE_DIR's binaries, when --before is given), "portable" (BUILD_DIR's binaries
# with PROOFLINE_CPU_MULX=0: the portable field arithmetic) and "mulx" (BUILD_DIR's binaries as they are).
#
#   perf/cpu_prover_ab.sh [--runs R] [--proofs P] [--before BEFORE_DIR] [--bls LOG2 ...] BUILD_DIR OUT_DIR
#                         [KEY_DIR ...]
#
# Each KEY_DIR holds a snarkjs key.zkey and witness.wtns (bn128 or bls12381, e.g. made by
# perf/snarkjs_vs_proofline.sh): one bench_snarkjs process per variant and round, P proofs each (median
# inside the process, stages of the best). --bls LOG2: bench_groth16's synthetic BLS12-381 circuit at 2^LOG2
# (its 20/50/30 witness mix; keys cached in OUT_DIR/keys), P proofs per process. R rounds (default 3).
# Writes OUT_DIR/<case>.<variant>.<round>.json, OUT_DIR/<case>.<variant>.<round>.cpu (the process's user and
# system CPU seconds: on a loaded machine the wall times stretch with the load, the CPU time much less) and
# OUT_DIR/load.txt (uptime after each process); perf/cpu_prover_ab_table.py makes the table.
set -euo pipefail
runs=3 proofs=3 bls=() before=
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=${2:?}; shift 2 ;;
    --proofs) proofs=${2:?}; shift 2 ;;
    --bls) bls+=("${2:?}"); shift 2 ;;
    --before) before=$(cd "${2:?}" && pwd); shift 2 ;;
    *) break ;;
  esac
done
build=$(cd "${1:?BUILD_DIR}" && pwd)
out=$(mkdir -p "${2:?OUT_DIR}" && cd "$2" && pwd)
shift 2
mkdir -p "$out/keys"
variants=(portable mulx)
[ -z "$before" ] || variants=(before portable mulx)
# run VARIANT CASE ROUND PROGRAM ARGS...: one process of PROGRAM (a perf/ binary) for that variant, timed.
run() {
  local variant=$1 name=$2 round=$3 program=$4 dir=$build flag=1
  shift 4
  [ "$variant" != portable ] || flag=0
  [ "$variant" != before ] || dir=$before
  PROOFLINE_CPU_MULX=$flag /usr/bin/time -f "%U %S" -o "$out/$name.$variant.$round.cpu" \
    "$dir/perf/$program" "$@" --json "$out/$name.$variant.$round.json" >/dev/null
  echo "$name $variant $round $(uptime)" >>"$out/load.txt"
}
echo "start $(date -u +%FT%TZ) $(uptime)" >>"$out/load.txt"
for round in $(seq 1 "$runs"); do
  for dir in "$@"; do
    for variant in "${variants[@]}"; do
      run "$variant" "$(basename "$dir")" "$round" bench_snarkjs --zkey "$dir/key.zkey" --wtns "$dir/witness.wtns" \
        --runs "$proofs"
    done
  done
  for k in "${bls[@]}"; do
    for variant in "${variants[@]}"; do
      run "$variant" "bls12381_$k" "$round" bench_groth16 --min-log "$k" --max-log "$k" --runs "$proofs" \
        --cache-dir "$out/keys"
    done
  done
done
echo "end $(date -u +%FT%TZ) $(uptime)" >>"$out/load.txt"
