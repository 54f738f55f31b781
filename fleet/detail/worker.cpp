#include <proofline/fleet/detail/worker.hpp>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <thread>

#include <proofline/fleet/detail/schema.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/stop_signals.hpp>

namespace proofline::fleet::detail {

namespace {

using namespace std::chrono_literals;

std::string this_host() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown-host";
  return name;
}

constexpr std::chrono::seconds safety_period{30};

/// After a second signal, how long the worker tries to record the results it made, and then to put the
/// unfinished jobs back in the queue: an operator who asked to stop at once waits for no more, and without
/// a database the leases expire as they would after a SIGKILL.
constexpr std::chrono::seconds stop_delivery_time{2}, stop_requeue_time{3};

/// Failures that another attempt cannot fix: the job's own input is wrong.
bool permanent_failure(Errc code) {
  return code == Errc::bad_input || code == Errc::invalid_argument;
}

/// Adds the time `body` takes to `total`.
template <class Body>
decltype(auto) timed(double& total, Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  struct Add {
    double& total;
    std::chrono::steady_clock::time_point start;
    ~Add() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  } add{total, start};
  return body();
}

/// A witness stored in the database, its container and header checked against the key (a witness of the
/// other curve is refused, naming both, and one of another length naming both counts); synthesis reads its
/// values straight into the job's slot, checking each.
graph::WtnsImage inline_witness(const std::vector<std::uint8_t>& stored, const std::string& what,
                                const KeyLookup& key, const std::string& key_path) {
  const auto bytes = std::as_bytes(std::span(stored));
  graph::WtnsImage witness{
      .image = std::make_shared<const std::vector<std::byte>>(bytes.begin(), bytes.end()), .name = what};
  groth16::read_wtns_header_for(*witness.image, witness.name, key.curve, key.num_variables,
                                "key " + key_path);
  return witness;
}

/// The proof in its curve's encoding and public.json, as the results table keeps them.
ProofRecord proof_record(const graph::JobResult& r) {
  if (r.curve == CurveId::bn254) {
    const auto bytes = groth16::encode_proof(*r.bn254_proof);
    return ProofRecord{{bytes.begin(), bytes.end()},
                       groth16::snarkjs_stringify(groth16::snarkjs_public_to_json(r.bn254_public_inputs)),
                       r.verified,
                       std::string(Bn254::snarkjs_name)};
  }
  const auto bytes = groth16::encode_proof(*r.proof);
  return ProofRecord{{bytes.begin(), bytes.end()},
                     groth16::snarkjs_stringify(groth16::snarkjs_public_to_json(r.public_inputs)),
                     r.verified,
                     std::string(Bls12_381::snarkjs_name)};
}

/// Whether process `pid` of this host runs (a zombie does not: it only waits to be reaped).
bool process_runs(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (stat) {
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');  // "pid (comm) state ...": comm may hold spaces and parentheses
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
  }
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

std::chrono::milliseconds until(std::chrono::steady_clock::time_point when) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(when - std::chrono::steady_clock::now());
  return std::max(left, 0ms);
}

}  // namespace

Worker::Worker(WorkerOptions options) : options_(std::move(options)), host_(this_host()) {
  if (options_.name.empty()) options_.name = host_ + "-" + std::to_string(getpid());
  pipeline_ = std::make_unique<graph::Pipeline>(options_.config);
  keys_ = std::make_unique<KeyCache>(*pipeline_, options_.keys, [this] { wakeup_.notify(); });
  if (!options_.metrics_address.empty()) {
    metrics_ = std::make_unique<MetricsServer>(options_.metrics_address,
                                               [this](std::string_view path) { return answer_http(path); });
    PL_LOG_INFO("fleet worker {}: metrics at http://{}/metrics, readiness at /healthz, liveness at /livez",
                options_.name, metrics_->address());
  }
}

Worker::~Worker() {
  metrics_.reset();  // its handler reads the pipeline
  // Loaders use the pipeline, and the pipeline's last callbacks fill the outbox: stop them in that order.
  keys_.reset();
  pipeline_.reset();
}

