// Registering and removing keys: validation, the host budget's charge for the key's points and constraint
// system, the SRS in VRAM or streamed on the GPUs, the token count in the largest key's slots, prewarming.
#include <proofline/graph/pipeline.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <string>
#include <variant>
#include <vector>

#include <proofline/devices/host_srs.hpp>
#include <proofline/graph/detail/core.hpp>
#include <proofline/graph/detail/flow.hpp>
#include <proofline/graph/detail/key_vram.hpp>
#include <proofline/memory/free_heap.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/scope_guard.hpp>
#include <proofline/util/size.hpp>
#include <proofline/util/text.hpp>

namespace proofline::graph {

using detail::Core;
using detail::KeyState;

namespace {

std::string resident_name(const KeyState& key) {
  return "key " + std::to_string(key.id) + " '" + key.name + "'";
}

/// The MSM tables (devices::kTopTableLevel) a key in VRAM gets when the room allows.
unsigned wanted_table_level(const Core& core) {
  return core.backend == Backend::cuda && core.config.msm_tables && core.config.srs != SrsPlacement::host
             ? devices::kTopTableLevel
             : 0;
}

/// Makes the key with the largest slot the one tokens are counted in.
void recompute_largest(Core& core) {
  std::shared_ptr<KeyState> best;
  {
    std::lock_guard lock(core.keys_mutex);
    for (const auto& [id, key] : core.keys)
      if (!key->removing && (!best || key->slot_bytes > best->slot_bytes)) best = key;
  }
  std::lock_guard lock(core.largest_mutex);
  core.largest = std::move(best);
}

/// Checks the spec and makes the key's record (not yet registered).
template <class Curve>
std::shared_ptr<KeyState> make_key_state(const Core& core, const BasicKeySpec<Curve>& spec,
                                         const std::string& what) {
  using F = typename Curve::Fr;
  if (!spec.pk) throw Error(Errc::invalid_argument, what + " has no proving key");
  const groth16::BasicProvingKey<Curve>& pk = *spec.pk;
  groth16::validate(pk, Errc::invalid_argument, what + ": proving key");
  if (spec.cs) {
    groth16::validate(*spec.cs, Errc::invalid_argument, what + ": constraint system", false);
    try {
      groth16::check_compatible(pk, *spec.cs);
    } catch (const Error& e) {
      throw Error(e.code(), what + ": " + e.what());
    }
  }
  if (spec.vk && spec.vk->num_public() != pk.num_public)
    throw Error(Errc::invalid_argument,
                what + ": the verifying key has " + std::to_string(spec.vk->num_public()) +
                    " public inputs, the proving key " + std::to_string(pk.num_public));
  // The verifying key repeats the proving key's [alpha]1, [beta]2 and [delta]2: one of another setup would
  // reject every proof.
  if (spec.vk && (spec.vk->alpha1 != pk.alpha1 || spec.vk->beta2 != pk.beta2 || spec.vk->delta2 != pk.delta2))
    throw Error(Errc::invalid_argument, what + ": the verifying key is not the proving key's: its " +
                                            (spec.vk->alpha1 != pk.alpha1 ? "alpha1"
                                             : spec.vk->beta2 != pk.beta2 ? "beta2"
                                                                          : "delta2") +
                                            " differs (a key of another setup or circuit)");
  if (core.config.verify && !spec.vk)
    throw Error(Errc::invalid_argument, what + " has no verifying key, and Config::verify is set");
  if (core.config.check_witness && spec.cs && !spec.cs->c && !spec.vk)
    throw Error(Errc::invalid_argument,
                what +
                    ": its constraint system has no C matrix, so witnesses cannot be checked row by row, and "
                    "it has no verifying key to check their proofs; give the verifying key (or turn "
                    "Config::check_witness off)");

  auto key = std::make_shared<KeyState>();
  key->name = spec.name;
  nodes::CurveKey<Curve> material{spec.pk, spec.cs, spec.vk, std::nullopt, std::nullopt, nullptr};
  if (spec.vk) material.pvk = groth16::prepare(*spec.vk);
  material.domain = Curve::Domain::make(pk.log_domain_size, pk.convention);
  key->material = std::move(material);
  key->curve = Curve::id;
  key->num_public = pk.num_public;
  key->num_variables = pk.num_variables;
  key->log_domain_size = pk.log_domain_size;
  key->has_cs = spec.cs != nullptr;
  const std::uint64_t n = pk.domain_size();
  key->slot_sizes = {n * sizeof(F), n * sizeof(F), n * sizeof(F), pk.num_variables * sizeof(F)};
  key->slot_bytes = 3 * n * sizeof(F) + pk.num_variables * sizeof(F);
  return key;
}

/// The positions among the pipeline's GPUs of the CUDA devices `devices` names (KeySpec::gpus); empty for
/// every GPU. Throws Error(invalid_argument) for a device the pipeline does not use, one named twice, or any
/// on a backend with no GPUs.
std::vector<int> placement_lanes(Core& core, const std::vector<int>& devices, const std::string& what) {
  std::vector<int> lanes;
  if (devices.empty()) return lanes;
  if (core.backend != Backend::cuda)
    throw Error(Errc::invalid_argument, what + ": it is placed on GPUs, but the pipeline runs on the " +
                                            std::string(to_string(core.backend)) + " backend");
  std::string used;
  for (const auto& lane : core.gpus()) used += (used.empty() ? "" : ", ") + std::to_string(lane->device);
  for (const int device : devices) {
    const auto lane = std::find_if(core.gpus().begin(), core.gpus().end(),
                                   [&](const auto& l) { return l->device == device; });
    if (lane == core.gpus().end())
      throw Error(Errc::invalid_argument, what + ": GPU " + std::to_string(device) +
                                              " is not one of the pipeline's GPUs (" + used + ")");
    const int index = (*lane)->index;
    if (std::find(lanes.begin(), lanes.end(), index) != lanes.end())
      throw Error(Errc::invalid_argument, what + ": GPU " + std::to_string(device) + " is named twice");
    lanes.push_back(index);
  }
  return lanes;
}

/// CUDA backend: the device slots (sized by the first key), the NTT tables of the key's curve and the check
/// that this key fits the slots.
template <class Curve>
void prepare_gpus(Core& core, const KeyState& key, const groth16::BasicProvingKey<Curve>& pk) {
  if (!core.device_slots_ready) {
    const unsigned log_n = std::max(core.config.max_log_n, pk.log_domain_size);
    const std::uint64_t z_cap = std::max<std::uint64_t>(std::uint64_t{1} << log_n, pk.num_variables);
    // Automatic device slots leave room for this key's SRS (with its MSM tables and constraint system, or
    // less), unless it is streamed anyway.
    const devices::GpuKey first = key.gpu_key();
    const devices::GpuKey* room_for = core.config.srs == SrsPlacement::host ? nullptr : &first;
    for (std::size_t i = 0; i < core.gpus().size(); ++i) {
      const auto slots =
          devices::allocate_device_slots(*core.gpus()[i], log_n, z_cap, Curve::id, pk.convention, room_for);
      auto& nodes = *core.flow->gpus[i];
      if (nodes.device_tokens)
        for (devices::DeviceSlot* slot : slots) nodes.device_tokens->try_put(detail::DeviceSlotMsg{slot});
    }
    core.device_slots_ready = true;
  }
  for (auto& lane : core.gpus()) {
    if (!key.placed_on(lane->index)) continue;
    devices::check_key_fits_device(*lane, key.gpu_key());
    devices::prepare_curve(*lane, Curve::id, pk.convention);
  }
}

/// The key's SRS in VRAM where it fits, or (Config::srs allowing) streamed from page-locked host memory by
/// every GPU that can hold the staging buffers. Throws Error(out_of_budget) when neither works.
template <class Curve>
void place_srs(Core& core, KeyState& key, nodes::CurveKey<Curve>& material, const std::string& what) {
  const SrsPlacement placement = core.config.srs;
  std::string why;
  if (placement != SrsPlacement::host) {
    const unsigned wanted = key.table_level.load();
    // Keys that stay resident together beat any table: a key evicted for another is uploaded again (tables
    // rebuilt) whenever its jobs come back. So first beside the keys resident, sharing the room for tables.
    if (detail::place_beside_resident_keys(core, key, what)) return;
    // Their SRS do not fit together: idle keys are evicted for this one (least recently used first), and
    // MSM tables, a speed-up, go (a level at a time, H's last) before anything else.
    key.table_level = wanted;
    const std::vector<devices::GpuLane*> lanes = detail::key_lanes(core, key);
    if (detail::place_in_vram(lanes, key, true, why)) {
      detail::log_fewer_tables(what, key, wanted);
      return;
    }
    if (key.gpu_evaluates) {
      // The constraint system is a speed-up: the SRS in VRAM without it beats streaming.
      key.gpu_evaluates = false;
      if (detail::place_in_vram(lanes, key, true, why)) {
        PL_LOG_INFO("{}: no VRAM for its constraint system beside its SRS; the host evaluates its jobs",
                    what);
        return;
      }
    }
    if (placement == SrsPlacement::device)
      throw Error(Errc::out_of_budget, what + ": its SRS (" + format_size(material.pk->query_bytes()) +
                                           ") fits no GPU's VRAM budget next to the device slots (" + why +
                                           "); SRS placement 'auto' would stream it from host memory");
  }
  auto srs =
      std::make_shared<devices::BasicHostSrs<Curve>>(devices::make_host_srs(*material.pk, *core.pool, what));
  std::size_t placed = 0;
  for (auto& lane : core.gpus()) {
    if (!lane->healthy.load() || !key.placed_on(lane->index)) continue;
    try {
      devices::enable_srs_streaming(*lane);
      ++placed;
    } catch (const Error& e) {
      if (e.code() != Errc::out_of_budget) throw;
      why = e.what();
    }
  }
  if (placed == 0)
    throw Error(Errc::out_of_budget, what + ": no GPU can stream its SRS from host memory: " + why);
  PL_LOG_INFO("{}: SRS of {} streamed from host memory ({} in {:.2f} s)", what, format_size(srs->bytes),
              srs->copied() ? "a pinned copy made" : "its own pinned points", srs->seconds);
  material.host_srs = std::move(srs);
  key.gpu_evaluates = false;  // the host evaluates a streamed key's jobs
}

/// A job's slot as the budget is charged for it: a pinned slot's vectors each take whole pages (their
/// rounded size, not their bytes, must fit: a budget with more than slot_bytes free can still hold none).
std::string slot_for_message(const Core& core, const KeyState& key) {
  if (core.mode != Mode::pinned) return "set of job vectors of " + format_size(key.slot_bytes);
  std::uint64_t pinned = 0;
  for (const std::uint64_t bytes : key.usual_slot()) pinned += core.pool->backend().round_size(bytes);
  return "pinned slot of " + format_size(pinned) + " (" + format_size(key.slot_bytes) +
         " of vectors, each pinned in whole pages)";
}

/// Registers the key and makes it the largest if it is; throws (unregistered again) when the host budget
/// holds not one slot of its jobs next to everything else. Returns the token target and whether it is the
/// largest.
std::pair<std::size_t, bool> publish(Core& core, const std::shared_ptr<KeyState>& key,
                                     std::uint64_t host_bytes, const std::string& what) {
  {
    std::lock_guard lock(core.keys_mutex);
    core.keys.emplace(key->id, key);
  }
  bool largest = false;
  {
    std::lock_guard lock(core.largest_mutex);
    if (!core.largest || key->slot_bytes > core.largest->slot_bytes) {
      core.largest = key;
      largest = true;
    }
  }
  const std::size_t target = core.token_target();
  if (target > 0) return {target, largest};
  {
    std::lock_guard lock(core.keys_mutex);
    core.keys.erase(key->id);
  }
  recompute_largest(core);
  const memory::BudgetStats budget = core.host_budget->stats();
  throw Error(Errc::out_of_budget, what + ": the host budget of " + format_size(budget.total) +
                                       " holds its keys (" + format_size(host_bytes) + ") but not one " +
                                       slot_for_message(core, *key) + " for its 2^" +
                                       std::to_string(key->log_domain_size) +
                                       " jobs next to everything else (" + format_size(budget.used) +
                                       " in use); raise the host budget (Config::host_budget; --host-budget; "
                                       "pl_config.host_budget_bytes)");
}

/// Pins the token count's worth of slots of a new largest key up front, so the steady state pins nothing.
/// Slots out and idle buffers that make such slots count: a key registered again finds its own.
void prewarm(Core& core, const KeyState& key, std::size_t target, const std::string& what) {
  const std::size_t held =
      core.ctx->counters.slots_in_flight.load() + core.pool->idle_slots(key.usual_slot());
  const std::size_t count = target > held ? target - held : 0;
  try {
    core.pool->prewarm_slots(count, key.usual_slot());
    core.pool->mark_warm();
  } catch (const Error& e) {
    PL_LOG_WARN("{}: prewarming {} slots failed ({}); they will be pinned on first use", what, count,
                e.what());
  }
}

/// Unpins the idle pool buffers that no registered key's jobs would lease, such as a removed key's slots:
/// they would otherwise stay pinned until the budget runs short.
void trim_unwanted_slots(Core& core) {
  std::vector<std::uint64_t> wanted;
  {
    std::lock_guard lock(core.keys_mutex);
    for (const auto& [id, key] : core.keys)
      wanted.insert(wanted.end(), key->slot_sizes.begin(), key->slot_sizes.end());
  }
  core.pool->trim_except(wanted);
}

/// A key's host memory from the budget. The budget serves its queue in order, and the jobs of keys already
/// registered need slots from it to finish: a registration waiting at the head of the queue while those jobs
/// wait behind it would wait for ever. So each attempt takes only what the budget can give at once (idle pool
/// buffers and idle keys evicted for it) and, while it cannot, waits outside the queue for a job to retire;
/// once no job is left to free anything, the budget cannot hold the key: Error(out_of_budget).
memory::ResidentHandle acquire_host_memory(Core& core, const std::string& name, std::uint64_t bytes,
                                           const memory::Loader& loader) {
  for (bool last = false;;) {
    try {
      return core.host_keys->acquire(name, bytes, loader,
                                     memory::ReserveOptions{.deadline = memory::Clock::now()});
    } catch (const Error& e) {
      if (e.code() != Errc::timeout) throw;
      if (last)
        throw Error(Errc::out_of_budget,
                    "no job left to free host memory, and what is resident or leased "
                    "leaves too little of the budget");
    }
    std::unique_lock lock(core.jobs_mutex);
    if (core.outstanding == 0)
      last = true;  // one more attempt: the last job may have retired since the one above
    else
      core.finished.wait_for(lock, std::chrono::milliseconds(100));
  }
}

/// add_key for a key of either curve.
/// Key ids are unique in the process, not per pipeline: a handle given to a pipeline that did not issue it
/// (another pipeline's, or the one a moved-in pipeline replaced) is an unknown key there, never another key
/// that happens to have its number.
std::uint64_t fresh_key_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1);
}

