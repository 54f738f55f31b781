#include <proofline/memory/pinned_pool.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <numeric>
#include <stop_token>

#include <proofline/memory/detail/pool_buffer.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/scope_guard.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory {

using detail::PoolBuffer;

struct PinnedPool::Waiter {
  Sizes unmatched;                    // what the head still has to pin while it waits for budget room
  std::stop_source* round = nullptr;  // set while the head waits for budget room: a usable return ends it
  bool plan_broken = false;           // an eviction took buffers it had set aside: its plan is stale
  std::condition_variable_any cv;
};

namespace {

// The pool whose head waiter is waiting for budget room on this thread. The budget runs evictors on the
// waiting thread, so this tells the pool's evictor whether the head itself is asking (then the buffers it
// set aside stay) or someone else is (then they may go as a last resort, or that other waiter could wait
// for ever on buffers that are idle).
thread_local const PinnedPool* waiting_head_of = nullptr;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

PinnedPool::PinnedPool(Budget& budget, PinningBackend& backend, PoolOptions options)
    : budget_(budget), backend_(backend), options_(std::move(options)) {
  if (!(options_.fit_tolerance >= 0.0)) {
    throw Error(Errc::invalid_argument, "pinned pool '" + options_.name + "': fit_tolerance must be >= 0");
  }
  evictor_ = budget_.add_evictor(options_.name, options_.evictor_priority,
                                 [this](std::uint64_t wanted) { return evict(wanted); });
}

PinnedPool::~PinnedPool() {
  evictor_.reset();  // no eviction may run into the state torn down below
  Owned all;
  {
    std::lock_guard lock(mutex_);
    if (!slots_.empty() || bytes_leased_ != 0 || !waiters_.empty()) {
      // Leases and slots point into this pool; letting them outlive it would corrupt memory later.
      PL_LOG_ERROR("pinned pool '{}' destroyed with {} slots and {} of leases still out, {} waiting",
                   options_.name, slots_.size(), format_size(bytes_leased_), waiters_.size());
      std::abort();
    }
    for (auto& [raw, owned] : buffers_) all.push_back(std::move(owned));
    buffers_.clear();
    idle_.clear();
    bytes_pinned_ = 0;
  }
  free_buffers(std::move(all), false);
}

PinnedPool::Sizes PinnedPool::round_sizes(std::span<const std::uint64_t> sizes) const {
  if (sizes.empty())
    throw Error(Errc::invalid_argument, "pinned pool '" + options_.name + "': a slot needs a size");
  Sizes rounded;
  std::uint64_t total = 0;
  for (const std::uint64_t size : sizes) {
    if (size == 0)
      throw Error(Errc::invalid_argument, "pinned pool '" + options_.name + "': cannot lease 0 bytes");
    rounded.push_back(backend_.round_size(size));
    total += rounded.back();
  }
  if (total > budget_.total()) {
    throw Error(Errc::out_of_budget, "pinned pool '" + options_.name + "': " + format_size(total) +
                                         " exceeds the whole budget '" + budget_.name() + "' of " +
                                         format_size(budget_.total()));
  }
  return rounded;
}

bool PinnedPool::fits(std::uint64_t capacity, std::uint64_t rounded) const noexcept {
  const auto slack = static_cast<std::uint64_t>(static_cast<double>(rounded) * options_.fit_tolerance);
  return capacity >= rounded && capacity - rounded <= slack;
}

PinnedPool::Plan PinnedPool::plan_locked(const Sizes& rounded,
                                         std::span<detail::PoolBuffer* const> taken) const {
  Plan plan;
  plan.matched.assign(rounded.size(), nullptr);
  // Largest first, so a big request is not left without a buffer that a small one took within tolerance.
  boost::container::small_vector<std::size_t, 4> order(rounded.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rounded[a] > rounded[b]; });
  for (const std::size_t i : order) {
    for (auto it = idle_.lower_bound(rounded[i]); it != idle_.end() && fits(it->first, rounded[i]); ++it) {
      if (std::find(plan.matched.begin(), plan.matched.end(), it->second) != plan.matched.end() ||
          std::find(taken.begin(), taken.end(), it->second) != taken.end())
        continue;
      plan.matched[i] = it->second;
      break;
    }
    if (plan.matched[i] == nullptr) plan.missing += rounded[i];
  }
  return plan;
}

