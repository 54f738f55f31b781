// The pool of pinned host buffers: the heart of proofline's backpressure. Pinning costs a large part of a
// second per GiB (docs/design.md), so buffers are pinned once and reused; every byte the pool holds, leased
// or idle, is charged to the host Budget (the closest existing system charges idle buffers to nobody, so its
// budget can be exceeded by the whole idle pool). The pool is the budget's first evictor: when anyone needs
// host memory, idle buffers are unpinned first, largest first.
//
// Two ways to lease:
//  - RAII: lease()/try_lease() -> PinnedLease (one buffer); lease_slot()/try_lease_slot() -> SlotLease.
//  - By pointer, for the flow graph, whose messages must be copyable: acquire_slot()/try_acquire_slot()
//    return a PinnedSlot* that the pool keeps in its bookkeeping until release_slot(ptr). SlotLease is a
//    thin owner over the same pair (SlotLease::release() hands the pointer on).
//
// A slot's buffers are taken all or nothing, so two waiters never each hold half of what they need. Waiting
// lessees queue first-in first-out; only the head of the queue waits for budget room, with the idle
// buffers it has matched set aside (its own evictions leave them; a budget waiter queued ahead of it may
// still take them, and then it plans again), and a returned buffer it can use ends its wait at once (no pin
// for what the pool already has). Safe to use from any number of threads.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <initializer_list>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/container/flat_map.hpp>
#include <boost/container/small_vector.hpp>

#include <proofline/memory/budget.hpp>
#include <proofline/memory/listener.hpp>
#include <proofline/memory/pinned_lease.hpp>
#include <proofline/memory/pinning.hpp>

namespace proofline::memory {

struct PoolOptions {
  std::string name = "pinned-pool";
  /// An idle buffer serves a request of n bytes (rounded by the backend) if it holds at most
  /// n * (1 + fit_tolerance): reuse beats pinning, but a 1 GiB buffer must not serve a 4 KiB request.
  double fit_tolerance = 0.25;
  /// Overwrite buffers with zeros before they are unpinned (trim, eviction, shutdown): witness data is
  /// secret and freed pages go back to the kernel as they are. On by default; the zeroing is spread over the
  /// backend's touch threads.
  bool zero_on_free = true;
  int evictor_priority = pool_evictor_priority;
};

struct PoolStats {
  std::uint64_t leases = 0;       ///< buffers handed out (each buffer of a slot counts)
  std::uint64_t slot_leases = 0;  ///< slots handed out
  std::uint64_t reuse_hits = 0;   ///< buffers served from idle ones
  std::uint64_t misses = 0;       ///< buffers that had to be pinned
  std::uint64_t pin_calls = 0;
  std::uint64_t pin_calls_since_warm = 0;  ///< since mark_warm(): must stay 0 in steady state
  std::uint64_t unpin_calls = 0;
  double pin_seconds = 0;
  double unpin_seconds = 0;
  std::uint64_t trimmed_buffers = 0;  ///< by trim() and eviction
  std::uint64_t trimmed_bytes = 0;
  std::uint64_t waits = 0;         ///< blocking leases that had to queue
  std::uint64_t bytes_pinned = 0;  ///< held now, leased or idle (all of it charged to the budget)
  std::uint64_t bytes_idle = 0;
  std::uint64_t bytes_leased = 0;
  std::uint64_t high_water = 0;  ///< most bytes_pinned ever
  std::size_t buffers = 0;
  std::size_t idle_buffers = 0;
  std::size_t slots_out = 0;
  std::size_t waiting = 0;
};

namespace detail {
struct PoolBuffer;
}

class PinnedPool {
 public:
  /// `budget` (host) and `backend` must outlive the pool. Registers the pool as an evictor of `budget`.
  PinnedPool(Budget& budget, PinningBackend& backend, PoolOptions options = {});
  /// Every lease and slot must be back by now (anything else is a bug, reported and aborted on). Unpins
  /// every buffer (zeroing first if asked) and returns its budget.
  ~PinnedPool();
  PinnedPool(const PinnedPool&) = delete;
  PinnedPool& operator=(const PinnedPool&) = delete;

