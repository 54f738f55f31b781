// Multi-scalar multiplication on the CPU: result = Σ scalars[i]·points[i] in G1 or G2, TBB-parallel. It is
// the CPU backend's MSM (CPU Groth16 prover, the pipeline's CPU backend) and the reference the GPU MSM is
// tested against.
//
// Algorithm (Pippenger with signed digits, detail/msm_digits.hpp):
//   - scalars arrive in Montgomery form and are converted to canonical integers; the abs trick replaces s by
//     r − s (negating the point) when s > (r − 1)/2, so |s| < 2^254 and W = ceil(255/c) windows of at most c
//     bits suffice; the 255 bits are shared out evenly, so no window is much narrower than the others (each
//     window is a pass over all the points, whatever its width);
//   - each window's digit is read Booth-style from its bits plus the bit below, giving digits in
//     [−2^(c−1), 2^(c−1)] with no carry between windows, so every window is independent; a negative digit
//     subtracts the point (the mixed addition negates y for free). 2^(c−1) buckets per window of c bits;
//   - work is split into tasks (window, chunk of points), each with its own buckets, reduced to Σ j·B_j; the
//     task results of a window are added, and the windows combined Horner-style;
//   - buckets are filled either by XYZZ mixed additions (8M + 2S) or in affine form with batched additions
//     that share one inversion per batch (Montgomery's trick, about 6M per addition; eight at a time on
//     AVX-512 IFMA where the CPU has it); a point for a bucket already waiting in the current batch waits for
//     a later batch. Affine buckets are also reduced in batches (segments of buckets advanced side by side),
//     XYZZ buckets by running sums.
//
// Window rule (msm_plan in detail/msm_digits.hpp): the width c and the number of chunks k minimise a cost
// model of the slowest thread: ceil(W·k / T) rounds of one task each, a task costing (m / k) bucket additions
// plus the reduction of its buckets, for m dense scalars, W windows and T threads, with measured costs of
// each kind of addition and of an inversion (the bucket kind is picked by the same model). On 2 threads with
// IFMA it gives c = 11 at m = 2^12, 12 at 2^14, 13 at 2^16 and 16 at 2^20, with batch-affine buckets
// throughout; on 16 threads c = 12 with 2 chunks at 2^16, 16 at 2^20.
//
// Groth16 fast path (MsmOptions::split_zero_one, on by default): zero scalars and points at infinity are
// dropped, the points of scalars 1 and r − 1 are summed directly (±P, pairwise batched affine additions in
// parallel blocks), and only the rest goes through the windows. It never costs more than the windows: a ±1
// scalar has a single nonzero digit, so the windows would spend one addition on it too (all of them into one
// hot bucket), where the split spends a cheaper batched one, drops the scalar from every window's pass, and
// sizes the windows by the remaining scalars alone. It pays on witnesses, which are mostly 0 and 1.
//
// Field arithmetic (host_carry_instructions, on by default): on x86-64 CPUs with BMI2 and ADX the whole MSM
// runs on twins of the field types whose Montgomery multiplication uses mulx/adcx/adox (two carry chains;
// detail/mont_mul_x86.hpp), for both curves' base fields (4 and 6 limbs) and G2's Fp2 over them. Elsewhere,
// or with the option off or PROOFLINE_CPU_MULX=0 in the environment (to time the portable path in the same
// binary), it runs on arith/'s portable fields. Both give the same points.
//
// Points are affine with the all-zero encoding of infinity; they must lie in G1 (resp. G2): the abs trick and
// the split use r·P = O. Results are Jacobian, like the GPU MSM's.
#pragma once

#include <cstddef>
#include <span>

#include <proofline/arith/bn254/g1.hpp>
#include <proofline/arith/bn254/g2.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

namespace proofline::cpu {

/// How buckets are filled.
enum class MsmBuckets {
  automatic,     ///< batch affine where the cost model prefers it (wide windows, enough points per task)
  xyzz,          ///< XYZZ mixed additions only
  batch_affine,  ///< affine buckets with batched inversions (any width; slow for narrow windows)
};

struct MsmOptions {
  /// Groth16 fast path (see above).
  bool split_zero_one = true;
  /// Window width c in bits, 1..kMsmMaxWindowBits; 0 picks it by the window rule.
  unsigned window_bits = 0;
  /// Chunks of points per window (each with its own buckets), 1..2^16; 0 picks them with the window.
  unsigned chunks = 0;
  MsmBuckets buckets = MsmBuckets::automatic;
  /// mulx/adcx/adox field multiplication where the CPU has it (see above).
  bool host_carry_instructions = true;
};

/// Whether MSMs with host_carry_instructions set use the mulx path here: the CPU has BMI2 and ADX and
/// PROOFLINE_CPU_MULX is not 0 (both read once per process).
bool msm_uses_carry_instructions();

inline constexpr unsigned kMsmMaxWindowBits = 24;

/// Σ scalars[i]·points[i]; infinity for empty input. Throws Error(invalid_argument) when the spans differ in
/// size, hold 2^31 or more elements, or the options are out of range.
G1Jacobian msm(std::span<const G1Affine> points, std::span<const Fr> scalars, const MsmOptions& options = {});
G2Jacobian msm(std::span<const G2Affine> points, std::span<const Fr> scalars, const MsmOptions& options = {});
bn254::G1Jacobian msm(std::span<const bn254::G1Affine> points, std::span<const bn254::Fr> scalars,
                      const MsmOptions& options = {});
bn254::G2Jacobian msm(std::span<const bn254::G2Affine> points, std::span<const bn254::Fr> scalars,
                      const MsmOptions& options = {});

}  // namespace proofline::cpu