void Worker::connect() {
  if (db_ || Clock::now() < next_connect_) return;
  const bool first = next_beat_ == Clock::time_point{};
  try {
    // Named in pg_stat_activity, so that an operator (and the tests) can tell the workers' backends apart.
    Connection connection(options_.conninfo,
                          {.application_name = session_name(), .interruption = &interruption_});
    int schema_version = 0;
    try {
      schema_version = set_up(connection, first);
    } catch (const Interrupted&) {
      abandoned_backends_.push_back(connection.backend_pid());  // ended by the next connection
      throw;
    }
    PL_LOG_INFO("fleet worker {}: connected to {} (schema version {})", options_.name, connection.describe(),
                schema_version);
    db_.emplace(std::move(connection));
    queue_may_have_work_ = true;
    next_beat_ = Clock::now();
  } catch (const Error& e) {
    // Unreachable, or a statement of the setup refused (cancelled, timed out): try again later. A schema
    // newer than this program or unfit for it, missing rights (invalid_argument) and a duplicate name
    // (OptionError) end the worker; Interrupted is the caller's to act on.
    if (e.code() != Errc::io) throw;
    // A worker that never got in stops (exit 1) on settings the server refuses, so that a misconfigured
    // deployment shows; once it has served, the same refusal (a password rotated) is waited out.
    if (first && dynamic_cast<const ConnectionRefused*>(&e) != nullptr)
      throw Error(
          Errc::invalid_argument,
          std::string(e.what()) + " (the server refuses these settings: the worker stops, not retries)");
    PL_LOG_WARN("fleet worker {}: {}; retrying in {} ms", options_.name, e.what(), backoff_.count());
    next_connect_ = Clock::now() + backoff_;
    backoff_ = std::min(backoff_ * 2, options_.max_backoff);
  }
}

int Worker::set_up(Connection& connection, bool first) {
  // A backend whose statement was given up may only be frozen: ended now, it cannot run that statement
  // (a heartbeat, a claim) when it resumes.
  if (!abandoned_backends_.empty()) {
    try {
      end_abandoned_sessions(connection, session_name(), abandoned_backends_);
    } catch (const ConnectionLost&) {
      throw;
    } catch (const Interrupted&) {
      throw;
    } catch (const Error& e) {  // a role without the right, say: the leases' rules cover what may happen
      PL_LOG_WARN("fleet worker {}: cannot end the sessions it gave up: {}", options_.name, e.what());
    }
    abandoned_backends_.clear();
  }
  const MigrationOutcome schema = migrate(connection);
  connection.command("listen for new jobs", "LISTEN proofline_jobs");
  if (first) {
    check_name_is_free(connection);
    // Leases under this name belong to a previous life of this worker (a restarted pod): nobody proves
    // them.
    if (const int released =
            release_leases_of(connection, options_.name, "worker " + options_.name + " restarted"))
      PL_LOG_WARN("fleet worker {}: put back {} jobs leased by its previous run", options_.name, released);
  }
  return schema.to;
}

std::string Worker::session_name() const {
  return "proofline worker " + options_.name;
}

void Worker::abandon_connection() {
  if (db_ && !db_->open()) abandoned_backends_.push_back(db_->backend_pid());
  db_.reset();
}

void Worker::check_name_is_free(Connection& db) {
  const std::optional<WorkerRow> row = find_worker(db, options_.name);
  if (!row || row->heartbeat_age_s > options_.lease_s) return;  // no such worker, or it stopped beating
  if (row->host == host_ && row->pid == getpid()) return;       // a restarted container's PID 1
  bool runs = false;
  if (row->host == host_) {
    runs = process_runs(row->pid);
  } else {
    // Another host: alive if it beats again within a heartbeat period (a third of its lease; ours assumed).
    std::this_thread::sleep_for(
        std::chrono::milliseconds(static_cast<std::int64_t>(options_.lease_s * 1000 / 3) + 1000));
    const std::optional<WorkerRow> again = find_worker(db, options_.name);
    runs = again && again->heartbeat_at != row->heartbeat_at;
  }
  if (runs)
    throw OptionError("another worker named " + options_.name + " is running (host " + row->host + ", pid " +
                      std::to_string(row->pid) +
                      "): worker names must be unique in the fleet (--name; the default is HOST-PID)");
}

