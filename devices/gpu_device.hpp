// Internal, CUDA backend only (includes the CUDA runtime): the resources of one GPU and the completion
// records of its stages. Included by the devices sources and the CUDA stage bodies in nodes/.
//
// Completion protocol: a stage body enqueues its work on a stream, then launches a host function
// (cudaLaunchHostFunc) with a Completion that hands the job back to the flow graph. The host function does
// that and nothing else (no CUDA call, no allocation); the successors of GPU stages are queueing nodes, so no
// node body ever runs on the driver's thread.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_msm.hpp>
#include <proofline/cuda/gpu_msm_stream.hpp>
#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/cuda/gpu_r1cs.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/devices/gpu_lane.hpp>
#include <proofline/devices/host_srs.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/memory/pinned_lease.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/trace/clock.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/util/occupancy_clock.hpp>

namespace proofline::devices {

/// A host time for one device's events (trace/clock.hpp): spans are read from events relative to it.
struct ClockAnchor {
  cuda::Event event;
  trace::GpuClockAnchor host;
};

/// What a host function hands back to the flow graph, type-erased so that this layer knows no graph types.
/// Lives in the device slot (never freed while a host function may still come), so completing allocates
/// nothing.
struct Completion {
  /// Called once per arming: by the host function (why == nullptr) or by the health check when the GPU's
  /// context died and no host function will ever run (why: the reason). Hands the message back, nothing else.
  using Handler = void (*)(Completion& self, const char* why) noexcept;
  Handler handler = nullptr;
  void* target = nullptr;   ///< where the handler hands the message (a stage's gateway)
  void* message = nullptr;  ///< the message (a job)
  std::uint8_t tag = 0;     ///< the stage, for the handler's error
  /// Set when the host function is launched, cleared by whoever completes it.
  std::atomic<bool> armed{false};
};

/// The host function of every GPU stage: runs the handler of an armed completion.
void CUDART_CB run_completion(void* completion);

/// The five MSM results of one job on the device in its key's curve, in the layout the host copy expects.
template <class C>
struct MsmResultsDevice {
  typename C::G1Jacobian a, b1, l, h;
  typename C::G2Jacobian b2;
};
/// A slot's result buffers hold either curve's results, then the first unsatisfied row of a witness the GPU
/// checked (cuda::kNoBadRow when none): what goes back to the host after a job's MSMs.
inline constexpr std::size_t kMsmResultsBytes =
    std::max(sizeof(MsmResultsDevice<Bls12_381>), sizeof(MsmResultsDevice<Bn254>));
static_assert(kMsmResultsBytes % alignof(std::uint64_t) == 0);
inline constexpr std::size_t kSlotResultsBytes = kMsmResultsBytes + sizeof(std::uint64_t);

/// A slot's scalar buffer (typed as BLS12-381's Fr) as the scalars of field F: both scalar fields are four
/// 64-bit limbs, so one buffer serves a job of either curve.
template <class F>
F* scalars_of(cuda::DeviceBuffer<Fr>& buffer) noexcept {
  static_assert(sizeof(F) == sizeof(Fr) && alignof(F) == alignof(Fr), "a slot holds either curve's scalars");
  return reinterpret_cast<F*>(buffer.data());
}

/// One job's buffers on one GPU: bound to a job from its H2D until its MSMs are done. Each slot has its own
/// compute stream and MSM scratch, so the jobs bound to one GPU run their H and MSMs concurrently: the long
/// serial tails of one job's MSMs (the last reduction levels and the window combination use a few SMs)
/// overlap the other job's bucket accumulation.
struct DeviceSlot {
  GpuLane* lane = nullptr;
  int index = 0;
  cuda::Stream compute;
  cuda::DeviceBuffer<std::byte> scratch;
  cuda::DeviceBuffer<Fr> a, b, c, z;      ///< in the job's curve's scalars (scalars_of)
  cuda::DeviceBuffer<std::byte> results;  ///< kSlotResultsBytes: MSM results of the job's curve, bad row
  memory::PinnedLease host_results;  ///< the D2H target of `results` (pinned: the copy stays asynchronous)
  cuda::Event h2d_begin, h2d_end, ntt_begin, ntt_end, msm_begin, msm_end;
  std::shared_ptr<const ClockAnchor> anchor;  ///< taken at H2D: older than every event of this job
  Completion h2d_done, ntt_done, msm_done;
  bool h2d_recorded = false, ntt_recorded = false, msm_recorded = false;

