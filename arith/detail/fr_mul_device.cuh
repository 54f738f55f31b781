// Device arithmetic for Fr tuned for sm_90: 32-bit limbs and PTX carry chains (the integer multiplier is
// 32 bits wide, so 64-bit limbs would only be split again, and emulated 64-bit carries cost extra ALU work).
//
// Multiplication is CIOS over eight 32-bit rows with the partial products split into two accumulators:
// products a_j·x with even j land on (lo, hi) = (even, odd) positions, odd j on (odd, even), so each row is
// two independent carry chains of 8 multiply-adds. E holds positions 0..7, O positions 1..8 (O[k] at k+1).
// After a row's reduction the value is divided by 2^32; instead of moving limbs, the arrays swap roles: O
// becomes the position-0 accumulator (plus E[1], whose carry the next odd chain absorbs) and E, read two
// limbs up, becomes the position-1 one.
//
// r has the low 64 bits 0xffffffff00000001, so the Montgomery constant -r^-1 mod 2^32 is 0xffffffff and each
// row's quotient is m = -t0. The products m·r0 and m·r1 then need no multiplier: t0 + m·r0 = z·2^32 with
// z = (t0 != 0), and m·r1 = m·2^32 − m contributes t0 at position 1 and m − z at position 2. That leaves
// 6 of 8 reduction products per row: 224 multiply-adds per multiplication instead of 256 (+8 quotients).
//
// The result equals the host's (both are the unique fully reduced Montgomery product); tests/gpu checks it.
#pragma once

#include <cstdint>

#include <proofline/arith/config.hpp>
#include <proofline/arith/mont_field.hpp>

namespace proofline {

struct FrParams;

namespace detail {

/// The primitive carry-chain operations. `Ops` is PtxCarryOps on the device; a host test substitutes an
/// emulation with an explicit carry flag to check the algorithm itself.
struct PtxCarryOps {
#if defined(__CUDA_ARCH__)
  // clang-format off
  __device__ __forceinline__ void mul_lo(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm("mul.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void mul_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void mad_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) { asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); }
  __device__ __forceinline__ void madc_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) { asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); }
  __device__ __forceinline__ void madc_hi_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) { asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); }
  __device__ __forceinline__ void madc_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) { asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); }
  __device__ __forceinline__ void add_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void addc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void addc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void sub_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void subc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  __device__ __forceinline__ void subc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); }
  // clang-format on
#endif
};

