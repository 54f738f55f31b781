// Internal: the plain-data description of one NTT pass and of one bit-reversal launch, shared by the host
// planner (cuda/detail/ntt_plan.cpp), the CUDA kernels (cuda/kernels/detail/ntt_pass.cuh) and the host
// emulation of those kernels that the CPU tests run. Everything here is trivially copyable and passed to
// kernels by value. F is the scalar field, BLS12-381's Fr or BN254's (both four 64-bit limbs).
//
// A size-n NTT (n = 2^L) is done in P <= 3 passes over memory (four-step decomposition). A pass handles k
// consecutive bits [lo_bits, lo_bits + k) of the position index: each group of K = 2^k elements that differ
// only in those bits gets a pure K-point transform, and the diagonal D(s, lo) = w_N'^(lo·bitrev_k(s)) with
// N' = 2^(lo_bits + k) joins it to the passes below (s: the group index bits, lo: the bits below them).
// Gentleman-Sande (DIF, natural in, bit-reversed out) runs the passes from the top bits down and applies D at
// a pass's output; Cooley-Tukey (DIT, bit-reversed in, natural out) is its transpose: the passes from the
// bottom up, D at a pass's input.
//
// A block owns a tile of 2^tile_bits elements: C = 2^log_c groups (adjacent columns lo when lo_bits > 0,
// else adjacent contiguous groups) times K. The tile sits in shared memory as two planes of 16-byte halves;
// each round moves kRegs elements per thread through registers and does up to kRegBits radix-2 stages on
// them.
#pragma once

#include <cstdint>

namespace proofline::cuda::detail {

inline constexpr int kMinLogN = 10;
inline constexpr int kMaxLogN = 27;
inline constexpr int kMaxTileBits = 10;  ///< 1024 elements, 32 KiB of shared memory
inline constexpr int kRegBits = 2;       ///< log2 of the elements a thread holds in a round (radix-4 rounds)
inline constexpr int kRegs = 1 << kRegBits;
inline constexpr int kMaxRounds = (kMaxTileBits + kRegBits - 1) / kRegBits;
inline constexpr int kPowerLoBits = 14;  ///< two-level power tables: x^e = hi[e >> 14] · lo[e & 0x3fff]
/// The power tables of roots are of w_2^28 (e < 2^28), a root both curves' Fr have (two-adicity 32 and 28).
inline constexpr int kRootLogOrder = 28;

/// One round: registers 0..kRegs-1 of a thread hold the elements e_base(thread) | e_off[o]; the radix-2
/// stages pair the top register bit, then the register bits rotate left by one (the top one to bit 0) for the
/// next stage.
struct RoundPlan {
  std::uint8_t stages = 0;                        ///< 1..kRegBits radix-2 stages in this round
  std::uint8_t thread_bits = 0;                   ///< tile_bits - kRegBits
  std::uint8_t thread_pos[kMaxTileBits] = {};     ///< tile-index bit of each thread-index bit (lanes first)
  std::uint8_t log_h[kRegBits] = {};              ///< per stage: the butterfly span h = 2^log_h in the group
  std::uint16_t e_off[kRegs] = {};                ///< tile-index bits of register o
  std::uint16_t phys_off[kRegs] = {};             ///< swizzled shared-memory slot bits of register o
  std::uint16_t s_add[kRegBits][kRegs / 2] = {};  ///< per stage, group-index bits of the lower register j
};

enum class ScaleKind : std::uint8_t {
  none,
  constant,  ///< x *= constant[v]
  powers,    ///< x *= hi[v][j >> 14] · lo[j & 0x3fff], j = the element's position (or its bit reversal);
             ///< a vector whose hi[v] is null is multiplied by constant[v] instead
  table,     ///< x *= hi[v][position]: a full table of the factors in the data's order (one multiplication
             ///< instead of two, for n entries of device memory); null hi[v]: constant[v] as for powers
};

/// What the last pass of an H step does with each transformed value x besides writing it (to pw_out).
enum class Pointwise : std::uint8_t {
  none,
  ab_minus_value,  ///< pw_a[i] · pw_b[i] − x (snarkjs: x is c on the coset)
  value_times_b,   ///< x · pw_b[i] (generator 7: x is a on the coset, pw_b is b there)
  value_minus_b,   ///< x − pw_b[i] (generator 7: x is the interpolation of a·b, pw_b holds C/Z(g))
};

/// A per-element factor applied at a pass's input or output (coset shifts, 1/n, 1/Z(g)).
template <class F>
struct Scale {
  ScaleKind kind = ScaleKind::none;
  bool reversed = false;  ///< j = bitrev_L(position): the data is in bit-reversed order there (powers)
  const F* hi[3] = {};    ///< per batch vector (the full tables of ScaleKind::table)
  const F* lo = nullptr;
  F constant[3] = {};
};

template <class F>
struct PassArgs {
  F* data[3] = {};  ///< the batch, transformed in place (one grid row per vector)
  int batch = 1;

  std::uint8_t log_n = 0;
  std::uint8_t k = 0;          ///< bits handled by this pass
  std::uint8_t lo_bits = 0;    ///< bits below them
  std::uint8_t tile_bits = 0;  ///< log2 of the elements per block
  std::uint8_t log_c = 0;      ///< tile_bits - k
  std::uint8_t rounds = 0;
  bool dif = true;  ///< Gentleman-Sande (NR); false: Cooley-Tukey (RN)
  RoundPlan round[kMaxRounds];

  /// Inner twiddles and the diagonal's fallback: w^e = root_hi[e >> 14] · root_lo[e & 0x3fff], w = w_2^28 of
  /// the transform's direction.
  const F* root_hi = nullptr;
  const F* root_lo = nullptr;
  /// The diagonal as a full table, d_full[(s << lo_bits) + lo], or null. The middle pass's table has the
  /// inverse's 1/n folded in; the top pass's (when the engine built one) holds the root powers alone.
  const F* d_full = nullptr;

  Scale<F> in_scale;   ///< applied where the pass reads (first pass only)
  Scale<F> out_scale;  ///< applied where the pass writes (last pass only)

  /// Fused H pointwise (a last pass of batch 1): pw_out[i] = op(x, pw_a[i], pw_b[i]).
  Pointwise pw_op = Pointwise::none;
  const F* pw_a = nullptr;
  const F* pw_b = nullptr;
  F* pw_out = nullptr;
};

/// Blocks of a pass launch per vector.
template <class F>
inline std::uint32_t pass_blocks(const PassArgs<F>& args) {
  return static_cast<std::uint32_t>((std::uint64_t{1} << args.log_n) >> args.tile_bits);
}

/// In-place bit reversal of n = 2^log_n elements (log_n >= 10) in tiles of 32 x 32.
template <class F>
struct BitrevArgs {
  F* data[3] = {};
  int batch = 1;
  std::uint8_t log_n = 0;
};

inline constexpr int kBitrevTileLog = 5;  ///< tiles of 2^5 x 2^5 elements: 1 KiB runs in both directions

}  // namespace proofline::cuda::detail
