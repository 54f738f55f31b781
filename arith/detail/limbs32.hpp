// The 32-bit limb view of a Montgomery field, the parameter set of the limb-generic device arithmetic
// (mont_mul_limbs32.hpp and its neighbours). On sm_90 the integer multiplier is 32 bits wide, so 64-bit limbs
// would only be split again and their carries emulated; the device code works on twice as many 32-bit limbs.
//
// Everything is derived at compile time from the field's MontField Params (its modulus), so a new field is
// its Params alone and no hand-copied constant can hide a typo. Portable C++: the host tests run the same
// templates through an emulated carry flag.
#pragma once

#include <cstdint>

#include <proofline/arith/config.hpp>
#include <proofline/arith/mont_field.hpp>

namespace proofline::detail {

/// 32-bit limb K of Params::modulus, least significant first, as a scalar constant: device code may read a
/// constexpr scalar but not the BigInt itself.
template <class Params, int K>
inline constexpr std::uint32_t modulus_limb32 = static_cast<std::uint32_t>(Params::modulus.limb[K / 2] >>
                                                                           (32 * (K % 2)));

template <class Params>
struct Limbs32 {
  static constexpr int kLimbs = 2 * static_cast<int>(Params::limbs);

  /// -p^-1 mod 2^32: a reduction row's quotient is m = t0·kM0.
  static constexpr std::uint32_t kM0 = static_cast<std::uint32_t>(neg_inverse_mod_2_64(Params::modulus));

  /// p mod 2^64 = 2^64 - 2^32 + 1 (BLS12-381's r): then kM0 = 2^32 - 1, m = -t0, and m times the two low
  /// limbs of p needs no multiplier (reduce_row in mont_reduce_limbs32.hpp uses that).
  static constexpr bool kLowLimbsShortcut =
      modulus_limb32<Params, 0> == 1u && modulus_limb32<Params, 1> == 0xffffffffu;

  // The carry analysis of every routine here assumes a spare top bit: p < 2^(32·kLimbs - 1), so sums of two
  // reduced values and CIOS intermediates below 2p fit the limbs.
  static_assert(modulus_limb32<Params, kLimbs - 1> < (1u << 31),
                "the 32-bit limb code needs a spare top bit");

  // Two ways to read limb k of p as an immediate operand: kP<K> in runs unrolled by the front end (fold
  // expressions over an index sequence, straight-line code from the start), and p_limb(k) in PL_UNROLL loops,
  // where the unrolled constant k folds the chain of comparisons. Each routine uses the form under which the
  // NTT and MSM kernels compile best; their code is sensitive to the shape of the IR that reaches the
  // optimiser, so compare the kernels' SASS before and after changing either.

  /// Limb K of p.
  template <int K>
  static constexpr std::uint32_t kP = modulus_limb32<Params, K>;

  /// Limb k of p, for loops (see above): a chain of comparisons rather than an array, which device code could
  /// not read as constants.
  template <int K = 0>
  PL_HD_INLINE static constexpr std::uint32_t p_limb(int k) {
    if constexpr (K + 1 == kLimbs) {
      return modulus_limb32<Params, K>;
    } else {
      return k == K ? modulus_limb32<Params, K> : p_limb<K + 1>(k);
    }
  }

  /// 64-bit limbs (MontField's layout) to and from 32-bit limbs: on the device both are the same registers.
  PL_HD_INLINE static void split_limbs(std::uint32_t* out, const std::uint64_t* in) {
    PL_UNROLL for (int k = 0; k < kLimbs / 2; ++k) {
      out[2 * k] = static_cast<std::uint32_t>(in[k]);
      out[2 * k + 1] = static_cast<std::uint32_t>(in[k] >> 32);
    }
  }
  PL_HD_INLINE static void join_limbs(std::uint64_t* out, const std::uint32_t* in) {
    PL_UNROLL for (int k = 0; k < kLimbs / 2; ++k) out[k] =
        (static_cast<std::uint64_t>(in[2 * k + 1]) << 32) | in[2 * k];
  }
};

/// The Limbs32 of a MontField type, for code templated on the field (Fp2's device product, the host tests).
template <class Field>
struct Limbs32OfField;
template <class Params>
struct Limbs32OfField<MontField<Params>> {
  using type = Limbs32<Params>;
};

}  // namespace proofline::detail