  template <class C>
  MsmResultsDevice<C>* results_of() noexcept {
    return reinterpret_cast<MsmResultsDevice<C>*>(results.data());
  }
  std::uint64_t* first_bad_row() noexcept {
    return reinterpret_cast<std::uint64_t*>(results.data() + kMsmResultsBytes);
  }
};

/// One CSR matrix in one GPU's memory.
template <class F>
struct DeviceCsrMatrix {
  cuda::DeviceBuffer<std::uint64_t> row_offsets;
  cuda::DeviceBuffer<std::uint32_t> columns;
  cuda::DeviceBuffer<F> values;

  cuda::DeviceCsr<F> view() const { return {row_offsets.data(), columns.data(), values.data()}; }
};

/// A key's constraint system in one GPU's memory, for evaluating its jobs' a, b, c there.
template <class F>
struct DeviceR1cs {
  std::uint64_t rows = 0;
  DeviceCsrMatrix<F> a, b;
  std::optional<DeviceCsrMatrix<F>> c;  ///< absent: c = a∘b
};

/// The MSM tables of the keys resident on one GPU (for its stats): each DeviceKey adds its own on upload and
/// takes them back when it is freed.
struct TableUsage {
  std::atomic<unsigned> tables{0};
  std::atomic<std::uint64_t> bytes{0};
};

/// One key's SRS in one GPU's memory, in its curve's points, and its constraint system when the GPU
/// evaluates its jobs (what the VRAM Residency holds). A query with an MSM table (`tabled`) holds the
/// table of the curve's table engine for it: its points first, then their 2^(c w) multiples. L's points are
/// indexed like z (l_query_padding points at infinity first), so its MSM shares A's sorted scalars.
template <class C>
struct DeviceKey {
  int device = 0;
  cuda::DeviceBuffer<typename C::G1Affine> a, b1, h, l;
  cuda::DeviceBuffer<typename C::G2Affine> b2;
  std::array<bool, kTableQueries> tabled{};  ///< by TableQuery
  std::uint64_t table_bytes = 0;             ///< beyond the points
  std::shared_ptr<TableUsage> usage;         ///< the GPU's, when it has tables
  std::optional<DeviceR1cs<typename C::Fr>> r1cs;

  bool has_table(TableQuery query) const noexcept { return tabled[static_cast<unsigned>(query)]; }
  ~DeviceKey();  // frees with the device current
};

/// A GPU's engines for one curve. The MSM engines are plans (no device memory: the slots' scratch is sized
/// for both curves' at once); the NTT engine owns twiddle tables and is made at the first key of the curve.
template <class C>
struct CurveEngines {
  std::unique_ptr<cuda::BasicNttEngine<typename C::Fr>> ntt;
  std::unique_ptr<cuda::BasicMsmEngine<C>> msm_sparse_g1;  ///< witness scalars: the 0/±1 fast path
  std::unique_ptr<cuda::BasicMsmEngine<C>> msm_dense_g1;   ///< H scalars: dense
  std::unique_ptr<cuda::BasicMsmEngine<C>> msm_sparse_g2;
  /// Keys streamed from host memory (KeyState::host_srs): planned for one staging buffer's batch.
  std::unique_ptr<cuda::BasicMsmEngine<C>> stream_sparse_g1, stream_dense_g1, stream_sparse_g2;
  /// Queries with MSM tables (DeviceKey::tabled): precomputed-window twins of the first three.
  std::unique_ptr<cuda::BasicMsmEngine<C>> table_sparse_g1, table_dense_g1, table_sparse_g2;

