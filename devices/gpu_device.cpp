// The resources of one GPU for the CUDA backend: its VRAM budget, streams (copy, compute, and an idle one for
// clock anchors), clock anchors, stats and the health check. Sizing the device slots is device_slots.cpp,
// the keys' SRS in VRAM device_keys.cpp, a job's copies and MSMs device_jobs.cpp.
#include <proofline/devices/gpu_device.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <string>

#include <proofline/devices/detail/gpu_internals.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::devices {

namespace {

using namespace std::chrono_literals;
using namespace detail;  // what the devices sources share

/// Re-anchor well before cudaEventElapsedTime's float loses microseconds (about 16 s after the anchor).
constexpr auto anchor_period = 4s;

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

/// Completes a stage whose host function will never run (the GPU's context died).
void abandon(Completion& done, const std::string& why) {
  if (!done.armed.exchange(false, std::memory_order_acq_rel)) return;
  done.handler(done, why.c_str());
}

/// The staging buffer of a streamed SRS when none is configured: a 32nd of the VRAM budget, a power of two
/// between 256 MiB and 2 GiB. Larger batches cost fewer bucket reductions, and a batch's upload hides behind
/// the previous one's sums (2 GiB: a 2^24 G1 MSM in one batch).
std::uint64_t automatic_stream_buffer(std::uint64_t vram_budget) {
  return std::clamp<std::uint64_t>(std::bit_floor(vram_budget / 32), std::uint64_t{256} << 20,
                                   std::uint64_t{2} << 30);
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
  stats.device_slots_in_use = g.occupancy.holders();
  stats.occupied_seconds = g.occupancy.seconds();
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

std::uint64_t detail::srs_staging_bytes(const GpuOptions& options) {
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
