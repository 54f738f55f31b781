// The GPUs of a pipeline as the layers above the CUDA code see them: one GpuLane per device, with what can be
// read without CUDA (health, job counts, trace tracks), and the functions that manage its resources: the VRAM
// budget, the keys' SRS resident in VRAM (least recently used idle keys evicted), the device slots with their
// compute streams and MSM scratch, SRS streaming for keys that do not fit, clock anchors and the health
// check. The resources themselves (GpuDevice) are CUDA types, in detail/gpu_device.hpp; without CUDA these
// functions throw Error(cuda), and the CPU backend never calls them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/groth16/fwd.hpp>
#include <proofline/memory/budget.hpp>
#include <proofline/memory/residency.hpp>
#include <proofline/trace/span.hpp>

namespace proofline::memory {
class PinnedPool;
}
namespace proofline::trace {
class Recorder;
}

namespace proofline::devices {

struct GpuDevice;   // detail/gpu_device.hpp
struct DeviceSlot;  // a, b, c, z of one job on one GPU

struct GpuDeleter {
  void operator()(GpuDevice* device) const noexcept;
};

/// How the GPUs are set up (from the pipeline's configuration).
struct GpuOptions {
  /// VRAM budget per GPU; none: the device's free memory less a margin.
  std::optional<std::uint64_t> vram_budget;
  /// Device slots per GPU; 0: as many as the VRAM budget holds next to the first key's SRS and MSM tables,
  /// up to 8 for small jobs and 4 for large ones (devices::allocate_device_slots).
  std::size_t device_slots = 0;
  /// The NTT of the slots' size reads its top pass's diagonal and H's coset scales from full tables
  /// (dropped when VRAM is short).
  bool ntt_top_diagonal = true;
  /// Each of the two staging buffers through which a streamed key's points are uploaded; 0: a 32nd of the
  /// VRAM budget, as a power of two between 256 MiB and 2 GiB.
  std::uint64_t srs_stream_buffer = 0;
  /// The window width of keys' precomputed MSM tables (0: the MSM engine's model).
  int msm_table_bits = 0;
};

/// A proving key of either curve.
using AnyProvingKey = std::variant<const groth16::ProvingKey*, const groth16::BasicProvingKey<Bn254>*>;
/// A constraint system of either curve.
using AnyConstraintSystem =
    std::variant<const groth16::ConstraintSystem*, const groth16::BasicConstraintSystem<Bn254>*>;

/// A key's queries, each of which may keep a precomputed-window MSM table in VRAM.
enum class TableQuery : unsigned { h, a, b1, l, b2 };
inline constexpr unsigned kTableQueries = 5;
/// "H", "A", "B1", "L" or "B2".
const char* table_query_name(TableQuery query) noexcept;

/// The sets of queries whose MSM tables a key may keep in VRAM, from none (level 0) to all (kTopTableLevel):
/// GpuKey::table_level names one. Each level takes more VRAM than the one below, so that a key short of VRAM
/// steps down a level at a time, and the levels add tables by the time each saves per byte: H's first (its
/// scalars are uniform), then B2's (a G2 table takes twice the bytes of a G1 one and saves about three
/// times its time), then A's, B1's and L's (the witness's scalars, mostly 0 and 1). {H, A} fills the room of
/// one G1 table beside H's, below {H, B2}, which needs two.
inline constexpr unsigned kTopTableLevel = 6;
/// Whether the set at `level` (at most kTopTableLevel) holds `query`'s table.
bool table_level_has(unsigned level, TableQuery query) noexcept;
/// The set at `level` for messages: "H, B2", or "none".
std::string table_level_names(unsigned level);

/// A registered key as the GPUs see it.
struct GpuKey {
  std::string resident_name;  ///< unique among registered keys: the VRAM residency's entry name
  std::string name;           ///< the user's name, for messages
  AnyProvingKey pk;           ///< its SRS goes up in its curve's points; its jobs use that curve's engines
  /// Its constraint system when the GPU evaluates its jobs' a, b, c (nullptr: the host does): resident with
  /// the SRS, in the same curve as pk.
  std::optional<AnyConstraintSystem> cs;
  /// Which of its queries (the set at this level, kTopTableLevel) sit in VRAM as precomputed-window MSM
  /// tables (each cuda::MsmOptions::precomputed's windows() times the query's points, built on the GPU at
  /// upload).
  unsigned table_level = 0;
};

struct GpuStats {
  int device = 0;
  std::string name;
  memory::BudgetStats vram;
  memory::ResidencyStats keys;  ///< proving keys resident in this GPU's memory
  std::size_t device_slots = 0;
  std::size_t device_slots_in_use = 0;
  double occupied_seconds = 0;  ///< with at least one device slot held
  std::uint64_t srs_stream_batches = 0;
  std::uint64_t srs_stream_bytes = 0;
  unsigned msm_tables = 0;            ///< query tables of the keys resident now
  std::uint64_t msm_table_bytes = 0;  ///< their VRAM beyond the points themselves
};

struct GpuLane {
  int index = 0;   ///< position among the pipeline's GPUs
  int device = 0;  ///< CUDA device ordinal
  std::string name;
  std::atomic<std::size_t> outstanding{0};  ///< jobs routed here and not retired
  /// Their work (graph/detail/gpu_choice.hpp: rows plus a fixed cost a job): what routing compares.
  std::atomic<std::uint64_t> outstanding_work{0};
  std::atomic<std::uint64_t> jobs{0};
  std::atomic<bool> healthy{true};  ///< false after a sticky CUDA error: its jobs fail, none is routed here
  /// The stats of the last GpuDevice, taken as it is freed (shutdown), so that reports made afterwards
  /// still see its VRAM, keys, device slots and tables.
  mutable std::mutex final_stats_mutex;
  std::optional<GpuStats> final_stats;
  trace::TrackId copy_track{};     ///< spans of the copy stream (H2D)
  trace::TrackId compute_track{};  ///< spans of the compute streams (H, MSMs)
  std::unique_ptr<GpuDevice, GpuDeleter> resources;
};

/// Streams, VRAM budget and the clock anchor of lane.device. `recorder` and `pool` must outlive the device.
/// Throws Error(cuda).
std::unique_ptr<GpuDevice, GpuDeleter> make_gpu_device(GpuLane& lane, const GpuOptions& options,
                                                       trace::Recorder& recorder, memory::PinnedPool& pool);
/// Allocates the device slots, the NTT tables of `curve` and MSM scratch (for either curve) for 2^log_n rows
/// and z_cap witness values, charged to the GPU's VRAM budget; returns the device slots. The NTT of 2^log_n
/// rows in `convention` gets its full tables (top-pass diagonal, H's coset scales) when the budget holds
/// them. With automatic device slots the count is the most (up to 8 where 8 take at most a 12th of the
/// budget, else 4) that leave room for `first_key` (nullptr: streamed, room for the staging buffers only):
/// its SRS and constraint system with its MSM tables beside at least two slots, dropping tables (a level at a
/// time) before going below two; else its SRS and constraint system, else its SRS alone (the host then
/// evaluates its jobs), beside one. Throws Error(out_of_budget) when they do not fit, Error(cuda) on a CUDA
/// failure.
std::vector<DeviceSlot*> allocate_device_slots(GpuLane& lane, unsigned log_n, std::uint64_t z_cap,
                                               CurveId curve, HConvention convention,
                                               const GpuKey* first_key);
/// Makes the device slots' GPU ready for keys of `curve` (idempotent): its NTT tables, charged to the VRAM
/// budget, with the full tables of the slots' size in `convention` when the budget holds them too. Throws
/// Error(out_of_budget) when the tables do not fit.
void prepare_curve(GpuLane& lane, CurveId curve, HConvention convention);
/// Throws Error(invalid_argument) naming Config::max_log_n when the key is larger than the device slots.
void check_key_fits_device(const GpuLane& lane, const GpuKey& key);
/// A GPU keeps L's points indexed like z, so that L's MSM takes the witness MSMs' sorted scalars: one point
/// at infinity for each public variable (z[0] = 1 included) comes first.
template <class ProvingKey>
std::size_t l_query_padding(const ProvingKey& pk) noexcept {
  return static_cast<std::size_t>(pk.num_variables) - pk.l_query.size();
}
/// Bytes of the key on a device: its SRS (with L's padding), and its constraint system when the GPU evaluates
/// its jobs (its MSM tables come on top: acquire_device_key charges them too).
std::uint64_t device_key_bytes(const GpuKey& key);
/// What acquire_device_key charges the VRAM budget for the key on this GPU: device_key_bytes and its MSM
/// tables (their size depends on the GPU's table engines, made with the device slots).
std::uint64_t device_key_vram_bytes(GpuLane& lane, const GpuKey& key);
/// The key's SRS on this GPU if it is resident now (never loads).
std::optional<memory::ResidentHandle> find_device_key(GpuLane& lane, const GpuKey& key);
/// Whether the key's SRS is resident on this GPU now (neither a use nor a load).
bool device_key_resident(const GpuLane& lane, const GpuKey& key);
/// The key's SRS on this GPU, uploaded now if needed (blocks: least recently used idle keys are evicted for
/// the room unless `evict_idle_keys` is false, then it waits for room, at most `patience`). Throws
/// Error(out_of_budget) when the VRAM budget cannot hold it next to the device slots, or not within
/// `patience`.
memory::ResidentHandle acquire_device_key(GpuLane& lane, const GpuKey& key,
                                          std::optional<std::chrono::milliseconds> patience = std::nullopt,
                                          bool evict_idle_keys = true);
/// Drops the key's SRS from this GPU once no job uses it, waiting for its jobs until `deadline` (default: not
/// at all); true when it is not resident afterwards.
bool evict_device_key(GpuLane& lane, const GpuKey& key,
                      std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::now());
std::uint64_t device_vram_available(const GpuLane& lane);
/// Makes this GPU ready for keys streamed from host memory (the staging buffers, charged to its VRAM
/// budget; idempotent). Throws Error(out_of_budget) when the budget cannot hold them.
void enable_srs_streaming(GpuLane& lane);
bool srs_streaming(const GpuLane& lane);
GpuStats device_stats(const GpuLane& lane);
/// Whether the GPU still works: its streams are asked for a sticky error (a dead context), and a GPU that has
/// one is taken out of service (healthy = false, the stages in flight on it completed as failed, once).
/// Cheap enough for a node body; also part of device_tick.
bool check_health(GpuLane& lane);
/// Periodic upkeep, from a thread that may block: a fresh clock anchor every few seconds; a health check
/// that completes the stages in flight on a GPU whose context died (a sticky CUDA error never runs their host
/// functions), failed, so that nothing waits for them forever.
void device_tick(GpuLane& lane);

}  // namespace proofline::devices