  /// One buffer of at least `bytes`, if the pool can give it now: an idle buffer within the tolerance,
  /// or a new one if the budget has room (after trimming other idle buffers of this pool). Nothing while
  /// others are queued.
  std::optional<PinnedLease> try_lease(std::uint64_t bytes);
  /// Waits (FIFO) until it can; see Budget::reserve for the errors.
  PinnedLease lease(std::uint64_t bytes, const ReserveOptions& options = {});

  /// All buffers of a slot, or none. Sizes in bytes, one per buffer.
  std::optional<SlotLease> try_lease_slot(std::span<const std::uint64_t> sizes);
  SlotLease lease_slot(std::span<const std::uint64_t> sizes, const ReserveOptions& options = {});
  PinnedSlot* try_acquire_slot(std::span<const std::uint64_t> sizes);  ///< nullptr if not now
  PinnedSlot* acquire_slot(std::span<const std::uint64_t> sizes, const ReserveOptions& options = {});
  /// Returns a slot from acquire_slot. Throws Error(invalid_argument) for a pointer this pool does not have
  /// out (released twice, or another pool's).
  void release_slot(PinnedSlot* slot);

  std::optional<SlotLease> try_lease_slot(std::initializer_list<std::uint64_t> sizes) {
    return try_lease_slot(std::span<const std::uint64_t>(sizes.begin(), sizes.size()));
  }
  SlotLease lease_slot(std::initializer_list<std::uint64_t> sizes, const ReserveOptions& options = {}) {
    return lease_slot(std::span<const std::uint64_t>(sizes.begin(), sizes.size()), options);
  }
  PinnedSlot* try_acquire_slot(std::initializer_list<std::uint64_t> sizes) {
    return try_acquire_slot(std::span<const std::uint64_t>(sizes.begin(), sizes.size()));
  }
  PinnedSlot* acquire_slot(std::initializer_list<std::uint64_t> sizes, const ReserveOptions& options = {}) {
    return acquire_slot(std::span<const std::uint64_t>(sizes.begin(), sizes.size()), options);
  }

  /// Pins `count` more buffers of `bytes` and keeps them idle (one budget reservation for all of them, so
  /// it fails at once with Error(out_of_budget) if they cannot fit at all).
  void prewarm(std::size_t count, std::uint64_t bytes, const ReserveOptions& options = {});
  /// Pins the buffers of `count` slots of `sizes` and keeps them idle.
  void prewarm_slots(std::size_t count, std::span<const std::uint64_t> sizes,
                     const ReserveOptions& options = {});

  /// Unpins idle buffers, largest first, until at least `bytes` are freed (or none is left idle), and
  /// returns their budget. Returns the bytes freed.
  std::uint64_t trim(std::uint64_t bytes);
  std::uint64_t trim_all() { return trim(~std::uint64_t{0}); }
  /// Unpins the idle buffers that would serve a request of none of `kept_sizes` (within the tolerance), as
  /// when the slots they were pinned for are no longer wanted. Returns the bytes freed.
  std::uint64_t trim_except(std::span<const std::uint64_t> kept_sizes);
  /// How many slots of `sizes` the idle buffers make now, each buffer in one slot at most.
  std::size_t idle_slots(std::span<const std::uint64_t> sizes) const;

  /// How many slots of these sizes the pool could hold under the budget now: what it holds plus what
  /// the budget has free, over the slot's rounded size. The pipeline derives its token count from it.
  std::size_t slots_that_fit(std::span<const std::uint64_t> sizes) const;
  std::size_t slots_that_fit(std::initializer_list<std::uint64_t> sizes) const {
    return slots_that_fit(std::span<const std::uint64_t>(sizes.begin(), sizes.size()));
  }

  /// Starts the "pin calls since warm-up" count: after prewarming, steady state should pin nothing.
  void mark_warm();