void PinnedPool::commit_locked(const Plan& plan) {
  for (PoolBuffer* buffer : plan.matched) {
    if (buffer == nullptr) {
      ++stats_.misses;
      continue;
    }
    const auto [first, last] = idle_.equal_range(buffer->block.bytes);
    for (auto it = first; it != last; ++it) {
      if (it->second == buffer) {
        idle_.erase(it);
        break;
      }
    }
    buffer->leased = true;
    bytes_leased_ += buffer->block.bytes;
    ++stats_.reuse_hits;
  }
  stats_.leases += plan.matched.size();
}

void PinnedPool::set_aside_locked(const Plan& plan, bool aside) {
  for (PoolBuffer* buffer : plan.matched) {
    if (buffer != nullptr) buffer->set_aside = aside;
  }
}

void PinnedPool::make_idle_locked(PoolBuffer* buffer) {
  buffer->leased = false;
  bytes_leased_ -= buffer->block.bytes;
  idle_.emplace(buffer->block.bytes, buffer);  // capacity reserved at registration: does not allocate
}

std::optional<PinnedPool::Buffers> PinnedPool::try_take(const Sizes& rounded) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    Owned victims;
    {
      std::unique_lock lock(mutex_);
      if (!waiters_.empty()) return std::nullopt;  // queued lessees come first
      Plan plan = plan_locked(rounded);
      if (plan.missing == 0) {
        commit_locked(plan);
        return std::move(plan.matched);
      }
      if (auto room = budget_.try_reserve(plan.missing)) {
        commit_locked(plan);
        lock.unlock();
        return finish(rounded, std::move(plan), std::move(*room));
      }
      if (attempt == 1) return std::nullopt;
      // Idle buffers this request cannot use are worth less than the request: unpin them to make room.
      const std::uint64_t available = budget_.available();
      if (plan.missing <= available) return std::nullopt;  // room exists but others are queued for it
      set_aside_locked(plan, true);
      victims = pick_victims_locked(plan.missing - available, false);
      set_aside_locked(plan, false);
      if (victims.empty()) return std::nullopt;
    }
    free_buffers(std::move(victims), true);
  }
  return std::nullopt;
}

void PinnedPool::leave_queue_locked(std::list<Waiter*>::iterator it) {
  const bool was_head = it == waiters_.begin();
  waiters_.erase(it);
  if (was_head && !waiters_.empty()) waiters_.front()->cv.notify_one();
  stats_.waiting = waiters_.size();
}

/// How the head's wait for budget room ended: the room, or the error the budget threw (and whether that
/// error was a cancellation).
struct PinnedPool::RoomWait {
  std::optional<Reservation> room;
  std::exception_ptr error;
  bool cancelled = false;
};

PinnedPool::Buffers PinnedPool::take(const Sizes& rounded, const ReserveOptions& options) {
  if (auto taken = try_take(rounded)) return std::move(*taken);

  std::unique_lock lock(mutex_);
  Waiter waiter;
  const auto it = waiters_.insert(waiters_.end(), &waiter);
  ++stats_.waits;
  stats_.waiting = waiters_.size();
  const std::uint64_t total = std::accumulate(rounded.begin(), rounded.end(), std::uint64_t{0});
  for (;;) {
    throw_if_wait_over_locked(it, total, options);
    if (waiters_.front() != &waiter) {
      wait_to_be_head(lock, waiter, options);
      continue;
    }

    Plan plan = plan_locked(rounded);
    if (plan.missing == 0) {
      commit_locked(plan);
      leave_queue_locked(it);
      return std::move(plan.matched);
    }
    if (auto room = budget_.try_reserve(plan.missing)) {
      commit_locked(plan);
      leave_queue_locked(it);
      lock.unlock();
      return finish(rounded, std::move(plan), std::move(*room));
    }

    RoomWait wait = wait_for_room(lock, waiter, plan, rounded, options);
    if (waiter.plan_broken) {
      // Buffers it had matched were evicted for another waiter: the plan and any room sized for it are
      // stale. Give the room back and plan again.
      waiter.plan_broken = false;
      if (wait.error && !(wait.cancelled && !options.stop.stop_requested())) {
        leave_queue_locked(it);
        std::rethrow_exception(wait.error);
      }
      wait.room.reset();
      continue;
    }
    set_aside_locked(plan, false);
    if (wait.room) {
      commit_locked(plan);
      leave_queue_locked(it);
      lock.unlock();
      return finish(rounded, std::move(plan), std::move(*wait.room));
    }
    if (wait.cancelled && !options.stop.stop_requested()) continue;
    leave_queue_locked(it);
    std::rethrow_exception(wait.error);
  }
}

