// Sizing one GPU's device slots at the first key: how many (automatic, or as configured), their vectors and
// MSM scratch, the MSM engines' plans and the NTT tables, all charged to the VRAM budget in one reservation,
// leaving room for the first key's SRS and MSM tables where that pays more than another slot.
#include <proofline/devices/gpu_device.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <proofline/devices/detail/gpu_internals.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::devices {

namespace {

using namespace detail;  // what the devices sources share

/// The most device slots automatic sizing picks: each slot holds its vectors and MSM scratch in VRAM, and the
/// gain per extra slot shrinks fast beyond a few (perf/results has the measurements). Small jobs, whose
/// slots together take little of the VRAM, get more: their MSMs' latency-bound phases (reductions, sums of
/// few points) leave the GPU room for other jobs' work.
constexpr std::size_t kAutomaticDeviceSlots = 4;
constexpr std::size_t kAutomaticSmallJobSlots = 8;
/// "Little of the VRAM": all of the small-job slots within this share of the budget (1/12: about 6.2 GiB on
/// an 80 GB H100 and 11 GiB on an H200, room for eight 2^20-row slots on either, which prove 3-4 % faster
/// than four on the H100; eight 2^22-row slots take 13.7 GiB, and would crowd out MSM tables).
constexpr std::uint64_t kSmallSlotsShare = 12;
/// The fewest automatic slots beside which the first key's MSM tables come before more slots: two keep one
/// job's copies beside another's kernels, and where slots are large (2^24 rows: each about a fifth of B2's
/// table) two or three slots with every table prove faster than four without B2's (perf/results).
constexpr std::size_t kMinSlotsBesideTables = 2;

/// The MSM engines of curve C for slots of 2^log_n rows and z_cap witness values (plans: no device memory);
/// returns the largest scratch one of them needs.
template <class C>
std::size_t make_msm_engines(GpuDevice& g, std::uint64_t n, std::uint64_t z_cap) {
  using Engine = cuda::BasicMsmEngine<C>;
  const int device = g.lane.device;
  CurveEngines<C>& e = g.engines<C>();
  const cuda::MsmOptions sparse{.split_zero_one = true};
  e.msm_sparse_g1 = std::make_unique<Engine>(cuda::MsmGroup::g1, std::max(n, z_cap), sparse, device);
  e.msm_dense_g1 = std::make_unique<Engine>(cuda::MsmGroup::g1, n, cuda::MsmOptions{}, device);
  // Planned like the sparse G1 engine, so that a job's B2 reuses the scalar phases of its A (shares_sort).
  e.msm_sparse_g2 = std::make_unique<Engine>(cuda::MsmGroup::g2, std::max(n, z_cap), sparse, device);
  // Streamed keys: one batch is what a staging buffer holds.
  const std::uint64_t buffer = g.options.srs_stream_buffer;
  const std::uint64_t g1_batch =
      std::min<std::uint64_t>(buffer / sizeof(typename C::G1Affine), std::max(n, z_cap));
  const std::uint64_t g2_batch = std::min<std::uint64_t>(buffer / sizeof(typename C::G2Affine), z_cap);
  e.stream_sparse_g1 = std::make_unique<Engine>(cuda::MsmGroup::g1, g1_batch, sparse, device);
  e.stream_dense_g1 = std::make_unique<Engine>(cuda::MsmGroup::g1, std::min<std::uint64_t>(g1_batch, n),
                                               cuda::MsmOptions{}, device);
  e.stream_sparse_g2 = std::make_unique<Engine>(cuda::MsmGroup::g2, g2_batch, sparse, device);
  // One width for the sparse G1 and G2 tables, which share a job's scalar sort.
  const int table_bits = g.options.msm_table_bits;
  const cuda::MsmOptions table_sparse{.split_zero_one = true, .window_bits = table_bits, .precomputed = true};
  e.table_sparse_g1 = std::make_unique<Engine>(cuda::MsmGroup::g1, std::max(n, z_cap), table_sparse, device);
  e.table_dense_g1 = std::make_unique<Engine>(
      cuda::MsmGroup::g1, n, cuda::MsmOptions{.window_bits = table_bits, .precomputed = true}, device);
  e.table_sparse_g2 = std::make_unique<Engine>(cuda::MsmGroup::g2, std::max(n, z_cap), table_sparse, device);
  std::size_t scratch = 0;
  for (const auto* engine : {e.msm_sparse_g1.get(), e.msm_dense_g1.get(), e.msm_sparse_g2.get(),
                             e.stream_sparse_g1.get(), e.stream_dense_g1.get(), e.stream_sparse_g2.get(),
                             e.table_sparse_g1.get(), e.table_dense_g1.get(), e.table_sparse_g2.get()})
    scratch = std::max(scratch, engine->scratch_bytes());
  return scratch;
}

/// The NTT tables for slots of 2^log_n rows, with the full tables (the top pass's diagonal, H's coset
/// scales) in `convention` when asked for.
cuda::NttEngineOptions ntt_options_for(const GpuDevice& g, unsigned log_n, HConvention convention) {
  const unsigned table_log = std::max<unsigned>(log_n, cuda::NttEngine::min_log_n);
  cuda::NttEngineOptions options{.max_log_n = static_cast<int>(table_log)};
  if (!g.options.ntt_top_diagonal) return options;
  if (log_n > static_cast<unsigned>(cuda::NttEngine::min_log_n))
    options.top_diagonals.push_back({static_cast<int>(log_n), convention});
  if (log_n >= static_cast<unsigned>(cuda::NttEngine::min_log_n))
    options.h_coset_tables.push_back({static_cast<int>(log_n), convention});
  return options;
}

/// Bytes of the full tables of `options` for slots of n rows: both directions' top diagonal, and H's
/// coset tables (one in snarkjs's convention, two in generator7's).
std::uint64_t full_table_bytes(const cuda::NttEngineOptions& options, std::uint64_t n) {
  std::uint64_t entries = 2 * n * options.top_diagonals.size();
  for (const cuda::NttSize& size : options.h_coset_tables)
    entries += (size.convention == HConvention::generator7 ? 2 : 1) * n;
  return entries * sizeof(Fr);  // both curves' Fr: 32 bytes
}

/// The options without their full tables.
void drop_full_tables(cuda::NttEngineOptions& options) {
  options.top_diagonals.clear();
  options.h_coset_tables.clear();
}

/// Charges `other_bytes` and curve C's NTT tables to the VRAM budget in one reservation, dropping the
/// full tables (a speed-up) before giving up; nullopt when even that does not fit.
template <class C>
std::optional<memory::Reservation> charge_with_tables(GpuDevice& g, cuda::NttEngineOptions& options,
                                                      std::uint64_t other_bytes) {
  auto& ntt = g.engines<C>().ntt;
  // Not try_reserve alone: it throws for more than the whole budget, and the callers' refusals name options.
  const auto try_charge = [&g](std::uint64_t bytes) {
    return bytes <= g.vram.total() ? g.vram.try_reserve(bytes) : std::nullopt;
  };
  auto charge = try_charge(ntt->table_bytes() + other_bytes);
  if (!charge && (!options.top_diagonals.empty() || !options.h_coset_tables.empty())) {
    const std::uint64_t with_table = ntt->table_bytes();
    drop_full_tables(options);
    ntt = std::make_unique<cuda::BasicNttEngine<typename C::Fr>>(g.lane.device, options);
    PL_LOG_WARN("{}: no room in the VRAM budget for the {} NTT's full tables ({}); NTTs multiply instead",
                gpu_name(g.lane), C::name, format_size(with_table - ntt->table_bytes()));
    charge = try_charge(ntt->table_bytes() + other_bytes);
  }
  return charge;
}

/// The automatic device-slot plan: how many slots, and whether the NTT's full tables stay.
struct SlotPlan {
  std::size_t count = 1;
  bool full_tables = true;
};

/// What automatic sizing leaves room for beside the slots: some of the first key's VRAM, worth having only
/// next to at least `min_slots` slots.
struct KeyRoom {
  std::uint64_t bytes = 0;
  std::size_t min_slots = 1;
};

/// The first key's rooms, best first: its SRS and constraint system with all of its MSM tables, then a table
/// level lower at a time (kTopTableLevel), each beside at least kMinSlotsBesideTables slots, since a table is
/// worth more than a third or fourth slot; then its SRS and constraint system beside one slot, and its SRS
/// alone. None for a streamed key (nullptr).
std::vector<KeyRoom> first_key_rooms(GpuDevice& g, const GpuKey* key) {
  std::vector<KeyRoom> rooms;
  if (!key) return rooms;
  const std::uint64_t srs_and_cs = device_key_bytes(*key);
  for (unsigned level = key->table_level; level > 0; --level) {
    const std::uint64_t table_bytes =
        std::visit([&](const auto* pk) { return msm_table_bytes(g, *pk, level); }, key->pk);
    rooms.push_back({srs_and_cs + table_bytes, kMinSlotsBesideTables});
  }
  rooms.push_back({srs_and_cs, 1});
  GpuKey srs_alone = *key;
  srs_alone.cs.reset();
  rooms.push_back({device_key_bytes(srs_alone), 1});
  return rooms;
}

/// The most slots (up to kAutomaticDeviceSlots, or kAutomaticSmallJobSlots for small ones) beside the first
/// of `rooms` that fits next to its least slots, with the NTT's full tables (`full_bytes` of
/// `table_bytes`) or else without them (a few percent of an NTT, where a table of the key or evaluating a, b,
/// c on the GPU saves more); where no room fits (or the key is streamed anyway), room for the staging buffers
/// that stream it.
SlotPlan automatic_slot_plan(const GpuDevice& g, std::uint64_t table_bytes, std::uint64_t full_bytes,
                             std::uint64_t per_slot, const std::vector<KeyRoom>& rooms) {
  const auto fits = [&](std::size_t slots, std::uint64_t keep, bool top) {
    return table_bytes - (top ? 0 : full_bytes) + slots * per_slot + keep <= g.vram.available();
  };
  std::uint64_t keep = srs_staging_bytes(g.options);
  bool top = true;
  for (const KeyRoom& room : rooms) {
    if (room.bytes == 0) continue;
    if (fits(room.min_slots, room.bytes, true) ||
        (full_bytes != 0 && fits(room.min_slots, room.bytes, false))) {
      keep = room.bytes;
      top = fits(room.min_slots, room.bytes, true);
      break;
    }
  }
  SlotPlan plan{1, top};
  const std::size_t most = kAutomaticSmallJobSlots * per_slot <= g.vram.total() / kSmallSlotsShare
                               ? kAutomaticSmallJobSlots
                               : kAutomaticDeviceSlots;
  for (std::size_t s = most; s > 1; --s)
    if (fits(s, keep, top)) {
      plan.count = s;
      break;
    }
  return plan;
}

std::unique_ptr<DeviceSlot> make_slot(GpuDevice& g, int index, std::uint64_t n, std::uint64_t z_cap,
                                      std::size_t scratch) {
  auto slot = std::make_unique<DeviceSlot>();
  slot->lane = &g.lane;
  slot->index = index;
  slot->scratch = cuda::DeviceBuffer<std::byte>(scratch);
  slot->a = cuda::DeviceBuffer<Fr>(n);
  slot->b = cuda::DeviceBuffer<Fr>(n);
  slot->c = cuda::DeviceBuffer<Fr>(n);
  slot->z = cuda::DeviceBuffer<Fr>(z_cap);
  slot->results = cuda::DeviceBuffer<std::byte>(kSlotResultsBytes);
  slot->host_results = g.pool.lease(kSlotResultsBytes);
  if (!slot->host_results.page_locked())
    PL_LOG_WARN("{}: the MSM result buffer is not page-locked; result copies will be synchronous",
                gpu_name(g.lane));
  return slot;
}

}  // namespace

