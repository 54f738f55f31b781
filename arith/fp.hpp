// The BLS12-381 base field Fp (p, 381 bits): coordinates of G1 points, and the coefficients of Fp2.
#pragma once

#include <proofline/arith/mont_field.hpp>

namespace proofline {

struct FpParams {
  static constexpr std::size_t limbs = 6;
  static constexpr BigInt<6> modulus = BigInt<6>::from_hex(
      "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
};

using Fp = MontField<FpParams>;
static_assert(sizeof(Fp) == 48);

}  // namespace proofline

#if defined(__CUDACC__)
#include <proofline/arith/detail/mont_field_device.cuh>

namespace proofline::detail {
/// Fp's operators in device code: 32-bit limbs and PTX carry chains, with a dedicated squaring and the
/// once-reduced product difference of the point formulas.
template <>
struct DeviceFieldOps<FpParams> : MontFieldDeviceOps<FpParams>,
                                  MontFieldDeviceSqr<FpParams>,
                                  MontFieldDeviceProductDifference<FpParams> {};
}  // namespace proofline::detail
#endif