void PinnedPool::throw_if_wait_over_locked(std::list<Waiter*>::iterator it, std::uint64_t total,
                                           const ReserveOptions& options) {
  if (options.stop.stop_requested()) {
    leave_queue_locked(it);
    throw Error(Errc::cancelled,
                "pinned pool '" + options_.name + "': the wait for " + format_size(total) + " was cancelled");
  }
  if (options.deadline && Clock::now() >= *options.deadline) {
    leave_queue_locked(it);
    throw Error(Errc::timeout, "pinned pool '" + options_.name + "': no " + format_size(total) +
                                   " could be leased before the deadline");
  }
}

void PinnedPool::wait_to_be_head(std::unique_lock<std::mutex>& lock, Waiter& waiter,
                                 const ReserveOptions& options) {
  const auto is_head = [&] { return waiters_.front() == &waiter; };
  if (options.deadline) {
    waiter.cv.wait_until(lock, options.stop, *options.deadline, is_head);
  } else {
    waiter.cv.wait(lock, options.stop, is_head);
  }
}

PinnedPool::RoomWait PinnedPool::wait_for_room(std::unique_lock<std::mutex>& lock, Waiter& waiter,
                                               const Plan& plan, const Sizes& rounded,
                                               const ReserveOptions& options) {
  // Wait for budget room for what is missing. The matched idle buffers are set aside meanwhile (evictors
  // skip them; nobody else plans while this waiter heads the queue), and a returned buffer that could
  // replace a pin ends the wait through `round`, so the plan is made again.
  set_aside_locked(plan, true);
  waiter.unmatched.clear();
  for (std::size_t i = 0; i < rounded.size(); ++i) {
    if (plan.matched[i] == nullptr) waiter.unmatched.push_back(rounded[i]);
  }
  std::stop_source round;
  waiter.round = &round;
  lock.unlock();
  RoomWait wait;
  {
    std::stop_callback forward(options.stop, [&round] { round.request_stop(); });
    waiting_head_of = this;
    const ScopeGuard not_waiting([] { waiting_head_of = nullptr; });
    try {
      wait.room = budget_.reserve(
          plan.missing,
          ReserveOptions{.deadline = options.deadline, .stop = round.get_token(), .evict = options.evict});
    } catch (const Error& e) {
      wait.cancelled = e.code() == Errc::cancelled;
      wait.error = std::current_exception();
    } catch (...) {
      wait.error = std::current_exception();
    }
  }
  lock.lock();
  waiter.round = nullptr;
  return wait;
}

std::unique_ptr<PoolBuffer> PinnedPool::pin(std::uint64_t rounded, Reservation& room, double& pin_seconds) {
  auto buffer = std::make_unique<PoolBuffer>();
  buffer->charge = room.split(rounded);  // charged before the pages exist: the budget is never exceeded
  const auto start = std::chrono::steady_clock::now();
  buffer->block = backend_.allocate(rounded);
  pin_seconds += seconds_since(start);
  if (buffer->block.bytes != rounded) {
    backend_.deallocate(buffer->block);
    throw Error(Errc::internal, "pinning backend '" + std::string(backend_.name()) + "' returned " +
                                    format_size(buffer->block.bytes) + " for " + format_size(rounded));
  }
  return buffer;
}