std::vector<DeviceSlot*> allocate_device_slots(GpuLane& lane, unsigned log_n, std::uint64_t z_cap,
                                               CurveId curve, HConvention convention,
                                               const GpuKey* first_key) {
  GpuDevice& g = device_of(lane);
  cuda::DeviceGuard guard(lane.device);
  if (log_n > static_cast<unsigned>(cuda::NttEngine::max_log_n))
    throw Error(Errc::invalid_argument, gpu_name(lane) + ": the GPU NTT handles at most 2^" +
                                            std::to_string(cuda::NttEngine::max_log_n) + " rows, not 2^" +
                                            std::to_string(log_n));
  const std::uint64_t n = std::uint64_t{1} << log_n;
  // One scratch per slot serves a job of either curve.
  const std::size_t scratch =
      std::max(make_msm_engines<Bls12_381>(g, n, z_cap), make_msm_engines<Bn254>(g, n, z_cap));
  const std::uint64_t per_slot = (3 * n + z_cap) * sizeof(Fr) + kSlotResultsBytes;
  std::size_t count = g.options.device_slots;
  std::uint64_t table_bytes = 0;
  with_curve(curve, [&]<class C>() {
    cuda::NttEngineOptions ntt_options = ntt_options_for(g, log_n, convention);
    auto& ntt = g.engines<C>().ntt;
    ntt = std::make_unique<cuda::BasicNttEngine<typename C::Fr>>(lane.device, ntt_options);
    if (count == 0) {
      const std::uint64_t full_bytes = full_table_bytes(ntt_options, n);
      const SlotPlan plan = automatic_slot_plan(g, ntt->table_bytes(), full_bytes, per_slot + scratch,
                                                first_key_rooms(g, first_key));
      count = plan.count;
      if (!plan.full_tables) {
        drop_full_tables(ntt_options);
        ntt = std::make_unique<cuda::BasicNttEngine<typename C::Fr>>(lane.device, ntt_options);
        PL_LOG_INFO(
            "{}: the {} NTT's full tables ({}) give their VRAM to the first key's SRS and constraint "
            "system",
            gpu_name(lane), C::name, format_size(full_bytes));
      }
    }
    auto charge = charge_with_tables<C>(g, ntt_options, count * (per_slot + scratch));
    table_bytes = ntt->table_bytes();
    if (!charge)
      throw Error(Errc::out_of_budget,
                  gpu_name(g.lane) + ": " + std::to_string(count) + " device slots for 2^" +
                      std::to_string(log_n) + " rows (each with its MSM scratch) and the NTT tables need " +
                      format_size(table_bytes + count * (per_slot + scratch)) + ", the VRAM budget has " +
                      format_size(g.vram.available()) +
                      " (Config::vram_budget and device_slots; --vram-budget, --device-slots)");
    g.fixed = std::move(*charge);
  });
  g.log_n_cap = log_n;
  g.z_cap = z_cap;
  std::vector<DeviceSlot*> out;
  for (std::size_t i = 0; i < count; ++i) {
    g.slots.push_back(make_slot(g, static_cast<int>(i), n, z_cap, scratch));
    out.push_back(g.slots.back().get());
  }
  PL_LOG_INFO(
      "{}: {} device slots of {} for 2^{} rows, each with a compute stream and {} of MSM scratch; {} NTT "
      "tables {}",
      gpu_name(lane), count, format_size(per_slot), log_n, format_size(scratch), curve_name(curve),
      format_size(table_bytes));
  return out;
}

void prepare_curve(GpuLane& lane, CurveId curve, HConvention convention) {
  GpuDevice& g = device_of(lane);
  with_curve(curve, [&]<class C>() {
    CurveEngines<C>& e = g.engines<C>();
    if (e.ntt) return;
    cuda::DeviceGuard guard(lane.device);
    cuda::NttEngineOptions options = ntt_options_for(g, g.log_n_cap, convention);
    e.ntt = std::make_unique<cuda::BasicNttEngine<typename C::Fr>>(lane.device, options);
    auto charge = charge_with_tables<C>(g, options, 0);
    if (!charge) {
      const std::uint64_t bytes = e.ntt->table_bytes();
      e.ntt.reset();
      throw Error(Errc::out_of_budget, gpu_name(lane) + ": the " + std::string(C::name) +
                                           " NTT tables need " + format_size(bytes) +
                                           ", the VRAM budget has " + format_size(g.vram.available()) +
                                           " (Config::vram_budget; --vram-budget)");
    }
    e.tables = std::move(*charge);
    PL_LOG_INFO("{}: {} NTT tables {}", gpu_name(lane), C::name, format_size(e.ntt->table_bytes()));
  });
}

}  // namespace proofline::devices