template <class Curve>
KeyHandle add_key_of(Core& core, BasicKeySpec<Curve> spec) {
  if (spec.name.empty()) throw Error(Errc::invalid_argument, "add_key: a key needs a name");
  // Names go into log lines, messages, traces and metrics' labels as they are: one printable line.
  if (printable_line(spec.name) != spec.name)
    throw Error(Errc::invalid_argument, "add_key: the key name " + quote_for_message(spec.name, 120, '\'') +
                                            " has control characters or bytes that are not UTF-8: give a "
                                            "printable name");
  const std::string what = "add_key: key '" + spec.name + "'";
  std::shared_ptr<KeyState> key = make_key_state(core, spec, what);
  key->gpu_lanes = placement_lanes(core, spec.gpus, what);

  std::lock_guard serial(core.add_mutex);
  {
    std::lock_guard lock(core.jobs_mutex);
    if (core.closed) throw Error(Errc::cancelled, what + ": the pipeline is shut down");
  }
  {
    std::lock_guard lock(core.keys_mutex);
    for (const auto& [id, other] : core.keys)
      if (other->name == spec.name)
        throw Error(Errc::invalid_argument,
                    what + " is registered already (keys need names of their own: give this one another)");
    key->id = fresh_key_id();
  }
  auto& material = std::get<nodes::CurveKey<Curve>>(key->material);
  key->gpu_evaluates = core.backend == Backend::cuda && core.mode == Mode::pinned &&
                       core.config.gpu_evaluate && spec.cs != nullptr &&
                       core.config.srs != SrsPlacement::host;
  // Before prepare_gpus: the first key's automatic device slots leave room for its tables too.
  key->table_level = wanted_table_level(core);
  if (core.backend == Backend::cuda) prepare_gpus(core, *key, *spec.pk);

  // The PCE and the host SRS are charged to the host budget for as long as the key is registered: the load
  // trims idle pool buffers first (the pool is the budget's first evictor), and the token count follows.
  const std::uint64_t host_bytes = spec.pk->query_bytes() + (spec.cs ? spec.cs->size_bytes() : 0);
  const std::string name = resident_name(*key);
  try {
    key->host =
        acquire_host_memory(core, name, std::max<std::uint64_t>(host_bytes, 1), [&](const std::string&) {
          return memory::LoadedRegion{std::make_shared<BasicKeySpec<Curve>>(spec), 0};
        });
  } catch (const Error& e) {
    if (e.code() != Errc::out_of_budget) throw;
    // The budget's own message names sizes but not what asked for them.
    throw Error(
        Errc::out_of_budget,
        what + ": its proving key" + (spec.cs ? " and constraint system" : "") + " take " +
            format_size(host_bytes) + " of host memory, which the host budget does not hold (" + e.what() +
            "); raise the host budget (Config::host_budget; --host-budget; pl_config.host_budget_bytes) to "
            "hold them and pinned "
            "slots for its jobs");
  }
  ScopeGuard unload([&] {
    key->host.reset();
    core.host_keys->evict(name);
    for (auto& lane : core.gpus()) devices::evict_device_key(*lane, key->gpu_key());
  });
  if (core.backend == Backend::cuda) place_srs(core, *key, material, what);
  // Where the GPU evaluates a, b, c (now known), its jobs lease z alone.
  const auto usual = key->usual_slot();
  key->slot_bytes = std::accumulate(usual.begin(), usual.end(), std::uint64_t{0});
  const auto [target, largest] = publish(core, key, host_bytes, what);
  unload.dismiss();

  if (largest && core.mode == Mode::pinned && core.config.prewarm) prewarm(core, *key, target, what);
  core.mint_now();
  PL_LOG_INFO("{}: {}, 2^{} rows, {} variables, slot {}, token target {}", what, curve_name(key->curve),
              key->log_domain_size, key->num_variables, format_size(key->slot_bytes), target);
  return KeyHandle(key->id);
}

}  // namespace

