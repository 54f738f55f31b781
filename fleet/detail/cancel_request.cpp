#include <proofline/fleet/detail/cancel_request.hpp>

#include <libpq-fe.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace proofline::fleet::detail {

namespace {

/// What the request's thread reports; shared, since the thread may outlive the wait.
struct Outcome {
  std::mutex mutex;
  std::condition_variable answered;
  bool done = false, sent = false;
};

}  // namespace

bool request_cancel(pg_conn* conn, std::chrono::milliseconds patience) {
  PGcancel* cancel = PQgetCancel(conn);
  if (cancel == nullptr) return false;
  const auto outcome = std::make_shared<Outcome>();
  try {
    std::thread([outcome, cancel] {
      char error[256];
      const bool sent = PQcancel(cancel, error, sizeof error) == 1;
      PQfreeCancel(cancel);
      {
        std::lock_guard lock(outcome->mutex);
        outcome->done = true;
        outcome->sent = sent;
      }
      outcome->answered.notify_all();
    }).detach();
  } catch (const std::system_error&) {  // no thread to spare: the caller closes the connection all the same
    PQfreeCancel(cancel);
    return false;
  }
  std::unique_lock lock(outcome->mutex);
  return outcome->answered.wait_for(lock, patience, [&] { return outcome->done; }) && outcome->sent;
}

}  // namespace proofline::fleet::detail