int Worker::capacity() const {
  const graph::PipelineStats stats = pipeline_->stats();
  return static_cast<int>(std::max<std::size_t>(stats.token_target, 1)) + options_.prefetch;
}

WorkerBeat Worker::beat_row() const {
  WorkerBeat beat;
  beat.name = options_.name;
  beat.host = host_;
  beat.backend = std::string(graph::to_string(pipeline_->backend()));
  beat.pid = static_cast<int>(getpid());
  beat.capacity = capacity();
  beat.proofs = proofs_;
  beat.draining = draining_;
  for (const auto& [id, held] : held_) beat.held.push_back(id.first);
  return beat;
}

void Worker::beat() {
  const ReapCounts reaped = timed(db_time_.beat_s, [&] {
    heartbeat(*db_, beat_row(), options_.lease_s);
    return reap(*db_);
  });
  ++db_time_.beats;
  if (reaped.requeued > 0 || reaped.failed > 0)
    PL_LOG_WARN(
        "fleet worker {}: expired leases: {} jobs requeued, {} failed (out of attempts or past deadline)",
        options_.name, reaped.requeued, reaped.failed);
  if (reaped.requeued > 0) queue_may_have_work_ = true;
  next_beat_ =
      Clock::now() + std::chrono::milliseconds(static_cast<std::int64_t>(options_.lease_s * 1000 / 3));
}

void Worker::claim() {
  const int room = capacity() - static_cast<int>(held_.size());
  if (room <= 0) return;
  std::vector<std::string> skip;
  for (auto it = unloadable_keys_.begin(); it != unloadable_keys_.end();)
    if (Clock::now() >= it->second) {
      it = unloadable_keys_.erase(it);
    } else {
      skip.push_back(it->first);
      ++it;
    }
  std::vector<ClaimedJob> jobs =
      timed(db_time_.claim_s, [&] { return claim_jobs(*db_, options_.name, room, options_.lease_s, skip); });
  ++db_time_.claims;
  db_time_.claimed += static_cast<std::int64_t>(jobs.size());
  if (static_cast<int>(jobs.size()) < room) queue_may_have_work_ = false;
  last_claim_ = Clock::now();
  for (ClaimedJob& job : jobs) {
    PL_LOG_DEBUG("fleet worker {}: claimed job {} ({}), attempt {}", options_.name, job.id, job.name,
                 job.attempt);
    const HeldId id{job.id, job.attempt};
    start(held_[id] = Held{std::move(job)});
  }
}

void Worker::deliver() {
  while (true) {
    Delivery d;
    {
      std::lock_guard lock(outbox_mutex_);
      if (outbox_.empty()) return;
      d = outbox_.front();
    }
    try {
      const bool recorded = timed(db_time_.record_s, [&] {
        return d.proof ? complete_job(*db_, d.lease, *d.proof)
                       : fail_job(*db_, d.lease, d.error, d.permanent) != FailOutcome::discarded;
      });
      ++db_time_.records;
      if (!recorded)
        PL_LOG_WARN(
            "fleet worker {}: the result of job {} (attempt {}) was discarded: its lease had expired and "
            "the job was claimed again or ended",
            options_.name, d.lease.job, d.lease.attempt);
      else if (d.proof)
        ++proofs_;
      else
        ++failures_;
    } catch (const RetryLater&) {
      throw;  // kept in the outbox, delivered after reconnecting (after a backoff)
    } catch (const Interrupted&) {
      throw;  // kept in the outbox: the worker is stopping, and delivers it while it may
    } catch (const DatabaseUnusable&) {
      throw;  // the worker stops
    } catch (const Error& e) {
      PL_LOG_ERROR("fleet worker {}: cannot record job {}: {} (its lease will expire)", options_.name,
                   d.lease.job, e.what());
    }
    {
      std::lock_guard lock(outbox_mutex_);
      outbox_.pop_front();
    }
    finish(d.lease);
  }
}

