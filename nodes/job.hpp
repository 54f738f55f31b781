// The vocabulary of a job as it passes the stages: its stage names, its witness sources (what a caller hands
// in), and its result (a proof or an error). The pipeline's public API (graph/job.hpp) exposes these types.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/util/error.hpp>

namespace proofline::nodes {

/// The stages a job passes, in order. Errors name the stage they happened in; fault hooks get it.
enum class Stage : std::uint8_t {
  queue,      ///< submitted, waiting for a pinned-slot token
  admission,  ///< token taken, slot being leased
  synthesis,  ///< witness into z, then a = A·z, b = B·z, c = C·z into the slot
  h2d,        ///< slot -> device slot (CUDA backend)
  ntt,        ///< the H polynomial
  msm,        ///< the five MSMs
  release,    ///< proof assembly, self-verification, delivery; resources go back
  baseline,   ///< baseline mode: H2D + NTT + MSM under the GPU (or CPU) mutex
};

const char* to_string(Stage stage) noexcept;

using JobId = std::uint64_t;

/// Called at the start of every stage body for every job that reaches it (tests and fault injection: see
/// graph/testing.hpp); an exception it throws fails that job in that stage exactly as a real error there
/// would (tokens and leases still come home). It may block (to hold a job in a stage) but then holds a
/// worker.
using FaultHook = std::function<void(Stage stage, JobId job)>;

/// The writes that the views of one witness callback's target refused, and the first one's message. A
/// callback that catches a refusal and returns normally fails its job all the same, with that message: the
/// value it meant to write is not in the slot, which holds another job's value there. The C ABI's
/// pl_witness_write keeps its refusals in one too.
class WitnessRefusals {
 public:
  /// Records a refusal; any thread. A message that does not fit in memory is dropped (the count is kept).
  void note(const char* message) noexcept;
  /// How many writes were refused.
  std::size_t count() const;
  /// The first refusal's message (empty when none, or when it did not fit in memory).
  std::string first() const;
  /// What a job whose callback returned after refused writes says of them: "a refused write: <the first's
  /// message>", or "N refused writes, the first: <its message>" ("its message did not fit in memory" for one
  /// dropped); empty when none was refused.
  std::string summary() const;

 private:
  mutable std::mutex mutex_;
  std::size_t count_ = 0;
  std::string first_;
};

/// A span that checks every index: what a witness callback writes into. Its extent is exactly the slot
/// region it stands for, so a writer that stays inside it cannot touch another job's memory. A write it
/// refuses throws, and is noted in `refusals` (when given) in case the callback catches it.
template <class T>
class CheckedSpan {
 public:
  CheckedSpan() = default;
  CheckedSpan(std::span<T> span, const char* name, WitnessRefusals* refusals = nullptr) noexcept
      : span_(span), name_(name), refusals_(refusals) {}

  std::size_t size() const noexcept { return span_.size(); }
  bool empty() const noexcept { return span_.empty(); }

  /// Throws Error(invalid_argument, "<name>[i] is out of range (size n)").
  T& operator[](std::size_t i) const {
    if (i >= span_.size()) out_of_range(i, 1);
    return span_[i];
  }
  T& at(std::size_t i) const { return (*this)[i]; }
  /// Copies `values` to [offset, offset + values.size()); throws if that leaves the span.
  void write(std::size_t offset, std::span<const T> values) const {
    if (offset > span_.size() || values.size() > span_.size() - offset) out_of_range(offset, values.size());
    std::copy(values.begin(), values.end(), span_.begin() + static_cast<std::ptrdiff_t>(offset));
  }
  void fill(const T& value) const { std::fill(span_.begin(), span_.end(), value); }
  /// The raw span, for bulk writers that take a std::span of exactly this extent.
  std::span<T> unchecked() const noexcept { return span_; }

 private:
  [[noreturn]] void out_of_range(std::size_t at, std::size_t count) const {
    Error refused(Errc::invalid_argument, std::string(name_) + "[" + std::to_string(at) + "] (" +
                                              std::to_string(count) + " elements) is out of range (size " +
                                              std::to_string(span_.size()) + ")");
    if (refusals_ != nullptr) refusals_->note(refused.what());
    throw refused;
  }

  std::span<T> span_{};
  const char* name_ = "span";
  WitnessRefusals* refusals_ = nullptr;
};

/// What a WitnessCallback writes into: views of the job's leased slot in its key's scalars. z, a, b, c are
/// BLS12-381's; bn254_z .. bn254_c the same regions as BN254's. Only the views of the key's curve are set,
/// the others are empty, so a writer of the wrong field cannot write a value. Every view notes what it
/// refuses in the same WitnessRefusals, which synthesis checks when the callback returns.
struct WitnessTarget {
  CheckedSpan<Fr> z;  ///< num_variables: z[0] = 1, the public inputs, then the private values
  CheckedSpan<Fr> a;  ///< domain_size: A·z per row, zero past the rows (only when filling a, b, c)
  CheckedSpan<Fr> b{};
  CheckedSpan<Fr> c{};
  std::uint64_t num_public = 0;
  std::uint64_t domain_size = 0;
  JobId job = 0;
  CurveId curve = CurveId::bls12_381;  ///< the key's curve: which views are the job's
  CheckedSpan<bn254::Fr> bn254_z{};
  CheckedSpan<bn254::Fr> bn254_a{};
  CheckedSpan<bn254::Fr> bn254_b{};
  CheckedSpan<bn254::Fr> bn254_c{};
  /// Set once the job's result is decided while the callback runs (its timeout came): what the callback
  /// writes after that is not used. A long computation may poll stop_requested() and return or throw early;
  /// proofline's circom generators stop at their next loop iteration or branch.
  const std::atomic<bool>* stop = nullptr;

