// A byte budget for one resource: host RAM, or one GPU's VRAM. Everything proofline pins or keeps
// resident is charged to it (pool buffers leased or idle, SRS, PCE, per-job working sets), so the process
// never holds more than the budget says, and whoever needs room can ask the holders of idle memory for it.
//
// Waiters are served strictly first-in first-out: while anyone is queued, no later request (blocking or
// try_) is granted ahead of it, so a stream of small requests cannot starve a large one. Releases hand
// bytes directly to the waiters at the head of the queue, under the same lock the waiters check, so no
// wake-up is lost. Only the head of the queue calls the evictors, and it calls them without the budget lock
// (evictors release reservations, which re-enter the budget); whatever they free is handed to the head.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include <proofline/memory/listener.hpp>
#include <proofline/memory/reservation.hpp>

namespace proofline::memory {

using Clock = std::chrono::steady_clock;

/// How a blocking reserve may end other than with the bytes.
struct ReserveOptions {
  std::optional<Clock::time_point> deadline;  ///< Error(Errc::timeout) once it passes; none: no limit
  std::stop_token stop;                       ///< Error(Errc::cancelled) once stop is requested
  bool evict = true;                          ///< ask the evictors for the shortfall before waiting
};

struct BudgetOptions {
  /// The head waiter asks the evictors again at least this often, even without news, because some memory
  /// becomes evictable only by time passing (resident entries reaching their idle timeout).
  Clock::duration evict_retry = std::chrono::milliseconds(250);
};

struct BudgetStats {
  std::uint64_t total = 0;
  std::uint64_t used = 0;
  std::uint64_t high_water = 0;
  std::uint64_t grants = 0;         ///< reservations (and growths) granted
  std::uint64_t waits = 0;          ///< requests that had to queue
  double wait_seconds = 0;          ///< summed over queued requests, granted or not
  double max_wait_seconds = 0;      ///< longest single wait
  std::uint64_t timeouts = 0;       ///< waits that ended at their deadline
  std::uint64_t cancellations = 0;  ///< waits that ended by their stop token
  std::uint64_t refusals = 0;       ///< requests larger than the whole budget
  std::uint64_t evictor_calls = 0;
  std::uint64_t evictions = 0;      ///< evictor calls that freed something
  std::uint64_t bytes_evicted = 0;  ///< as the evictors reported it
  std::size_t waiting = 0;          ///< requests queued now
};

/// Evictor priorities: lower runs first. Idle pool buffers are cheap to recreate (a re-pin is a fraction of a
/// second per GiB), resident SRS/PCE entries are not (a reload reads and checks a whole key).
inline constexpr int pool_evictor_priority = 0;
inline constexpr int residency_evictor_priority = 100;

class Budget;

/// Keeps an evictor registered; unregisters it when destroyed, after any call of it in flight returns, so
/// the object the evictor points into can be destroyed right after. Never destroy it from inside its own
/// evictor call.
class EvictorRegistration {
 public:
  EvictorRegistration() = default;
  EvictorRegistration(EvictorRegistration&& other) noexcept;
  EvictorRegistration& operator=(EvictorRegistration&& other) noexcept;
  EvictorRegistration(const EvictorRegistration&) = delete;
  EvictorRegistration& operator=(const EvictorRegistration&) = delete;
  ~EvictorRegistration();
  void reset() noexcept;

 private:
  friend class Budget;
  EvictorRegistration(Budget* budget, std::uint64_t id) noexcept : budget_(budget), id_(id) {}
  Budget* budget_ = nullptr;
  std::uint64_t id_ = 0;
};

class Budget {
 public:
  /// Called with the number of bytes still missing; frees what it can (by releasing reservations of this
  /// budget) and returns how many bytes it released. It runs on the waiter's thread, without the budget
  /// lock, possibly concurrently with itself; it must not block on this budget.
  using Evictor = std::function<std::uint64_t(std::uint64_t wanted)>;