void Worker::publish() {
  // The loop turns at least every safety_period; a turn whose statements outlive two leases has lost its
  // jobs to other workers anyway.
  const auto stall_limit = std::max<std::chrono::seconds>(
      4 * safety_period, std::chrono::seconds(static_cast<std::int64_t>(std::ceil(2 * options_.lease_s))));
  std::lock_guard lock(published_mutex_);
  published_ = {.published_at = Clock::now(),
                .stall_limit = stall_limit,
                .connected = db_.has_value(),
                .draining = draining_,
                .held = held_.size(),
                .keys = keys_->resident(),
                .proofs = proofs_,
                .failures = failures_,
                .db_time = db_time_};
}

MetricsServer::Response Worker::answer_http(std::string_view path) const {
  WorkerFigures figures;
  {
    std::lock_guard lock(published_mutex_);
    figures = published_;
  }
  return answer_worker_http(path, figures, options_.name, [this] { return pipeline_->stats(); });
}

void Worker::finish(const Lease& lease) {
  const auto it = held_.find({lease.job, lease.attempt});
  if (it == held_.end()) return;
  if (it->second.key_serial != 0) keys_->release(it->second.key_serial);
  held_.erase(it);
}

void Worker::fail_now(Held& held, const std::string& error, bool permanent) {
  held.submitted = true;
  PL_LOG_WARN("fleet worker {}: job {} ({}) failed: {}", options_.name, held.job.id, held.job.name, error);
  std::lock_guard lock(outbox_mutex_);
  outbox_.push_back({Lease{held.job.id, options_.name, held.job.attempt}, std::nullopt, error, permanent});
}

void Worker::start(Held& held) {
  const KeyLookup key = keys_->lookup(held.job.key_path);
  if (key.state == KeyLookup::State::loading) return;  // started when the load ends (the loader wakes us)
  if (key.state == KeyLookup::State::failed) {
    if (key.permanent) return fail_now(held, key.error, true);
    // Room this worker's own jobs of other keys will give back when they end (their keys then become idle
    // and are unregistered for this one): the job waits for it rather than spend an attempt, for as long as
    // a key that failed here is left alone, so that a stream of other keys' jobs cannot hold it for ever.
    if (key.out_of_budget && keys_->others_have_jobs(held.job.key_path)) {
      if (!held.waiting_for_room) held.waiting_for_room = Clock::now();
      if (Clock::now() - *held.waiting_for_room < options_.keys.retry_after) return;
    }
    // This worker's trouble (a share not mounted here, budgets too small for the key): the attempt counts,
    // and other workers get the key's jobs while this one leaves them alone for a while.
    unloadable_keys_[held.job.key_path] = Clock::now() + options_.keys.retry_after;
    return fail_now(held,
                    key.error + " (on worker " + options_.name +
                        ", which leaves this key's jobs to others for " +
                        std::to_string(options_.keys.retry_after.count()) + " s)",
                    false);
  }
  if (held.key_serial != key.serial) {  // first start, or the file changed while the job waited for room
    keys_->acquire(key.serial);
    if (held.key_serial != 0) keys_->release(held.key_serial);
    held.key_serial = key.serial;
  }
  const Lease lease{held.job.id, options_.name, held.job.attempt};
  graph::Job job{.key = key.handle, .label = held.job.name};
  job.on_result = [this, lease, witness = held.job.witness_path](const graph::JobResult& r) {
    take_result(lease, witness, r);
  };
  try {
    if (held.job.witness_inline) {
      const std::string what =
          "job " + std::to_string(held.job.id) + " (" + held.job.name + ") inline witness";
      job.witness = inline_witness(*held.job.witness_inline, what, key, held.job.key_path);
    } else {
      job.witness = graph::WtnsFile{*held.job.witness_path};
    }
    held.submitted = pipeline_->try_submit(std::move(job)).has_value();
  } catch (const Error& e) {
    fail_now(held, e.what(), permanent_failure(e.code()));
  }
}

void Worker::start_parked() {
  for (auto& [id, held] : held_)
    if (!held.submitted) start(held);
}

