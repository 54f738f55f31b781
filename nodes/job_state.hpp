// The pipeline's own record of a registered key and of a job in flight. The flow graph's messages are
// copyable handles to these (a JobState pointer); everything move-only a job holds (its pinned slot, budget
// charges, its use of a key's SRS on a GPU) lives here, owned by the pipeline, never by a message.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/devices/gpu_lane.hpp>
#include <proofline/devices/host_srs.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/verifying_key.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/memory/reservation.hpp>
#include <proofline/memory/residency.hpp>
#include <proofline/nodes/job.hpp>
#include <proofline/util/error.hpp>

namespace proofline::nodes {

/// A key's material on one curve: what the stage bodies hand to the groth16 templates of that curve.
template <class Curve>
struct CurveKey {
  std::shared_ptr<const groth16::BasicProvingKey<Curve>> pk;
  std::shared_ptr<const groth16::BasicConstraintSystem<Curve>> cs;
  std::shared_ptr<const groth16::BasicVerifyingKey<Curve>> vk;
  std::optional<groth16::BasicPreparedVerifyingKey<Curve>> pvk;
  /// The GPU NTT's domain (the key's size and H convention).
  std::optional<typename Curve::Domain> domain;
  /// Set when the SRS is streamed from host memory (CUDA backend): no GPU holds it in VRAM. Declared last, so
  /// it is unpinned before the points can go; jobs hold the key, so it outlives their MSMs.
  std::shared_ptr<const devices::BasicHostSrs<Curve>> host_srs;
};
using AnyCurveKey = std::variant<CurveKey<Bls12_381>, CurveKey<Bn254>>;

struct KeyState {
  std::uint64_t id = 0;
  std::string name;
  /// The key of its curve. Stage bodies visit it once and run the templates of that curve; everything that
  /// does not depend on the curve (admission, slot sizing, logs) reads the shape below instead.
  AnyCurveKey material;
  // The key's shape, whatever its curve.
  CurveId curve = CurveId::bls12_381;
  std::uint64_t num_public = 0;
  std::uint64_t num_variables = 0;  ///< z[0] = 1 included
  unsigned log_domain_size = 0;
  bool has_cs = false;  ///< it has a constraint system to evaluate a, b, c with
  /// The GPUs (positions among the pipeline's) that may hold its SRS and prove its jobs; empty: every GPU.
  std::vector<int> gpu_lanes;
  /// The GPUs evaluate its jobs' a, b, c from z (its constraint system is resident with its SRS): synthesis
  /// writes z alone and H2D copies z alone. Set at add_key: the CUDA backend in pinned mode, a key with a
  /// constraint system whose SRS is in VRAM, Config::gpu_evaluate.
  bool gpu_evaluates = false;
  /// Which of its queries keep precomputed-window MSM tables in VRAM (devices::kTopTableLevel): set at
  /// add_key from Config::msm_tables, lowered while its SRS does not fit VRAM with them, or later when a key
  /// registered after it needs the room (its SRS is then uploaded again with fewer). Read by jobs that upload
  /// the SRS again.
  std::atomic<unsigned> table_level{0};
  /// A proof of this key whose witness was checked row by row has verified: its proving key and constraint
  /// system are of one circuit. Until then release verifies each proof (where the key has a verifying key).
  std::atomic<bool> proof_verified{false};
  /// Routing a job to a GPU (which takes the key's SRS there) holds it shared. A key that gives up MSM tables
  /// while its jobs run holds it exclusively until it is uploaded again with fewer, so that new jobs wait
  /// instead of keeping the old upload in use.
  mutable std::shared_timed_mutex routing;
  /// Slot buffer sizes in bytes: a, b, c (domain) and z (variables), in the key's scalars.
  std::array<std::uint64_t, 4> slot_sizes{};
  /// The slot most of its jobs lease: z alone when the GPU evaluates (a quarter of a 2^n-row job's bytes),
  /// else a, b, c and z. Tokens and the largest key are counted in it.
  std::uint64_t slot_bytes = 0;
  memory::ResidentHandle host;       ///< the host budget's charge for pk and cs while registered
  std::atomic<std::size_t> jobs{0};  ///< accepted and not yet retired
  bool removing = false;             ///< guarded by the pipeline's key lock
  /// Where its next job's turn starts, in rows (Config::keys_take_turns); guarded by the pipeline's jobs
  /// lock.
  std::uint64_t next_turn = 0;

