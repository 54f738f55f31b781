#!/usr/bin/env bash
# The fleet on a GPU machine: one proofline-fleet worker (CUDA backend) against one PostgreSQL server on the same
# host, beside batch_prove on the same GPU, the same key and the same witness files, alternating, in one run.
#
#   perf/fleet_gpu_bench.sh STAGE_DIR OUT_DIR
#
# STAGE_DIR: perf/gpu_stage.sh batch_prove proofline-fleet (bin/, lib/) plus perf/stage_postgres.sh's
# STAGE_DIR/postgres.tar.xz. Environment: LOG2 (default 22), JOBS (48), RUNS (2), IDLE_JOBS (20).
#
# The workload is batch_prove's synthetic circuit of 2^LOG2 rows exported as a snarkjs .zkey and JOBS .wtns files
# (--export-snarkjs). Each run: batch_prove --zkey K --wtns ALL (proofs/s = proofs / wall from the first job to
# the last result, key already loaded), then the same files submitted to the fleet in one `submit --wait` (proofs/s
# = jobs / (last finished_at - first submitted_at) from the database, the worker's key resident from a warm-up
# job). Every proof is verified by both. Then IDLE_JOBS single jobs, each submitted after the previous one ended:
# the queue latency of an idle worker (LISTEN/NOTIFY wake-up). The worker logs its database time when it stops.
set -uo pipefail
stage=$(cd "${1:?stage folder}" && pwd)
out=${2:?output folder}
root=$(cd "$(dirname "$0")/.." && pwd)
log2=${LOG2:-22}
jobs=${JOBS:-48}
runs=${RUNS:-2}
idle_jobs=${IDLE_JOBS:-20}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/proofline-fleet-gpu.XXXXXX)
chmod 755 "$work"
pg=$work/pg
state=$work/state
worker_pid=
cleanup() {
  [ -z "$worker_pid" ] || kill "$worker_pid" 2>/dev/null
  LD_LIBRARY_PATH=$pg/lib "$root/tests/fleet/pg_server.sh" stop "$state" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
export LD_LIBRARY_PATH=$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# PostgreSQL from the archive, run by an unprivileged user (initdb refuses root).
mkdir -p "$pg" && tar -C "$pg" -xJf "$stage/postgres.tar.xz" || { echo "fleet_gpu_bench: no postgres.tar.xz" >&2; exit 1; }
chmod -R a+rX "$pg"
export PROOFLINE_PG_BINDIR=$pg/usr/lib/postgresql/15/bin
if [ "$(id -u)" -eq 0 ] && ! id -u "${PROOFLINE_PG_USER:-postgres}" >/dev/null 2>&1; then export PROOFLINE_PG_USER=nobody; fi
LD_LIBRARY_PATH=$pg/lib "$root/tests/fleet/pg_server.sh" start "$state" || exit 1
psql() { LD_LIBRARY_PATH=$pg/lib "$PROOFLINE_PG_BINDIR/psql" -X -A -t -q -F ' ' "$(cat "$state/conninfo") dbname=bench" "$@"; }
LD_LIBRARY_PATH=$pg/lib "$PROOFLINE_PG_BINDIR/psql" -X -q "$(cat "$state/conninfo")" -c "CREATE DATABASE bench" || exit 1
printf 'postgresql://proofline@127.0.0.1:%s/bench\n' "$(cat "$state/port")" > "$work/url"
# The worker needs libpq, which the archive carries.
fleet_env=(env "LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$pg/lib")

echo "== workload: 2^$log2 rows, $jobs witnesses =="
t0=$(date +%s.%N)
"$stage/bin/batch_prove" --synthetic "$log2" --count "$jobs" --export-snarkjs "$work/w" >"$out/export.log" 2>&1 ||
  { cat "$out/export.log" >&2; exit 1; }
echo "export: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s, $(du -sh "$work/w" | cut -f1)"
witnesses=("$work"/w/witness-*.wtns)

"${fleet_env[@]}" "$stage/bin/proofline-fleet" worker --db-url-file "$work/url" --name h200 --backend cuda \
  --zkey-check curve >"$out/worker.log" 2>&1 &
worker_pid=$!
submit() { "${fleet_env[@]}" "$stage/bin/proofline-fleet" submit --db-url-file "$work/url" --zkey "$work/w/circuit.zkey" "$@"; }
# Warm-up: the worker loads the key (and pins its slots) on its first claim.
submit --wtns "${witnesses[0]}" --wait --check-vk "$work/w/verification_key.json" >"$out/submit-warmup.log" 2>&1 ||
  { cat "$out/submit-warmup.log" "$out/worker.log" >&2; exit 1; }

status=0
for run in $(seq 1 "$runs"); do
  rm -rf "$work/out" && mkdir -p "$work/out"
  "$stage/bin/batch_prove" --backend cuda --zkey "$work/w/circuit.zkey" --zkey-check curve --wtns "${witnesses[@]}" \
    --verify --no-progress --out "$work/out" --report "$out/batch_prove-$run.json" >"$out/batch_prove-$run.log" 2>&1 || status=1
  first=$(psql -c "SELECT coalesce(max(id), 0) FROM proofline.jobs")
  submit --wtns "${witnesses[@]}" --wait --check-vk "$work/w/verification_key.json" >"$out/submit-$run.log" 2>&1 || status=1
  psql -c "SELECT $run, count(*) FILTER (WHERE state = 'done'), count(*) FILTER (WHERE verified),
      extract(epoch FROM max(finished_at) - min(submitted_at)),
      1000 * avg(extract(epoch FROM finished_at - claimed_at)),
      1000 * percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM claimed_at - submitted_at))
    FROM proofline.jobs j LEFT JOIN proofline.results r ON r.job_id = j.id WHERE j.id > $first" >>"$work/fleet-runs"
