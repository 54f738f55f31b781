// The BN254 (alt_bn128, circom's bn128) base field Fp (p, 254 bits): coordinates of G1 points and the
// coefficients of BN254's Fp2. Same MontField template as BLS12-381's fields; only the Params differ.
#pragma once

#include <proofline/arith/mont_field.hpp>

namespace proofline::bn254 {

struct FpParams {
  static constexpr std::size_t limbs = 4;
  /// 21888242871839275222246405745257275088696311157297823662689037894645226208583 = 36u^4 + 36u^3 + 24u^2 +
  /// 6u + 1 for u = curve_params.hpp's ate_u (checked in tests).
  static constexpr BigInt<4> modulus =
      BigInt<4>::from_hex("0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47");
};

using Fp = MontField<FpParams>;
static_assert(sizeof(Fp) == 32);

}  // namespace proofline::bn254

#if defined(__CUDACC__)
#include <proofline/arith/detail/mont_field_device.cuh>

namespace proofline::detail {
/// BN254 Fp's operators in device code: the same limb-generic 32-bit code as BLS12-381's Fp (8 limbs here).
template <>
struct DeviceFieldOps<bn254::FpParams> : MontFieldDeviceOps<bn254::FpParams>,
                                         MontFieldDeviceSqr<bn254::FpParams>,
                                         MontFieldDeviceProductDifference<bn254::FpParams> {};
}  // namespace proofline::detail
#endif