KeyHandle Pipeline::add_key(KeySpec spec) {
  detail::refuse_inside_callback("Pipeline::add_key");
  return add_key_of(live_core(), std::move(spec));
}

KeyHandle Pipeline::add_key(BasicKeySpec<Bn254> spec) {
  detail::refuse_inside_callback("Pipeline::add_key");
  return add_key_of(live_core(), std::move(spec));
}

void Pipeline::remove_key(KeyHandle handle) {
  detail::refuse_inside_callback("Pipeline::remove_key");
  Core& core = live_core();
  std::lock_guard serial(core.add_mutex);
  std::shared_ptr<KeyState> key = core.registered_key(handle, "remove_key");
  {
    std::unique_lock lock(core.keys_mutex);
    key->removing = true;
    core.keys_changed.wait(lock, [&] { return key->jobs.load() == 0; });
    core.keys.erase(key->id);
    core.removed_keys.add(key->id, key->name);
  }
  recompute_largest(core);
  key->host.reset();
  core.host_keys->evict(resident_name(*key));
  for (auto& lane : core.gpus()) devices::evict_device_key(*lane, key->gpu_key());
  if (core.backend == Backend::cuda) detail::regrow_tables(core, wanted_table_level(core));
  // A streamed SRS's pinned copy goes back to the pool now (no job of the key is left), and is unpinned
  // with the slots no remaining key leases.
  std::visit([](auto& material) { material.host_srs.reset(); }, key->material);
  trim_unwanted_slots(core);
  core.mint_now();
  key.reset();
  memory::return_free_heap();  // what the pipeline held of the key (a caller may still hold its material)
}

}  // namespace proofline::graph
