// What a Pipeline is built from: backend and mode, budgets, slot counts, threads and delivery options. Every
// field has a working default; a default-constructed Config proves on whatever backend the machine has.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include <proofline/memory/pinning.hpp>
#include <proofline/nodes/job.hpp>

namespace proofline::graph {

/// Where H and the MSMs run.
enum class Backend {
  automatic,  ///< CUDA when this build has it and a device is usable, else CPU
  cpu,        ///< the CPU algorithms (cpu/); no H2D stage
  cuda,       ///< NVIDIA GPUs; Error(cuda) at construction when none is usable
};

/// How witnesses reach the compute stages.
enum class Mode {
  pinned,    ///< a, b, c, z in pooled pinned slots; copy and compute overlap on separate streams (the design)
  baseline,  ///< the old design, for side-by-side measurement: pageable heap vectors and one mutex per GPU
             ///< held across H2D + NTT + MSM, synchronously (same kernels, keys and VRAM-resident SRS)
};

/// Where a key's SRS (the proving key's query points) lives on the CUDA backend.
enum class SrsPlacement {
  automatic,  ///< in VRAM where a GPU's budget holds it, else streamed from page-locked host memory
  device,     ///< in VRAM only: add_key fails when no GPU's budget holds the key
  host,       ///< always streamed from page-locked host memory (VRAM stays free for slots and other keys)
};

/// "auto" | "cpu" | "cuda".
std::string_view to_string(Backend backend) noexcept;
/// "pinned" | "baseline".
std::string_view to_string(Mode mode) noexcept;
/// "auto" | "vram" | "host".
std::string_view to_string(SrsPlacement placement) noexcept;
/// Parse the names above ("auto" or "automatic"; "device" for "vram"); Error(invalid_argument) naming the
/// text otherwise.
Backend parse_backend(std::string_view text);
Mode parse_mode(std::string_view text);
SrsPlacement parse_srs_placement(std::string_view text);

using nodes::FaultHook;
using nodes::JobId;
using nodes::JobResult;
using nodes::Stage;

/// Durations of a century or more mean no limit: a deadline that far ahead would overflow the steady clock
/// (whose nanoseconds reach about 292 years), so such a timeout never ends instead of ending at once.
inline constexpr std::chrono::milliseconds kNoTimeLimit = std::chrono::hours(24 * 36525);

/// How many removed keys a pipeline remembers the names of (the most recently removed ones), so that a call
/// with a removed key's handle is told that the key was removed, naming it. A handle of a key removed
/// before those is refused as never registered: a service that adds and removes keys for ever keeps a
/// bounded list.
inline constexpr std::size_t kRemovedKeyNamesKept = 4096;

struct Config {
  Backend backend = Backend::automatic;
  Mode mode = Mode::pinned;
  /// CUDA devices to use; empty: every usable one. Ignored when Backend::cpu is asked for; with
  /// Backend::automatic and no usable GPU, a non-empty list is refused (Errc::cuda).
  std::vector<int> gpus{};

  /// Host budget for everything pinned or resident (pool, keys, PCE, baseline vectors). None: what this
  /// process may use (memory::host_budget_bytes). Set it where RAM grows on demand (the GPU machine).
  std::optional<std::uint64_t> host_budget{};
  /// VRAM budget per GPU (device slots, MSM scratch, NTT tables, resident SRS). None: the device's free
  /// memory less a margin.
  std::optional<std::uint64_t> vram_budget{};