void Worker::take_result(const Lease& lease, const std::optional<std::string>& witness_path,
                         const graph::JobResult& r) {
  Delivery d{.lease = lease};
  if (r.ok()) {
    d.proof = proof_record(r);
  } else {
    d.error = r.error ? r.error->message : "no proof and no error";
    d.permanent = r.error && permanent_failure(r.error->code);
    std::error_code ec;
    if (d.permanent && witness_path && !std::filesystem::exists(*witness_path, ec)) {
      // Not there on this node, as a key can be missing (a share not mounted here): another worker may see
      // it, and the attempts bound the retries.
      d.permanent = false;
      d.error += " (the witness is not on worker " + options_.name + "; another worker may see it)";
    }
    PL_LOG_WARN("fleet worker {}: job {} ({}) failed: {}", options_.name, lease.job, r.label, d.error);
  }
  {
    std::lock_guard lock(outbox_mutex_);
    outbox_.push_back(std::move(d));
  }
  wakeup_.notify();
}

bool Worker::absorb_notifications() {
  bool new_work = false;
  for (const Notification& n : db_->take_notifications()) new_work |= n.channel == "proofline_jobs";
  if (new_work) queue_may_have_work_ = true;
  return new_work;
}

bool Worker::drained() const {
  return held_.empty();  // a job leaves held_ only once its result is recorded
}

std::chrono::milliseconds Worker::sleep_time() const {
  std::chrono::milliseconds wait = safety_period;  // every event that matters wakes the loop before
  if (db_) wait = std::min(wait, until(next_beat_));
  if (!db_) wait = std::min(wait, until(next_connect_));
  if (draining_) wait = std::min(wait, until(drain_deadline_));
  return wait;
}

void Worker::serve_once() {
  // A safety net, not the way work arrives (NOTIFY is): a claim at least every safety_period when idle.
  if (Clock::now() - last_claim_ > safety_period) queue_may_have_work_ = true;
  deliver();
  if (Clock::now() >= next_beat_) beat();
  if (!draining_ && queue_may_have_work_) claim();
}

void Worker::begin_drain() {
  draining_ = true;
  drain_deadline_ =
      Clock::now() + std::chrono::milliseconds(static_cast<std::int64_t>(options_.drain_timeout_s * 1000));
  // From now on a statement waits for the server until the drain timeout at most, and a second signal gives
  // it up at once.
  interruption_.give_up_at(2, drain_deadline_, "the drain timeout");
  next_beat_ = Clock::now();  // tell the fleet at once
  PL_LOG_INFO(
      "fleet worker {}: stopping: claiming nothing more, finishing {} jobs (within {} s; a second signal "
      "stops at once)",
      options_.name, held_.size(), options_.drain_timeout_s);
}

int Worker::stop_now(const std::string& why, int status) {
  const std::size_t unfinished = held_.size();
  const std::int64_t proofs_before = proofs_;
  PL_LOG_WARN("fleet worker {}: {}: stopping now with {} jobs unfinished", options_.name, why, unfinished);
  // Only another signal (which cuts every step left short) or the time each step is given ends these.
  const int another_signal = stop_signal_count() + 1;
  const auto bounded = [&](std::chrono::seconds time, const char* step, auto&& body) {
    interruption_.give_up_at(another_signal, Clock::now() + time, std::string("the time given to ") + step);
    try {
      if (!db_) {
        next_connect_ = Clock::now();
        connect();
      }
      if (db_) body();
    } catch (const Error& e) {
      PL_LOG_WARN("fleet worker {}: cannot {}: {}", options_.name, step, e.what());
      if (db_ && !db_->open()) abandon_connection();
    }
  };
  bounded(stop_delivery_time, "record the results already made", [&] { deliver(); });
  int requeued = -1;
  bounded(stop_requeue_time, "put the unfinished jobs back in the queue", [&] {
    requeued = requeue_unfinished(*db_, options_.name,
                                  "worker " + options_.name + " stopped before finishing it (" + why + ")");
    leave(*db_, options_.name);
  });
  const std::size_t cancelled = pipeline_->cancel_queued();
  pipeline_->cancel_witnesses();  // a witness may be computed for as long as its input says
  pipeline_->shutdown(graph::ShutdownMode::cancel);  // waits only for the proofs already being made
  const std::string jobs = requeued >= 0
                               ? std::to_string(requeued) + " jobs put back in the queue for other workers"
                               : "the database unreachable: the leases of its jobs will expire";
  PL_LOG_WARN(
      "fleet worker {}: stopped after {}: {} results recorded, {}; {} queued proofs cancelled; exit {}",
      options_.name, why, proofs_ - proofs_before, jobs, cancelled, status);
  return status;
}

