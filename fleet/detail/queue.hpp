// The job queue's statements, one function each, all parameterized: what submitters, workers and the status
// command do to the tables of schema.hpp. The rules they keep (docs/fleet.md):
// - a claim takes queued jobs in priority, then deadline, then age order, with FOR UPDATE SKIP LOCKED, and
//   makes each a lease (worker, attempt number, expiry) that heartbeats renew;
// - a result or a failure is recorded only by the lease it belongs to (same worker, same attempt, still
//   running): a late duplicate from a lease that expired and was claimed again changes nothing;
// - expired leases are put back in the queue by whichever worker looks (reap), or failed once they have used
//   up their attempts; witnesses stored inline are erased when a job ends.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <proofline/fleet/detail/pg.hpp>

namespace proofline::fleet::detail {

struct NewJob {
  std::string name;      ///< the output files' stem (A for A.wtns)
  std::string key_path;  ///< absolute, on storage the workers share
  std::optional<std::string> witness_path;
  std::optional<std::vector<std::uint8_t>> witness_inline;  ///< the .wtns bytes themselves
  int priority = 0;
  std::optional<double> deadline_in_s;  ///< from now
  int max_attempts = 3;
  std::optional<std::string> batch;  ///< the submission's label, for `wait --batch`
};

struct ClaimedJob {
  std::int64_t id = 0;
  int attempt = 0;  ///< 1 for the first claim
  std::string name, key_path;
  std::optional<std::string> witness_path;
  std::optional<std::vector<std::uint8_t>> witness_inline;
};

/// Who holds a lease: results and failures are accepted only from it.
struct Lease {
  std::int64_t job = 0;
  std::string worker;
  int attempt = 0;
};

struct ProofRecord {
  /// groth16::encode_proof of the key's curve: 192 bytes for bls12381, 256 for bn128.
  std::vector<std::uint8_t> proof;
  std::string public_signals;  ///< snarkjs public.json text
  bool verified = false;
  std::string curve = "bls12381";  ///< snarkjs's name of the key's curve: "bls12381" or "bn128"
};

enum class FailOutcome { requeued, failed, discarded };

/// Inserts the jobs (in one transaction; one wake-up for the workers) and returns their ids in order.
std::vector<std::int64_t> submit_jobs(Connection& db, std::span<const NewJob> jobs);

/// Claims up to `count` queued jobs for `worker` with leases of `lease_s` seconds, none of whose key is one
/// of `skip_keys` (keys this worker cannot load now: other workers may).
std::vector<ClaimedJob> claim_jobs(Connection& db, const std::string& worker, int count, double lease_s,
                                   std::span<const std::string> skip_keys = {});

struct ReapCounts {
  int requeued = 0;  ///< expired leases put back in the queue
  int failed = 0;    ///< expired leases out of attempts, and queued jobs past their deadline
};
/// Puts expired leases back in the queue (or fails them when out of attempts), fails queued jobs whose
/// deadline passed, and removes the rows of workers silent for an hour. Any worker may run it at any time.
ReapCounts reap(Connection& db);

/// Requeues (or fails when out of attempts) every job leased to `worker`: a worker restarted under the
/// same name finds what its previous life left.
int release_leases_of(Connection& db, const std::string& worker, std::string_view why);

/// Puts every job leased to `worker` back in the queue, giving back the attempt its claim counted: a worker
/// told to stop before it finished them (a second signal, its drain timeout) lets other workers claim them
/// now instead of after the lease, and the stop was the operator's doing, not the job's. `why` becomes the
/// job's error, with the previous one after it. Returns how many.
int requeue_unfinished(Connection& db, const std::string& worker, std::string_view why);

/// Ends the server processes `pids` if they still serve a session named `application_name` (pids of others
/// are left alone, should one have been reused): the sessions of statements given up, whose backend, were it
/// only frozen, would otherwise run them when it resumes. Returns how many it ended.
int end_abandoned_sessions(Connection& db, const std::string& application_name, std::span<const int> pids);

/// Records the proof if `lease` still holds the job; false for a late duplicate (nothing changed).
bool complete_job(Connection& db, const Lease& lease, const ProofRecord& record);

/// Records a failure of `lease`: the job fails for good when `permanent` or out of attempts, else it is
/// queued again with `error` as its last error. `discarded` when the lease no longer holds the job.
FailOutcome fail_job(Connection& db, const Lease& lease, const std::string& error, bool permanent);

struct WorkerBeat {
  std::string name, host, backend;
  int pid = 0;
  int capacity = 0;
  std::int64_t proofs = 0;
  bool draining = false;
  std::vector<std::int64_t> held;  ///< job ids whose leases this worker holds
};

/// Upserts the worker's row and extends the leases of the jobs it holds by `lease_s` seconds.
void heartbeat(Connection& db, const WorkerBeat& beat, double lease_s);

/// A worker's row as its last heartbeat left it.
struct WorkerRow {
  std::string host;
  int pid = 0;
  std::string heartbeat_at;  ///< the server's timestamp, as text: compared, not parsed
  double heartbeat_age_s = 0;
};
std::optional<WorkerRow> find_worker(Connection& db, const std::string& name);

/// Removes the worker's row (it stopped cleanly).
void leave(Connection& db, const std::string& worker);

struct FinishedJob {
  std::int64_t id = 0;
  bool done = false;
  int attempts = 0;
  std::string error;
  std::optional<ProofRecord> result;
};

/// Those of `ids` that are done or failed, with their results.
std::vector<FinishedJob> finished_jobs(Connection& db, std::span<const std::int64_t> ids);

/// A job as a client waiting for it knows it: its id, its output files' stem and its batch.
struct JobRef {
  std::int64_t id = 0;
  std::string name;
  std::optional<std::string> batch;
};

/// The jobs whose id is one of `ids`, and those of `batch` when given, by id.
std::vector<JobRef> find_jobs(Connection& db, std::span<const std::int64_t> ids,
                              const std::optional<std::string>& batch);

/// "{1,2,3}": a bigint[] parameter.
std::string bigint_array(std::span<const std::int64_t> ids);
/// {"a","b"}: a text[] parameter (each value quoted, its quotes and backslashes escaped).
std::string text_array(std::span<const std::string> values);

}  // namespace proofline::fleet::detail
