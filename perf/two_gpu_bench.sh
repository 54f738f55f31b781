#!/usr/bin/env bash
# Two GPUs of one host, measured: batch_prove on the first GPU alone and on both, keys placed on one GPU or on
# both, and two proofline-fleet workers (one per GPU) against one PostgreSQL server on the same host, one of
# them killed mid-run. Every proof is verified.
#
#   perf/two_gpu_bench.sh STAGE_DIR OUT_DIR
#
# STAGE_DIR: perf/gpu_stage.sh batch_prove proofline-fleet proofline_gpu_tests (bin/, lib/), plus
# perf/stage_postgres.sh's STAGE_DIR/postgres.tar.xz for the fleet section. Environment:
#   GPUS      the two CUDA devices (default "0 1"); one device rehearses every command on it alone (the "both"
#             runs are skipped, both fleet workers share it)
#   SECTIONS  any of "tests scale keys fleet" (default all four); tests: the GPU suite's multi-GPU cases
#   SIZES     scale section, LOG2:JOBS pairs (default "22:48 24:16"); each on one GPU and on both, live and
#             presynthesized (--mode pinned,pinned:pre), one batch_prove run each
#   KEYS_LOG2, KEYS_JOBS  keys section (default 22, 48): two keys, each on one GPU (--key-gpus spread), jobs mixed
#   FLEET_LOG2, FLEET_JOBS, FLEET_RUNS  fleet section (default 22, 48, 2)
#   WORKER_OPTS  extra worker options (e.g. --vram-budget 60G when both workers share one GPU)
#
# Outputs in OUT_DIR: every report JSON and log, scale.txt, keys.txt, fleet.txt (tables), commands.txt.
set -uo pipefail
stage=$(cd "${1:?stage folder}" && pwd)
out=${2:?output folder}
root=$(cd "$(dirname "$0")/.." && pwd)
read -r -a gpus <<<"${GPUS:-0 1}"
sections=${SECTIONS:-tests scale keys fleet}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/proofline-two-gpu.XXXXXX)
chmod 755 "$work"
worker_pids=()
cleanup() {
  for pid in "${worker_pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  [ -d "$work/pg" ] && LD_LIBRARY_PATH=$work/pg/lib "$root/tests/fleet/pg_server.sh" stop "$work/state" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
export LD_LIBRARY_PATH=$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
both=$(IFS=,; echo "${gpus[*]}")
status=0
# Each command goes to commands.txt whole, and to the terminal cut short (witness lists are long).
note() {
  local line="$*"
  echo "$line" >>"$out/commands.txt"
  echo "${line:0:240}"
}
# batch_prove with its command recorded; a failed run marks the script failed but the others go on.
prove() {
  local name=$1
  shift
  note "batch_prove $*"
  "$stage/bin/batch_prove" --no-progress --verify "$@" >"$out/$name.log" 2>&1 || {
    status=1
    tail -5 "$out/$name.log" >&2
  }
}

if [[ " $sections " == *" tests "* ]]; then
  echo "== tests: the GPU suite's cases for several GPUs =="
  note "proofline_gpu_tests -tc='pipeline/gpu/every GPU*,pipeline/gpu/two keys*,pipeline/gpu/a batch alternating*'"
  "$stage/bin/proofline_gpu_tests" -tc='pipeline/gpu/every GPU*,pipeline/gpu/two keys*,pipeline/gpu/a batch alternating*' >"$out/gpu_tests.log" 2>&1 ||
    status=1
  tail -3 "$out/gpu_tests.log"
fi

if [[ " $sections " == *" scale "* ]]; then
  echo "== scale: one GPU and ${#gpus[@]} =="
  for size in ${SIZES:-22:48 24:16}; do
    log2=${size%%:*} count=${size##*:}
    for placement in "${gpus[0]}" "$both"; do
      [ "$placement" = "${gpus[0]}" ] || [ "${#gpus[@]}" -gt 1 ] || continue
      tag=scale-$log2-gpus${placement//,/}
      prove "$tag" --synthetic "$log2" --count "$count" --gpus "$placement" --mode pinned,pinned:pre \
        --key-cache "$work/keys" --report "$out/$tag.json"
    done
  done
  python3 - "$out" "${gpus[0]}" "${both//,/}" ${SIZES:-22:48 24:16} <<'PY' | tee "$out/scale.txt"
import json, os, sys
out, one, two, sizes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def load(log2, gpus, run):
    path = f"{out}/scale-{log2}-gpus{gpus}.{run}.json"
    return json.load(open(path)) if os.path.exists(path) else None
def each(values, fmt):
    return " / ".join("-" if v is None else fmt % v for v in values)
print("| rows x jobs | run | GPUs | proofs/s (verified) | ratio to one GPU | jobs per GPU | busy per GPU (steady) | H2D GB/s per GPU |")
print("|---|---|---|---|---|---|---|---|")
for size in sizes:
    log2, count = size.split(":")
    for run, label in (("pinned", "live"), ("pinned-pre", "presynthesized")):
        base = load(log2, one, run)
        for gpus in dict.fromkeys([one, two]):
            r = load(log2, gpus, run)
            if r is None:
                continue
            ratio = "%.3f" % (r["proofs_per_s"] / base["proofs_per_s"]) if base else "-"
            print("| 2^%s x %s | %s | %s | %.3f (%d/%d) | %s | %s | %s | %s |" % (
                log2, count, label, ",".join(map(str, r["gpus"])), r["proofs_per_s"], r["verified"], r["jobs"],
                ratio, " / ".join(map(str, r["gpu_jobs"])),
                each([None if b is None else 100 * b for b in r["gpu_busy_each"]], "%.1f%%"),
                each(r["h2d_gbps_each"], "%.1f")))
PY
fi

if [[ " $sections " == *" keys "* ]]; then
  echo "== keys: two keys, each resident on one GPU, jobs mixed =="
  log2=${KEYS_LOG2:-22} count=${KEYS_JOBS:-48}
  # Both keys everywhere first: the first process on a fresh machine pins its pages slowest.
  for placement in all spread; do
    prove "keys-$placement" --synthetic "$log2" --count "$count" --keys 2 --key-gpus "$placement" --gpus "$both" \
      --mode pinned:pre --key-cache "$work/keys" --report "$out/keys-$placement.json" --log-level info
  done
  python3 - "$out" <<'PY' | tee "$out/keys.txt"
import json, os, sys
out = sys.argv[1]
print("| keys placed | proofs/s (verified) | jobs per GPU | SRS uploads during the batch | busy per GPU |")
print("|---|---|---|---|---|")
for placement, label in (("spread", "key 0 on the first GPU, key 1 on the second"), ("all", "both keys on every GPU")):
    path = f"{out}/keys-{placement}.json"
    if not os.path.exists(path):
        continue
    r = json.load(open(path))
    busy = " / ".join("-" if b is None else "%.1f%%" % (100 * b) for b in r["gpu_busy_each"])
    print("| %s | %.3f (%d/%d) | %s | %d | %s |" % (label, r["proofs_per_s"], r["verified"], r["jobs"],
          " / ".join(map(str, r["gpu_jobs"])), r["extra"]["srs_loads_in_batch"], busy))
PY
fi

if [[ " $sections " == *" fleet "* ]]; then
  echo "== fleet: a worker per GPU, one PostgreSQL =="
  log2=${FLEET_LOG2:-22} jobs=${FLEET_JOBS:-48} runs=${FLEET_RUNS:-2}
  pg=$work/pg
  mkdir -p "$pg" && tar -C "$pg" -xJf "$stage/postgres.tar.xz" || {
    echo "two_gpu_bench: no $stage/postgres.tar.xz (perf/stage_postgres.sh)" >&2
    exit 1
  }
  chmod -R a+rX "$pg"
  export PROOFLINE_PG_BINDIR=$pg/usr/lib/postgresql/15/bin
  if [ "$(id -u)" -eq 0 ] && ! id -u "${PROOFLINE_PG_USER:-postgres}" >/dev/null 2>&1; then export PROOFLINE_PG_USER=nobody; fi
  LD_LIBRARY_PATH=$pg/lib "$root/tests/fleet/pg_server.sh" start "$work/state" || exit 1
  psql() { LD_LIBRARY_PATH=$pg/lib "$PROOFLINE_PG_BINDIR/psql" -X -A -t -q -F ' ' "$(cat "$work/state/conninfo") dbname=bench" "$@"; }
  LD_LIBRARY_PATH=$pg/lib "$PROOFLINE_PG_BINDIR/psql" -X -q "$(cat "$work/state/conninfo")" -c "CREATE DATABASE bench" || exit 1
  printf 'postgresql://proofline@127.0.0.1:%s/bench\n' "$(cat "$work/state/port")" >"$work/url"
  fleet_env=(env "LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$pg/lib")

  note "batch_prove --synthetic $log2 --count $jobs --export-snarkjs W"
  "$stage/bin/batch_prove" --synthetic "$log2" --count "$jobs" --export-snarkjs "$work/w" >"$out/export.log" 2>&1 ||
    { cat "$out/export.log" >&2; exit 1; }
  witnesses=("$work"/w/witness-*.wtns)
  zkey=$work/w/circuit.zkey
  vk=$work/w/verification_key.json

  # One worker per GPU (the second GPU's, or the same one when rehearsing on one), a short lease so that a
  # killed worker's jobs come back within seconds.
  start_worker() {
    local i=$1 device=${gpus[$(($1 % ${#gpus[@]}))]}
    note "CUDA_VISIBLE_DEVICES=$device proofline-fleet worker --name gpu$i --backend cuda --zkey-check curve --lease 10 ${WORKER_OPTS:-}"
    # shellcheck disable=SC2086
    CUDA_VISIBLE_DEVICES=$device "${fleet_env[@]}" "$stage/bin/proofline-fleet" worker --db-url-file "$work/url" \
      --name "gpu$i" --backend cuda --zkey-check curve --lease 10 ${WORKER_OPTS:-} >"$out/worker-gpu$i.log" 2>&1 &
    worker_pids[$i]=$!
  }
  submit() { "${fleet_env[@]}" "$stage/bin/proofline-fleet" submit --db-url-file "$work/url" --zkey "$zkey" "$@"; }
  last_id() { psql -c "SELECT coalesce(max(id), 0) FROM proofline.jobs"; }
  start_worker 0
  start_worker 1
  # Warm-up: both workers load the key (and pin their slots) on a first claim; batches until each proved one.
  for attempt in 1 2 3 4 5 6; do
    submit --wtns "${witnesses[@]:0:4}" --wait --check-vk "$vk" >>"$out/submit-warmup.log" 2>&1 || status=1
    [ "$(psql -c "SELECT count(*) FROM proofline.workers WHERE proofs > 0 AND name IN ('gpu0', 'gpu1')")" -eq 2 ] && break
  done

  for run in $(seq 1 "$runs"); do
    rm -rf "$work/out" && mkdir -p "$work/out"
    prove "fleet-batch_prove-$run" --backend cuda --gpus "$both" --zkey "$zkey" --zkey-check curve \
      --wtns "${witnesses[@]}" --out "$work/out" --report "$out/fleet-batch_prove-$run.json"
    first=$(last_id)
    note "proofline-fleet submit --zkey K --wtns (${#witnesses[@]} files) --wait --check-vk VK"
    submit --wtns "${witnesses[@]}" --wait --check-vk "$vk" >"$out/submit-$run.log" 2>&1 || status=1
    psql -c "SELECT $run, count(*) FILTER (WHERE state = 'done'), count(*) FILTER (WHERE verified),
        extract(epoch FROM max(finished_at) - min(submitted_at)),
        count(*) FILTER (WHERE j.worker = 'gpu0'), count(*) FILTER (WHERE j.worker = 'gpu1')
      FROM proofline.jobs j LEFT JOIN proofline.results r ON r.job_id = j.id WHERE j.id > $first" >>"$work/fleet-runs"
  done

  # SIGKILL one worker mid-run: the other proves the rest, its leases expired ones included.
  first=$(last_id)
  note "proofline-fleet submit --zkey K --wtns (${#witnesses[@]} files); kill -KILL worker gpu1 after a quarter"
  submit --wtns "${witnesses[@]}" >"$out/submit-kill.log" 2>&1 || status=1
  killed_at=
  deadline=$((SECONDS + 400))
  while [ $SECONDS -lt $deadline ]; do
    read -r done_count open_count < <(psql -c "SELECT count(*) FILTER (WHERE state = 'done'),
        count(*) FILTER (WHERE state IN ('queued', 'running')) FROM proofline.jobs WHERE id > $first")
    if [ -z "$killed_at" ] && [ "$done_count" -ge $((jobs / 4)) ]; then
      kill -KILL "${worker_pids[1]}" && killed_at=$done_count
      held=$(psql -c "SELECT count(*) FROM proofline.jobs WHERE id > $first AND state = 'running' AND worker = 'gpu1'")
      echo "killed worker gpu1 with $done_count jobs done, $held running on it" | tee "$out/kill.txt"
    fi
    [ "$open_count" -eq 0 ] && break
    sleep 0.2
  done
  psql -c "SELECT count(*), count(*) FILTER (WHERE state = 'done'), count(*) FILTER (WHERE state = 'failed'),
      count(*) FILTER (WHERE attempts > 1), count(*) FILTER (WHERE worker = 'gpu0'), count(*) FILTER (WHERE worker = 'gpu1'),
      (SELECT count(*) FROM proofline.results r WHERE r.job_id > $first),
      (SELECT count(DISTINCT r.job_id) FROM proofline.results r WHERE r.job_id > $first),
      (SELECT count(*) FROM proofline.results r WHERE r.job_id > $first AND r.verified),
      extract(epoch FROM max(finished_at) - min(submitted_at))
    FROM proofline.jobs WHERE id > $first" >"$work/kill-counts"
  kill -TERM "${worker_pids[0]}" && wait "${worker_pids[0]}" || status=1
  worker_pids=()

  python3 - "$out" "$runs" "$work/fleet-runs" "$work/kill-counts" "$jobs" <<'PY' | tee "$out/fleet.txt"
import json, sys
out, runs, fleet_runs, kill_counts, jobs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
ok = True
print("| run | batch_prove on both GPUs, proofs/s | two fleet workers, proofs/s | fleet / batch_prove | fleet jobs done (verified) | jobs per worker |")
print("|---|---|---|---|---|---|")
for line in open(fleet_runs):
    run, done, verified, span, w0, w1 = line.split()
    b = json.load(open(f"{out}/fleet-batch_prove-{run}.json"))
    rate = int(done) / float(span)
    print("| %s | %.3f (%d/%d) | %.3f | %.3f | %s (%s) | %s / %s |" % (
        run, b["proofs_per_s"], b["verified"], b["jobs"], rate, rate / b["proofs_per_s"], done, verified, w0, w1))
total, done, failed, again, w0, w1, results, distinct, verified, span = open(kill_counts).read().split()
print()
print("| worker gpu1 killed (SIGKILL) after a quarter | value |")
print("|---|---|")
for name, value in (("jobs submitted", total), ("done / failed", f"{done} / {failed}"),
                    ("proved again after the kill (attempts > 1)", again), ("last proved by gpu0 / gpu1", f"{w0} / {w1}"),
                    ("results (distinct jobs, verified)", f"{results} ({distinct}, {verified})"),
                    ("submission to last result", f"{float(span):.1f} s")):
    print(f"| {name} | {value} |")
ok = int(done) == jobs and int(failed) == 0 and int(results) == jobs and int(distinct) == jobs
print()
print("nothing lost or doubled:", "yes" if ok else "NO")
sys.exit(0 if ok else 1)
PY
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
exit $status
