// The BLS12-381 scalar field Fr (r, 255 bits). Groth16 witnesses, NTT data and MSM scalars live here.
#pragma once

#include <proofline/arith/mont_field.hpp>

namespace proofline {

struct FrParams {
  static constexpr std::size_t limbs = 4;
  static constexpr BigInt<4> modulus =
      BigInt<4>::from_hex("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
};

using Fr = MontField<FrParams>;
static_assert(sizeof(Fr) == 32);

/// r - 1 = 2^32 * t with t odd: NTT domains up to 2^32 exist.
inline constexpr unsigned fr_two_adicity = 32;

}  // namespace proofline

#if defined(__CUDACC__)
#include <proofline/arith/detail/mont_field_device.cuh>

namespace proofline::detail {
/// Fr's operators in device code: 32-bit limbs and PTX carry chains (squared() multiplies).
template <>
struct DeviceFieldOps<FrParams> : MontFieldDeviceOps<FrParams> {};
}  // namespace proofline::detail
#endif