  /// Most pinned slots (tokens) in flight; 0: synthesis_concurrency + 2 per GPU (+ 2 on the CPU backend).
  /// The real count is the smaller of this and what the host budget holds for the largest key's slot.
  std::size_t slots = 0;
  /// Jobs of equal priority take turns between keys instead of going in submission order: each key gets a
  /// share of admissions in proportion to its jobs' rows (start-time fair queuing), so another key's next job
  /// waits behind the jobs already admitted and at most one more of a backlog, not behind the whole backlog.
  /// One key's jobs still go in submission order, and a key with no jobs waiting saves up no turns.
  bool keys_take_turns = false;
  /// The number of jobs this pipeline will be given, where it is known in advance (a batch); 0: not known (a
  /// server). The slot count is at most this: a slot no job will lease would be pinned for nothing.
  std::uint64_t expected_jobs = 0;
  /// Device slots (a, b, c, z on the device) per GPU: jobs bound to one GPU at once. Each has its own compute
  /// stream and MSM scratch in VRAM, so those jobs' H and MSMs run concurrently (one job's latency-bound MSM
  /// tails overlap another's accumulation; docs/performance.md has the measured gain). 0: automatic, as many
  /// as 4 as the VRAM budget holds next to the first key's SRS, constraint system and MSM tables (or next to
  /// the staging buffers of a streamed key), and up to 8 where 8 slots take at most a 12th of the budget
  /// (small jobs: 2^20 rows on an H200); the tables go (a table level at a time) only where two slots would
  /// not fit beside them.
  std::size_t device_slots = 0;
  /// Most jobs synthesized at once (each is TBB-parallel inside); 0: half the threads, at least 1. Synthesis
  /// ramps up to it: one job per GPU (one on the CPU backend) first, so the first jobs reach the GPUs with
  /// every thread on them, then one more each time a synthesis finishes while more jobs wait than permits are
  /// free (or while the ones running leave the host's threads mostly idle: a serial or waiting witness
  /// source), and back down when none waits. A witness source that runs on one thread (circom's generator)
  /// keeps up only with as many jobs as threads: `proofline batch` sets that for input JSON. A witness source
  /// that waits (a file, another process, another job's result) holds a permit meanwhile: set this to as
  /// many as may wait at once, or jobs queue behind them (the default is 1 on a 2-thread host).
  std::size_t synthesis_concurrency = 0;
  /// Threads the pipeline's task_arena may use; 0: every hardware thread.
  std::size_t max_threads = 0;
  /// Device slots are sized for 2^max_log_n rows (CUDA backend); 0: the first key's domain. A key larger
  /// than the device slots is refused by add_key with a message naming this field.
  unsigned max_log_n = 0;

  /// Where keys' SRS live (CUDA backend). A streamed key's MSMs upload its points in batches through two
  /// staging buffers of srs_stream_buffer bytes per GPU while the previous batch is summed: slower than
  /// VRAM-resident points when the MSMs are short, but a key larger than VRAM still proves.
  SrsPlacement srs = SrsPlacement::automatic;
  /// 0: a 32nd of the GPU's VRAM budget, as a power of two between 256 MiB and 2 GiB (2 GiB on an H200).
  /// Larger batches mean fewer bucket reductions per MSM and a job's MSMs that upload while the previous
  /// one sums: with 2 GiB a streamed MSM comes close to the resident time (README, streamed SRS).
  std::uint64_t srs_stream_buffer = 0;
  /// The GPU NTT of the device slots' size, in the first key's convention, keeps full tables: its top pass's
  /// diagonal and H's coset scales, read instead of multiplying each element by two powers, which makes NTTs
  /// and H faster (perf/NOTES-gpu-ntt.md). 2^max_log_n x 128 bytes of VRAM per GPU in generator7's
  /// convention, x 96 in snarkjs's (2 GiB / 1.5 GiB at 2^24). Left out when the VRAM budget cannot hold
  /// them.
  bool ntt_top_diagonal = true;

  /// CUDA backend: when a GPU goes out of service (a sticky CUDA error kills its context), the jobs it held
  /// are proved again from their witness on a healthy GPU that holds their key's SRS (or streams it), else,
  /// with this set, on the CPU, and so are the jobs submitted afterwards. Without it, once no healthy GPU is
  /// left, those jobs fail with Errc::cuda and submit() refuses new ones. A WitnessCallback may be called
  /// again.
  bool cpu_fallback = false;

  /// Zero each job's slot (z and A·z, B·z, C·z: the witness) as it comes home, so no witness stays in a
  /// pooled buffer while it waits for the next job (a parallel memset per job: perf/results has the cost).
  /// Off by default: pooled buffers are zeroed when they are unpinned (trim, eviction, shutdown) and excluded
  /// from core dumps either way, and baseline mode's pageable vectors are always zeroed before they are
  /// freed.
  bool wipe_slots_between_jobs = false;

