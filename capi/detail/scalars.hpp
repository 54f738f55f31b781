// Scalars at the boundary: canonical little-endian 32-byte integers below the key's curve's r, to and from
// our Montgomery Fr (BLS12-381's or BN254's; the same layout, another bound).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/curves.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline::capi {

/// The curve whose scalar field F is.
template <class F>
constexpr CurveId curve_of_scalar() noexcept {
  return std::is_same_v<F, bn254::Fr> ? CurveId::bn254 : CurveId::bls12_381;
}

/// "is not below r (BN254's scalar field modulus)": r alone does not say which curve's bound a value missed,
/// and a value of the other curve (BLS12-381's r is the larger) is the usual slip.
inline std::string not_below_r(CurveId curve) {
  return "is not below r (" + std::string(curve_name(curve)) + "'s scalar field modulus)";
}

/// The index of the first of `count` scalars that is not below F's r, or count when all are (in parallel for
/// long vectors).
template <class F>
std::size_t first_non_canonical(const std::uint8_t* scalars, std::size_t count) noexcept;

/// Converts `out.size()` canonical scalars (checked before) into out, in parallel for long vectors.
template <class F>
void scalars_to_fr(const std::uint8_t* scalars, std::span<F> out);

/// Writes each element as 32 canonical little-endian bytes.
template <class F>
void fr_to_scalars(std::span<const F> values, std::uint8_t* out) noexcept;

}  // namespace proofline::capi