void PinnedPool::register_locked(Owned& fresh, double pin_seconds, bool leased) {
  buffers_.reserve(buffers_.size() + fresh.size());
  // Room for every buffer to be idle at once, so that give_back() never allocates.
  idle_.reserve(buffers_.size() + fresh.size());
  for (auto& owned : fresh) {
    PoolBuffer* buffer = owned.get();
    buffers_.emplace(buffer, std::move(owned));
    bytes_pinned_ += buffer->block.bytes;
    ++stats_.pin_calls;
    buffer->leased = leased;
    if (leased) {
      bytes_leased_ += buffer->block.bytes;
    } else {
      idle_.emplace(buffer->block.bytes, buffer);
    }
  }
  fresh.clear();
  stats_.pin_seconds += pin_seconds;
  stats_.high_water = std::max(stats_.high_water, bytes_pinned_);
}

PinnedPool::Buffers PinnedPool::finish(const Sizes& rounded, Plan plan, Reservation room) {
  Buffers out = std::move(plan.matched);
  Owned fresh;
  double pin_seconds = 0;
  try {
    for (std::size_t i = 0; i < rounded.size(); ++i) {
      if (out[i] != nullptr) continue;
      fresh.push_back(pin(rounded[i], room, pin_seconds));
      out[i] = fresh.back().get();
    }
  } catch (...) {
    // Keep what was pinned (it is charged and may serve the next lessee); hand everything back idle.
    {
      std::lock_guard lock(mutex_);
      register_locked(fresh, pin_seconds, true);
    }
    Buffers back;
    for (PoolBuffer* buffer : out) {
      if (buffer != nullptr) back.push_back(buffer);
    }
    give_back({back.data(), back.size()});
    throw;
  }
  if (!fresh.empty()) {
    std::lock_guard lock(mutex_);
    register_locked(fresh, pin_seconds, true);
  }
  return out;
}

void PinnedPool::give_back(std::span<PoolBuffer* const> buffers) noexcept {
  {
    std::lock_guard lock(mutex_);
    for (PoolBuffer* buffer : buffers) make_idle_locked(buffer);
    if (!waiters_.empty()) {
      Waiter* head = waiters_.front();
      if (head->round != nullptr) {
        const bool useful = std::any_of(buffers.begin(), buffers.end(), [&](PoolBuffer* buffer) {
          return std::any_of(head->unmatched.begin(), head->unmatched.end(),
                             [&](std::uint64_t size) { return fits(buffer->block.bytes, size); });
        });
        if (useful) head->round->request_stop();
      }
    }
  }
  // Idle buffers are evictable: a waiter at the head of the budget (a residency load, another pool) may
  // want them trimmed now.
  budget_.notify_evictable();
  returned_.notify();
}

void PinnedPool::add_idle(Owned fresh, double pin_seconds) {
  {
    std::lock_guard lock(mutex_);
    register_locked(fresh, pin_seconds, false);
    // New idle buffers may be what the head waiter is short of: let it plan again.
    if (!waiters_.empty() && waiters_.front()->round != nullptr) waiters_.front()->round->request_stop();
  }
  budget_.notify_evictable();
}

PinnedPool::Owned PinnedPool::pick_victims_locked(std::uint64_t bytes, bool take_set_aside) {
  Owned victims;
  std::uint64_t freed = 0;
  for (auto it = idle_.end(); it != idle_.begin() && freed < bytes;) {
    --it;
    PoolBuffer* buffer = it->second;
    if (buffer->set_aside && !take_set_aside) continue;
    freed += buffer->block.bytes;
    it = take_idle_locked(it, victims);
  }
  return victims;
}

PinnedPool::IdleBuffers::iterator PinnedPool::take_idle_locked(IdleBuffers::iterator it, Owned& victims) {
  const auto owned = buffers_.find(it->second);
  bytes_pinned_ -= it->second->block.bytes;
  victims.push_back(std::move(owned->second));
  buffers_.erase(owned);
  return idle_.erase(it);
}

std::uint64_t PinnedPool::free_buffers(Owned victims, bool trimmed) noexcept {
  if (victims.empty()) return 0;
  std::uint64_t freed = 0;
  double unpin_seconds = 0;
  for (auto& victim : victims) {
    const auto start = std::chrono::steady_clock::now();
    backend_.deallocate(victim->block, options_.zero_on_free);
    unpin_seconds += seconds_since(start);
    freed += victim->block.bytes;
    // Only now, with the pages really gone, may the budget hand the bytes to someone else.
    victim->charge.reset();
  }
  std::lock_guard lock(mutex_);
  stats_.unpin_calls += victims.size();
  stats_.unpin_seconds += unpin_seconds;
  if (trimmed) {
    stats_.trimmed_buffers += victims.size();
    stats_.trimmed_bytes += freed;
  }
  return freed;
}

