#!/usr/bin/env bash
# The fleet's overhead on this machine: 3 CPU workers prove 1,000 jobs of the chain_1024 snarkjs fixture
# (1,024 constraints, a 2^11 domain) from a PostgreSQL server in a temporary folder (tests/fleet/pg_server.sh),
# then, with 3 fresh workers, 21 single jobs are submitted one at a time (the first loads the key; the
# other 20 are measured). Prints a table and writes it, with the
# logs, to perf/results/fleet-cpu-DATE/ (or OUT).
#
#   perf/fleet_bench.sh [BUILD_DIR (default build-fleet)] [OUT]
#
# Figures: proofs/s over the batch (first submission to last result); the database time of the workers'
# loops per job (claim, result, heartbeat statements, measured by the workers and logged when they stop);
# the time a job spends claimed (claim to result); the database's share of it; and the queue latency
# (submission to claim) of jobs submitted into an idle fleet, which is the LISTEN/NOTIFY wake-up path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-fleet}
out=${2:-$root/perf/results/fleet-cpu-$(date +%F)}
fleet=$build/apps/proofline-fleet
jobs=${FLEET_BENCH_JOBS:-1000}
chain=$root/tests/fixtures/snarkjs/chain_1024
psql=${PROOFLINE_PSQL:-/usr/lib/postgresql/15/bin/psql}
[[ -x $fleet ]] || { echo "fleet_bench.sh: build $fleet first (ninja -C $build proofline-fleet)" >&2; exit 2; }

work=$(mktemp -d /tmp/proofline-fleet-bench.XXXXXX)
state=$work/pg
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  "$root/tests/fleet/pg_server.sh" stop "$state" || true
  rm -rf "$work"
}
trap cleanup EXIT
rm -rf "$out"
mkdir -p "$out" "$work/w"
"$root/tests/fleet/pg_server.sh" start "$state"
conn="$(cat "$state/conninfo")"
"$psql" -X -q "$conn" -c "CREATE DATABASE bench"
printf 'postgresql://proofline@127.0.0.1:%s/bench\n' "$(cat "$state/port")" > "$work/url"
sql() { "$psql" -X -A -t -q -F ' ' "$conn dbname=bench" -c "$1"; }
for i in $(seq 1 "$jobs"); do cp "$chain/witness.wtns" "$work/w/j$i.wtns"; done

start_workers() {  # PHASE: log names worker-PHASE-I.log
  for i in 0 1 2; do
    "$fleet" worker --db-url-file "$work/url" --name "bench-$1-w$i" --backend cpu --zkey-check curve \
      > "$out/worker-$1-$i.log" 2>&1 &
    pids+=($!)
  done
  sleep 2  # the workers connect and LISTEN; the key is loaded on the first claim
}
stop_workers() {  # each logs its database time when it stops
  for pid in "${pids[@]}"; do kill -TERM "$pid"; done
  for pid in "${pids[@]}"; do wait "$pid"; done
  pids=()
}

start_workers batch
start=$(date +%s.%N)
"$fleet" submit --db-url-file "$work/url" --zkey "$chain/circuit_final.zkey" --wtns "$work"/w/j*.wtns --wait \
  --check-vk "$chain/verification_key.json" > "$out/submit.log" 2>&1
end=$(date +%s.%N)
stop_workers
batch_ids=$(sql "SELECT max(id) FROM proofline.jobs")

# An idle fleet (fresh workers, the key loaded by a first job): one job at a time, each submitted after the
# previous one ended.
start_workers idle
for i in $(seq 0 20); do
  "$fleet" submit --db-url-file "$work/url" --zkey "$chain/circuit_final.zkey" --wtns "$work/w/j$((i + 1)).wtns" \
    --wait >> "$out/submit-idle.log" 2>&1
  if [[ $i -eq 0 ]]; then warm_ids=$(sql "SELECT max(id) FROM proofline.jobs"); fi
done
stop_workers

