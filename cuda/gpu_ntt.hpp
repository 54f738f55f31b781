// NTTs over Fr and Groth16's H polynomial on one CUDA device, enqueued on the caller's stream.
//
// Semantics are those of the CPU reference (cpu/ntt.hpp, cpu/h_poly.hpp) for the same Domain,
// bit for bit. One engine per scalar field: BasicNttEngine<Fr> (NttEngine, BLS12-381: both HConventions)
// and BasicNttEngine<bn254::Fr> (BN254: snarkjs's convention, the only one its domains have); the kernels
// are the same source instantiated for each. Sizes 2^10 .. 2^27 (H from 2^1, the smaller domains in one
// thread block). Every enqueue_* call only launches kernels
// on `stream` (no allocation, no synchronisation, no host callback); the data must stay valid until the
// stream has run them. Calls on different streams may run concurrently: the engine's tables are read-only
// after construction.
//
// This header needs no CUDA headers: a stream is passed as CUstream_st* (what cudaStream_t is). Without the
// CUDA backend (PROOFLINE_HAVE_CUDA off) the class still compiles and links, and its constructor throws
// Error(Errc::cuda, "... built without CUDA"), so callers can keep one code path and pick the CPU backend
// when cuda::device_count() is 0.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>

struct CUstream_st;

namespace proofline::cuda {

/// One transform size of one convention.
struct NttSize {
  int log_n = 0;
  HConvention convention = HConvention::generator7;
};

struct NttEngineOptions {
  int max_log_n = 27;  ///< tables are built for 2^10 .. 2^max_log_n (10..27), every convention of the field
  int tile_log = 9;    ///< log2 elements per thread block (8 to 10; passes of more bits use their own)
  /// Sizes (2^11 .. 2^max_log_n) whose top pass reads its diagonal from a precomputed table instead of
  /// multiplying each element by two root powers: one Fr multiplication an element less in that pass (about
  /// a twelfth of a 2^24 transform's), for 2^log_n x 64 bytes of device memory (both directions: 1 GiB at
  /// 2^24, 4 GiB at 2^26). Results are the same with or without.
  std::vector<NttSize> top_diagonals;
  /// Sizes (2^10 .. 2^max_log_n) whose H reads its coset scales from full tables instead of multiplying each
  /// element by two powers: one Fr multiplication an element less in the interpolations' last pass (three
  /// vectors; generator7's final interpolation too), for 2^log_n x 32 bytes of device memory in snarkjs's
  /// convention and x 64 bytes in generator7's (512 MiB / 1 GiB at 2^24). Results are the same.
  std::vector<NttSize> h_coset_tables;
};

/// One per device and field: owns the twiddle, coset and diagonal tables of the field's HConventions. F is
/// BLS12-381's Fr or BN254's (instantiated for both).
template <class F>
class BasicNttEngine {
 public:
  using Fr = F;
  using Domain = BasicDomain<F>;

  static constexpr int min_log_n = 10;
  static constexpr int max_log_n = 27;

  /// Builds the tables on the host and uploads them to `device`, and fills options.top_diagonals' and
  /// options.h_coset_tables' tables on the GPU (synchronises; about 0.1 GiB at 2^27 without them).
  /// Throws Error(Errc::invalid_argument) for options out of range (a full table of a convention the field
  /// does not have included), Error(Errc::cuda) for a CUDA failure.
  explicit BasicNttEngine(int device = 0, NttEngineOptions options = {});
  ~BasicNttEngine();
  BasicNttEngine(BasicNttEngine&&) noexcept;
  BasicNttEngine& operator=(BasicNttEngine&&) noexcept;
  BasicNttEngine(const BasicNttEngine&) = delete;
  BasicNttEngine& operator=(const BasicNttEngine&) = delete;

  int device() const noexcept;
  /// Device memory the tables hold (charge it to the device's VRAM budget).
  std::size_t table_bytes() const noexcept;
  /// Device memory enqueue_h needs besides a, b and c: none, everything is in place.
  static constexpr std::size_t h_scratch_bytes(int /*log_n*/) noexcept { return 0; }

  /// In-place NTT of the domain.size() elements at `data` (device memory, Montgomery form), exactly as
  /// cpu::ntt(values, domain, direction, order, coset). NR and RN need no bit-reversal pass (an inverse NR
  /// followed by a forward RN chains without one); NN and RR add one.
  /// Throws Error(Errc::invalid_argument) for a size outside 2^10..2^max_log_n, Error(Errc::cuda) when a
  /// launch fails.
  void enqueue_ntt(Fr* data, const Domain& domain, NttDirection direction, NttOrder order, bool coset,
                   CUstream_st* stream) const;

  /// Groth16's H from the evaluations a, b, c (device memory, natural order, domain.size() each), exactly as
  /// cpu::compute_h: on completion `a` holds the H scalars in natural order (generator7: the coefficients of
  /// (A·B − C)/Z; snarkjs: A·B − C on the odd coset; 6 NTTs either way, c is not evaluated on the coset in
  /// generator7's); b and c hold intermediates. The vectors transformed together go through each launch
  /// together, and the pointwise steps and all scalings are fused into the NTT passes. Domains of 2^1 .. 2^9
  /// rows (small circuits) take one thread block and no pass tables. a, b and c must not overlap.
  void enqueue_h(Fr* a, Fr* b, Fr* c, const Domain& domain, CUstream_st* stream) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class BasicNttEngine<Fr>;
extern template class BasicNttEngine<bn254::Fr>;

/// BLS12-381's engine (the pipeline's GPU backend).
using NttEngine = BasicNttEngine<Fr>;

}  // namespace proofline::cuda
