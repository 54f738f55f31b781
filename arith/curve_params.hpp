// The BLS12-381 curve parameter z, shared by the G1 and G2 subgroup checks (and the pairing's Miller loop).
#pragma once

#include <cstdint>

#include <proofline/arith/bigint.hpp>

namespace proofline {

/// z = -0xd201000000010000: r = z^4 - z^2 + 1 and p = (z - 1)^2 (z^4 - z^2 + 1) / 3 + z (checked in tests).
inline constexpr std::uint64_t bls_z_abs = 0xd201000000010000;
inline constexpr bool bls_z_is_negative = true;

inline constexpr BigInt<1> bls_z_abs_int = BigInt<1>::from_u64(bls_z_abs);

/// z^2 (positive), 128 bits.
inline constexpr BigInt<2> bls_z_squared = [] {
  BigInt<2> out;
  detail::mul_wide(bls_z_abs, bls_z_abs, out.limb[0], out.limb[1]);
  return out;
}();

}  // namespace proofline