done

first=$(psql -c "SELECT coalesce(max(id), 0) FROM proofline.jobs")
for i in $(seq 1 "$idle_jobs"); do submit --wtns "${witnesses[$((i % jobs))]}" --wait >>"$out/submit-idle.log" 2>&1 || status=1; done
idle=$(psql -c "SELECT 1000 * percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM claimed_at - submitted_at)),
    1000 * max(extract(epoch FROM claimed_at - submitted_at)),
    1000 * percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - claimed_at))
  FROM proofline.jobs WHERE id > $first")
kill -TERM "$worker_pid" && wait "$worker_pid" || status=1
worker_pid=

python3 - "$out" "$runs" "$work/fleet-runs" "$idle" "$out/worker.log" <<'PY' | tee "$out/table.txt"
import json, re, sys
out, runs, fleet_runs, idle, worker_log = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
fleet = {}
for line in open(fleet_runs):
    f = line.split()
    fleet[int(f[0])] = dict(done=int(f[1]), verified=int(f[2]), span=float(f[3]), claimed_ms=float(f[4]), q50=float(f[5]))
db_ms = records = 0.0
for line in open(worker_log):
    m = re.search(r"claims ([\d.]+) ms in (\d+) calls for (\d+) jobs, results ([\d.]+) ms for (\d+), "
                  r"heartbeats ([\d.]+) ms in (\d+)", line)
    if m:
        db_ms += float(m.group(1)) + float(m.group(4)) + float(m.group(6)); records += int(m.group(5))
print("| run | batch_prove proofs/s | fleet proofs/s | fleet / batch_prove | fleet jobs done (verified) | job claimed, mean | queue p50 (backlog) |")
print("|---|---|---|---|---|---|---|")
ratios = []
for run in range(1, runs + 1):
    b = json.load(open(f"{out}/batch_prove-{run}.json"))
    f = fleet[run]
    fleet_rate = f["done"] / f["span"]
    ratios.append(fleet_rate / b["proofs_per_s"])
    print("| %d | %.3f (%d proofs, %.1f s) | %.3f (%d jobs, %.1f s) | %.3f | %d (%d) | %.0f ms | %.0f ms |" % (
        run, b["proofs_per_s"], b["proofs"], b["wall_s"], fleet_rate, f["done"], f["span"], ratios[-1],
        f["done"], f["verified"], f["claimed_ms"], f["q50"]))
i50, imax, iproof = map(float, idle.split())
claimed = sum(fleet[r]["claimed_ms"] for r in fleet) / len(fleet)
per_job = db_ms / max(records, 1)
print()
print("| figure | value |")
print("|---|---|")
print("| fleet / batch_prove proofs/s, per run | %s |" % ", ".join("%.3f" % r for r in ratios))
print("| database time of the worker's loop per job (claim + result + heartbeat) | %.2f ms over %d results |" % (per_job, records))
print("| database share of a claimed job's time | %.3f %% |" % (100 * per_job / claimed))
print("| queue latency into an idle worker (NOTIFY wake-up), p50 / max | %.1f / %.1f ms |" % (i50, imax))
print("| a lone job's claim to result, p50 | %.0f ms |" % iproof)
PY
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
