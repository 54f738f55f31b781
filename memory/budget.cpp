#include <proofline/memory/budget.hpp>

#include <algorithm>
#include <cstdlib>
#include <exception>

#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory {

struct Budget::Waiter {
  explicit Waiter(std::uint64_t wanted) : bytes(wanted) {}
  const std::uint64_t bytes;
  bool granted = false;    // set by whoever hands it the bytes, under mutex_
  bool wake = false;       // it became the head, or something became evictable: look again
  bool told_head = false;  // it has been woken once as the head (a per-waiter flag: no pointer reuse issue)
  std::condition_variable_any cv;
};

struct Budget::EvictorEntry {
  std::uint64_t id = 0;
  std::string name;
  int priority = 0;
  Evictor evictor;
  bool removed = false;  // under evictor_mutex_
  int active = 0;        // calls in flight, under evictor_mutex_
};

Budget::Budget(std::string name, std::uint64_t total_bytes, BudgetOptions options)
    : name_(std::move(name)), total_(total_bytes), options_(options) {
  if (total_ == 0) throw Error(Errc::invalid_argument, "budget '" + name_ + "': the total must be positive");
}

Budget::~Budget() {
  std::lock_guard lock(mutex_);
  std::lock_guard evictor_lock(evictor_mutex_);
  if (used_ != 0 || !queue_.empty() || !evictors_.empty()) {
    // Reservations, waiters and registrations hold a pointer to this budget; letting them outlive it would
    // corrupt memory later, far from the cause.
    PL_LOG_ERROR("budget '{}' destroyed while still in use: {} reserved, {} waiting, {} evictors registered",
                 name_, format_size(used_), queue_.size(), evictors_.size());
    std::abort();
  }
}

std::uint64_t Budget::used() const {
  std::lock_guard lock(mutex_);
  return used_;
}

std::uint64_t Budget::available() const {
  std::lock_guard lock(mutex_);
  return total_ - used_;
}

void Budget::refuse(std::uint64_t bytes) {
  {
    std::lock_guard lock(mutex_);
    ++stats_.refusals;
  }
  throw Error(Errc::out_of_budget, "budget '" + name_ + "': a request for " + format_size(bytes) +
                                       " exceeds the whole budget of " + format_size(total_));
}

void Budget::grant_locked(std::uint64_t bytes) {
  used_ += bytes;
  stats_.high_water = std::max(stats_.high_water, used_);
  ++stats_.grants;
}

std::optional<Reservation> Budget::try_reserve(std::uint64_t bytes) {
  if (bytes > total_) refuse(bytes);
  if (bytes == 0) return Reservation(this, 0);  // nothing to queue for
  std::lock_guard lock(mutex_);
  // A queued waiter owns the next free bytes; taking them here would let small requests starve it.
  if (!queue_.empty() || bytes > total_ - used_) return std::nullopt;
  grant_locked(bytes);
  return Reservation(this, bytes);
}

bool Budget::try_grow(Reservation& reservation, std::uint64_t bytes) {
  if (bytes > total_) refuse(bytes);
  std::lock_guard lock(mutex_);
  if (!queue_.empty() || bytes > total_ - used_) return false;
  grant_locked(bytes);
  reservation.bytes_ += bytes;
  return true;
}

void Budget::serve_queue_locked() {
  while (!queue_.empty()) {
    Waiter* head = queue_.front();
    if (head->bytes > total_ - used_) {
      // A new head must learn it is the head: only the head asks the evictors.
      if (!head->told_head) {
        head->told_head = true;
        head->wake = true;
        head->cv.notify_one();
      }
      return;
    }
    queue_.pop_front();
    grant_locked(head->bytes);
    head->granted = true;
    head->cv.notify_one();
  }
}

void Budget::leave_queue_locked(std::list<Waiter*>::iterator it) {
  queue_.erase(it);
  // A large head that leaves may have been all that kept smaller waiters behind it from fitting.
  serve_queue_locked();
  stats_.waiting = queue_.size();
}

void Budget::release_bytes(std::uint64_t bytes) noexcept {
  {
    std::lock_guard lock(mutex_);
    release_bytes_locked(bytes);
  }
  released_.notify();
}