void Worker::leave_fleet() {
  if (!db_) return;
  try {
    // Every job held was delivered: a job still leased to this name is one a claim given up as the drain
    // began took after all, which nobody here proves.
    if (const int orphans =
            requeue_unfinished(*db_, options_.name, "claimed by worker " + options_.name + " as it stopped"))
      PL_LOG_INFO("fleet worker {}: put back {} jobs claimed as it stopped", options_.name, orphans);
    leave(*db_, options_.name);
  } catch (const Error& e) {
    PL_LOG_WARN("fleet worker {}: cannot leave the workers table: {}", options_.name, e.what());
  }
}

int Worker::run() {
  // A statement or a connection given up is this worker's own doing (a signal, the drain timeout), acted on
  // at the top of the loop; no backoff.
  const auto given_up = [&](const Interrupted& e) {
    PL_LOG_WARN("fleet worker {}: {}", options_.name, e.what());
    abandon_connection();
    next_connect_ = Clock::now();
  };
  wakeup_.route_stop_signals();
  // The first signal gives up the statement in flight at once: the drain goes on from a fresh connection.
  interruption_.give_up_at(1);
  int status = 0;
  PL_LOG_INFO("fleet worker {}: {} backend, lease {} s, claims up to the pipeline's tokens + {}",
              options_.name, graph::to_string(pipeline_->backend()), options_.lease_s, options_.prefetch);
  while (true) {
    const int signals = stop_signal_count();
    if (signals >= 2)
      return stop_now(std::string("a second ") + stop_signal_name(stop_signal()), 128 + stop_signal());
    if (signals == 1 && !draining_) begin_drain();
    if (draining_ && Clock::now() >= drain_deadline_) return stop_now("the drain timeout", 1);
    try {
      connect();  // an error other than Interrupted that it lets through ends the worker (a duplicate name)
    } catch (const Interrupted& e) {
      given_up(e);
      continue;
    }
    try {
      if (db_) {
        serve_once();
        backoff_ = 100ms;  // the database answers again
      }
      start_parked();
      if (draining_ && drained()) break;
      publish();
      // Notifications that came in while statements ran are already in libpq's queue, not on the socket.
      if (db_ && absorb_notifications() && !draining_) continue;
      wakeup_.wait(db_ ? db_->socket() : -1, sleep_time());
      if (db_) absorb_notifications();
    } catch (const Interrupted& e) {
      given_up(e);
    } catch (const ConnectionLost& e) {
      PL_LOG_WARN("fleet worker {}: lost the database ({}); still proving {} jobs, reconnecting",
                  options_.name, e.what(), held_.size());
      db_.reset();
    } catch (const DatabaseUnusable& e) {
      PL_LOG_ERROR("fleet worker {}: {}; stopping (the leases of the {} jobs it holds will expire)",
                   options_.name, e.what(), held_.size());
      status = 1;
      break;
    } catch (const Error& e) {
      // A statement the server refused (cancelled by an operator, a statement_timeout, a deadlock): the
      // jobs held go on proving; a fresh connection after a backoff tries again.
      PL_LOG_WARN("fleet worker {}: {}; still proving {} jobs, reconnecting in {} ms", options_.name,
                  e.what(), held_.size(), backoff_.count());
      db_.reset();
      next_connect_ = Clock::now() + backoff_;
      backoff_ = std::min(backoff_ * 2, options_.max_backoff);
    }
  }
  if (status == 0) {
    leave_fleet();
  } else if (db_) {
    try {
      leave(*db_, options_.name);
    } catch (const Error&) {
    }
  }
  publish();
  pipeline_->shutdown();
  PL_LOG_INFO(
      "fleet worker {}: stopped after {} proofs; database time: claims {:.1f} ms in {} calls for {} jobs, "
      "results {:.1f} ms for {}, heartbeats {:.1f} ms in {}",
      options_.name, proofs_, db_time_.claim_s * 1e3, db_time_.claims, db_time_.claimed,
      db_time_.record_s * 1e3, db_time_.records, db_time_.beat_s * 1e3, db_time_.beats);
  return status;
}

}  // namespace proofline::fleet::detail
