#include <proofline/fleet/detail/queue.hpp>

#include <map>
#include <string>

namespace proofline::fleet::detail {

namespace {

Param optional_text(const std::optional<std::string>& value) {
  return value ? Param::of(*value) : Param::null();
}

Param lease_params_boolean(bool value) {
  return Param::of(std::string(value ? "true" : "false"));
}

std::optional<std::vector<std::uint8_t>> optional_bytes(const Result& r, int row, int column) {
  if (r.is_null(row, column)) return std::nullopt;
  return r.bytes(row, column);
}

std::optional<std::string> optional_text(const Result& r, int row, int column) {
  if (r.is_null(row, column)) return std::nullopt;
  return r.text(row, column);
}

}  // namespace

std::string bigint_array(std::span<const std::int64_t> ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(ids[i]);
  }
  return out + "}";
}

std::string text_array(std::span<const std::string> values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    for (const char c : values[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

namespace {

/// Reserves `count` consecutive turns of the key (schema_v4) and returns the first: the key's next turn, or
/// the queue's frontier (the earliest turn queued; with none queued, the latest any key reached) when that is
/// later. The key's row stays locked until the submission commits, so that concurrent submissions of one key
/// take turns apart.
std::int64_t reserve_turns(Connection& db, const std::string& key_path, std::int64_t count) {
  static const std::string sql =
      "WITH frontier AS ("
      "  SELECT coalesce((SELECT min(turn) FROM proofline.jobs WHERE state = 'queued'),"
      "                  (SELECT max(next_turn) FROM proofline.key_turns), 0) AS turn)"
      " INSERT INTO proofline.key_turns AS k (key_path, next_turn) SELECT $1, turn + $2::bigint FROM frontier"
      " ON CONFLICT (key_path) DO UPDATE"
      "  SET next_turn = greatest(k.next_turn, EXCLUDED.next_turn - $2::bigint) + $2::bigint"
      " RETURNING k.next_turn - $2::bigint";
  const Param params[] = {Param::of(key_path), Param::of(count)};
  return db.exec("take the turns of key " + key_path, sql, params).integer(0, 0);
}

}  // namespace

std::vector<std::int64_t> submit_jobs(Connection& db, std::span<const NewJob> jobs) {
  static const std::string sql =
      "INSERT INTO proofline.jobs (name, key_path, witness_path, witness_inline, priority, deadline,"
      " max_attempts, batch, turn) VALUES ($1, $2, $3, $4, $5::integer,"
      " now() + make_interval(secs => $6::double precision), $7::integer, $8, $9::bigint) RETURNING id";
  return in_transaction(db, [&] {
    // One statement per key for the turns, each key's jobs taking its turns in the order given.
    std::map<std::string, std::int64_t> next_turn;
    for (const NewJob& job : jobs) ++next_turn[job.key_path];
    for (auto& [key_path, turns] : next_turn) turns = reserve_turns(db, key_path, turns);
    std::vector<std::int64_t> ids;
    ids.reserve(jobs.size());
    for (const NewJob& job : jobs) {
      const Param params[] = {
          Param::of(job.name),
          Param::of(job.key_path),
          optional_text(job.witness_path),
          job.witness_inline ? Param::bytea(*job.witness_inline) : Param::null(),
          Param::of(std::int64_t{job.priority}),
          job.deadline_in_s ? Param::of(std::to_string(*job.deadline_in_s)) : Param::null(),
          Param::of(std::int64_t{job.max_attempts}),
          optional_text(job.batch),
          Param::of(next_turn[job.key_path]++),
      };
      ids.push_back(db.exec("submit job " + job.name, sql, params).integer(0, 0));
    }
    return ids;
  });
}

std::vector<ClaimedJob> claim_jobs(Connection& db, const std::string& worker, int count, double lease_s,
                                   std::span<const std::string> skip_keys) {
  static const std::string sql =
      "WITH picked AS ("
      "  SELECT id FROM proofline.jobs WHERE state = 'queued' AND NOT (key_path = ANY($4::text[]))"
      "  ORDER BY priority DESC, deadline ASC NULLS LAST, turn, submitted_at, id"
      "  LIMIT $2::integer FOR UPDATE SKIP LOCKED)"
      " UPDATE proofline.jobs j SET state = 'running', worker = $1, attempts = j.attempts + 1,"
      "  claimed_at = now(), lease_expires = now() + make_interval(secs => $3::double precision)"
      " FROM picked WHERE j.id = picked.id"
      " RETURNING j.id, j.attempts, j.name, j.key_path, j.witness_path, j.witness_inline";
  const Param params[] = {Param::of(worker), Param::of(std::int64_t{count}),
                          Param::of(std::to_string(lease_s)), Param::of(text_array(skip_keys))};
  const Result r = db.exec("claim jobs", sql, params);
  std::vector<ClaimedJob> jobs(static_cast<std::size_t>(r.rows()));
  for (int i = 0; i < r.rows(); ++i) {
    ClaimedJob& job = jobs[static_cast<std::size_t>(i)];
    job.id = r.integer(i, 0);
    job.attempt = static_cast<int>(r.integer(i, 1));
    job.name = r.text(i, 2);
    job.key_path = r.text(i, 3);
    job.witness_path = optional_text(r, i, 4);
    job.witness_inline = optional_bytes(r, i, 5);
  }
  return jobs;
}

ReapCounts reap(Connection& db) {
  static const std::string expired =
      "UPDATE proofline.jobs SET"
      "  state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,"
      "  finished_at = CASE WHEN attempts >= max_attempts THEN now() END,"
      "  witness_inline = CASE WHEN attempts >= max_attempts THEN NULL ELSE witness_inline END,"
      "  error = 'the lease of worker ' || worker || ' on attempt ' || attempts || ' expired'"
      "    || coalesce(' (last error: ' || error || ')', ''),"
      "  worker = CASE WHEN attempts >= max_attempts THEN worker END, lease_expires = NULL"
      " WHERE state = 'running' AND lease_expires < now() RETURNING state";
  static const std::string late =
      "UPDATE proofline.jobs SET state = 'failed', finished_at = now(), witness_inline = NULL,"
      "  error = 'the deadline passed before a worker claimed the job'"
      " WHERE state = 'queued' AND deadline < now()";
  ReapCounts counts;
  const Result r = db.exec("requeue expired leases", expired);
  for (int i = 0; i < r.rows(); ++i) (r.text(i, 0) == "failed" ? counts.failed : counts.requeued)++;
  counts.failed += db.exec("fail jobs past their deadline", late + " RETURNING id").rows();
  // A worker killed or cut off for good never removes its row: an hour after its last heartbeat (its leases
  // long expired) it is forgotten.
  db.exec("forget silent workers",
          "DELETE FROM proofline.workers WHERE heartbeat_at < now() - interval '1 hour'");
  return counts;
}

int release_leases_of(Connection& db, const std::string& worker, std::string_view why) {
  static const std::string sql =
      "UPDATE proofline.jobs SET"
      "  state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,"
      "  finished_at = CASE WHEN attempts >= max_attempts THEN now() END,"
      "  witness_inline = CASE WHEN attempts >= max_attempts THEN NULL ELSE witness_inline END,"
      "  error = $2, worker = CASE WHEN attempts >= max_attempts THEN worker END, lease_expires = NULL"
      " WHERE state = 'running' AND worker = $1 RETURNING id";
  const Param params[] = {Param::of(worker), Param::of(std::string(why))};
  return db.exec("release the leases of " + worker, sql, params).rows();
}

int requeue_unfinished(Connection& db, const std::string& worker, std::string_view why) {
  static const std::string sql =
      "UPDATE proofline.jobs SET state = 'queued', attempts = greatest(attempts - 1, 0), worker = NULL,"
      "  lease_expires = NULL, error = $2 || coalesce(' (last error: ' || error || ')', '')"
      " WHERE state = 'running' AND worker = $1 RETURNING id";
  const Param params[] = {Param::of(worker), Param::of(std::string(why))};
  return db.exec("put back the unfinished jobs of " + worker, sql, params).rows();
}

int end_abandoned_sessions(Connection& db, const std::string& application_name, std::span<const int> pids) {
  static const std::string sql =
      "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
      " WHERE pid = ANY($1::integer[]) AND application_name = $2 AND pid <> pg_backend_pid()";
  std::vector<std::int64_t> ids(pids.begin(), pids.end());
  const Param params[] = {Param::of(bigint_array(ids)), Param::of(application_name)};
  return static_cast<int>(db.exec("end the sessions given up", sql, params).integer(0, 0));
}

bool complete_job(Connection& db, const Lease& lease, const ProofRecord& record) {
  static const std::string sql =
      "WITH done AS ("
      "  UPDATE proofline.jobs SET state = 'done', finished_at = now(), lease_expires = NULL,"
      "   witness_inline = NULL, error = NULL"
      "  WHERE id = $1::bigint AND worker = $2 AND attempts = $3::integer AND state = 'running' RETURNING id)"
      " INSERT INTO proofline.results (job_id, proof, public_signals, verified, worker, attempt, curve)"
      " SELECT id, $4, $5::jsonb, $6::boolean, $2, $3::integer, $7 FROM done RETURNING job_id";
  const Param params[] = {
      Param::of(lease.job),       Param::of(lease.worker),          Param::of(std::int64_t{lease.attempt}),
      Param::bytea(record.proof), Param::of(record.public_signals), lease_params_boolean(record.verified),
      Param::of(record.curve)};
  return db.exec("record the proof of job " + std::to_string(lease.job), sql, params).rows() == 1;
}

FailOutcome fail_job(Connection& db, const Lease& lease, const std::string& error, bool permanent) {
  static const std::string sql =
      "UPDATE proofline.jobs SET"
      "  state = CASE WHEN $5::boolean OR attempts >= max_attempts THEN 'failed' ELSE 'queued' END,"
      "  finished_at = CASE WHEN $5::boolean OR attempts >= max_attempts THEN now() END,"
      "  witness_inline = CASE WHEN $5::boolean OR attempts >= max_attempts THEN NULL ELSE witness_inline "
      "END,"
      "  worker = CASE WHEN $5::boolean OR attempts >= max_attempts THEN worker END,"
      "  lease_expires = NULL, error = $4"
      " WHERE id = $1::bigint AND worker = $2 AND attempts = $3::integer AND state = 'running' RETURNING "
      "state";
  const Param params[] = {Param::of(lease.job), Param::of(lease.worker),
                          Param::of(std::int64_t{lease.attempt}), Param::of(error),
                          lease_params_boolean(permanent)};
  const Result r = db.exec("record the failure of job " + std::to_string(lease.job), sql, params);
  if (r.rows() == 0) return FailOutcome::discarded;
  return r.text(0, 0) == "failed" ? FailOutcome::failed : FailOutcome::requeued;
}

void heartbeat(Connection& db, const WorkerBeat& beat, double lease_s) {
  static const std::string upsert =
      "INSERT INTO proofline.workers (name, host, pid, backend, jobs_held, capacity, proofs, draining)"
      " VALUES ($1, $2, $3::integer, $4, $5::integer, $6::integer, $7::bigint, $8::boolean)"
      " ON CONFLICT (name) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, backend = "
      "EXCLUDED.backend,"
      "  jobs_held = EXCLUDED.jobs_held, capacity = EXCLUDED.capacity, proofs = EXCLUDED.proofs,"
      "  draining = EXCLUDED.draining, heartbeat_at = now()";
  static const std::string renew =
      "UPDATE proofline.jobs SET lease_expires = now() + make_interval(secs => $3::double precision)"
      " WHERE worker = $1 AND state = 'running' AND id = ANY($2::bigint[])";
  const Param row[] = {Param::of(beat.name),
                       Param::of(beat.host),
                       Param::of(std::int64_t{beat.pid}),
                       Param::of(beat.backend),
                       Param::of(static_cast<std::int64_t>(beat.held.size())),
                       Param::of(std::int64_t{beat.capacity}),
                       Param::of(beat.proofs),
                       lease_params_boolean(beat.draining)};
  db.exec("record the heartbeat of " + beat.name, upsert, row);
  if (beat.held.empty()) return;
  const Param leases[] = {Param::of(beat.name), Param::of(bigint_array(beat.held)),
                          Param::of(std::to_string(lease_s))};
  db.exec("renew the leases of " + beat.name, renew, leases);
}

std::optional<WorkerRow> find_worker(Connection& db, const std::string& name) {
  static const std::string sql =
      "SELECT host, pid, heartbeat_at::text, extract(epoch from now() - heartbeat_at)::double precision"
      " FROM proofline.workers WHERE name = $1";
  const Param params[] = {Param::of(name)};
  const Result r = db.exec("read the row of worker " + name, sql, params);
  if (r.rows() == 0) return std::nullopt;
  return WorkerRow{r.text(0, 0), static_cast<int>(r.integer(0, 1)), r.text(0, 2), r.real(0, 3)};
}

void leave(Connection& db, const std::string& worker) {
  const Param params[] = {Param::of(worker)};
  db.exec("remove worker " + worker, "DELETE FROM proofline.workers WHERE name = $1", params);
}

std::vector<JobRef> find_jobs(Connection& db, std::span<const std::int64_t> ids,
                              const std::optional<std::string>& batch) {
  static const std::string sql =
      "SELECT id, name, batch FROM proofline.jobs WHERE id = ANY($1::bigint[]) OR batch = $2 ORDER BY id";
  const Param params[] = {Param::of(bigint_array(ids)), optional_text(batch)};
  const Result r = db.exec("look up the jobs to wait for", sql, params);
  std::vector<JobRef> jobs(static_cast<std::size_t>(r.rows()));
  for (int i = 0; i < r.rows(); ++i)
    jobs[static_cast<std::size_t>(i)] = {r.integer(i, 0), r.text(i, 1), optional_text(r, i, 2)};
  return jobs;
}

std::vector<FinishedJob> finished_jobs(Connection& db, std::span<const std::int64_t> ids) {
  static const std::string sql =
      "SELECT j.id, j.state, j.attempts, coalesce(j.error, ''), r.proof, r.public_signals::text,"
      "  coalesce(r.verified, false), r.curve"
      " FROM proofline.jobs j LEFT JOIN proofline.results r ON r.job_id = j.id"
      " WHERE j.id = ANY($1::bigint[]) AND j.state IN ('done', 'failed') ORDER BY j.id";
  const Param params[] = {Param::of(bigint_array(ids))};
  const Result r = db.exec("read finished jobs", sql, params);
  std::vector<FinishedJob> out(static_cast<std::size_t>(r.rows()));
  for (int i = 0; i < r.rows(); ++i) {
    FinishedJob& job = out[static_cast<std::size_t>(i)];
    job.id = r.integer(i, 0);
    job.done = r.text(i, 1) == "done";
    job.attempts = static_cast<int>(r.integer(i, 2));
    job.error = r.text(i, 3);
    if (!r.is_null(i, 4))
      job.result = ProofRecord{r.bytes(i, 4), r.text(i, 5), r.boolean(i, 6), r.text(i, 7)};
  }
  return out;
}

}  // namespace proofline::fleet::detail