  std::uint64_t domain_size() const noexcept { return std::uint64_t{1} << log_domain_size; }
  /// Whether the GPU at `lane` (its position among the pipeline's GPUs) may hold it and prove its jobs.
  bool placed_on(int lane) const noexcept {
    return gpu_lanes.empty() || std::find(gpu_lanes.begin(), gpu_lanes.end(), lane) != gpu_lanes.end();
  }
  /// The slot of z alone (one buffer).
  std::span<const std::uint64_t> z_slot() const noexcept { return {slot_sizes.data() + 3, 1}; }
  /// The slot most of its jobs lease (see slot_bytes).
  std::span<const std::uint64_t> usual_slot() const noexcept {
    return gpu_evaluates ? z_slot() : std::span<const std::uint64_t>(slot_sizes);
  }
  /// Whether its SRS is streamed from host memory (CurveKey::host_srs).
  bool streamed() const {
    return std::visit([](const auto& key) { return key.host_srs != nullptr; }, material);
  }
  /// The key as the GPUs know it.
  devices::GpuKey gpu_key() const {
    devices::GpuKey key{
        "key " + std::to_string(id), name,
        std::visit([](const auto& k) { return devices::AnyProvingKey(k.pk.get()); }, material), std::nullopt,
        table_level.load()};
    if (gpu_evaluates)
      key.cs = std::visit([](const auto& k) { return devices::AnyConstraintSystem(k.cs.get()); }, material);
    return key;
  }
};

/// The scalars of another curve in a slot's buffers: a pinned slot (or pageable vectors) is typed as
/// BLS12-381's Fr, and a job of a key of another curve reads and writes the same bytes as its own Fr. Both
/// scalar fields are four 64-bit limbs, so one slot serves either curve.
template <class F>
std::span<F> scalars_as(std::span<Fr> buffer) noexcept {
  static_assert(sizeof(F) == sizeof(Fr) && alignof(F) == alignof(Fr), "a slot holds either curve's scalars");
  static_assert(std::is_trivially_copyable_v<F> && std::is_trivially_copyable_v<Fr>);
  return {reinterpret_cast<F*>(buffer.data()), buffer.size()};
}

/// What a job's proving makes, in its key's curve.
template <class Curve>
struct CurveWork {
  groth16::BasicMsmResults<Curve> msm;
  std::optional<groth16::BasicProof<Curve>> proof;
  std::vector<typename Curve::Fr> publics;  ///< z[1..num_public]
};
using AnyCurveWork = std::variant<CurveWork<Bls12_381>, CurveWork<Bn254>>;

/// Empty work of `curve`: a job's, before its first attempt and before each retry.
inline AnyCurveWork fresh_work(CurveId curve) {
  return with_curve(curve, []<class Curve>() { return AnyCurveWork(CurveWork<Curve>{}); });
}

enum class Phase : int {
  queued,     ///< in the job queue
  admitted,   ///< holds a token (its message is in the graph past admission)
  withdrawn,  ///< cancelled or timed out while queued: its result is out, its message is dropped at admission
};

/// One job, owned by the pipeline from submit() until its message leaves the graph. Fields without
/// synchronisation are touched only by the node that holds the job's message (one at a time, ordered by the
/// graph's task hand-offs); others touch only the atomics.
struct JobState : std::enable_shared_from_this<JobState> {
  JobId id = 0;
  std::uint64_t seq = 0;
  std::uint64_t turn = 0;  ///< its key's turn (Config::keys_take_turns), before seq in the queue's order
  int priority = 0;
  std::string label;
  std::shared_ptr<KeyState> key;
  WitnessSource witness;
  std::function<void(const JobResult&)> on_result;
  std::promise<JobResult> promise;
  std::int64_t submit_ns = 0;
  /// 0 until admitted. Atomic: a cancel or timeout records the job's life while admission may set it.
  std::atomic<std::int64_t> admit_ns{0};
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::chrono::milliseconds timeout{0};