  /// Where pinned memory comes from; none: memory::default_backend() (cudaHostRegister with a GPU, else
  /// host pages).
  std::optional<memory::PinningKind> pinning{};
  /// Pin the token count's worth of slots of each new largest key up front, so the steady state pins nothing.
  bool prewarm = true;

  /// Verify every proof with the key's verifying key before delivering it (a failed check fails the job).
  bool verify = false;
  /// Check a_i·b_i = c_i on every row after synthesis (one multiplication per row): a witness that does not
  /// satisfy the circuit fails in synthesis with the row, instead of giving a proof that will not verify. A
  /// key without its C matrix (a snarkjs .zkey) cannot be checked that way: its proofs are verified instead
  /// (a pairing check per proof), so no result carries a proof that does not verify.
  bool check_witness = true;
  /// CUDA backend, pinned mode: keys with a constraint system keep it in VRAM beside their SRS, and their
  /// jobs' a = A·z, b = B·z, c = C·z are made on the GPU (rows checked there too), so synthesis computes the
  /// witness alone and only z is copied. Off: the synthesis threads evaluate on the host and a, b, c are
  /// copied (keys streamed from host memory always do).
  bool gpu_evaluate = true;
  /// CUDA backend, keys in VRAM: each query's points are kept with their 2^(c w) multiples (precomputed
  /// windows, cuda::MsmOptions::precomputed), built on the GPU when the key is uploaded, so that its MSMs
  /// reduce their buckets once instead of once per window. A table costs about a dozen times its query's
  /// points; where the VRAM budget cannot hold them all, B2's table goes first, then L's, B1's, A's and H's,
  /// before the key's constraint system. Off: plain MSMs, the SRS alone in VRAM.
  bool msm_tables = true;
  /// The window width c of those tables, in bits (8..22; 0: the MSM engine's model of additions and
  /// buckets, fitted on an H200). Wider windows mean fewer windows to add and more buckets to sort and
  /// reduce; the table holds ceil(255 / c) multiples of each point.
  unsigned msm_table_bits = 0;
  /// Deliver results in submission order (a sequencer holds early ones back).
  bool in_order = false;
  /// Fail a job that has not finished this long after its submission (0, or kNoTimeLimit or more: no limit);
  /// Job::timeout overrides. A running witness callback is asked to stop (WitnessTarget::stop) and the result
  /// waits for it to return.
  std::chrono::milliseconds job_timeout{0};
  /// Jobs submitted and not yet holding a token: submit() waits and try_submit() refuses beyond it.
  std::size_t queue_capacity = 1024;
  /// Keys resident in host memory that nobody uses are evictable after this long (reloading is slow;
  /// kNoTimeLimit or more: never for being idle).
  std::chrono::milliseconds key_idle_timeout{std::chrono::minutes(5)};
  /// NVTX ranges for node bodies (Nsight Systems); spans are always recorded.
  bool nvtx = false;
  /// Bytes for the recorded spans and counter samples (graph/observe.hpp): past them the oldest records go,
  /// so a pipeline that runs for days stays within them. The default holds a batch's whole run. Each
  /// recording thread keeps at least its current chunk of records whatever the limit (about 40 KiB a
  /// thread), so small values bound less than they say.
  std::uint64_t trace_memory = std::uint64_t{64} << 20;

  /// Called once for every result (in submission order when in_order), on a pipeline thread, after the
  /// job's own callback. Keep it short: it runs on a worker.
  std::function<void(const JobResult&)> on_result{};
};

/// What a pipeline built from a Config runs with, by the rules its fields state.
struct ThreadPlan {
  std::size_t threads = 1;    ///< max_threads, or every hardware thread
  std::size_t synthesis = 1;  ///< synthesis_concurrency, or half the threads (at least 1)
};
ThreadPlan thread_plan(const Config& config);

enum class ShutdownMode {
  drain,   ///< finish every submitted job
  cancel,  ///< cancel the jobs still queued, finish those holding a token
};

}  // namespace proofline::graph