std::uint64_t PinnedPool::trim(std::uint64_t bytes) {
  Owned victims;
  {
    std::lock_guard lock(mutex_);
    victims = pick_victims_locked(bytes, false);
  }
  return free_buffers(std::move(victims), true);
}

std::uint64_t PinnedPool::trim_except(std::span<const std::uint64_t> kept_sizes) {
  Sizes kept;
  for (const std::uint64_t size : kept_sizes)
    kept.push_back(backend_.round_size(std::max<std::uint64_t>(size, 1)));
  Owned victims;
  {
    std::lock_guard lock(mutex_);
    for (auto it = idle_.begin(); it != idle_.end();) {
      PoolBuffer* buffer = it->second;
      const bool wanted =
          std::any_of(kept.begin(), kept.end(), [&](std::uint64_t size) { return fits(it->first, size); });
      it = wanted || buffer->set_aside ? std::next(it) : take_idle_locked(it, victims);
    }
  }
  return free_buffers(std::move(victims), true);
}

std::uint64_t PinnedPool::evict(std::uint64_t wanted) {
  Owned victims;
  {
    std::lock_guard lock(mutex_);
    victims = pick_victims_locked(wanted, false);
    std::uint64_t freed = 0;
    for (const auto& victim : victims) freed += victim->block.bytes;
    if (freed < wanted && waiting_head_of != this && !waiters_.empty() &&
        waiters_.front()->round != nullptr) {
      // Another waiter of the budget needs the buffers our head waiter set aside; holding them back could
      // block it for ever (it is ahead of our head in the budget's queue). Take them and let the head plan
      // again.
      Waiter* head = waiters_.front();
      for (const auto& [capacity, buffer] : idle_) buffer->set_aside = false;
      Owned more = pick_victims_locked(wanted - freed, false);
      if (!more.empty()) {
        head->plan_broken = true;
        head->round->request_stop();
        for (auto& victim : more) victims.push_back(std::move(victim));
      }
    }
  }
  return free_buffers(std::move(victims), true);
}

PinnedSlot* PinnedPool::make_slot(const Buffers& buffers, std::span<const std::uint64_t> sizes) {
  try {
    std::unique_ptr<PinnedSlot> slot(new PinnedSlot());
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      PoolBuffer* buffer = buffers[i];
      slot->parts_.push_back(PinnedSlot::Part{buffer, static_cast<std::byte*>(buffer->block.data), sizes[i],
                                              buffer->block.bytes, buffer->block.page_locked});
    }
    std::lock_guard lock(mutex_);
    slot->id_ = next_slot_id_++;
    PinnedSlot* raw = slot.get();
    slots_.emplace(raw, std::move(slot));
    ++stats_.slot_leases;
    return raw;
  } catch (...) {
    give_back({buffers.data(), buffers.size()});
    throw;
  }
}

std::optional<PinnedLease> PinnedPool::try_lease(std::uint64_t bytes) {
  const std::uint64_t size[] = {bytes};
  auto taken = try_take(round_sizes(size));
  if (!taken) return std::nullopt;
  return PinnedLease(this, (*taken)[0], bytes);
}

PinnedLease PinnedPool::lease(std::uint64_t bytes, const ReserveOptions& options) {
  const std::uint64_t size[] = {bytes};
  return PinnedLease(this, take(round_sizes(size), options)[0], bytes);
}

PinnedSlot* PinnedPool::try_acquire_slot(std::span<const std::uint64_t> sizes) {
  auto taken = try_take(round_sizes(sizes));
  if (!taken) return nullptr;
  return make_slot(*taken, sizes);
}

PinnedSlot* PinnedPool::acquire_slot(std::span<const std::uint64_t> sizes, const ReserveOptions& options) {
  return make_slot(take(round_sizes(sizes), options), sizes);
}

std::optional<SlotLease> PinnedPool::try_lease_slot(std::span<const std::uint64_t> sizes) {
  PinnedSlot* slot = try_acquire_slot(sizes);
  if (slot == nullptr) return std::nullopt;
  return SlotLease(this, slot);
}

