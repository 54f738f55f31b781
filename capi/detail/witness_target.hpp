// A witness callback's view of its job's slot: valid only during the callback and given to it as an id that
// is never reused (like every handle), so a stale or foreign pointer is refused without being dereferenced.
// And the gate that holds a job's result back while its witness callback still runs.
#pragma once

#include <functional>
#include <mutex>

#include <proofline.h>
#include <proofline/graph/job.hpp>

namespace proofline::capi {

/// A job can fail while its witness callback still runs (its timeout passes during the callback): its
/// result then waits here until the callback returns, so that once a job is complete (pl_job_wait, the
/// completion callback) nothing uses the callback's user data any more.
class CallbackGate {
 public:
  /// Runs `deliver` now, or after the running callback returns.
  void deliver_or_hold(std::function<void()> deliver);

 private:
  friend class GateScope;
  std::mutex mutex_;
  bool running_ = false;
  std::function<void()> held_;
};

/// Runs the caller's fill on `target` (as one of the library's callbacks, the gate closed meanwhile) and
/// turns what it returns or throws into the job's error: Error(code of the returned status, its
/// pl_witness_fail message).
void run_witness_fn(pl_witness_fn fill, void* user_data, bool fills_abc, const graph::WitnessTarget& target,
                    CallbackGate& gate);

}  // namespace proofline::capi
