#include <proofline/fleet/detail/key_cache.hpp>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <variant>

#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/util/logging.hpp>

namespace proofline::fleet::detail {

namespace fs = std::filesystem;

namespace {

/// Whether a load failed because of the file itself (truncated, corrupt, not a key), so that every worker
/// would fail the same way. A file missing here (a share not mounted on this node) or a key this worker's
/// budgets cannot hold are this worker's trouble: another may prove the job.
bool is_file_fault(const std::exception& e, const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return false;
  const auto* error = dynamic_cast<const Error*>(&e);
  return error != nullptr && (error->code() == Errc::bad_input || error->code() == Errc::invalid_argument);
}

}  // namespace

KeyCache::KeyCache(graph::Pipeline& pipeline, Options options, std::function<void()> loaded)
    : pipeline_(pipeline), options_(options), loaded_(std::move(loaded)) {}

KeyCache::~KeyCache() {
  for (auto& [path, entry] : entries_)
    if (entry.loader.joinable()) entry.loader.join();
  for (auto& [serial, entry] : retired_)
    if (entry.loader.joinable()) entry.loader.join();
}

void KeyCache::drop(Entry& entry) {
  if (entry.loader.joinable()) entry.loader.join();
  const KeyLookup old = entry.load.get();
  if (old.state == KeyLookup::State::ready) pipeline_.remove_key(old.handle);
}

void KeyCache::retire(std::map<std::string, Entry>::iterator it) {
  if (it->second.jobs == 0) {
    drop(it->second);
  } else {
    PL_LOG_INFO("fleet: key {} changed on disk: loading it again; {} jobs started before keep the old one",
                it->first, it->second.jobs);
    const std::uint64_t serial = it->second.serial;
    retired_.emplace(serial, std::move(it->second));
  }
  entries_.erase(it);
}

KeyCache::Entry* KeyCache::find(std::uint64_t serial) {
  for (auto& [path, entry] : entries_)
    if (entry.serial == serial) return &entry;
  const auto it = retired_.find(serial);
  return it == retired_.end() ? nullptr : &it->second;
}

KeyCache::Identity KeyCache::identify(const std::string& path) {
  std::error_code ec;
  Identity id;
  id.size = fs::file_size(path, ec);
  if (ec) return id;
  const auto mtime = fs::last_write_time(path, ec);
  if (ec) return id;
  id.mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
  id.exists = true;
  return id;
}

KeyLookup KeyCache::load(const std::string& path, std::uint64_t serial) {
  KeyLookup out;
  out.serial = serial;
  try {
    const auto start = std::chrono::steady_clock::now();
    // The full check's subgroup tests run on the GPU when the worker proves there.
    groth16::ZkeyOptions zkey_options{.points = options_.point_check};
    zkey_options.key_check.tester = graph::subgroup_tester_for(pipeline_.config());
    const groth16::AnySnarkjsKey any = groth16::load_any_snarkjs_key(path, zkey_options);
    std::visit(
        [&]<class Curve>(const groth16::BasicSnarkjsKey<Curve>& key) {
          out.curve = Curve::id;
          out.num_variables = key.pk->num_variables;
          // Names must be unique among registered keys: a file loaded again (it changed) is a new key.
          out.handle = pipeline_.add_key(
              graph::BasicKeySpec<Curve>{path + "#" + std::to_string(serial), key.pk, key.cs, key.vk});
          PL_LOG_INFO("fleet: {} key {} loaded and registered in {:.2f} s (2^{} rows, {} variables)",
                      Curve::snarkjs_name, path,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                      key.pk->log_domain_size, key.pk->num_variables);
        },
        any);
    out.state = KeyLookup::State::ready;
  } catch (const std::exception& e) {
    out.state = KeyLookup::State::failed;
    out.permanent = is_file_fault(e, path);
    const auto* error = dynamic_cast<const Error*>(&e);
    out.out_of_budget = error != nullptr && error->code() == Errc::out_of_budget;
    const std::string what = e.what();
    // The readers' messages usually start with the path already.
    out.error = what.starts_with(path) ? "key " + what : "key " + path + ": " + what;
    PL_LOG_ERROR("fleet: {}", out.error);
  }
  return out;
}

void KeyCache::start_load(const std::string& path, const Identity& identity) {
  Entry& entry = entries_[path];
  entry.identity = identity;
  entry.used = std::chrono::steady_clock::now();
  const std::uint64_t serial = ++loads_;
  entry.serial = serial;
  auto promise = std::make_shared<std::promise<KeyLookup>>();
  entry.load = promise->get_future().share();
  // The wake-up comes after the value is set, so the woken loop finds the load finished.
  entry.loader = std::thread([this, path, serial, promise] {
    promise->set_value(load(path, serial));
    if (loaded_) loaded_();
  });
}

bool KeyCache::stale(const Entry& entry, const Identity& now) const {
  if (!entry.loaded()) return false;
  if (!(entry.identity == now)) return true;
  const KeyLookup& result = entry.load.get();
  return result.state == KeyLookup::State::failed &&
         std::chrono::steady_clock::now() - entry.finished > options_.retry_after;
}

KeyLookup KeyCache::lookup(const std::string& path) {
  const Identity now = identify(path);
  const auto time = std::chrono::steady_clock::now();
  auto it = entries_.find(path);
  if (it != entries_.end() && it->second.loaded() &&
      it->second.finished == std::chrono::steady_clock::time_point{})
    it->second.finished = time;
  if (it != entries_.end() && stale(it->second, now)) {
    retire(it);
    it = entries_.end();
  }
  // A key the budgets cannot hold beside the others takes the room of idle ones, then loads again.
  if (it != entries_.end() && it->second.loaded() && it->second.load.get().out_of_budget &&
      evict_one_idle(path)) {
    retire(it);
    it = entries_.end();
  }
  if (it == entries_.end()) {
    start_load(path, now);
    evict_beyond_limit();
    return {};
  }
  Entry& entry = it->second;
  entry.used = time;
  if (!entry.loaded()) return {};
  return entry.load.get();
}

bool KeyCache::others_have_jobs(const std::string& path) const {
  const auto busy = [](const auto& item) { return item.second.jobs > 0; };
  return std::ranges::any_of(retired_, busy) || std::ranges::any_of(entries_, [&](const auto& item) {
           return item.first != path && item.second.jobs > 0;
         });
}

void KeyCache::acquire(std::uint64_t serial) {
  if (Entry* entry = find(serial)) ++entry->jobs;
}

void KeyCache::release(std::uint64_t serial) {
  Entry* entry = find(serial);
  if (entry == nullptr || entry->jobs == 0) return;
  if (--entry->jobs > 0) return;
  if (const auto it = retired_.find(serial); it != retired_.end()) {
    drop(it->second);  // the last job of a changed file's earlier load
    retired_.erase(it);
  }
}

std::map<std::string, KeyCache::Entry>::iterator KeyCache::least_recently_used_idle(const std::string& keep,
                                                                                    bool registered_only) {
  auto victim = entries_.end();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    const Entry& entry = it->second;
    const bool idle = it->first != keep && entry.jobs == 0 && entry.loaded() &&
                      (!registered_only || entry.load.get().state == KeyLookup::State::ready);
    if (idle && (victim == entries_.end() || entry.used < victim->second.used)) victim = it;
  }
  return victim;
}

void KeyCache::evict_beyond_limit() {
  while (entries_.size() > options_.max_keys) {
    const auto victim = least_recently_used_idle({}, false);
    if (victim == entries_.end()) return;  // every key is busy: the limit is exceeded until one is free
    PL_LOG_INFO("fleet: key {} unregistered (least recently used of more than {})", victim->first,
                options_.max_keys);
    drop(victim->second);
    entries_.erase(victim);
  }
}

bool KeyCache::evict_one_idle(const std::string& keep) {
  const auto victim = least_recently_used_idle(keep, true);
  if (victim == entries_.end()) return false;
  PL_LOG_INFO("fleet: key {} unregistered (least recently used idle key) to make room for key {}",
              victim->first, keep);
  drop(victim->second);
  entries_.erase(victim);
  return true;
}

}  // namespace proofline::fleet::detail
