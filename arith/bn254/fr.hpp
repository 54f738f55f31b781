// The BN254 scalar field Fr (r, 254 bits): witnesses, NTT data and MSM scalars of circom/snarkjs bn128
// circuits.
#pragma once

#include <proofline/arith/mont_field.hpp>

namespace proofline::bn254 {

struct FrParams {
  static constexpr std::size_t limbs = 4;
  /// 21888242871839275222246405745257275088548364400416034343698204186575808495617 = 36u^4 + 36u^3 + 18u^2
  /// + 6u + 1 (checked in tests).
  static constexpr BigInt<4> modulus =
      BigInt<4>::from_hex("0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");
};

using Fr = MontField<FrParams>;
static_assert(sizeof(Fr) == 32);

/// r - 1 = 2^28 * t with t odd: NTT domains up to 2^28 exist.
inline constexpr unsigned fr_two_adicity = 28;

/// The multiplicative generator of Fr* that ffjavascript (snarkjs) uses for bn128 (its Fr "nqr"); tests
/// check with GMP that it generates Fr*.
inline constexpr std::uint64_t fr_multiplicative_generator = 5;

/// 5^((r - 1) / 2^28), a primitive 2^28-th root of unity: the root ffjavascript's bn128 Fr derives from the
/// generator above, so snarkjs's domains and ours agree (tests derive it with GMP).
inline constexpr BigInt<4> fr_root_of_unity_canonical =
    BigInt<4>::from_hex("0x2a3c09f0a58a7e8500e0a7eb8ef62abc402d111e41112ed49bd61b6e725b19f0");

}  // namespace proofline::bn254

#if defined(__CUDACC__)
#include <proofline/arith/detail/mont_field_device.cuh>

namespace proofline::detail {
/// BN254 Fr's operators in device code (squared() multiplies, as for BLS12-381's Fr).
template <>
struct DeviceFieldOps<bn254::FrParams> : MontFieldDeviceOps<bn254::FrParams> {};
}  // namespace proofline::detail
#endif
