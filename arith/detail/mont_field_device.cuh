// The device operations of a MontField on 32-bit limbs and PTX carry chains, for a field header to opt into
// (see DeviceFieldOps in mont_field.hpp), as fp.hpp does under __CUDACC__:
//
//   template <>
//   struct DeviceFieldOps<FpParams> : MontFieldDeviceOps<FpParams>, MontFieldDeviceSqr<FpParams> {};
//
// The limb-generic algorithms (limbs32::mont_mul and its neighbours) take all they need from the Params, so a
// new field is that one line. Each function splits MontField's 64-bit limbs into 32-bit ones and joins the
// result back; on the device both are the same registers, so this costs no instruction.
#pragma once

#include <cstdint>

#include <proofline/arith/detail/limbs32.hpp>
#include <proofline/arith/detail/mod_add_limbs32.hpp>
#include <proofline/arith/detail/mont_mul_limbs32.hpp>
#include <proofline/arith/detail/mont_sqr_limbs32.hpp>
#include <proofline/arith/detail/product_difference_limbs32.hpp>
#include <proofline/arith/detail/ptx_carry_ops.cuh>

namespace proofline::detail {

/// operator*, + and − of MontField<Params> on the device.
template <class Params>
struct MontFieldDeviceOps {
  using L = Limbs32<Params>;

  __device__ __forceinline__ static void mul(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[L::kLimbs], y[L::kLimbs], z[L::kLimbs];
    L::split_limbs(x, a);
    L::split_limbs(y, b);
    PtxCarryOps ops;
    limbs32::mont_mul<L>(ops, z, x, y);
    L::join_limbs(out, z);
  }
  __device__ __forceinline__ static void add(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[L::kLimbs], y[L::kLimbs], z[L::kLimbs];
    L::split_limbs(x, a);
    L::split_limbs(y, b);
    PtxCarryOps ops;
    limbs32::mod_add<L>(ops, z, x, y);
    L::join_limbs(out, z);
  }
  __device__ __forceinline__ static void sub(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[L::kLimbs], y[L::kLimbs], z[L::kLimbs];
    L::split_limbs(x, a);
    L::split_limbs(y, b);
    PtxCarryOps ops;
    limbs32::mod_sub<L>(ops, z, x, y);
    L::join_limbs(out, z);
  }
};

/// squared() of MontField<Params> on the device: a dedicated squaring (limbs32::mont_sqr) instead of mul.
template <class Params>
struct MontFieldDeviceSqr {
  using L = Limbs32<Params>;

  /// a^2 (squared() passes a twice; the second operand is not read).
  __device__ __forceinline__ static void sqr(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t*) {
    std::uint32_t x[L::kLimbs], z[L::kLimbs];
    L::split_limbs(x, a);
    PtxCarryOps ops;
    limbs32::mont_sqr<L>(ops, z, x);
    L::join_limbs(out, z);
  }
};

/// MontField::product_difference on the device: a·b − c·d with one reduction (fields where the XYZZ point
/// formulas run: the curves' base fields).
template <class Params>
struct MontFieldDeviceProductDifference {
  using L = Limbs32<Params>;

  __device__ __forceinline__ static void product_difference(std::uint64_t* out, const std::uint64_t* a,
                                                            const std::uint64_t* b, const std::uint64_t* c,
                                                            const std::uint64_t* d) {
    std::uint32_t x[L::kLimbs], y[L::kLimbs], u[L::kLimbs], v[L::kLimbs], z[L::kLimbs];
    L::split_limbs(x, a);
    L::split_limbs(y, b);
    L::split_limbs(u, c);
    L::split_limbs(v, d);
    PtxCarryOps ops;
    limbs32::mont_product_difference<L>(ops, z, x, y, u, v);
    L::join_limbs(out, z);
  }
};

}  // namespace proofline::detail