  bool stop_requested() const noexcept { return stop != nullptr && stop->load(std::memory_order_relaxed); }
};

/// A witness computed by the caller, straight into the slot (the way a circuit library synthesizes), in the
/// scalars of `curve`: submit refuses it for a key of another curve. `fill` must write every entry of the
/// views it is given: the slot is reused, so an entry it leaves alone holds another job's value (unless
/// Config::wipe_slots_between_jobs). A write a view refuses throws Error(invalid_argument), which fails the
/// job when `fill` lets it through; a `fill` that catches it and returns normally fails its job all the same
/// (Errc::bad_input, with the first refused write's message). A job's result never arrives while its `fill`
/// runs: a timeout or a cancel that comes meanwhile is delivered when `fill` returns, so what it captures by
/// reference need only live until the result.
struct WitnessCallback {
  enum class Fills {
    witness,          ///< fills z; the pipeline evaluates a, b, c with the key's constraint system
    witness_and_abc,  ///< fills z, a, b and c itself (synthesis without a PCE); rows checked a_i·b_i = c_i,
                      ///< proof verified
  };
  std::function<void(const WitnessTarget&)> fill;
  Fills fills = Fills::witness;
  /// The curve whose values `fill` writes (WitnessTarget::z .. c for BLS12-381, bn254_z .. bn254_c for
  /// BN254).
  CurveId curve = CurveId::bls12_381;
};

/// A witness already in memory (z[0] = 1, publics, private values), shared with the caller: z for a
/// BLS12-381 key, bn254_z for a BN254 key (exactly the one of the key's curve).
struct MemoryWitness {
  std::shared_ptr<const std::vector<Fr>> z{};
  std::shared_ptr<const std::vector<bn254::Fr>> bn254_z{};
};

/// A circom/snarkjs witness file (.wtns version 2), read straight into the slot during synthesis; its field
/// must be the key's curve's (a witness of the other curve fails its job, naming both).
struct WtnsFile {
  std::filesystem::path path{};
};

/// A .wtns file's image in memory (what a witness calculator library returns), shared with the caller and
/// read as a WtnsFile is, straight into the slot during synthesis; `name` stands for the file in messages.
struct WtnsImage {
  std::shared_ptr<const std::vector<std::byte>> image{};
  std::string name = "the .wtns image";
};

using WitnessSource = std::variant<WitnessCallback, MemoryWitness, WtnsFile, WtnsImage>;

/// True on a thread while it runs a caller's witness callback (set by synthesis): the pipeline's calls that
/// wait for its own progress do not wait there, since the thread they hold may be the one that progress
/// needs.
inline thread_local bool in_witness_callback = false;

struct JobError {
  Stage stage = Stage::queue;
  Errc code = Errc::internal;
  std::string message{};  ///< "synthesis: the witness does not satisfy constraint row 17"
};

/// A JobError that needs no heap memory, for the paths that must still hand out a result after an allocation
/// failed: its message is "<stage>: <what>" when that fits std::string's inline buffer (15 characters in
/// libstdc++, 22 in libc++), else `what` when that fits, else empty.
JobError allocation_free_error(Stage stage, Errc code, std::string_view what) noexcept;

/// A job's outcome. The proof and public inputs sit in the fields of its key's curve (`curve`): proof and
/// public_inputs for BLS12-381 (the fields every user of one curve already reads), bn254_proof and
/// bn254_public_inputs for BN254; the other curve's stay empty.
struct JobResult {
  JobId id = 0;
  std::uint64_t seq = 0;  ///< submission order, from 0
  std::string label{};
  CurveId curve = CurveId::bls12_381;  ///< its key's curve
  std::optional<groth16::Proof> proof{};
  std::vector<Fr> public_inputs;  ///< z[1..num_public] (empty when synthesis did not get that far)
  std::optional<groth16::BasicProof<Bn254>> bn254_proof{};
  std::vector<bn254::Fr> bn254_public_inputs{};
  /// The pipeline verified the proof (the pairing check passed): every proof with Config::verify, and
  /// without it those whose witness could not be checked row by row (a key without its C matrix, a, b, c a
  /// callback wrote) and a key's first proof (which shows its proving key and constraint system agree).
  bool verified = false;
  std::optional<JobError> error{};
  int gpu = -1;          ///< the GPU it ran on (-1: CPU backend or never bound)
  double queued_s = 0;   ///< submit -> token
  double latency_s = 0;  ///< submit -> result

  /// A proof, of either curve, and no error.
  bool ok() const noexcept { return (proof.has_value() || bn254_proof.has_value()) && !error; }
};

}  // namespace proofline::nodes