  /// `name` appears in errors and logs ("host", "gpu0").
  Budget(std::string name, std::uint64_t total_bytes, BudgetOptions options = {});
  /// Every reservation, waiter and evictor registration must be gone by now; anything left is a bug
  /// (it would point into freed memory), reported and aborted on.
  ~Budget();
  Budget(const Budget&) = delete;
  Budget& operator=(const Budget&) = delete;

  const std::string& name() const noexcept { return name_; }
  std::uint64_t total() const noexcept { return total_; }
  std::uint64_t used() const;
  std::uint64_t available() const;

  /// The bytes if they are free now and nobody is queued; never blocks, never evicts.
  std::optional<Reservation> try_reserve(std::uint64_t bytes);

  /// Waits for the bytes: asks the evictors in priority order for the shortfall, then queues (FIFO).
  /// Throws Error(out_of_budget) at once if `bytes` exceeds the whole budget, Error(timeout) at the
  /// deadline, Error(cancelled) when the stop token fires.
  Reservation reserve(std::uint64_t bytes, const ReserveOptions& options);
  Reservation reserve(std::uint64_t bytes) { return reserve(bytes, ReserveOptions{}); }
  Reservation reserve(std::uint64_t bytes, Clock::time_point deadline) {
    return reserve(bytes, ReserveOptions{.deadline = deadline});
  }
  Reservation reserve(std::uint64_t bytes, std::stop_token stop) {
    return reserve(bytes, ReserveOptions{.stop = std::move(stop)});
  }

  /// Registers an evictor; lower priorities are asked first, equal ones in registration order.
  [[nodiscard]] EvictorRegistration add_evictor(std::string name, int priority, Evictor evictor);

  /// Tells the head waiter that something became evictable (a pool buffer went idle, a resident entry
  /// lost its last user), so it asks the evictors again now rather than at its next retry.
  void notify_evictable();

  BudgetStats stats() const;

  /// Called after bytes are given back (a reservation released or shrunk), on the releasing thread, without
  /// the budget's lock. Set an empty function before what the callback refers to goes.
  void set_release_listener(std::function<void()> callback) { released_.set(std::move(callback)); }

 private:
  friend class Reservation;
  friend class EvictorRegistration;
  struct Waiter;
  struct EvictorEntry;

  void release_bytes(std::uint64_t bytes) noexcept;
  void release_bytes_locked(std::uint64_t bytes) noexcept;
  bool try_grow(Reservation& reservation, std::uint64_t bytes);
  void remove_evictor(std::uint64_t id) noexcept;
  void grant_locked(std::uint64_t bytes);
  void serve_queue_locked();
  void leave_queue_locked(std::list<Waiter*>::iterator it);
  void wait_in_queue(std::unique_lock<std::mutex>& lock, Waiter& waiter, std::list<Waiter*>::iterator it,
                     const ReserveOptions& options);
  void account_wait_locked(Clock::time_point start);
  Clock::time_point throw_if_wait_over_locked(std::list<Waiter*>::iterator it, std::uint64_t bytes,
                                              const ReserveOptions& options, Clock::time_point start);
  void evict_as_head(std::unique_lock<std::mutex>& lock, Waiter& waiter, std::list<Waiter*>::iterator it,
                     const ReserveOptions& options, Clock::time_point start);
  void run_evictors(Waiter& waiter, const ReserveOptions& options);
  [[noreturn]] void refuse(std::uint64_t bytes);

  const std::string name_;
  const std::uint64_t total_;
  const BudgetOptions options_;

  mutable std::mutex mutex_;
  std::uint64_t used_ = 0;
  std::list<Waiter*> queue_;  // waiters live on their own stacks; FIFO order
  std::uint64_t evictable_epoch_ = 0;
  BudgetStats stats_;

  std::mutex evictor_mutex_;  // never held while an evictor runs, nor together with mutex_
  std::condition_variable evictor_idle_;
  std::vector<std::shared_ptr<EvictorEntry>> evictors_;
  std::uint64_t next_evictor_id_ = 1;
  std::atomic<std::size_t> evictor_count_{0};
  Listener released_;
};

}  // namespace proofline::memory