SlotLease PinnedPool::lease_slot(std::span<const std::uint64_t> sizes, const ReserveOptions& options) {
  return SlotLease(this, acquire_slot(sizes, options));
}

void PinnedPool::release_slot(PinnedSlot* slot) {
  std::unique_ptr<PinnedSlot> owned;
  {
    std::lock_guard lock(mutex_);
    const auto it = slots_.find(slot);
    if (it == slots_.end()) {
      throw Error(Errc::invalid_argument,
                  "pinned pool '" + options_.name +
                      "': release_slot of a slot it does not have out (released twice, "
                      "or acquired from another pool)");
    }
    owned = std::move(it->second);
    slots_.erase(it);
  }
  Buffers buffers;
  for (const auto& part : owned->parts_) buffers.push_back(part.buffer);
  give_back({buffers.data(), buffers.size()});
}

void PinnedPool::prewarm(std::size_t count, std::uint64_t bytes, const ReserveOptions& options) {
  const std::uint64_t size[] = {bytes};
  prewarm_slots(count, size, options);
}

void PinnedPool::prewarm_slots(std::size_t count, std::span<const std::uint64_t> sizes,
                               const ReserveOptions& options) {
  if (count == 0) return;
  const Sizes rounded = round_sizes(sizes);
  const std::uint64_t per_slot = std::accumulate(rounded.begin(), rounded.end(), std::uint64_t{0});
  if (per_slot > budget_.total() / count) {
    throw Error(Errc::out_of_budget, "pinned pool '" + options_.name + "': prewarming " +
                                         std::to_string(count) + " x " + format_size(per_slot) +
                                         " exceeds the whole budget '" + budget_.name() + "' of " +
                                         format_size(budget_.total()));
  }
  // One reservation for everything: all of it fits or the call fails, before anything is pinned.
  Reservation room = budget_.reserve(per_slot * count, options);
  Owned fresh;
  double pin_seconds = 0;
  try {
    for (std::size_t n = 0; n < count; ++n) {
      for (const std::uint64_t size : rounded) fresh.push_back(pin(size, room, pin_seconds));
    }
  } catch (...) {
    add_idle(std::move(fresh), pin_seconds);  // what was pinned is charged and reusable: keep it
    throw;
  }
  add_idle(std::move(fresh), pin_seconds);
}

std::size_t PinnedPool::slots_that_fit(std::span<const std::uint64_t> sizes) const {
  Sizes rounded;
  for (const std::uint64_t size : sizes)
    rounded.push_back(backend_.round_size(std::max<std::uint64_t>(size, 1)));
  const std::uint64_t per_slot = std::accumulate(rounded.begin(), rounded.end(), std::uint64_t{0});
  if (per_slot == 0)
    throw Error(Errc::invalid_argument, "pinned pool '" + options_.name + "': an empty slot");
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>((bytes_pinned_ + budget_.available()) / per_slot);
}

std::size_t PinnedPool::idle_slots(std::span<const std::uint64_t> sizes) const {
  const Sizes rounded = round_sizes(sizes);
  std::lock_guard lock(mutex_);
  Buffers taken;
  for (std::size_t count = 0;; ++count) {
    const Plan plan = plan_locked(rounded, {taken.data(), taken.size()});
    if (plan.missing > 0) return count;
    taken.insert(taken.end(), plan.matched.begin(), plan.matched.end());
  }
}

void PinnedPool::mark_warm() {
  std::lock_guard lock(mutex_);
  pin_calls_at_warm_ = stats_.pin_calls;
}

PoolStats PinnedPool::stats() const {
  std::lock_guard lock(mutex_);
  PoolStats out = stats_;
  out.pin_calls_since_warm = stats_.pin_calls - pin_calls_at_warm_;
  out.bytes_pinned = bytes_pinned_;
  out.bytes_leased = bytes_leased_;
  out.bytes_idle = bytes_pinned_ - bytes_leased_;
  out.buffers = buffers_.size();
  out.idle_buffers = idle_.size();
  out.slots_out = slots_.size();
  out.waiting = waiters_.size();
  return out;
}

}  // namespace proofline::memory