void Budget::release_bytes_locked(std::uint64_t bytes) noexcept {
  if (bytes > used_) {
    PL_LOG_ERROR("budget '{}': releasing {} but only {} is reserved", name_, format_size(bytes),
                 format_size(used_));
    std::abort();
  }
  used_ -= bytes;
  serve_queue_locked();
  stats_.waiting = queue_.size();
}

Reservation Budget::reserve(std::uint64_t bytes, const ReserveOptions& options) {
  if (bytes > total_) refuse(bytes);
  if (bytes == 0) return Reservation(this, 0);
  std::unique_lock lock(mutex_);
  if (queue_.empty() && bytes <= total_ - used_) {
    grant_locked(bytes);
    return Reservation(this, bytes);
  }

  Waiter waiter(bytes);
  waiter.told_head = queue_.empty();
  const auto it = queue_.insert(queue_.end(), &waiter);
  ++stats_.waits;
  stats_.waiting = queue_.size();
  wait_in_queue(lock, waiter, it, options);
  stats_.waiting = queue_.size();
  return Reservation(this, bytes);
}

void Budget::wait_in_queue(std::unique_lock<std::mutex>& lock, Waiter& waiter,
                           std::list<Waiter*>::iterator it, const ReserveOptions& options) {
  const std::uint64_t bytes = waiter.bytes;
  const auto start = Clock::now();
  bool asked = false;
  std::uint64_t asked_epoch = 0;
  Clock::time_point retry_at{};
  for (;;) {
    if (waiter.granted) break;
    const bool head = queue_.front() == &waiter;
    if (head && bytes <= total_ - used_) {
      queue_.pop_front();
      grant_locked(bytes);
      waiter.granted = true;
      serve_queue_locked();
      break;
    }
    const auto now = throw_if_wait_over_locked(it, bytes, options, start);
    const bool can_evict = options.evict && evictor_count_.load(std::memory_order_relaxed) > 0;
    if (head && can_evict && (!asked || asked_epoch != evictable_epoch_ || now >= retry_at)) {
      asked = true;
      asked_epoch = evictable_epoch_;
      evict_as_head(lock, waiter, it, options, start);
      retry_at = Clock::now() + options_.evict_retry;
      continue;
    }
    waiter.wake = false;
    auto until = options.deadline.value_or(Clock::time_point::max());
    if (head && can_evict) until = std::min(until, retry_at);
    const auto ready = [&] { return waiter.granted || waiter.wake; };
    if (until == Clock::time_point::max()) {
      waiter.cv.wait(lock, options.stop, ready);
    } else {
      waiter.cv.wait_until(lock, options.stop, until, ready);
    }
  }
  account_wait_locked(start);
}

void Budget::account_wait_locked(Clock::time_point start) {
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  stats_.wait_seconds += seconds;
  stats_.max_wait_seconds = std::max(stats_.max_wait_seconds, seconds);
}

Clock::time_point Budget::throw_if_wait_over_locked(std::list<Waiter*>::iterator it, std::uint64_t bytes,
                                                    const ReserveOptions& options, Clock::time_point start) {
  if (options.stop.stop_requested()) {
    leave_queue_locked(it);
    ++stats_.cancellations;
    account_wait_locked(start);
    throw Error(Errc::cancelled,
                "budget '" + name_ + "': the wait for " + format_size(bytes) + " was cancelled");
  }
  const auto now = Clock::now();
  if (options.deadline && now >= *options.deadline) {
    leave_queue_locked(it);
    ++stats_.timeouts;
    account_wait_locked(start);
    throw Error(Errc::timeout, "budget '" + name_ + "': no room for " + format_size(bytes) +
                                   " before the deadline (" + format_size(total_ - used_) + " of " +
                                   format_size(total_) + " free)");
  }
  return now;
}

void Budget::evict_as_head(std::unique_lock<std::mutex>& lock, Waiter& waiter,
                           std::list<Waiter*>::iterator it, const ReserveOptions& options,
                           Clock::time_point start) {
  // The waiter stays queued at the head meanwhile, so what the evictors free cannot be taken by a
  // later request: try_reserve sees the queue, and releases hand bytes to the head.
  lock.unlock();
  try {
    run_evictors(waiter, options);
  } catch (...) {
    lock.lock();
    if (!waiter.granted)
      leave_queue_locked(it);
    else
      release_bytes_locked(waiter.bytes);
    account_wait_locked(start);
    throw;
  }
  lock.lock();
}

