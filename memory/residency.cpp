#include <proofline/memory/residency.hpp>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory {

namespace detail {

struct ResidentEntry {
  enum class State { loading, ready, failed };

  std::string name;
  State state = State::loading;  // the fields below are under the core's mutex until state is ready,
  std::shared_ptr<void> object;  // then name, object and bytes stay fixed for the entry's life
  std::uint64_t bytes = 0;
  Reservation charge;
  int users = 0;
  Clock::time_point last_used{};
  // A failed load, for the acquires that waited for it. Kept as a value: each waiter throws its own
  // Error, so no exception object is shared between threads.
  Errc error_code = Errc::internal;
  std::string error_message;
};

// Shared by the Residency and every handle, so that a handle may outlive the Residency.
struct ResidencyCore {
  ResidencyCore(Budget& b, ResidencyOptions o) : budget(b), options(std::move(o)) {}

  Budget& budget;
  const ResidencyOptions options;
  mutable std::mutex mutex;
  std::condition_variable_any load_done;
  std::condition_variable idle;  // an entry's last user let go
  std::unordered_map<std::string, std::shared_ptr<ResidentEntry>> entries;
  bool closed = false;  // the Residency is gone: idle entries are dropped at once
  ResidencyStats stats;

  // Destroys evicted entries: the object first (freeing or unpinning its memory can take a while, so
  // never under the lock), then the charge, so the budget never hands out bytes still in use.
  static std::uint64_t destroy(std::vector<std::shared_ptr<ResidentEntry>>& victims) noexcept {
    std::uint64_t freed = 0;
    for (auto& victim : victims) {
      victim->object.reset();
      freed += victim->charge.bytes();
      victim->charge.reset();
    }
    victims.clear();
    return freed;
  }

  void release_use(ResidentEntry& entry) noexcept {
    std::vector<std::shared_ptr<ResidentEntry>> victims;
    {
      std::lock_guard lock(mutex);
      --entry.users;
      entry.last_used = Clock::now();
      if (entry.users == 0) idle.notify_all();
      if (entry.users == 0 && closed) {
        const auto it = entries.find(entry.name);
        if (it != entries.end() && it->second.get() == &entry) {
          victims.push_back(std::move(it->second));
          entries.erase(it);
        }
      }
    }
    destroy(victims);
    budget.notify_evictable();
  }
};

struct ResidentUse {
  ResidentUse(std::shared_ptr<ResidencyCore> c, std::shared_ptr<ResidentEntry> e)
      : core(std::move(c)), entry(std::move(e)) {}
  ResidentUse(const ResidentUse&) = delete;
  ResidentUse& operator=(const ResidentUse&) = delete;
  ~ResidentUse() { core->release_use(*entry); }

  std::shared_ptr<ResidencyCore> core;
  std::shared_ptr<ResidentEntry> entry;
};

}  // namespace detail

using detail::ResidentEntry;

const std::string& ResidentHandle::name() const {
  return use_->entry->name;
}
std::uint64_t ResidentHandle::bytes() const {
  return use_->entry->bytes;
}
void* ResidentHandle::get() const {
  return use_ ? use_->entry->object.get() : nullptr;
}

Residency::Residency(Budget& budget, ResidencyOptions options)
    : core_(std::make_shared<detail::ResidencyCore>(budget, std::move(options))) {
  evictor_ = budget.add_evictor(
      core_->options.name, core_->options.evictor_priority,
      [this](std::uint64_t wanted) { return evict_idle(wanted, core_->options.idle_timeout); });
}

Residency::~Residency() {
  evictor_.reset();
  std::vector<std::shared_ptr<ResidentEntry>> victims;
  {
    std::lock_guard lock(core_->mutex);
    core_->closed = true;
    for (auto it = core_->entries.begin(); it != core_->entries.end();) {
      if (it->second->state == ResidentEntry::State::ready && it->second->users == 0) {
        victims.push_back(std::move(it->second));
        it = core_->entries.erase(it);
      } else {
        ++it;
      }
    }
  }
  detail::ResidencyCore::destroy(victims);
}

