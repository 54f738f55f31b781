// Multi-scalar multiplication on the GPU: result = sum_i s_i·P_i for G1 or G2 points resident in device
// memory, Pippenger with signed (Booth) window digits, a counting sort of (bucket, point) entries on the GPU,
// XYZZ buckets filled by mixed additions in fixed-size chunks (so skewed scalars cannot unbalance the
// threads), and a parallel running-sum reduction of the buckets; the window combination runs on the GPU too,
// so the result is a single point written where the caller asks, with no host step.
//
// Enqueue-only: every call only enqueues work on the caller's stream (no synchronisation, no allocation); the
// caller owns the scratch memory, sized by scratch_bytes(), and reads the result once the stream has passed
// the call (an event, a stream callback). Without the CUDA backend the engine can be built (sizes are plain
// arithmetic) but enqueueing throws Error(Errc::cuda).
//
// Groth16 split (options.split_zero_one): witness scalars are mostly 0 and 1. A GPU pass classifies them:
// zeros are dropped, +-1 (1 and r - 1) are summed by a parallel batch addition, and only the rest go through
// Pippenger. The counts stay on the device, so the call still never synchronises.
//
// Precomputed windows (options.precomputed), for points that many MSMs use (a resident proving key): the
// engine reads a table of windows() blocks of n points, block w holding 2^(c w)·P_i, made once by
// enqueue_table_g1/g2. Every window then adds into one shared set of buckets, so the bucket reduction runs
// once instead of once per window and the windows need no doublings to combine; the cost model picks wider
// windows (fewer bucket additions) for it. The table costs windows() times the points' memory.
//
// One engine per curve: BasicMsmEngine<Bls12_381> (MsmEngine) and BasicMsmEngine<Bn254> take that curve's
// points and scalars (arith/curves.hpp); the kernels are the same source instantiated for each.
#pragma once

#include <cstddef>
#include <memory>

#include <proofline/arith/curves.hpp>

struct CUstream_st;

namespace proofline::cuda {

enum class MsmGroup { g1, g2 };

/// How the scalars are stored: Montgomery form (Fr's own representation, as the witness is in our code) or
/// canonical integers below r in Fr's limbs (Fr::montgomery() of the value read as an integer). Either
/// curve's Fr.
enum class ScalarForm { montgomery, canonical };

struct MsmOptions {
  ScalarForm scalar_form = ScalarForm::montgomery;
  /// The Groth16 fast path (see above). Costs one classification pass; pays when many scalars are 0 or +-1.
  bool split_zero_one = false;
  /// For the window choice and the sort's passes: how many scalars are expected to go through Pippenger (0:
  /// all of max_points; with the split, half of them for the passes).
  std::size_t expected_dense = 0;
  /// Window width in bits (2..22); 0 picks it from the cost model.
  int window_bits = 0;
  /// Precomputed windows (see above): `points` of every enqueue_msm are a table from enqueue_table.
  bool precomputed = false;
};

/// The plan of one device, curve, group and maximum size: window width, scratch layout. Cheap to build,
/// immutable, safe to share between threads; enqueues on different streams need different scratch buffers.
/// C is Bls12_381 or Bn254 (instantiated for both).
template <class C>
class BasicMsmEngine {
 public:
  using Fr = typename C::Fr;
  using G1Affine = typename C::G1Affine;
  using G1Jacobian = typename C::G1Jacobian;
  using G2Affine = typename C::G2Affine;
  using G2Jacobian = typename C::G2Jacobian;

  /// `device`: the CUDA device the calls run on (-1: the current one). Throws Error(invalid_argument) for
  /// max_points == 0 or above 2^28 (precomputed: a table of more than 2^31 - 1 points), or a window width out
  /// of range.
  BasicMsmEngine(MsmGroup group, std::size_t max_points, const MsmOptions& options = {}, int device = -1);
  ~BasicMsmEngine();
  BasicMsmEngine(BasicMsmEngine&&) noexcept;
  BasicMsmEngine& operator=(BasicMsmEngine&&) noexcept;
  BasicMsmEngine(const BasicMsmEngine&) = delete;
  BasicMsmEngine& operator=(const BasicMsmEngine&) = delete;