void Budget::run_evictors(Waiter& waiter, const ReserveOptions& options) {
  std::vector<std::shared_ptr<EvictorEntry>> evictors;
  {
    std::lock_guard lock(evictor_mutex_);
    evictors = evictors_;
  }
  for (const auto& entry : evictors) {
    std::uint64_t wanted = 0;
    {
      std::lock_guard lock(mutex_);
      if (waiter.granted || waiter.bytes <= total_ - used_) return;
      wanted = waiter.bytes - (total_ - used_);
    }
    if (options.stop.stop_requested()) return;
    {
      std::lock_guard lock(evictor_mutex_);
      if (entry->removed) continue;
      ++entry->active;
    }
    std::uint64_t freed = 0;
    try {
      freed = entry->evictor(wanted);
    } catch (const std::exception& e) {
      PL_LOG_WARN("budget '{}': evictor '{}' failed: {}", name_, entry->name, e.what());
    } catch (...) {
      PL_LOG_WARN("budget '{}': evictor '{}' failed with an unknown exception", name_, entry->name);
    }
    {
      std::lock_guard lock(evictor_mutex_);
      if (--entry->active == 0) evictor_idle_.notify_all();
    }
    {
      std::lock_guard lock(mutex_);
      ++stats_.evictor_calls;
      if (freed > 0) {
        ++stats_.evictions;
        stats_.bytes_evicted += freed;
      }
    }
    if (freed > 0) {
      PL_LOG_DEBUG("budget '{}': evictor '{}' freed {} of {} wanted", name_, entry->name, format_size(freed),
                   format_size(wanted));
    }
  }
}

EvictorRegistration Budget::add_evictor(std::string name, int priority, Evictor evictor) {
  if (!evictor)
    throw Error(Errc::invalid_argument, "budget '" + name_ + "': evictor '" + name + "' is empty");
  auto entry = std::make_shared<EvictorEntry>();
  entry->name = std::move(name);
  entry->priority = priority;
  entry->evictor = std::move(evictor);
  std::lock_guard lock(evictor_mutex_);
  entry->id = next_evictor_id_++;
  const auto pos =
      std::upper_bound(evictors_.begin(), evictors_.end(), priority,
                       [](int p, const std::shared_ptr<EvictorEntry>& e) { return p < e->priority; });
  const std::uint64_t id = entry->id;
  evictors_.insert(pos, std::move(entry));
  evictor_count_.fetch_add(1, std::memory_order_relaxed);
  return EvictorRegistration(this, id);
}

void Budget::remove_evictor(std::uint64_t id) noexcept {
  std::unique_lock lock(evictor_mutex_);
  const auto it =
      std::find_if(evictors_.begin(), evictors_.end(), [&](const auto& e) { return e->id == id; });
  if (it == evictors_.end()) return;
  const std::shared_ptr<EvictorEntry> entry = *it;
  entry->removed = true;
  evictors_.erase(it);
  evictor_count_.fetch_sub(1, std::memory_order_relaxed);
  evictor_idle_.wait(lock, [&] { return entry->active == 0; });
}

void Budget::notify_evictable() {
  std::lock_guard lock(mutex_);
  ++evictable_epoch_;
  if (!queue_.empty()) {
    queue_.front()->wake = true;
    queue_.front()->cv.notify_one();
  }
}

BudgetStats Budget::stats() const {
  std::lock_guard lock(mutex_);
  BudgetStats out = stats_;
  out.total = total_;
  out.used = used_;
  out.waiting = queue_.size();
  return out;
}

EvictorRegistration::EvictorRegistration(EvictorRegistration&& other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)), id_(std::exchange(other.id_, 0)) {}

EvictorRegistration& EvictorRegistration::operator=(EvictorRegistration&& other) noexcept {
  if (this != &other) {
    reset();
    budget_ = std::exchange(other.budget_, nullptr);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

EvictorRegistration::~EvictorRegistration() {
  reset();
}

void EvictorRegistration::reset() noexcept {
  if (budget_ != nullptr) budget_->remove_evictor(id_);
  budget_ = nullptr;
  id_ = 0;
}

}  // namespace proofline::memory