namespace {

/// What acquire found under the lock: a ready entry it now uses, or a new entry that this call must load.
struct Lookup {
  std::shared_ptr<ResidentEntry> entry;
  bool must_load = false;
};

/// Waits for another acquire's load of `found` to end; throws its error if it failed, or when this
/// acquire's own deadline or stop token ends the wait first.
void wait_for_load(std::unique_lock<std::mutex>& lock, detail::ResidencyCore& core,
                   const std::shared_ptr<ResidentEntry>& found, const std::string& name,
                   const ReserveOptions& options) {
  const auto done = [&] { return found->state != ResidentEntry::State::loading; };
  if (options.deadline) {
    core.load_done.wait_until(lock, options.stop, *options.deadline, done);
  } else {
    core.load_done.wait(lock, options.stop, done);
  }
  if (found->state == ResidentEntry::State::failed) throw Error(found->error_code, found->error_message);
  if (found->state == ResidentEntry::State::loading) {
    if (options.stop.stop_requested()) {
      throw Error(Errc::cancelled, core.options.name + ": the wait for '" + name + "' to load was cancelled");
    }
    throw Error(Errc::timeout,
                core.options.name + ": '" + name + "' did not finish loading before the deadline");
  }
}

Lookup find_or_claim(std::unique_lock<std::mutex>& lock, detail::ResidencyCore& core, const std::string& name,
                     const ReserveOptions& options) {
  bool waited = false;
  for (;;) {
    const auto it = core.entries.find(name);
    if (it == core.entries.end()) {
      // This call loads it; later ones for the same name find the entry loading and wait for it.
      auto entry = std::make_shared<ResidentEntry>();
      entry->name = name;
      core.entries.emplace(name, entry);
      ++core.stats.loads;
      return Lookup{std::move(entry), true};
    }
    const std::shared_ptr<ResidentEntry> found = it->second;
    if (found->state == ResidentEntry::State::ready) {
      ++found->users;
      found->last_used = Clock::now();
      if (!waited) ++core.stats.hits;
      return Lookup{found, false};
    }
    ++core.stats.waits;
    waited = true;
    wait_for_load(lock, core, found, name, options);
  }
}

/// A loaded object and its charge, corrected to the bytes it really occupies.
struct Loaded {
  std::shared_ptr<void> object;
  std::uint64_t bytes = 0;
  Reservation charge;
};

/// Reserves the estimate, runs the loader and corrects the charge. Runs without the core's lock.
Loaded charge_and_load(detail::ResidencyCore& core, const std::string& name, std::uint64_t bytes,
                       const Loader& loader, const ReserveOptions& options) {
  Reservation charge = core.budget.reserve(bytes, options);
  LoadedRegion region = loader(name);
  if (!region.object) {
    throw Error(Errc::invalid_argument,
                core.options.name + ": the loader of '" + name + "' returned nothing");
  }
  const std::uint64_t real = region.bytes != 0 ? region.bytes : bytes;
  if (real < charge.bytes()) {
    charge.release(charge.bytes() - real);
  } else if (real > charge.bytes()) {
    PL_LOG_WARN("{}: '{}' occupies {}, more than its estimate of {}", core.options.name, name,
                format_size(real), format_size(charge.bytes()));
    charge.grow(real - charge.bytes(), options);
  }
  return Loaded{std::move(region.object), real, std::move(charge)};
}

void publish_locked(detail::ResidencyCore& core, ResidentEntry& entry, Loaded loaded,
                    Clock::time_point start) {
  entry.object = std::move(loaded.object);
  entry.bytes = loaded.bytes;
  entry.charge = std::move(loaded.charge);
  entry.users = 1;
  entry.last_used = Clock::now();
  entry.state = ResidentEntry::State::ready;
  core.stats.load_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  core.load_done.notify_all();
}

/// Marks the load failed with the exception being handled (call it from a catch block), for the acquires
/// waiting for it, and drops the entry.
void record_load_failure_locked(detail::ResidencyCore& core, const std::shared_ptr<ResidentEntry>& entry,
                                const std::string& name) {
  entry->state = ResidentEntry::State::failed;
  try {
    throw;
  } catch (const Error& e) {
    entry->error_code = e.code();
    entry->error_message = e.what();
  } catch (const std::exception& e) {
    entry->error_message = core.options.name + ": loading '" + name + "' failed: " + e.what();
  } catch (...) {
    entry->error_message = core.options.name + ": loading '" + name + "' failed with an unknown exception";
  }
  const auto it = core.entries.find(name);
  if (it != core.entries.end() && it->second == entry) core.entries.erase(it);  // a later acquire retries
  ++core.stats.load_failures;
  core.load_done.notify_all();
}

}  // namespace

