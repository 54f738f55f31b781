// A fleet worker: one long-running pipeline fed from the PostgreSQL queue. Its loop, on one thread:
// deliver the results the pipeline handed over, renew leases and requeue expired ones on heartbeat ticks,
// claim as many queued jobs as the pipeline has room for, and sleep in poll() on the database socket
// (LISTEN proofline_jobs: new work) and a wake-up pipe (results, key loads, signals). It never polls the
// table for new work; the heartbeat tick is its only timer. docs/fleet.md has the guarantees.
//
// Stopping: the first SIGTERM/SIGINT drains (claims nothing more, finishes and delivers what it holds, up to
// the drain timeout); a second one stops at once, putting the unfinished jobs back in the queue. Either
// gives up a statement the worker is waiting on (interruption.hpp), so a stuck server cannot hold it.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <proofline/fleet/detail/interruption.hpp>
#include <proofline/fleet/detail/key_cache.hpp>
#include <proofline/fleet/detail/metrics_server.hpp>
#include <proofline/fleet/detail/pg.hpp>
#include <proofline/fleet/detail/queue.hpp>
#include <proofline/fleet/detail/wakeup.hpp>
#include <proofline/fleet/detail/worker_metrics.hpp>
#include <proofline/graph/pipeline.hpp>

namespace proofline::fleet::detail {

struct WorkerOptions {
  std::string conninfo;  ///< never logged
  std::string name;      ///< unique in the fleet; default host-pid
  graph::Config config;
  double lease_s = 30;  ///< a claim's lease; heartbeats renew it every lease_s / 3
  int prefetch = 1;     ///< jobs claimed beyond the pipeline's pinned-slot tokens
  KeyCache::Options keys;
  double drain_timeout_s = 600;  ///< after SIGTERM, how long to try to deliver what is held
  std::chrono::milliseconds max_backoff{5000};
  /// Where to serve GET /metrics, /healthz and /livez ("HOST:PORT", ":PORT"; empty: nowhere).
  std::string metrics_address;
};

/// A result waiting to be written to the database.
struct Delivery {
  Lease lease;
  std::optional<ProofRecord> proof;
  std::string error;
  bool permanent = false;
};

class Worker {
 public:
  explicit Worker(WorkerOptions options);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  /// Serves until SIGTERM/SIGINT (route_stop_signals) and drains: 0 when everything held was delivered, 1
  /// when the drain timeout passed first or the database is unusable, 128 + the signal's number when a
  /// second signal stopped it before the drain ended.
  int run();

 private:
  struct Held {
    ClaimedJob job;
    bool submitted = false;
    std::uint64_t key_serial = 0;  ///< the key load it counts against (KeyCache::acquire); 0: none yet
    /// Since when it waits for the host memory this worker's running jobs of other keys will free.
    std::optional<std::chrono::steady_clock::time_point> waiting_for_room;
  };
  /// Job id and attempt: an attempt whose lease expired while it was proving may be claimed again by this
  /// worker, and the two attempts are held (and finish) apart.
  using HeldId = std::pair<std::int64_t, int>;
  using Clock = std::chrono::steady_clock;

  /// Connects when there is no connection and its backoff has passed; throws Interrupted when given up.
  void connect();
  /// What a fresh connection does before it serves: ends abandoned sessions, migrates, listens, and (on the
  /// first) checks the name and releases a previous life's leases. Returns the schema version.
  int set_up(Connection& connection, bool first);
  void check_name_is_free(Connection& db);
  /// The application_name of the worker's connections.
  std::string session_name() const;
  /// Closes the connection after a statement was given up, remembering its server process.
  void abandon_connection();
  void begin_drain();
  /// Stops before the drain ends: delivers the results already made and puts the unfinished jobs back in
  /// the queue, each step bounded in time, cancels the jobs queued in the pipeline; returns `status`.
  int stop_now(const std::string& why, int status);
  /// After a clean drain: puts back a claim the worker never saw (one given up as the drain began) and
  /// removes its row.
  void leave_fleet();
  void serve_once();
  void deliver();
  void beat();
  void claim();
  void start_parked();
  void start(Held& held);
  void fail_now(Held& held, const std::string& error, bool permanent);
  void take_result(const Lease& lease, const std::optional<std::string>& witness_path,
                   const graph::JobResult& result);
  void finish(const Lease& lease);
  int capacity() const;
  WorkerBeat beat_row() const;
  std::chrono::milliseconds sleep_time() const;
  bool drained() const;
  /// Reads the notifications received so far; true when new work was announced.
  bool absorb_notifications();
  /// Copies the loop's figures for the metrics endpoint.
  void publish();
  /// The endpoint's answer for `path` (on its thread).
  MetricsServer::Response answer_http(std::string_view path) const;

  WorkerOptions options_;
  std::mutex outbox_mutex_;
  std::deque<Delivery> outbox_;  // filled on pipeline threads
  Wakeup wakeup_;
  Interruption interruption_{wakeup_};  // the connection's: when its statements are given up
  std::unique_ptr<graph::Pipeline> pipeline_;
  std::unique_ptr<KeyCache> keys_;
  std::optional<Connection> db_;
  std::map<HeldId, Held> held_;
  std::map<std::string, Clock::time_point> unloadable_keys_;  // not claimed here until the time given
  std::vector<int> abandoned_backends_;  // of connections whose statement was given up: ended on reconnecting
  bool queue_may_have_work_ = true;
  bool draining_ = false;
  std::int64_t proofs_ = 0, failures_ = 0;
  DatabaseTime db_time_;
  mutable std::mutex published_mutex_;
  WorkerFigures published_;
  std::unique_ptr<MetricsServer> metrics_;  // last member: stopped first, before what its handler reads
  std::string host_;
  Clock::time_point next_beat_{}, next_connect_{}, drain_deadline_{}, last_claim_{};
  std::chrono::milliseconds backoff_{100};
};

}  // namespace proofline::fleet::detail
