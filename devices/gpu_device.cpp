// The resources of one GPU for the CUDA backend: its VRAM budget, streams (copy, compute, and an idle one for
// clock anchors), the device slots, NTT tables and MSM scratch (allocated once, at the first key, charged to
// the VRAM budget), the keys' SRS in VRAM (a memory::Residency over the VRAM budget: least recently used idle
// keys are evicted when another needs the room), clock anchors and the health check.
#include <proofline/devices/gpu_device.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <string>
#include <type_traits>

#include <proofline/cuda/check.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::devices {

namespace {

using namespace std::chrono_literals;

/// Re-anchor well before cudaEventElapsedTime's float loses microseconds (about 16 s after the anchor).
constexpr auto anchor_period = 4s;

std::string gpu_name(const GpuLane& lane) {
  return "GPU " + std::to_string(lane.device);
}

/// What the VRAM budget may hold when none is configured: the free memory less a margin for the driver,
/// the CUDA context's own allocations and other processes' growth.
std::uint64_t default_vram_budget() {
  std::size_t free = 0, total = 0;
  PL_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  const std::uint64_t margin = std::max<std::uint64_t>(GiB, free / 20);
  if (free <= margin)
    throw Error(Errc::out_of_budget, "less than " + format_size(margin) + " of VRAM is free");
  return free - margin;
}

template <class T>
void upload(cuda::DeviceBuffer<T>& buffer, const groth16::SharedArray<T>& host) {
  buffer = cuda::DeviceBuffer<T>(host.size());
  if (!host.empty())
    PL_CUDA_CHECK(cudaMemcpy(buffer.data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
}

/// Completes a stage whose host function will never run (the GPU's context died).
void abandon(Completion& done, const std::string& why) {
  if (!done.armed.exchange(false, std::memory_order_acq_rel)) return;
  done.handler(done, why.c_str());
}

}  // namespace

template <class C>
DeviceKey<C>::~DeviceKey() {
  if (usage) {
    usage->tables -= static_cast<unsigned>(std::count(tabled.begin(), tabled.end(), true));
    usage->bytes -= table_bytes;
  }
  try {
    cuda::DeviceGuard guard(device);
    a.reset();
    b1.reset();
    b2.reset();
    h.reset();
    l.reset();
    r1cs.reset();
  } catch (...) {
    // The device is gone; the buffers go with the context.
  }
}

template struct DeviceKey<Bls12_381>;
template struct DeviceKey<Bn254>;

namespace {

/// The GPU's stats now.
GpuStats stats_of(const GpuLane& lane, const GpuDevice& g) {
  GpuStats stats;
  stats.device = lane.device;
  stats.name = lane.name;
  stats.vram = g.vram.stats();
  stats.keys = g.keys->stats();
  stats.device_slots = g.slots.size();
  stats.device_slots_in_use = g.slots_in_use.load();
  stats.msm_tables = g.table_usage->tables.load();
  stats.msm_table_bytes = g.table_usage->bytes.load();
  std::lock_guard lock(g.point_stream_mutex);
  if (g.point_stream) {
    const auto streamed = g.point_stream->stats();
    stats.srs_stream_batches = streamed.batches;
    stats.srs_stream_bytes = streamed.bytes_uploaded;
  }
  return stats;
}

}  // namespace

GpuDevice::GpuDevice(GpuLane& l, const GpuOptions& o, trace::Recorder& r, memory::PinnedPool& p,
                     std::uint64_t vram_total)
    : lane(l), options(o), recorder(r), pool(p), vram("gpu" + std::to_string(l.device), vram_total) {
  keys = std::make_unique<memory::Residency>(
      vram, memory::ResidencyOptions{.name = "gpu" + std::to_string(l.device) + " keys",
                                     .idle_timeout = std::chrono::seconds(0)});
  reanchor();
}

GpuDevice::~GpuDevice() {
  // Nothing may still run on the streams when the buffers and completions below go away.
  (void)cudaStreamSynchronize(copy);
  for (const auto& slot : slots) (void)cudaStreamSynchronize(slot->compute);
  try {
    GpuStats last = stats_of(lane, *this);
    last.device_slots_in_use = 0;
    std::lock_guard lock(lane.final_stats_mutex);
    lane.final_stats = std::move(last);
  } catch (...) {
    // Out of memory for a copy of the stats: reports after shutdown see none.
  }
}

std::shared_ptr<const ClockAnchor> GpuDevice::current_anchor() {
  std::lock_guard lock(anchor_mutex);
  return anchor;
}

void GpuDevice::reanchor() {
  auto fresh = std::make_shared<ClockAnchor>();
  const std::int64_t before = recorder.now_ns();
  fresh->event.record(clock);
  fresh->event.synchronize();
  const std::int64_t after = recorder.now_ns();
  fresh->host.host_ns = before + (after - before) / 2;
  std::lock_guard lock(anchor_mutex);
  anchor = std::move(fresh);
  anchored_at = std::chrono::steady_clock::now();
}

void GpuDeleter::operator()(GpuDevice* device) const noexcept {
  if (device == nullptr) return;
  try {
    cuda::DeviceGuard guard(device->lane.device);
    delete device;
  } catch (...) {
    delete device;
  }
}

void CUDART_CB run_completion(void* completion) {
  auto* done = static_cast<Completion*>(completion);
  if (!done->armed.exchange(false, std::memory_order_acq_rel)) return;  // the health check completed it
  done->handler(*done, nullptr);
}

void enqueue_h2d(DeviceSlot& slot, const Fr* a, const Fr* b, const Fr* c, std::uint64_t abc_bytes,
                 const Fr* z, std::uint64_t z_bytes, cudaStream_t stream) {
  if (abc_bytes != 0) {
    PL_CUDA_CHECK(cudaMemcpyAsync(slot.a.data(), a, abc_bytes, cudaMemcpyHostToDevice, stream));
    PL_CUDA_CHECK(cudaMemcpyAsync(slot.b.data(), b, abc_bytes, cudaMemcpyHostToDevice, stream));
    PL_CUDA_CHECK(cudaMemcpyAsync(slot.c.data(), c, abc_bytes, cudaMemcpyHostToDevice, stream));
  }
  PL_CUDA_CHECK(cudaMemcpyAsync(slot.z.data(), z, z_bytes, cudaMemcpyHostToDevice, stream));
}

void record_device_span(trace::Recorder& recorder, const DeviceSlot& slot, trace::StageId stage,
                        trace::TrackId track, const cuda::Event& begin, const cuda::Event& end,
                        std::uint64_t job, std::uint64_t bytes) {
  if (!slot.anchor) return;
  float begin_ms = 0, end_ms = 0;
  // Both events completed before the host function that led here ran: this never waits.
  if (cudaEventElapsedTime(&begin_ms, slot.anchor->event, begin) != cudaSuccess ||
      cudaEventElapsedTime(&end_ms, slot.anchor->event, end) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  trace::Span span;
  span.begin_ns = slot.anchor->host.to_host_ns(begin_ms);
  span.end_ns = slot.anchor->host.to_host_ns(end_ms);
  span.job = job;
  span.bytes = bytes;
  span.stage = stage;
  span.gpu = static_cast<std::int16_t>(slot.lane->device);
  span.track = track;
  recorder.record_span(span);
}

/// The most device slots automatic sizing picks: each slot holds its vectors and MSM scratch in VRAM, and the
/// gain per extra slot shrinks fast beyond a few (perf/results has the measurements). Small jobs, whose
/// slots together take little of the VRAM, get more: their MSMs' latency-bound phases (reductions, sums of
/// few points) leave the GPU room for other jobs' work.
constexpr std::size_t kAutomaticDeviceSlots = 4;
constexpr std::size_t kAutomaticSmallJobSlots = 8;
/// "Little of the VRAM": all of the small-job slots within this share of the budget (1/16: about 8.7 GB on
/// an H200, room for 2^20-row slots; 2^22 rows already take more, and their slots would crowd out MSM
/// tables).
constexpr std::uint64_t kSmallSlotsShare = 16;
/// The fewest automatic slots beside which the first key's MSM tables come before more slots: two keep one
/// job's copies beside another's kernels, and where slots are large (2^24 rows: each about a fifth of B2's
/// table) two or three slots with every table prove faster than four without B2's (perf/results).
constexpr std::size_t kMinSlotsBesideTables = 2;

/// The staging buffer of a streamed SRS when none is configured: a 32nd of the VRAM budget, a power of two
/// between 256 MiB and 2 GiB. Larger batches cost fewer bucket reductions, and a batch's upload hides behind
/// the previous one's sums (2 GiB: a 2^24 G1 MSM in one batch).
std::uint64_t automatic_stream_buffer(std::uint64_t vram_budget) {
  return std::clamp<std::uint64_t>(std::bit_floor(vram_budget / 32), std::uint64_t{256} << 20,
                                   std::uint64_t{2} << 30);
}

/// VRAM of a GPU's SRS streaming: two staging buffers and the running sums.
std::uint64_t srs_staging_bytes(const GpuOptions& options) {
  return cuda::MsmPointStream::device_bytes(options.srs_stream_buffer);
}

std::unique_ptr<GpuDevice, GpuDeleter> make_gpu_device(GpuLane& lane, const GpuOptions& options,
                                                       trace::Recorder& recorder, memory::PinnedPool& pool) {
  cuda::DeviceGuard guard(lane.device);  // streams and events belong to the device current at creation
  const std::uint64_t budget = options.vram_budget ? *options.vram_budget : default_vram_budget();
  GpuOptions resolved = options;
  if (resolved.srs_stream_buffer == 0) resolved.srs_stream_buffer = automatic_stream_buffer(budget);
  std::unique_ptr<GpuDevice, GpuDeleter> device(new GpuDevice(lane, resolved, recorder, pool, budget));
  PL_LOG_INFO("{} ({}): VRAM budget {}", gpu_name(lane), lane.name, format_size(budget));
  return device;
}

namespace {

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

/// The NTT tables for slots of 2^log_n rows, with the top pass's table in `convention` when asked for.
cuda::NttEngineOptions ntt_options_for(const GpuDevice& g, unsigned log_n, HConvention convention) {
  const unsigned table_log = std::max<unsigned>(log_n, cuda::NttEngine::min_log_n);
  cuda::NttEngineOptions options{.max_log_n = static_cast<int>(table_log)};
  if (g.options.ntt_top_diagonal && log_n > static_cast<unsigned>(cuda::NttEngine::min_log_n))
    options.top_diagonals.push_back({static_cast<int>(log_n), convention});
  return options;
}

/// Charges `other_bytes` and curve C's NTT tables to the VRAM budget in one reservation, dropping the
/// top-pass table (a speed-up) before giving up; nullopt when even that does not fit.
template <class C>
std::optional<memory::Reservation> charge_with_tables(GpuDevice& g, cuda::NttEngineOptions& options,
                                                      std::uint64_t other_bytes) {
  auto& ntt = g.engines<C>().ntt;
  // Not try_reserve alone: it throws for more than the whole budget, and the callers' refusals name options.
  const auto try_charge = [&g](std::uint64_t bytes) {
    return bytes <= g.vram.total() ? g.vram.try_reserve(bytes) : std::nullopt;
  };
  auto charge = try_charge(ntt->table_bytes() + other_bytes);
  if (!charge && !options.top_diagonals.empty()) {
    const std::uint64_t with_table = ntt->table_bytes();
    options.top_diagonals.clear();
    ntt = std::make_unique<cuda::BasicNttEngine<typename C::Fr>>(g.lane.device, options);
    PL_LOG_WARN("{}: no room in the VRAM budget for the {} NTT's top-pass table ({}); NTTs multiply instead",
                gpu_name(g.lane), C::name, format_size(with_table - ntt->table_bytes()));
    charge = try_charge(ntt->table_bytes() + other_bytes);
  }
  return charge;
}

/// Calls f(query, device buffer or null, host points, leading points at infinity) for each of the key's five
/// queries. On a GPU, L's points are indexed like z (DeviceKey::l), after one point at infinity per public
/// variable.
template <class C, class F>
void for_each_query(DeviceKey<C>* key, const groth16::BasicProvingKey<C>& pk, F&& f) {
  f(TableQuery::h, key ? &key->h : nullptr, pk.h_query, std::size_t{0});
  f(TableQuery::a, key ? &key->a : nullptr, pk.a_query, std::size_t{0});
  f(TableQuery::b1, key ? &key->b1 : nullptr, pk.b1_query, std::size_t{0});
  f(TableQuery::l, key ? &key->l : nullptr, pk.l_query, l_query_padding(pk));
  f(TableQuery::b2, key ? &key->b2 : nullptr, pk.b2_query, std::size_t{0});
}

/// VRAM of the first `tables` MSM tables of pk (TableQuery order) beyond its points.
template <class C>
std::uint64_t msm_table_bytes(GpuDevice& g, const groth16::BasicProvingKey<C>& pk, unsigned tables) {
  const CurveEngines<C>& e = g.engines<C>();
  if (!e.table_dense_g1) return 0;  // no device slots yet: no tables either
  std::uint64_t bytes = 0;
  for_each_query<C>(nullptr, pk, [&](TableQuery query, auto*, const auto& host, std::size_t padding) {
    const std::size_t n = padding + host.size();
    if (static_cast<unsigned>(query) >= tables || n == 0) return;
    bytes += (e.table_engine(query).table_points(n) - n) * sizeof(host[0]);
  });
  return bytes;
}

/// The automatic device-slot plan: how many slots, and whether the NTT's top-pass table stays.
struct SlotPlan {
  std::size_t count = 1;
  bool top_table = true;
};

/// What automatic sizing leaves room for beside the slots: some of the first key's VRAM, worth having only
/// next to at least `min_slots` slots.
struct KeyRoom {
  std::uint64_t bytes = 0;
  std::size_t min_slots = 1;
};

/// The first key's rooms, best first: its SRS and constraint system with all of its MSM tables, then with one
/// table fewer at a time (B2's first), each beside at least kMinSlotsBesideTables slots, since a table is
/// worth more than a third or fourth slot; then its SRS and constraint system beside one slot, and its SRS
/// alone. None for a streamed key (nullptr).
std::vector<KeyRoom> first_key_rooms(GpuDevice& g, const GpuKey* key) {
  std::vector<KeyRoom> rooms;
  if (!key) return rooms;
  const std::uint64_t srs_and_cs = device_key_bytes(*key);
  for (unsigned tables = key->msm_tables; tables > 0; --tables) {
    const std::uint64_t table_bytes =
        std::visit([&](const auto* pk) { return msm_table_bytes(g, *pk, tables); }, key->pk);
    rooms.push_back({srs_and_cs + table_bytes, kMinSlotsBesideTables});
  }
  rooms.push_back({srs_and_cs, 1});
  GpuKey srs_alone = *key;
  srs_alone.cs.reset();
  rooms.push_back({device_key_bytes(srs_alone), 1});
  return rooms;
}

/// The most slots (up to kAutomaticDeviceSlots, or kAutomaticSmallJobSlots for small ones) beside the first
/// of `rooms` that fits next to its least slots, with the NTT's top-pass table (`top_table_bytes` of
/// `table_bytes`) or else without it (a few percent of an NTT, where a table of the key or evaluating a, b, c
/// on the GPU saves more); where no room fits (or the key is streamed anyway), room for the staging buffers
/// that stream it.
SlotPlan automatic_slot_plan(const GpuDevice& g, std::uint64_t table_bytes, std::uint64_t top_table_bytes,
                             std::uint64_t per_slot, const std::vector<KeyRoom>& rooms) {
  const auto fits = [&](std::size_t slots, std::uint64_t keep, bool top) {
    return table_bytes - (top ? 0 : top_table_bytes) + slots * per_slot + keep <= g.vram.available();
  };
  std::uint64_t keep = srs_staging_bytes(g.options);
  bool top = true;
  for (const KeyRoom& room : rooms) {
    if (room.bytes == 0) continue;
    if (fits(room.min_slots, room.bytes, true) ||
        (top_table_bytes != 0 && fits(room.min_slots, room.bytes, false))) {
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
      // Both directions' top-pass diagonal: n entries each.
      const std::uint64_t top_bytes = ntt_options.top_diagonals.empty() ? 0 : 2 * n * sizeof(typename C::Fr);
      const SlotPlan plan = automatic_slot_plan(g, ntt->table_bytes(), top_bytes, per_slot + scratch,
                                                first_key_rooms(g, first_key));
      count = plan.count;
      if (!plan.top_table) {
        ntt_options.top_diagonals.clear();
        ntt = std::make_unique<cuda::BasicNttEngine<typename C::Fr>>(lane.device, ntt_options);
        PL_LOG_INFO(
            "{}: the {} NTT's top-pass table ({}) gives its VRAM to the first key's SRS and constraint "
            "system",
            gpu_name(lane), C::name, format_size(top_bytes));
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

namespace {

template <class C>
void check_key_fits(const GpuDevice& g, const std::string& name, const groth16::BasicProvingKey<C>& pk) {
  if (pk.log_domain_size > g.log_n_cap || pk.num_variables > g.z_cap)
    throw Error(Errc::invalid_argument,
                "add_key: key '" + name + "' has 2^" + std::to_string(pk.log_domain_size) + " rows and " +
                    std::to_string(pk.num_variables) + " variables, but the device slots were sized for 2^" +
                    std::to_string(g.log_n_cap) + " rows and " + std::to_string(g.z_cap) +
                    " variables by the first key; size them for the largest key with max_log_n (Config, "
                    "pl_config) or the fleet worker's --max-log-rows");
}

template <class C>
DeviceCsrMatrix<typename C::Fr> upload_matrix(const groth16::BasicCsrMatrix<C>& m) {
  DeviceCsrMatrix<typename C::Fr> out;
  upload(out.row_offsets, m.row_offsets);
  upload(out.columns, m.columns);
  upload(out.values, m.values);
  return out;
}

/// The key's points in this GPU's memory, in its curve's layout (the first `tables` queries as MSM tables,
/// built here), and its constraint system if given.
template <class C>
std::shared_ptr<DeviceKey<C>> upload_key(GpuDevice& g, const std::string& name,
                                         const groth16::BasicProvingKey<C>& pk,
                                         const groth16::BasicConstraintSystem<C>* cs, unsigned tables) {
  auto resident = std::make_shared<DeviceKey<C>>();
  resident->device = g.lane.device;
  const CurveEngines<C>& e = g.engines<C>();
  if (!e.table_dense_g1) tables = 0;  // no device slots yet: no table engines either
  std::size_t table_scratch = 0;
  for_each_query(
      resident.get(), pk, [&](TableQuery query, auto* buffer, const auto& host, std::size_t padding) {
        const std::size_t n = padding + host.size();
        const bool tabled = static_cast<unsigned>(query) < tables && n != 0;
        if (!tabled && padding == 0) return upload(*buffer, host);
        using Point = std::remove_cvref_t<decltype(host[0])>;
        *buffer = cuda::DeviceBuffer<Point>(tabled ? e.table_engine(query).table_points(n) : n);
        PL_CUDA_CHECK(cudaMemset(buffer->data(), 0, padding * sizeof(Point)));  // all-zero bytes: infinity
        if (!host.empty())
          PL_CUDA_CHECK(
              cudaMemcpy(buffer->data() + padding, host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
        if (!tabled) return;
        const cuda::BasicMsmEngine<C>& engine = e.table_engine(query);
        resident->tabled[static_cast<unsigned>(query)] = true;
        resident->table_bytes += (engine.table_points(n) - n) * sizeof(Point);
        table_scratch = std::max(table_scratch, engine.table_scratch_bytes(n));
      });
  if (table_scratch != 0) {
    // The tables are built from the uploaded points, in place (their first block).
    const auto begin = std::chrono::steady_clock::now();
    cuda::DeviceBuffer<std::byte> temp(table_scratch);
    cuda::Stream stream;
    std::string built;
    for_each_query(
        resident.get(), pk, [&](TableQuery query, auto* buffer, const auto& host, std::size_t padding) {
          if (!resident->has_table(query)) return;
          const cuda::BasicMsmEngine<C>& engine = e.table_engine(query);
          const std::size_t n = padding + host.size();
          if constexpr (std::is_same_v<std::remove_cvref_t<decltype(host[0])>, typename C::G1Affine>) {
            engine.enqueue_table_g1(buffer->data(), n, buffer->data(), temp.data(), stream.get());
          } else {
            engine.enqueue_table_g2(buffer->data(), n, buffer->data(), temp.data(), stream.get());
          }
          built += std::string(built.empty() ? "" : ", ") + table_query_name(query) + " (" +
                   std::to_string(engine.windows()) + " windows of " + std::to_string(engine.window_bits()) +
                   " bits)";
        });
    stream.synchronize();
    resident->usage = g.table_usage;
    resident->usage->tables +=
        static_cast<unsigned>(std::count(resident->tabled.begin(), resident->tabled.end(), true));
    resident->usage->bytes += resident->table_bytes;
    PL_LOG_INFO("{}: MSM tables of key '{}' ({}) built in {:.2f} s: {}", gpu_name(g.lane), name,
                format_size(resident->table_bytes),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(), built);
  }
  if (cs != nullptr) {
    DeviceR1cs<typename C::Fr>& r1cs = resident->r1cs.emplace();
    r1cs.rows = cs->num_constraints();
    r1cs.a = upload_matrix(cs->a);
    r1cs.b = upload_matrix(cs->b);
    if (cs->c) r1cs.c = upload_matrix(*cs->c);
  }
  return resident;
}

/// The constraint system of `key`'s curve C to upload with its SRS, or nullptr.
template <class C>
const groth16::BasicConstraintSystem<C>* constraint_system_of(const GpuKey& key) {
  if (!key.cs) return nullptr;
  return *std::get_if<const groth16::BasicConstraintSystem<C>*>(&*key.cs);
}

}  // namespace

void check_key_fits_device(const GpuLane& lane, const GpuKey& key) {
  std::visit([&](const auto* pk) { check_key_fits(*lane.resources, key.name, *pk); }, key.pk);
}

std::optional<memory::ResidentHandle> find_device_key(GpuLane& lane, const GpuKey& key) {
  if (!lane.resources) return std::nullopt;
  return device_of(lane).keys->find(key.resident_name);
}

bool device_key_resident(const GpuLane& lane, const GpuKey& key) {
  return lane.resources && lane.resources->keys->contains(key.resident_name);
}

std::uint64_t device_key_vram_bytes(GpuLane& lane, const GpuKey& key) {
  return device_key_bytes(key) +
         std::visit([&](const auto* pk) { return msm_table_bytes(device_of(lane), *pk, key.msm_tables); },
                    key.pk);
}

memory::ResidentHandle acquire_device_key(GpuLane& lane, const GpuKey& key,
                                          std::optional<std::chrono::milliseconds> patience,
                                          bool evict_idle_keys) {
  GpuDevice& g = device_of(lane);
  memory::ReserveOptions options;
  if (patience) options.deadline = memory::Clock::now() + *patience;
  options.evict = evict_idle_keys;
  const std::uint64_t bytes = device_key_vram_bytes(lane, key);
  try {
    return g.keys->acquire(
        key.resident_name, bytes,
        [&](const std::string&) {
          cuda::DeviceGuard guard(lane.device);
          auto resident = std::visit(
              [&]<class C>(const groth16::BasicProvingKey<C>* pk) -> std::shared_ptr<void> {
                return upload_key(g, key.name, *pk, constraint_system_of<C>(key), key.msm_tables);
              },
              key.pk);
          PL_LOG_INFO("{}: SRS of key '{}' resident ({})", gpu_name(lane), key.name, format_size(bytes));
          return memory::LoadedRegion{std::move(resident), 0};
        },
        options);
  } catch (const Error& e) {
    if (e.code() != Errc::timeout) throw;
    throw Error(Errc::out_of_budget,
                gpu_name(lane) + ": no VRAM for the SRS of key '" + key.name + "' (" + format_size(bytes) +
                    ") within " + std::to_string(patience ? patience->count() : 0) + " ms: " + e.what());
  }
}

bool evict_device_key(GpuLane& lane, const GpuKey& key, std::chrono::steady_clock::time_point deadline) {
  if (!lane.resources) return true;
  memory::Residency& keys = *device_of(lane).keys;
  return keys.evict(key.resident_name, deadline) || !keys.contains(key.resident_name);
}

void enable_srs_streaming(GpuLane& lane) {
  GpuDevice& g = device_of(lane);
  std::lock_guard lock(g.point_stream_mutex);
  if (g.point_stream) return;
  const std::uint64_t buffer = g.options.srs_stream_buffer;
  const std::uint64_t bytes = srs_staging_bytes(g.options);
  auto charge = g.vram.try_reserve(bytes);
  if (!charge)
    throw Error(Errc::out_of_budget, gpu_name(lane) + ": the SRS staging buffers need " + format_size(bytes) +
                                         ", the VRAM budget has " + format_size(g.vram.available()));
  cuda::DeviceGuard guard(lane.device);
  g.point_stream = std::make_unique<cuda::MsmPointStream>(buffer, lane.device);
  g.point_stream_charge = std::move(*charge);
  PL_LOG_INFO("{}: streams SRS from host memory through 2 x {} of staging", gpu_name(lane),
              format_size(buffer));
}

bool srs_streaming(const GpuLane& lane) {
  if (!lane.resources) return false;
  std::lock_guard lock(lane.resources->point_stream_mutex);
  return lane.resources->point_stream != nullptr;
}

template <class C>
void enqueue_job_msms(GpuDevice& g, const groth16::BasicProvingKey<C>& pk, const BasicHostSrs<C>* streamed,
                      const memory::ResidentHandle& resident, DeviceSlot& slot) {
  using F = typename C::Fr;
  const CurveEngines<C>& e = g.engines<C>();
  const std::size_t nv = pk.num_variables;
  const F* z = scalars_of<F>(slot.z);
  const F* z_private = z + pk.num_public + 1;
  const F* h_scalars = scalars_of<F>(slot.a);  // the NTT stage leaves H's coefficients in a
  MsmResultsDevice<C>* r = slot.results_of<C>();
  void* scratch = slot.scratch.data();
  cudaStream_t stream = slot.compute;
  if (const BasicHostSrs<C>* srs = streamed) {
    cuda::MsmPointStream& points = *g.point_stream;
    points.enqueue_msm_g1(*e.stream_sparse_g1, srs->a, z, nv, &r->a, scratch, stream);
    points.enqueue_msm_g1(*e.stream_sparse_g1, srs->b1, z, nv, &r->b1, scratch, stream);
    points.enqueue_msm_g2(*e.stream_sparse_g2, srs->b2, z, nv, &r->b2, scratch, stream);
    points.enqueue_msm_g1(*e.stream_sparse_g1, srs->l, z_private, pk.l_query.size(), &r->l, scratch, stream);
    points.enqueue_msm_g1(*e.stream_dense_g1, srs->h, h_scalars, pk.h_query.size(), &r->h, scratch, stream);
    return;
  }
  const DeviceKey<C>& key = *resident.as<DeviceKey<C>>();
  // A query with its MSM table runs on the table engine that made it.
  const auto engine = [&](TableQuery query, const std::unique_ptr<cuda::BasicMsmEngine<C>>& plain)
      -> const cuda::BasicMsmEngine<C>& { return key.has_table(query) ? e.table_engine(query) : *plain; };
  // A, B1 and B2 all take z: its scalar phases run once for those whose engines share them (the same plan,
  // which the G1 and G2 engines of one kind have), and the rest run whole MSMs afterwards.
  const cuda::BasicMsmEngine<C>& a_engine = engine(TableQuery::a, e.msm_sparse_g1);
  const cuda::BasicMsmEngine<C>& b1_engine = engine(TableQuery::b1, e.msm_sparse_g1);
  const cuda::BasicMsmEngine<C>& b2_engine = engine(TableQuery::b2, e.msm_sparse_g2);
  const cuda::BasicMsmEngine<C>& l_engine = engine(TableQuery::l, e.msm_sparse_g1);
  a_engine.enqueue_sort(z, nv, scratch, stream);
  a_engine.enqueue_sorted_msm_g1(key.a.data(), nv, &r->a, scratch, stream);
  // L's points are indexed like z (its public prefix at infinity), so it takes the same sorted scalars.
  const bool b1_shares = b1_engine.shares_sort(a_engine), b2_shares = b2_engine.shares_sort(a_engine),
             l_shares = l_engine.shares_sort(a_engine);
  if (b1_shares) b1_engine.enqueue_sorted_msm_g1(key.b1.data(), nv, &r->b1, scratch, stream);
  if (l_shares) l_engine.enqueue_sorted_msm_g1(key.l.data(), nv, &r->l, scratch, stream);
  if (b2_shares) b2_engine.enqueue_sorted_msm_g2(key.b2.data(), nv, &r->b2, scratch, stream);
  if (!b1_shares) b1_engine.enqueue_msm_g1(key.b1.data(), z, nv, &r->b1, scratch, stream);
  if (!l_shares) l_engine.enqueue_msm_g1(key.l.data(), z, nv, &r->l, scratch, stream);
  if (!b2_shares) b2_engine.enqueue_msm_g2(key.b2.data(), z, nv, &r->b2, scratch, stream);
  engine(TableQuery::h, e.msm_dense_g1)
      .enqueue_msm_g1(key.h.data(), h_scalars, pk.h_query.size(), &r->h, scratch, stream);
}

template <class C>
void enqueue_job_evaluation(const memory::ResidentHandle& resident, DeviceSlot& slot, std::uint64_t n,
                            bool check_rows) {
  using F = typename C::Fr;
  const DeviceKey<C>& key = *resident.as<DeviceKey<C>>();
  if (!key.r1cs) throw Error(Errc::internal, "the key's constraint system is not on the GPU");
  const DeviceR1cs<F>& r1cs = *key.r1cs;
  const cuda::DeviceCsr<F> c = r1cs.c ? r1cs.c->view() : cuda::DeviceCsr<F>{};
  cuda::enqueue_evaluate_r1cs<F>(r1cs.a.view(), r1cs.b.view(), r1cs.c ? &c : nullptr, r1cs.rows, n,
                                 scalars_of<F>(slot.z), scalars_of<F>(slot.a), scalars_of<F>(slot.b),
                                 scalars_of<F>(slot.c), check_rows ? slot.first_bad_row() : nullptr,
                                 slot.compute);
}

template void enqueue_job_evaluation<Bls12_381>(const memory::ResidentHandle&, DeviceSlot&, std::uint64_t,
                                                bool);
template void enqueue_job_evaluation<Bn254>(const memory::ResidentHandle&, DeviceSlot&, std::uint64_t, bool);

template void enqueue_job_msms(GpuDevice&, const groth16::BasicProvingKey<Bls12_381>&,
                               const BasicHostSrs<Bls12_381>*, const memory::ResidentHandle&, DeviceSlot&);
template void enqueue_job_msms(GpuDevice&, const groth16::BasicProvingKey<Bn254>&, const BasicHostSrs<Bn254>*,
                               const memory::ResidentHandle&, DeviceSlot&);

std::uint64_t device_vram_available(const GpuLane& lane) {
  return lane.resources ? lane.resources->vram.available() : 0;
}

GpuStats device_stats(const GpuLane& lane) {
  if (const GpuDevice* g = lane.resources.get()) return stats_of(lane, *g);
  std::lock_guard lock(lane.final_stats_mutex);
  if (lane.final_stats) return *lane.final_stats;
  GpuStats stats;
  stats.device = lane.device;
  stats.name = lane.name;
  return stats;
}

bool check_health(GpuLane& lane) {
  if (!lane.resources || !lane.healthy.load()) return lane.healthy.load();
  GpuDevice& g = device_of(lane);
  cuda::DeviceGuard guard(lane.device);
  std::vector<cudaStream_t> streams = {g.copy.get()};
  for (const auto& slot : g.slots) streams.push_back(slot->compute.get());
  for (cudaStream_t stream : streams) {
    const cudaError_t status = cudaStreamQuery(stream);
    if (status == cudaSuccess || status == cudaErrorNotReady) continue;
    // A sticky error: the context is dead and no host function of it will run. Complete the stages in
    // flight here, failed, so their tokens come home and the graph cannot hang; route nothing here again.
    if (!lane.healthy.exchange(false)) return false;  // another thread took it out of service first
    const std::string why = gpu_name(lane) + " failed: " + cudaGetErrorName(status) + " (" +
                            cudaGetErrorString(status) + "); it is out of service";
    PL_LOG_ERROR("{}", why);
    for (auto& slot : g.slots) {
      abandon(slot->h2d_done, why);
      abandon(slot->ntt_done, why);
      abandon(slot->msm_done, why);
    }
    return false;
  }
  return true;
}

void device_tick(GpuLane& lane) {
  if (!lane.resources) return;
  GpuDevice& g = device_of(lane);
  cuda::DeviceGuard guard(lane.device);
  if (lane.healthy.load() && std::chrono::steady_clock::now() - g.anchored_at >= anchor_period) g.reanchor();
  if (lane.outstanding.load() != 0) check_health(lane);
}

}  // namespace proofline::devices
