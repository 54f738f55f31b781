// The BN254 curve parameter u, from which p, r, the Miller loop length 6u + 2 and the final exponentiation
// derive (BLS12-381's z lives in arith/curve_params.hpp).
#pragma once

#include <cstdint>

#include <proofline/arith/bigint.hpp>

namespace proofline::bn254 {

/// u = 4965661367192848881 (positive): p = 36u^4 + 36u^3 + 24u^2 + 6u + 1 and r = 36u^4 + 36u^3 + 18u^2 +
/// 6u + 1 (checked in tests).
inline constexpr std::uint64_t ate_u = 4965661367192848881;

/// 6u + 2, the optimal ate Miller loop length (65 bits).
inline constexpr BigInt<2> ate_loop_count = [] {
  const detail::uint128 value = detail::uint128{ate_u} * 6 + 2;
  BigInt<2> out;
  out.limb[0] = static_cast<std::uint64_t>(value);
  out.limb[1] = static_cast<std::uint64_t>(value >> 64);
  return out;
}();

/// p mod r = 6u^2 (p - r = 6u^2 < r): the eigenvalue of the twist's Frobenius psi on G2 (checked in tests).
inline constexpr BigInt<2> g2_psi_eigenvalue = [] {
  const detail::uint128 value = detail::uint128{ate_u} * ate_u * 6;
  BigInt<2> out;
  out.limb[0] = static_cast<std::uint64_t>(value);
  out.limb[1] = static_cast<std::uint64_t>(value >> 64);
  return out;
}();

}  // namespace proofline::bn254