  std::atomic<Phase> phase{Phase::queued};
  std::atomic<bool> delivered{false};  ///< the result is out (exactly once)
  std::atomic<bool> fulfilled{false};  ///< its callbacks ran and its future holds the result (exactly once)
  std::atomic<bool> abandoned{false};  ///< timed out in flight: stages skip it, resources still come home
  std::atomic<Stage> stage{Stage::queue};

  std::optional<JobError> error;  ///< the first failure, set by the stage holding the message
  std::uint32_t token = 0;        ///< the admission token it holds (0: none)

  // Buffers: a pinned slot (pinned mode) or pageable vectors (baseline mode); in pinned mode a job on the CPU
  // whose key has slots of z alone keeps a, b, c in pageable vectors beside that slot.
  memory::PinnedSlot* slot = nullptr;
  std::vector<Fr> heap_a, heap_b, heap_c, heap_z;
  memory::Reservation heap_charge;
  std::span<Fr> a, b, c, z;

  int gpu = -1;                                ///< index of its GPU among the pipeline's
  devices::DeviceSlot* device_slot = nullptr;  ///< while bound to a GPU
  memory::ResidentHandle gpu_key;              ///< the key's SRS in that GPU's memory, in use by this job
  AnyCurveWork work = fresh_work(CurveId::bls12_381);  ///< set to the key's curve when the job is made
  bool witness_checked = false;  ///< every row is checked (else release verifies the proof)
  bool evaluate_on_gpu = false;  ///< synthesis wrote z alone: the GPU evaluates a, b, c (and checks rows)
  bool verified = false;
  unsigned attempts = 1;  ///< proofs begun: more than one after a GPU went out of service under it
  JobResult result;       ///< written once, by whoever wins `delivered`; read by the sink

  /// While the caller's witness callback runs, a result decided early (a timeout, a cancel) waits here: the
  /// callback's captures must stay valid until the result says the job is over (graph/core.cpp).
  struct CallbackRun {
    std::mutex mutex;
    bool running = false;
    std::optional<JobError> deferred;
    std::atomic<bool> stop{false};  ///< WitnessTarget::stop: set with `deferred`
  } callback_run;

  bool skip() const noexcept { return error.has_value() || abandoned.load(std::memory_order_acquire); }
  /// Its work in `Curve` (its key's curve); Error(internal) for another.
  template <class Curve>
  CurveWork<Curve>& work_of() {
    if (auto* w = std::get_if<CurveWork<Curve>>(&work)) return *w;
    throw Error(Errc::internal,
                "job " + std::to_string(id) + " is not a job of a " + std::string(Curve::name) + " key");
  }
};

/// Whether a job needs a, b and c in host memory: unless the GPU it is bound to evaluates them from z (its
/// key's constraint system is in VRAM and its witness source does not fill them itself). A job proved again
/// on the CPU after its GPU failed needs them.
inline bool needs_host_abc(const JobState& job) {
  const auto* callback = std::get_if<WitnessCallback>(&job.witness);
  const bool fills_abc = callback != nullptr && callback->fills == WitnessCallback::Fills::witness_and_abc;
  return !job.key->gpu_evaluates || job.gpu < 0 || fills_abc;
}

/// Calls f(key, work) with the job's key and its work in that key's curve (the Curve deduced from the
/// key): the one step a stage body takes from the run-time curve to the templates of its curve.
template <class F>
decltype(auto) visit_curve(JobState& job, F&& f) {
  return std::visit(
      [&]<class Curve>(const CurveKey<Curve>& key) -> decltype(auto) {
        return f(key, job.template work_of<Curve>());
      },
      job.key->material);
}

}  // namespace proofline::nodes