  /// The engine of a query with its table: it made the table and runs its MSMs.
  const cuda::BasicMsmEngine<C>& table_engine(TableQuery query) const {
    return query == TableQuery::h    ? *table_dense_g1
           : query == TableQuery::b2 ? *table_sparse_g2
                                     : *table_sparse_g1;
  }
  /// The NTT tables of a curve prepared after the device slots (the first curve's are in GpuDevice::fixed).
  memory::Reservation tables;
};

struct GpuDevice {
  GpuDevice(GpuLane& lane, const GpuOptions& options, trace::Recorder& recorder, memory::PinnedPool& pool,
            std::uint64_t vram_total);
  ~GpuDevice();

  GpuLane& lane;
  const GpuOptions options;
  trace::Recorder& recorder;
  memory::PinnedPool& pool;
  memory::Budget vram;
  std::shared_ptr<TableUsage> table_usage = std::make_shared<TableUsage>();
  std::unique_ptr<memory::Residency> keys;  ///< SRS per key, least recently used evicted
  cuda::Stream copy, clock;  ///< `clock` stays idle: anchors are recorded there (compute: one per slot)

  std::mutex anchor_mutex;
  std::shared_ptr<const ClockAnchor> anchor;
  std::chrono::steady_clock::time_point anchored_at{};

  // Sized by allocate_device_slots at the first key.
  unsigned log_n_cap = 0;
  std::uint64_t z_cap = 0;
  CurveEngines<Bls12_381> bls12_381;
  CurveEngines<Bn254> bn254;
  /// Keys streamed from host memory: the staging buffers, made at the first such key (either curve).
  std::unique_ptr<cuda::MsmPointStream> point_stream;
  mutable std::mutex point_stream_mutex;  ///< guards creating point_stream (add_key vs. stats)
  memory::Reservation point_stream_charge;
  std::vector<std::unique_ptr<DeviceSlot>> slots;
  util::OccupancyClock occupancy;  ///< its holders: jobs bound to a device slot (h2d to gpu_done)
  memory::Reservation fixed;       ///< VRAM of the tables, scratch and device slots
  std::mutex baseline_mutex;       ///< baseline mode: the old design's GPU mutex

  template <class C>
  CurveEngines<C>& engines() noexcept {
    if constexpr (std::is_same_v<C, Bn254>)
      return bn254;
    else
      return bls12_381;
  }

  std::shared_ptr<const ClockAnchor> current_anchor();
  /// A fresh anchor (blocks on one event of the idle clock stream: never call it from a node body).
  void reanchor();
};

/// Enqueues the five MSMs of a job of `pk` on slot.compute, with the results in slot.results_of<C>():
/// against the key's SRS in this GPU's VRAM (`resident`, from acquire_device_key) or streamed from
/// page-locked host memory (`streamed`). C: Bls12_381 or Bn254.
template <class C>
void enqueue_job_msms(GpuDevice& g, const groth16::BasicProvingKey<C>& pk, const BasicHostSrs<C>* streamed,
                      const memory::ResidentHandle& resident, DeviceSlot& slot);

/// Enqueues a = A·z, b = B·z, c = C·z (c = a∘b without C) of the key's constraint system, resident with its
/// SRS (`resident`), from the slot's z into its a, b, c (n values each) on slot.compute; with `check_rows`
/// (the key has C), the first unsatisfied row into slot.first_bad_row().
template <class C>
void enqueue_job_evaluation(const memory::ResidentHandle& resident, DeviceSlot& slot, std::uint64_t n,
                            bool check_rows);

/// Enqueues the copies of a job's a, b, c (each `abc_bytes`; none when 0) and z (`z_bytes`) into the slot on
/// `stream`.
void enqueue_h2d(DeviceSlot& slot, const Fr* a, const Fr* b, const Fr* c, std::uint64_t abc_bytes,
                 const Fr* z, std::uint64_t z_bytes, cudaStream_t stream);

/// A span on `track` from two events of this slot, converted to the host clock through the slot's anchor.
void record_device_span(trace::Recorder& recorder, const DeviceSlot& slot, trace::StageId stage,
                        trace::TrackId track, const cuda::Event& begin, const cuda::Event& end,
                        std::uint64_t job, std::uint64_t bytes);

inline GpuDevice& device_of(GpuLane& lane) {
  return *lane.resources;
}

}  // namespace proofline::devices