  MsmGroup group() const noexcept;
  std::size_t max_points() const noexcept;
  const MsmOptions& options() const noexcept;
  int window_bits() const noexcept;
  int windows() const noexcept;
  /// Device bytes of scratch one enqueue needs (256-byte aligned start).
  std::size_t scratch_bytes() const noexcept;

  /// Enqueues *result = sum_{i < n} scalars[i]·points[i] on `stream`. points, scalars and scratch are device
  /// memory; result is device memory or pinned (page-locked) host memory, written when the stream reaches the
  /// end of this call's work. Points may be the all-zero infinity encoding; n <= max_points (n = 0 gives
  /// infinity). Throws Error(invalid_argument) for a wrong group or n, Error(cuda) on a CUDA failure.
  void enqueue_msm_g1(const G1Affine* points, const Fr* scalars, std::size_t n, G1Jacobian* result,
                      void* scratch, CUstream_st* stream) const;
  void enqueue_msm_g2(const G2Affine* points, const Fr* scalars, std::size_t n, G2Jacobian* result,
                      void* scratch, CUstream_st* stream) const;

  /// Shared scalar work, for several point sets over the same scalars (a Groth16 job's A, B1 in G1 and B2
  /// in G2 all take the witness): enqueue_sort runs the scalar phases (the Groth16 split, digits, counting
  /// sort) of n scalars into `scratch`, then each enqueue_sorted_msm_g1/g2 runs the point phases for one
  /// point set of n points, on this engine or any engine that shares_sort() with it, with the same scratch;
  /// nothing else may use that scratch in between. Same contract and errors as enqueue_msm otherwise.
  void enqueue_sort(const Fr* scalars, std::size_t n, void* scratch, CUstream_st* stream) const;
  void enqueue_sorted_msm_g1(const G1Affine* points, std::size_t n, G1Jacobian* result, void* scratch,
                             CUstream_st* stream) const;
  void enqueue_sorted_msm_g2(const G2Affine* points, std::size_t n, G2Jacobian* result, void* scratch,
                             CUstream_st* stream) const;
  /// Whether scalars sorted by `other` can be used by this engine's sorted MSMs: the same device, capacity,
  /// scalar form, split, window plan and placement of the sorted arrays in the scratch (as a G1 and a G2
  /// engine made with the same size and options have).
  bool shares_sort(const BasicMsmEngine& other) const noexcept;

  /// Precomputed mode: the points of the table for MSMs of n points (windows()·n).
  std::size_t table_points(std::size_t n) const noexcept;
  /// Device bytes of work space that enqueue_table needs for n points (at most 2^20 XYZZ points: the table
  /// is built a chunk at a time).
  std::size_t table_scratch_bytes(std::size_t n) const noexcept;
  /// Precomputed mode: enqueues the table of `points` (n <= max_points, device memory) into `table`
  /// (table_points(n) points of device memory; `table` may equal `points`, whose n points are then its first
  /// block already), using `scratch` (table_scratch_bytes(n), 256-byte aligned) as work space. MSMs over it
  /// must take the same n. Throws Error(invalid_argument) for an engine that is not precomputed, a wrong
  /// group or n.
  void enqueue_table_g1(const G1Affine* points, std::size_t n, G1Affine* table, void* scratch,
                        CUstream_st* stream) const;
  void enqueue_table_g2(const G2Affine* points, std::size_t n, G2Affine* table, void* scratch,
                        CUstream_st* stream) const;

 private:
  struct Plan;
  std::unique_ptr<Plan> plan_;
};

extern template class BasicMsmEngine<Bls12_381>;
extern template class BasicMsmEngine<Bn254>;

/// BLS12-381's engine (the pipeline's GPU backend).
using MsmEngine = BasicMsmEngine<Bls12_381>;

}  // namespace proofline::cuda