namespace fr32 {

// r in 32-bit limbs, least significant first.
inline constexpr std::uint32_t p0 = 0x00000001u, p1 = 0xffffffffu, p2 = 0xfffe5bfeu, p3 = 0x53bda402u,
                               p4 = 0x09a1d805u, p5 = 0x3339d808u, p6 = 0x299d7d48u, p7 = 0x73eda753u;

/// One Montgomery reduction row on (E aligned at position 0, O at position 1): adds m·r with m = −E[0].
template <class Ops>
PL_HD_INLINE void reduce_row(Ops& ops, std::uint32_t* e, std::uint32_t* o) {
  const std::uint32_t t0 = e[0];
  const std::uint32_t m = 0u - t0;
  const std::uint32_t z = t0 != 0u ? 1u : 0u;
  const std::uint32_t w = m - z;
  ops.add_cc(o[0], o[0], t0);  // lo(m·r1) = t0 at position 1
  ops.addc_cc(o[1], o[1], w);  // hi(m·r1) = m − z at position 2
  ops.madc_lo_cc(o[2], m, p3, o[2]);
  ops.madc_hi_cc(o[3], m, p3, o[3]);
  ops.madc_lo_cc(o[4], m, p5, o[4]);
  ops.madc_hi_cc(o[5], m, p5, o[5]);
  ops.madc_lo_cc(o[6], m, p7, o[6]);
  ops.madc_hi(o[7], m, p7, o[7]);
  ops.add_cc(e[1], e[1], z);  // t0 + m·r0 = z·2^32: e[0] is now zero and never read again
  ops.madc_lo_cc(e[2], m, p2, e[2]);
  ops.madc_hi_cc(e[3], m, p2, e[3]);
  ops.madc_lo_cc(e[4], m, p4, e[4]);
  ops.madc_hi_cc(e[5], m, p4, e[5]);
  ops.madc_lo_cc(e[6], m, p6, e[6]);
  ops.madc_hi_cc(e[7], m, p6, e[7]);
  ops.addc(o[7], o[7], 0u);  // position 8
}

/// Adds x·a after a reduction: `o` (old position-1 accumulator) becomes the position-0 one, `e` (old position
/// 0, whose e[0] is zero) becomes the position-1 one read two limbs up.
template <class Ops>
PL_HD_INLINE void multiply_row(Ops& ops, std::uint32_t* e, std::uint32_t* o, const std::uint32_t* a,
                               std::uint32_t x) {
  ops.add_cc(o[0], o[0], e[1]);  // the carry goes to position 1: the first odd product below takes it
  ops.madc_lo_cc(e[0], a[1], x, e[2]);
  ops.madc_hi_cc(e[1], a[1], x, e[3]);
  ops.madc_lo_cc(e[2], a[3], x, e[4]);
  ops.madc_hi_cc(e[3], a[3], x, e[5]);
  ops.madc_lo_cc(e[4], a[5], x, e[6]);
  ops.madc_hi_cc(e[5], a[5], x, e[7]);
  ops.madc_lo_cc(e[6], a[7], x, 0u);
  ops.madc_hi(e[7], a[7], x, 0u);
  ops.mad_lo_cc(o[0], a[0], x, o[0]);
  ops.madc_hi_cc(o[1], a[0], x, o[1]);
  ops.madc_lo_cc(o[2], a[2], x, o[2]);
  ops.madc_hi_cc(o[3], a[2], x, o[3]);
  ops.madc_lo_cc(o[4], a[4], x, o[4]);
  ops.madc_hi_cc(o[5], a[4], x, o[5]);
  ops.madc_lo_cc(o[6], a[6], x, o[6]);
  ops.madc_hi_cc(o[7], a[6], x, o[7]);
  ops.addc(e[7], e[7], 0u);  // position 8
}

/// Subtracts r once if x >= r (x < 2r): the borrow of x − r selects between the two, without branches.
template <class Ops>
PL_HD_INLINE void reduce_once(Ops& ops, std::uint32_t* out, const std::uint32_t* x) {
  std::uint32_t t[8], mask;
  ops.sub_cc(t[0], x[0], p0);
  ops.subc_cc(t[1], x[1], p1);
  ops.subc_cc(t[2], x[2], p2);
  ops.subc_cc(t[3], x[3], p3);
  ops.subc_cc(t[4], x[4], p4);
  ops.subc_cc(t[5], x[5], p5);
  ops.subc_cc(t[6], x[6], p6);
  ops.subc_cc(t[7], x[7], p7);
  ops.subc(mask, 0u, 0u);  // all ones when x < r
  PL_UNROLL for (int k = 0; k < 8; ++k) out[k] = (x[k] & mask) | (t[k] & ~mask);
}

/// out = a·b·2^-256 mod r for fully reduced a, b (out may alias a or b).
template <class Ops>
PL_HD_INLINE void mont_mul(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  std::uint32_t u[8], v[8];  // the two accumulators; which one is at position 0 alternates per row
  PL_UNROLL for (int k = 0; k < 4; ++k) {
    ops.mul_lo(u[2 * k], a[2 * k], b[0]);
    ops.mul_hi(u[2 * k + 1], a[2 * k], b[0]);
    ops.mul_lo(v[2 * k], a[2 * k + 1], b[0]);
    ops.mul_hi(v[2 * k + 1], a[2 * k + 1], b[0]);
  }
  reduce_row(ops, u, v);
  PL_UNROLL for (int i = 1; i < 8; i += 2) {
    multiply_row(ops, u, v, a, b[i]);  // v now at position 0, u at position 1
    reduce_row(ops, v, u);
    if (i + 1 < 8) {
      multiply_row(ops, v, u, a, b[i + 1]);
      reduce_row(ops, u, v);
    }
  }
  // After row 7, v is at position 0 (v[0] is zero) and u at position 1: the value is u + (v >> 32) < 2r.
  std::uint32_t x[8];
  ops.add_cc(x[0], u[0], v[1]);
  ops.addc_cc(x[1], u[1], v[2]);
  ops.addc_cc(x[2], u[2], v[3]);
  ops.addc_cc(x[3], u[3], v[4]);
  ops.addc_cc(x[4], u[4], v[5]);
  ops.addc_cc(x[5], u[5], v[6]);
  ops.addc_cc(x[6], u[6], v[7]);
  ops.addc(x[7], u[7], 0u);
  reduce_once(ops, out, x);
}

/// out = a + b mod r.
template <class Ops>
PL_HD_INLINE void mod_add(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  std::uint32_t x[8];
  ops.add_cc(x[0], a[0], b[0]);
  PL_UNROLL for (int k = 1; k < 7; ++k) ops.addc_cc(x[k], a[k], b[k]);
  ops.addc(x[7], a[7], b[7]);  // a + b < 2r < 2^256: no carry out
  reduce_once(ops, out, x);
}

/// out = a − b mod r.
template <class Ops>
PL_HD_INLINE void mod_sub(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  std::uint32_t x[8], mask;
  ops.sub_cc(x[0], a[0], b[0]);
  PL_UNROLL for (int k = 1; k < 8; ++k) ops.subc_cc(x[k], a[k], b[k]);
  ops.subc(mask, 0u, 0u);  // all ones when a < b: add r back
  ops.add_cc(out[0], x[0], p0 & mask);
  ops.addc_cc(out[1], x[1], p1 & mask);
  ops.addc_cc(out[2], x[2], p2 & mask);
  ops.addc_cc(out[3], x[3], p3 & mask);
  ops.addc_cc(out[4], x[4], p4 & mask);
  ops.addc_cc(out[5], x[5], p5 & mask);
  ops.addc_cc(out[6], x[6], p6 & mask);
  ops.addc(out[7], x[7], p7 & mask);
}

/// 64-bit limbs (MontField's layout) to and from 32-bit limbs: on the device both are the same registers.
PL_HD_INLINE void split_limbs(std::uint32_t* out, const std::uint64_t* in) {
  PL_UNROLL for (int k = 0; k < 4; ++k) {
    out[2 * k] = static_cast<std::uint32_t>(in[k]);
    out[2 * k + 1] = static_cast<std::uint32_t>(in[k] >> 32);
  }
}
PL_HD_INLINE void join_limbs(std::uint64_t* out, const std::uint32_t* in) {
  PL_UNROLL for (int k = 0; k < 4; ++k) out[k] =
      (static_cast<std::uint64_t>(in[2 * k + 1]) << 32) | in[2 * k];
}

}  // namespace fr32

#if defined(__CUDACC__)
/// MontField<FrParams> on the device: operator*, + and − come here (see DeviceFieldOps in mont_field.hpp).
template <>
struct DeviceFieldOps<FrParams> {
  __device__ __forceinline__ static void mul(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[8], y[8], z[8];
    fr32::split_limbs(x, a);
    fr32::split_limbs(y, b);
    PtxCarryOps ops;
    fr32::mont_mul(ops, z, x, y);
    fr32::join_limbs(out, z);
  }
  __device__ __forceinline__ static void add(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[8], y[8], z[8];
    fr32::split_limbs(x, a);
    fr32::split_limbs(y, b);
    PtxCarryOps ops;
    fr32::mod_add(ops, z, x, y);
    fr32::join_limbs(out, z);
  }
  __device__ __forceinline__ static void sub(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[8], y[8], z[8];
    fr32::split_limbs(x, a);
    fr32::split_limbs(y, b);
    PtxCarryOps ops;
    fr32::mod_sub(ops, z, x, y);
    fr32::join_limbs(out, z);
  }
};
#endif

}  // namespace detail

}  // namespace proofline