ResidentHandle Residency::acquire(const std::string& name, std::uint64_t bytes, const Loader& loader,
                                  const ReserveOptions& options) {
  detail::ResidencyCore& core = *core_;
  std::shared_ptr<ResidentEntry> entry;
  {
    std::unique_lock lock(core.mutex);
    Lookup lookup = find_or_claim(lock, core, name, options);
    if (!lookup.must_load) return ResidentHandle(std::make_shared<detail::ResidentUse>(core_, lookup.entry));
    entry = std::move(lookup.entry);
  }

  const auto start = Clock::now();
  try {
    Loaded loaded = charge_and_load(core, name, bytes, loader, options);
    std::lock_guard lock(core.mutex);
    publish_locked(core, *entry, std::move(loaded), start);
  } catch (...) {
    std::lock_guard lock(core.mutex);
    record_load_failure_locked(core, entry, name);
    throw;
  }
  PL_LOG_DEBUG("{}: loaded '{}' ({})", core.options.name, name, format_size(entry->bytes));
  return ResidentHandle(std::make_shared<detail::ResidentUse>(core_, entry));
}

std::optional<ResidentHandle> Residency::find(const std::string& name) {
  std::lock_guard lock(core_->mutex);
  const auto it = core_->entries.find(name);
  if (it == core_->entries.end() || it->second->state != ResidentEntry::State::ready) return std::nullopt;
  ++it->second->users;
  it->second->last_used = Clock::now();
  ++core_->stats.hits;
  return ResidentHandle(std::make_shared<detail::ResidentUse>(core_, it->second));
}

bool Residency::contains(const std::string& name) const {
  std::lock_guard lock(core_->mutex);
  const auto it = core_->entries.find(name);
  return it != core_->entries.end() && it->second->state == ResidentEntry::State::ready;
}

std::uint64_t Residency::evict_idle(std::uint64_t wanted, Clock::duration min_idle) {
  std::vector<std::shared_ptr<ResidentEntry>> victims;
  {
    std::lock_guard lock(core_->mutex);
    const auto now = Clock::now();
    std::vector<std::shared_ptr<ResidentEntry>> candidates;
    for (const auto& [name, entry] : core_->entries) {
      if (entry->state == ResidentEntry::State::ready && entry->users == 0 &&
          now - entry->last_used >= min_idle) {
        candidates.push_back(entry);
      }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& a, const auto& b) { return a->last_used < b->last_used; });
    std::uint64_t freed = 0;
    for (auto& candidate : candidates) {
      if (freed >= wanted) break;
      freed += candidate->charge.bytes();
      core_->entries.erase(candidate->name);
      ++core_->stats.evictions;
      core_->stats.bytes_evicted += candidate->charge.bytes();
      PL_LOG_INFO("{}: evicting '{}' ({}), idle for {:.1f} s", core_->options.name, candidate->name,
                  format_size(candidate->charge.bytes()),
                  std::chrono::duration<double>(now - candidate->last_used).count());
      victims.push_back(std::move(candidate));
    }
  }
  return detail::ResidencyCore::destroy(victims);
}

bool Residency::evict(const std::string& name) {
  return evict(name, Clock::now());
}

bool Residency::evict(const std::string& name, Clock::time_point deadline) {
  std::vector<std::shared_ptr<ResidentEntry>> victims;
  {
    std::unique_lock lock(core_->mutex);
    const auto resident = [&] {
      const auto it = core_->entries.find(name);
      return it != core_->entries.end() && it->second->state == ResidentEntry::State::ready
                 ? it
                 : core_->entries.end();
    };
    core_->idle.wait_until(lock, deadline, [&] {
      const auto it = resident();
      return it == core_->entries.end() || it->second->users == 0;
    });
    const auto it = resident();
    if (it == core_->entries.end() || it->second->users != 0) return false;
    ++core_->stats.evictions;
    core_->stats.bytes_evicted += it->second->charge.bytes();
    victims.push_back(std::move(it->second));
    core_->entries.erase(it);
  }
  detail::ResidencyCore::destroy(victims);
  return true;
}

ResidencyStats Residency::stats() const {
  std::lock_guard lock(core_->mutex);
  ResidencyStats out = core_->stats;
  for (const auto& [name, entry] : core_->entries) {
    if (entry->state != ResidentEntry::State::ready) continue;
    ++out.entries;
    out.bytes_resident += entry->bytes;
    if (entry->users > 0) ++out.in_use;
  }
  return out;
}

}  // namespace proofline::memory
