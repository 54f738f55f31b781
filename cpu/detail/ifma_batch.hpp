// Internal: batch-affine point additions eight at a time with AVX-512 IFMA (vpmadd52luq/huq: eight 52 x
// 52-bit products an instruction) for the CPU MSM's affine buckets, over prime fields of 4 or 6 64-bit limbs
// (BN254's and BLS12-381's base fields: G1) and their extensions Fp[u]/(u^2 + 1) (G2).
//
// The points stay in the library's representation: Montgomery form with R = 2^(64 N), fully reduced. The
// lanes load them into 52-bit limbs and multiply with a Montgomery reduction by the same R (52-bit steps and
// one narrower last step), so no conversion between radixes is needed; intermediate values stay below 2p and
// results are reduced below p before they are stored, so they equal the scalar flush's bit for bit. The
// shared inversion of a batch runs on eight interleaved prefix-product chains, whose eight totals the caller
// inverts (one scalar inversion for all eight).
//
// Measured on the development machine (AMD EPYC, 2 cores): a product costs 2.6 ns (BN254 Fp) and 6.6 ns
// (BLS12-381 Fp) this way against 13.9 / 26.1 ns with mulx (perf/results/ifma-probe-2core-2026-12-02/).
#pragma once

#include <cstddef>
#include <cstdint>

namespace proofline::cpu::detail {

/// Whether this CPU and OS run AVX-512F and AVX-512 IFMA code (and PROOFLINE_CPU_IFMA is not 0).
bool ifma_enabled();

/// A prime modulus of 4 or 6 64-bit limbs, prepared for the lanes.
struct IfmaModulus {
  std::size_t limbs64 = 0;  ///< N: 4 or 6
  std::uint64_t p[6] = {};  ///< the modulus, 64-bit limbs, least significant first
};

/// Inverts eight field elements in place (8 x degree x N limbs, element by element, components c0 then c1;
/// Montgomery form, fully reduced, none zero).
using InvertEight = void (*)(std::uint64_t* values);

/// The coordinates of a batch's additions: entry k adds the point at point[x or y][component][k] to the
/// bucket at bucket[..][..][k]; each pointer addresses one base-field element's N limbs. `degree` 1:
/// coordinates in Fp (component 0 only); 2: in Fp2 = Fp[u]/(u^2 + 1), components c0 and c1.
struct BatchPoints {
  std::size_t degree = 1;
  std::uint64_t* const* bucket[2][2] = {};
  const std::uint64_t* const* point[2][2] = {};
};

/// bucket[k] += point[k] for k < count, affine points in Montgomery form, fully reduced, the x coordinates
/// different (no doubling, no P + (−P)); buckets are written in place. `scratch` holds at least
/// ifma_scratch_words(count, N, degree) words.
void ifma_add_batch(const IfmaModulus& modulus, const BatchPoints& points, std::size_t count,
                    InvertEight invert, std::uint64_t* scratch);

std::size_t ifma_scratch_words(std::size_t count, std::size_t limbs64, std::size_t degree);

}  // namespace proofline::cpu::detail