batch=$(sql "SELECT count(*) FILTER (WHERE state = 'done'),
  extract(epoch FROM max(finished_at) - min(submitted_at)),
  1000 * avg(extract(epoch FROM finished_at - claimed_at)),
  1000 * percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM claimed_at - submitted_at)),
  1000 * percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM claimed_at - submitted_at))
  FROM proofline.jobs WHERE id <= $batch_ids")
idle=$(sql "SELECT 1000 * percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM claimed_at - submitted_at)),
  1000 * max(extract(epoch FROM claimed_at - submitted_at)),
  1000 * percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - claimed_at))
  FROM proofline.jobs WHERE id > $warm_ids")
cat "$out"/worker-batch-*.log | grep "database time" > "$work/dbtime" || true
cat "$out"/worker-idle-*.log | grep "database time" > "$work/dbtime-idle" || true
python3 - "$jobs" "$start" "$end" "$batch" "$idle" "$work/dbtime" "$work/dbtime-idle" <<'PY' | tee "$out/table.txt"
import re, sys
jobs, start, end = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
done, span, claimed_ms, q50, q99 = map(float, sys.argv[4].split())
i50, imax, iproof = map(float, sys.argv[5].split())
def db_time(path):
    ms = claims = records = beats = 0
    for line in open(path):
        m = re.search(r"claims ([\d.]+) ms in (\d+) calls for (\d+) jobs, results ([\d.]+) ms for (\d+), "
                      r"heartbeats ([\d.]+) ms in (\d+)", line)
        if m:
            ms += float(m.group(1)) + float(m.group(4)) + float(m.group(6))
            claims += int(m.group(2)); records += int(m.group(5)); beats += int(m.group(7))
    return ms, claims, records, beats
db_ms, n_claims, n_records, n_beats = db_time(sys.argv[6])
idle_ms, idle_claims, idle_records, idle_beats = db_time(sys.argv[7])
per_job = db_ms / max(n_records, 1)
print("| figure | value |")
print("|---|---|")
print("| jobs done (batch) | %d of %d |" % (done, jobs))
print("| batch wall, first submission to last result | %.1f s (client: %.1f s) |" % (span, end - start))
print("| proofs/s, 3 CPU workers | %.2f |" % (done / span))
print("| database time of the workers' loops per job (claim + result + heartbeat) | %.2f ms |" % per_job)
print("|   statements: claims / results / heartbeats | %d / %d / %d |" % (n_claims, n_records, n_beats))
print("| time a job is claimed (claim to result), mean | %.1f ms |" % claimed_ms)
print("| database share of a claimed job's time | %.2f %% |" % (100 * per_job / claimed_ms))
print("| queue latency in the batch (submit to claim), p50 / p99 (backlog) | %.0f / %.0f ms |" % (q50, q99))
print("| queue latency into an idle fleet (20 jobs, NOTIFY wake-up), p50 / max | %.1f / %.1f ms |" % (i50, imax))
print("| a lone job's claim to result, p50 | %.1f ms |" % iproof)
print("| database time per job in the idle fleet (claim + result + heartbeat) | %.2f ms (%d / %d / %d statements) |"
      % (idle_ms / max(idle_records, 1), idle_claims, idle_records, idle_beats))
PY
{
  echo "# fleet-cpu: proofline-fleet overhead on the CPU backend"
  echo
  echo "Command: \`perf/fleet_bench.sh $build\` (FLEET_BENCH_JOBS=$jobs), $(date -u '+%F %H:%M UTC')."
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr); PostgreSQL $("$psql" --version | awk '{print $3}') on 127.0.0.1 (fsync off), one run."
  echo "3 workers (\`--backend cpu\`, default threads) on one machine; jobs: tests/fixtures/snarkjs/chain_1024 (1,024 constraints, 2^11 domain), every proof verified by the worker and again by \`submit --check-vk\`."
  echo
  cat "$out/table.txt"
} > "$out/README.md"
echo "fleet_bench.sh: wrote $out"