  PoolStats stats() const;
  /// Called after a lease or slot comes back (its buffers now idle), on the returning thread, without the
  /// pool's lock. Set an empty function before what the callback refers to goes.
  void set_return_listener(std::function<void()> callback) { returned_.set(std::move(callback)); }
  Budget& budget() const noexcept { return budget_; }
  PinningBackend& backend() const noexcept { return backend_; }
  const PoolOptions& options() const noexcept { return options_; }

 private:
  friend class PinnedLease;
  friend class SlotLease;
  struct Waiter;
  struct RoomWait;
  using Sizes = boost::container::small_vector<std::uint64_t, 4>;
  using Buffers = boost::container::small_vector<detail::PoolBuffer*, 4>;
  using Owned = std::vector<std::unique_ptr<detail::PoolBuffer>>;
  using IdleBuffers = boost::container::flat_multimap<std::uint64_t, detail::PoolBuffer*>;
  struct Plan {
    Buffers matched;  // per size: an idle buffer, or nullptr where one must be pinned
    std::uint64_t missing = 0;
  };

  Sizes round_sizes(std::span<const std::uint64_t> sizes) const;
  std::optional<Buffers> try_take(const Sizes& rounded);
  Buffers take(const Sizes& rounded, const ReserveOptions& options);
  void throw_if_wait_over_locked(std::list<Waiter*>::iterator it, std::uint64_t total,
                                 const ReserveOptions& options);
  void wait_to_be_head(std::unique_lock<std::mutex>& lock, Waiter& waiter, const ReserveOptions& options);
  RoomWait wait_for_room(std::unique_lock<std::mutex>& lock, Waiter& waiter, const Plan& plan,
                         const Sizes& rounded, const ReserveOptions& options);
  /// Idle buffers for a slot of `rounded`, none of them in `taken`.
  Plan plan_locked(const Sizes& rounded, std::span<detail::PoolBuffer* const> taken = {}) const;
  void commit_locked(const Plan& plan);
  Buffers finish(const Sizes& rounded, Plan plan, Reservation missing);
  void set_aside_locked(const Plan& plan, bool aside);
  void leave_queue_locked(std::list<Waiter*>::iterator it);
  void make_idle_locked(detail::PoolBuffer* buffer);
  std::unique_ptr<detail::PoolBuffer> pin(std::uint64_t rounded, Reservation& room, double& pin_seconds);
  void register_locked(Owned& fresh, double pin_seconds, bool leased);
  void give_back(std::span<detail::PoolBuffer* const> buffers) noexcept;
  void add_idle(Owned fresh, double pin_seconds);
  Owned pick_victims_locked(std::uint64_t bytes, bool take_set_aside);
  /// Takes the idle buffer at `it` out of the pool into `victims`; returns the iterator after it.
  IdleBuffers::iterator take_idle_locked(IdleBuffers::iterator it, Owned& victims);
  std::uint64_t evict(std::uint64_t wanted);
  std::uint64_t free_buffers(Owned victims, bool trimmed) noexcept;
  PinnedSlot* make_slot(const Buffers& buffers, std::span<const std::uint64_t> sizes);
  bool fits(std::uint64_t capacity, std::uint64_t rounded) const noexcept;

  Budget& budget_;
  PinningBackend& backend_;
  const PoolOptions options_;

  mutable std::mutex mutex_;
  std::unordered_map<detail::PoolBuffer*, std::unique_ptr<detail::PoolBuffer>> buffers_;
  IdleBuffers idle_;  // by capacity: best fit
  std::unordered_map<PinnedSlot*, std::unique_ptr<PinnedSlot>> slots_;
  std::list<Waiter*> waiters_;  // FIFO; waiters live on their own stacks
  std::uint64_t bytes_pinned_ = 0;
  std::uint64_t bytes_leased_ = 0;
  std::uint64_t pin_calls_at_warm_ = 0;
  std::uint64_t next_slot_id_ = 1;
  PoolStats stats_;

  Listener returned_;
  EvictorRegistration evictor_;  // last: unregistered first, before the state it trims goes
};

}  // namespace proofline::memory
