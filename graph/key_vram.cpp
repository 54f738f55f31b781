#include <proofline/graph/detail/key_vram.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <vector>

#include <proofline/devices/vram_sharing.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>

namespace proofline::graph::detail {

namespace {

/// How long placing a key waits for keys in use to become idle when it may evict them: at registration,
/// where keys in use hold the VRAM, give up soon (and take fewer tables).
constexpr std::chrono::seconds kEvictionPatience{2};
/// How long a key in use that is to give up MSM tables (or take more) waits for its jobs in flight, its new
/// jobs waiting meanwhile, before it keeps what it has: a few jobs' GPU time at the largest sizes.
constexpr std::chrono::seconds kDrainPatience{30};

using RoutingGate = std::unique_lock<std::shared_timed_mutex>;

/// Drops `key` from `lanes` so that it is uploaded again with the MSM tables of table level `level`. A key
/// that jobs use drains first: its new jobs wait at routing (the returned gate holds them until the caller
/// has uploaded it again) while those in flight finish, until `deadline`. Returns the gate, or nullopt when
/// the key is still in use then (it keeps its tables; where it was dropped already, its next job uploads it
/// again with them).
std::optional<RoutingGate> drop_for_new_tables(KeyState& key, std::span<devices::GpuLane* const> lanes,
                                               unsigned level, memory::Clock::time_point deadline) {
  const unsigned held = key.table_level.load();
  RoutingGate gate(key.routing, std::defer_lock);
  const auto evict_everywhere = [&](memory::Clock::time_point until) {
    bool evicted = true;
    for (devices::GpuLane* lane : lanes)
      evicted = devices::evict_device_key(*lane, key.gpu_key(), until) && evicted;
    return evicted;
  };
  if (gate.try_lock_until(deadline)) {
    key.table_level = level;
    if (evict_everywhere(memory::Clock::now())) return gate;
    PL_LOG_INFO(
        "key '{}' is in use: its new jobs wait while those in flight finish, then it is uploaded again with "
        "MSM tables for {}",
        key.name, devices::table_level_names(level));
    if (evict_everywhere(deadline)) return gate;
  }
  key.table_level = held;
  PL_LOG_WARN("key '{}' was still in use after {} s: it keeps MSM tables for {}", key.name,
              kDrainPatience.count(), devices::table_level_names(held));
  return std::nullopt;
}

bool place_once(std::span<devices::GpuLane* const> lanes, const KeyState& key, bool evict_idle_keys,
                std::string& why) {
  std::size_t placed = 0;
  const auto patience =
      evict_idle_keys ? std::chrono::milliseconds(kEvictionPatience) : std::chrono::milliseconds(0);
  for (devices::GpuLane* lane : lanes) {
    try {
      // Resident and idle afterwards: jobs find it there.
      devices::acquire_device_key(*lane, key.gpu_key(), patience, evict_idle_keys);
      ++placed;
    } catch (const Error& e) {
      if (e.code() != Errc::out_of_budget) throw;
      why = e.what();
    }
  }
  return placed > 0;
}

/// A resident key that may give up MSM tables for a new one.
struct Sharer {
  std::shared_ptr<KeyState> key;
  std::vector<devices::GpuLane*> lanes;  ///< where it is resident
  unsigned level = 0;                    ///< the table level it holds, then what the plan leaves it
};

/// The key's claim on `lane`'s VRAM, keeping at most table level `level`.
devices::KeyVramClaim claim_on(devices::GpuLane& lane, const KeyState& key, unsigned level) {
  std::array<std::uint64_t, devices::kTopTableLevel + 1> bytes{};
  devices::GpuKey gpu_key = key.gpu_key();
  for (unsigned l = 0; l <= devices::kTopTableLevel; ++l) {
    gpu_key.table_level = l;
    bytes[l] = devices::device_key_vram_bytes(lane, gpu_key);
  }
  return devices::key_vram_claim(level, bytes);
}

/// The registered keys resident somewhere among `lanes` with tables, and the table level each keeps and the
/// new key gets when they share every lane's room (the least over the lanes); nullopt when some lane holds
/// their SRS together without any table. Keys are registered and removed one at a time (Core::add_mutex),
/// so the set cannot change meanwhile.
std::optional<unsigned> plan_sharing(Core& core, std::span<devices::GpuLane* const> lanes,
                                     const KeyState& key, std::vector<Sharer>& sharers) {
  std::vector<std::shared_ptr<KeyState>> registered;
  {
    std::lock_guard lock(core.keys_mutex);
    for (const auto& [id, other] : core.keys)
      if (!other->removing && other->table_level.load() > 0) registered.push_back(other);
  }
  unsigned level = key.table_level.load();
  for (devices::GpuLane* lane : lanes) {
    std::vector<devices::KeyVramClaim> claims;
    std::vector<std::size_t> here;  // the claims' sharers
    std::uint64_t room = devices::device_vram_available(*lane);
    for (const auto& other : registered) {
      if (!devices::device_key_resident(*lane, other->gpu_key())) continue;
      const unsigned held = other->table_level.load();
      const auto known =
          std::find_if(sharers.begin(), sharers.end(), [&](const Sharer& s) { return s.key == other; });
      here.push_back(static_cast<std::size_t>(known - sharers.begin()));
      if (known == sharers.end()) sharers.push_back(Sharer{other, {}, held});
      sharers[here.back()].lanes.push_back(lane);
      claims.push_back(claim_on(*lane, *other, held));
      room += claims.back().bytes[held];
    }
    claims.push_back(claim_on(*lane, key, key.table_level.load()));
    const auto plan = devices::share_vram_tables(claims, room);
    if (!plan) return std::nullopt;
    for (std::size_t i = 0; i < here.size(); ++i)
      sharers[here[i]].level = std::min(sharers[here[i]].level, (*plan)[i]);
    level = std::min(level, plan->back());
  }
  return level;
}

}  // namespace

std::vector<devices::GpuLane*> key_lanes(Core& core, const KeyState& key) {
  std::vector<devices::GpuLane*> lanes;
  for (auto& lane : core.gpus())
    if (lane->healthy.load() && key.placed_on(lane->index)) lanes.push_back(lane.get());
  return lanes;
}

bool place_in_vram(std::span<devices::GpuLane* const> lanes, KeyState& key, bool evict_idle_keys,
                   std::string& why) {
  for (;;) {
    if (place_once(lanes, key, evict_idle_keys, why)) return true;
    const unsigned level = key.table_level.load();
    if (level == 0) return false;
    key.table_level = level - 1;
  }
}

bool place_beside_resident_keys(Core& core, KeyState& key, const std::string& what) {
  const std::vector<devices::GpuLane*> lanes = key_lanes(core, key);
  std::string why;
  const unsigned wanted = key.table_level.load();
  if (place_once(lanes, key, false, why)) return true;

  std::vector<Sharer> sharers;
  const std::optional<unsigned> level = plan_sharing(core, lanes, key, sharers);
  if (!level) return false;
  // The keys that give up tables leave VRAM first (those in use once their jobs in flight are done, their new
  // jobs held until they are back), and come back with fewer.
  std::vector<Sharer*> rebuilt;
  std::vector<RoutingGate> gates;
  const auto deadline = memory::Clock::now() + kDrainPatience;
  for (Sharer& s : sharers) {
    if (s.level >= s.key->table_level.load()) continue;
    std::optional<RoutingGate> gate = drop_for_new_tables(*s.key, s.lanes, s.level, deadline);
    if (!gate) continue;  // it keeps its tables; the new key takes what is left
    rebuilt.push_back(&s);
    gates.push_back(std::move(*gate));
  }
  key.table_level = *level;
  const bool placed = place_in_vram(lanes, key, false, why);
  for (Sharer* s : rebuilt) {
    std::string ignored;
    if (!place_in_vram(s->lanes, *s->key, false, ignored))
      PL_LOG_WARN(
          "{}: key '{}' gave up MSM tables and no longer fits VRAM beside it ({}); its jobs will "
          "upload it again",
          what, s->key->name, ignored);
    else
      PL_LOG_INFO("{}: key '{}' keeps MSM tables for {} (uploaded again) to make room for it", what,
                  s->key->name, devices::table_level_names(s->key->table_level.load()));
  }
  if (placed) log_fewer_tables(what, key, wanted);
  return placed;
}

void log_fewer_tables(const std::string& what, const KeyState& key, unsigned wanted) {
  const unsigned level = key.table_level.load();
  if (level >= wanted) return;
  if (level == 0)
    PL_LOG_INFO("{}: the VRAM budget holds no MSM tables beside its SRS", what);
  else
    PL_LOG_INFO("{}: the VRAM budget holds MSM tables for {} only beside its SRS", what,
                devices::table_level_names(level));
}

void regrow_tables(Core& core, unsigned wanted) {
  std::vector<std::shared_ptr<KeyState>> registered;
  {
    std::lock_guard lock(core.keys_mutex);
    for (const auto& [id, key] : core.keys)
      if (!key->removing && key->table_level.load() < wanted) registered.push_back(key);
  }
  for (const auto& key : registered) {
    const unsigned held = key->table_level.load();
    std::vector<devices::GpuLane*> lanes;
    for (devices::GpuLane* lane : key_lanes(core, *key))
      if (devices::device_key_resident(*lane, key->gpu_key())) lanes.push_back(lane);
    if (lanes.empty()) continue;
    // The highest table level every lane holds once the key's own VRAM is freed for its upload.
    unsigned level = wanted;
    for (devices::GpuLane* lane : lanes) {
      const devices::KeyVramClaim claim = claim_on(*lane, *key, wanted);
      const std::uint64_t room = devices::device_vram_available(*lane) + claim.bytes[held];
      while (level > held && claim.bytes[level] > room) --level;
    }
    if (level == held) continue;
    const std::optional<RoutingGate> gate =
        drop_for_new_tables(*key, lanes, level, memory::Clock::now() + kDrainPatience);
    if (!gate) continue;
    std::string why;
    if (place_in_vram(lanes, *key, false, why))
      PL_LOG_INFO("remove_key: key '{}' takes MSM tables for {} in the VRAM freed (was {})", key->name,
                  devices::table_level_names(key->table_level.load()), devices::table_level_names(held));
    else
      PL_LOG_WARN("remove_key: key '{}' no longer fits VRAM ({}); its jobs will upload it again", key->name,
                  why);
  }
}

}  // namespace proofline::graph::detail
