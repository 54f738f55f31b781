// The keys a worker has registered with its pipeline, by file. A key is loaded once, off the worker's loop
// (a large .zkey takes seconds to minutes to read and check, and heartbeats must go on meanwhile), and stays
// registered while it is among the `max_keys` most recently used, and while the budgets hold it: a key that
// does not fit beside the others unregisters the least recently used idle key, one at a time, until it loads
// or no idle key is left (the pipeline's budgets evict only idle keys' points in VRAM; a registered key's
// host memory stays charged, since the pipeline cannot read the file again). A file that changed since it was
// loaded (size or modification time) is loaded again at once: jobs started before keep the key they started
// with, which is unregistered when the last of them ends, and jobs started after get the new one. Keys of
// both curves (bls12381, bn128) live side by side; a file that failed to load fails its jobs with the
// loader's message until it changes or `retry_after` passes.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/zkey.hpp>

namespace proofline::fleet::detail {

struct KeyLookup {
  enum class State { loading, ready, failed };
  State state = State::loading;
  graph::KeyHandle handle;
  CurveId curve = CurveId::bls12_381;  ///< the .zkey's (bls12381 or bn128): its witnesses' field
  std::uint64_t num_variables = 0;
  std::uint64_t serial = 0;    ///< this load of the file: what acquire() counts jobs against
  std::string error;           ///< "key /keys/a.zkey: <what is wrong>"
  bool permanent = true;       ///< the file itself is wrong (not this worker's memory or mounts)
  bool out_of_budget = false;  ///< the budgets hold it not beside the keys registered now
};

class KeyCache {
 public:
  struct Options {
    std::size_t max_keys = 8;
    groth16::PointCheck point_check = groth16::PointCheck::full;
    std::chrono::seconds retry_after{60};
  };

  /// `loaded` is called (on a loader thread) whenever a load ends, to wake the caller's loop.
  KeyCache(graph::Pipeline& pipeline, Options options, std::function<void()> loaded);
  /// Waits for loads in progress (a key being registered cannot be abandoned halfway).
  ~KeyCache();
  KeyCache(const KeyCache&) = delete;
  KeyCache& operator=(const KeyCache&) = delete;

  /// The key of `path`: ready, failed, or loading (a load is started when none is under way).
  KeyLookup lookup(const std::string& path);
  /// Counts jobs using the load `serial` of a ready key (a key with jobs is never unregistered).
  void acquire(std::uint64_t serial);
  void release(std::uint64_t serial);

  /// Whether a key other than `path`'s (a current load or an earlier one) has jobs, whose end will make it
  /// idle, so that it can give its room to `path`'s.
  bool others_have_jobs(const std::string& path) const;
  /// Keys registered: the current load of each file, and earlier loads that still have jobs.
  std::size_t resident() const noexcept { return entries_.size() + retired_.size(); }

 private:
  struct Identity {
    std::uintmax_t size = 0;
    std::int64_t mtime_ns = 0;
    bool exists = false;
    friend bool operator==(const Identity&, const Identity&) = default;
  };
  struct Entry {
    Identity identity;
    std::shared_future<KeyLookup> load;
    std::thread loader;  // joined before the entry goes
    std::uint64_t serial = 0;
    std::chrono::steady_clock::time_point finished, used;  // finished: when a lookup first saw the load done
    std::size_t jobs = 0;

    bool loaded() const { return load.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }
  };

  static Identity identify(const std::string& path);
  void start_load(const std::string& path, const Identity& identity);
  KeyLookup load(const std::string& path, std::uint64_t serial);
  bool stale(const Entry& entry, const Identity& now) const;
  void drop(Entry& entry);
  void retire(std::map<std::string, Entry>::iterator it);
  Entry* find(std::uint64_t serial);
  void evict_beyond_limit();
  /// The least recently used entry other than `keep` with no jobs and its load done (a registered key, when
  /// `registered_only`), or end().
  std::map<std::string, Entry>::iterator least_recently_used_idle(const std::string& keep,
                                                                  bool registered_only);
  /// Unregisters the least recently used idle key other than `keep`; false when there is none.
  bool evict_one_idle(const std::string& keep);

  graph::Pipeline& pipeline_;
  Options options_;
  std::function<void()> loaded_;
  std::map<std::string, Entry> entries_;
  std::map<std::uint64_t, Entry> retired_;  // earlier loads of changed files, by serial, until their jobs end
  std::uint64_t loads_ = 0;
};

}  // namespace proofline::fleet::detail
