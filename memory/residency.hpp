// Long-lived named regions (SRS proving-key points, PCE matrices): loaded on demand by a loader callback,
// charged to the host budget, shared through refcounted handles. An entry nobody holds is evicted, least
// recently used first, once it has been idle for the timeout and someone needs the room; an entry in use
// is never evicted. The Residency is an evictor of the budget at a lower priority than the pinned pool, so a
// load that needs room trims idle pool buffers (cheap to re-pin) before it drops idle keys (slow to reload).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <proofline/memory/budget.hpp>

namespace proofline::memory {

/// What a loader produces.
struct LoadedRegion {
  std::shared_ptr<void> object;  ///< the loaded thing (its deleter frees or unpins it); must not be empty
  std::uint64_t bytes = 0;       ///< host bytes it really occupies; 0: the estimate given to acquire()
};

/// Loads `name`. Runs on the acquiring thread with no Residency lock held, after the estimated bytes have
/// been reserved; may take seconds. An exception fails this acquire and every acquire waiting for it.
using Loader = std::function<LoadedRegion(const std::string& name)>;

struct ResidencyOptions {
  std::string name = "residency";
  /// An idle entry becomes evictable only after this long unused: reloading an SRS takes 30-60 s.
  Clock::duration idle_timeout = std::chrono::minutes(5);
  int evictor_priority = residency_evictor_priority;
};

struct ResidencyStats {
  std::uint64_t loads = 0;          ///< loads begun (load_failures of them failed)
  std::uint64_t load_failures = 0;  ///< no room within the deadline, or the loader failed
  std::uint64_t hits = 0;           ///< acquires served by a resident entry
  std::uint64_t waits = 0;          ///< acquires that waited for another thread's load of the same name
  std::uint64_t evictions = 0;
  std::uint64_t bytes_evicted = 0;
  double load_seconds = 0;  ///< budget wait included
  std::uint64_t bytes_resident = 0;
  std::size_t entries = 0;  ///< resident (loading ones excluded)
  std::size_t in_use = 0;
};

namespace detail {
struct ResidencyCore;
struct ResidentEntry;
struct ResidentUse;
}  // namespace detail

/// A use of a resident entry. Copies share the use; the entry is idle again when the last copy is gone.
class ResidentHandle {
 public:
  ResidentHandle() = default;

  const std::string& name() const;
  std::uint64_t bytes() const;
  void* get() const;
  template <class T>
  T* as() const {
    return static_cast<T*>(get());
  }
  explicit operator bool() const noexcept { return use_ != nullptr; }
  void reset() noexcept { use_.reset(); }

 private:
  friend class Residency;
  explicit ResidentHandle(std::shared_ptr<detail::ResidentUse> use) : use_(std::move(use)) {}
  std::shared_ptr<detail::ResidentUse> use_;
};

class Residency {
 public:
  /// `budget` must outlive this object and every handle it gave out.
  explicit Residency(Budget& budget, ResidencyOptions options = {});
  /// Drops the idle entries. Entries still held stay loaded (and charged) until their last handle goes.
  ~Residency();
  Residency(const Residency&) = delete;
  Residency& operator=(const Residency&) = delete;

  /// The entry `name`, loading it if needed: reserves `bytes` (the estimate: evictors first, then FIFO
  /// wait, see Budget::reserve), runs `loader` without any lock, then corrects the charge to what the
  /// loader reports. Concurrent acquires of one name load it once; the others wait for that load (within
  /// their own deadline and stop token) and share its result, or get its error as an Error with the same
  /// code and message (Errc::internal for exceptions other than proofline::Error).
  ResidentHandle acquire(const std::string& name, std::uint64_t bytes, const Loader& loader,
                         const ReserveOptions& options = {});

  /// The entry if it is resident now; never loads.
  std::optional<ResidentHandle> find(const std::string& name);
  bool contains(const std::string& name) const;

  /// Evicts idle entries unused for at least `min_idle`, least recently used first, until `wanted` bytes
  /// are freed. Returns the bytes freed. (The budget's evictor calls it with the idle timeout.)
  std::uint64_t evict_idle(std::uint64_t wanted, Clock::duration min_idle);
  /// Evicts `name` now if it is resident and idle; false otherwise.
  bool evict(const std::string& name);
  /// Evicts `name` once it is idle, waiting up to `deadline` for its users to let go; false when it is not
  /// resident or still in use then. New users may take it meanwhile: a caller that wants it to drain keeps
  /// them away itself.
  bool evict(const std::string& name, Clock::time_point deadline);

  ResidencyStats stats() const;

 private:
  std::shared_ptr<detail::ResidencyCore> core_;
  EvictorRegistration evictor_;
};

}  // namespace proofline::memory
