// Internal: how the GPU NTT splits a transform into passes, which tables it needs, and the PassArgs of each
// launch. Plain host C++ (no CUDA): the engine (cuda/gpu_ntt.cpp) fills the table pointers with device
// memory, the CPU tests with host memory and run the kernels' phases on the host. Templated on the scalar
// field F and instantiated for both curves' Fr in ntt_plan.cpp.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/cuda/kernels/detail/ntt_args.hpp>

namespace proofline::cuda::detail {

/// Bits per pass from the top down: as few passes as 2^10-element tiles allow, balanced (24 -> 8,8,8).
std::vector<int> default_split(int log_n);

/// The contents of every table one (convention, size) needs, on the host.
template <class F>
struct HostSizeTables {
  int log_n = 0;
  std::vector<int> split;       ///< bits per pass, top down
  int d_full_log = 0;           ///< log2 N' of the pass whose diagonal is a full table, or 0
  std::vector<F> d_full[2];     ///< [forward, inverse]; the inverse one includes 1/n
  F inv_scale;                  ///< what a plain inverse still multiplies by: 1/n, or 1 when d_full has it
  std::vector<F> coset_lo[2];   ///< g^i, g^-i for i < min(n, 2^14)
  std::vector<F> hi_coset_fwd;  ///< g^(i·2^14)
  std::vector<F> hi_coset_inv;  ///< inv_scale · g^-(i·2^14)
  std::vector<F> hi_h_a;        ///< inv_scale · g^(i·2^14): H's scaling of a after its iNTT
  std::vector<F> hi_h_bc;       ///< the same times 1/Z(g) for generator7 (b; and c in snarkjs's)
  F h_c_scale;                  ///< generator7: inv_scale / Z(g), H's scaling of c's coefficients
  std::vector<F> hi_h_down;     ///< generator7: inv_scale / Z(g) · g^-(i·2^14), for H's full down table
};

/// The root tables of one convention: w^(i·2^14) and w^i for i < 2^14, w = w_2^28 (index 0 forward, 1
/// inverse).
template <class F>
struct HostRootTables {
  std::vector<F> hi[2];
  std::vector<F> lo[2];
};

template <class F>
HostRootTables<F> build_root_tables(HConvention convention);

/// The top pass's full diagonal for direction `dir` (0 forward, 1 inverse) of a split of two or three passes:
/// entry (s << lo_bits) + lo = w_n^(lo·bitrev_k(s)), k = split[0], lo_bits = log2 n − k. The engine fills the
/// same table on the GPU (launch_diagonal_table); tests use this one.
template <class F>
std::vector<F> build_top_diagonal(const HostRootTables<F>& roots, std::span<const int> split, int dir);

/// `split` overrides the default (tests use it to run three passes at small sizes).
template <class F>
HostSizeTables<F> build_size_tables(const BasicDomain<F>& domain, std::span<const int> split = {});

/// A full table of powers for data in bit-reversed order (ScaleKind::table): entry pos = hi[j >> 14] ·
/// lo[j & 0x3fff], j = bitrev_(log_n)(pos). H's up table is (hi_h_a, coset_lo[0]), generator7's down table
/// (hi_h_down, coset_lo[1]). The engine fills the same tables on the GPU (launch_power_table); tests use
/// this one.
template <class F>
std::vector<F> build_reversed_powers(const F* hi, const F* lo, int log_n);

/// The tables of the one-block H of domains below the four-step transform's (2^1 .. 2^9 rows, see
/// ntt_small_h.hpp), on the host.
template <class F>
struct HostSmallHTables {
  std::vector<F> roots[2];  ///< w_n^e for e < n/2: [0] forward, [1] inverse
  std::vector<F> up;        ///< g^j / n
  std::vector<F> down;      ///< generator7: g^-j / (n·Z(g)); empty in snarkjs's convention
};

template <class F>
HostSmallHTables<F> build_small_h_tables(const BasicDomain<F>& domain);

/// Pointers to one (convention, size)'s tables wherever they live (device memory for the engine).
template <class F>
struct SizeTableView {
  int log_n = 0;
  std::vector<int> split;
  int d_full_log = 0;
  const F* d_full[2] = {};
  /// The top pass's diagonal (N' = n) as full tables, or null: that pass then multiplies once an element
  /// instead of twice (root_hi · root_lo).
  const F* d_top[2] = {};
  const F* root_hi[2] = {};
  const F* root_lo[2] = {};
  F inv_scale;
  const F* coset_lo[2] = {};
  const F* hi_coset_fwd = nullptr;
  const F* hi_coset_inv = nullptr;
  const F* hi_h_a = nullptr;
  const F* hi_h_bc = nullptr;
  F h_c_scale;
  const F* hi_h_down = nullptr;
  /// H's coset scales as full tables in bit-reversed order, or null (two multiplications an element):
  /// h_up[pos] = inv_scale · g^j for the interpolations of a, b (and snarkjs's c), h_down[pos] = inv_scale
  /// · g^-j / Z(g) for generator7's final interpolation, j = bitrev(pos). generator7 needs both.
  const F* h_up = nullptr;
  const F* h_down = nullptr;
};

/// One transform (all its passes) of the vectors `data` (1 to 3, in place): Gentleman-Sande (natural in,
/// bit-reversed out) when dif, else Cooley-Tukey (bit-reversed in, natural out). first_in scales the
/// input of the first pass, last_out the output of the last one. tile_bits: the preferred tile (the engine
/// uses 9).
template <class F>
std::vector<PassArgs<F>> plan_transform(const SizeTableView<F>& tables, std::span<F* const> data,
                                        NttDirection direction, bool dif, const Scale<F>& first_in,
                                        const Scale<F>& last_out, int tile_bits = kMaxTileBits);

/// The scale factors of the standard transforms (coset shifts and 1/n), for the element order at that point.
template <class F>
Scale<F> coset_forward_scale(const SizeTableView<F>& tables, bool reversed);
template <class F>
Scale<F> inverse_scale(const SizeTableView<F>& tables, bool coset, bool reversed);

/// One kernel launch of a transform sequence: an NTT pass (args.dif picks the kernel) or a bit reversal.
template <class F>
struct Launch {
  bool is_pass = true;
  PassArgs<F> pass;
  BitrevArgs<F> bitrev;
};

/// A standard transform of one vector in place (NN and RR add a bit-reversal launch).
template <class F>
std::vector<Launch<F>> plan_ntt(const SizeTableView<F>& tables, F* data, NttDirection direction,
                                NttOrder order, bool coset, int tile_bits = kMaxTileBits);

/// Groth16's H from the evaluations a, b, c (natural order) in the tables' convention; the result lands in
/// a (see NttEngine::enqueue_h). The vectors transformed together share each launch; the pointwise steps
/// are fused into last passes. snarkjs: a·b − c on the coset (6 transforms). generator7: 6 transforms, not
/// 7: c is never evaluated on the coset, because (A·B − C)/Z interpolated from the coset equals the
/// interpolation of A·B/Z(g) minus C/Z(g) (Z is the constant Z(g) there and C has degree below n), so the
/// last pass of the final inverse subtracts c's scaled coefficients.
template <class F>
std::vector<Launch<F>> plan_h(const SizeTableView<F>& tables, HConvention convention, F* a, F* b, F* c,
                              int tile_bits = kMaxTileBits);

}  // namespace proofline::cuda::detail
