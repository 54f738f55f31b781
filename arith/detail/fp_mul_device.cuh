// Device arithmetic for Fp (381 bits) tuned for sm_90: twelve 32-bit limbs and PTX carry chains, the layout
// the 32-bit integer multiplier wants (64-bit limbs would be split again and their carries emulated).
//
// Multiplication is CIOS over twelve rows with the partial products split into two accumulators, as in
// fr_mul_device.cuh: the products a_j·x with even j form one run of non-overlapping 64-bit words starting at
// position 0 (accumulator E, positions 0..11), those with odd j one starting at position 1 (accumulator O,
// O[k] at position k+1), so each row is two independent carry chains of 12 multiply-adds, and the reduction
// m·p is split the same way. After the reduction E[0] is zero and the value is divided by 2^32 by
// relabelling: O becomes the position-0 accumulator (plus E[1], whose carry the next odd chain takes in) and
// E, read two limbs up, becomes the position-1 one (the odd chain's destinations do that shift as they go).
//
// p < 2^381 leaves three spare bits, so the top limbs of both accumulators stay far below 2^32: the odd
// chain's top word never carries out and the even chain's one carry lands in the odd accumulator's top limb.
// The result of CIOS is below 2p and one conditional subtraction makes it fully reduced, so it equals the
// host's MontField product bit for bit. tests/gpu_host checks the algorithm on the host with an emulated
// carry flag (and that no carry is dropped); tests/gpu checks the device against the host.
#pragma once

#include <cstdint>

#include <proofline/arith/config.hpp>
#include <proofline/arith/detail/fr_mul_device.cuh>  // PtxCarryOps
#include <proofline/arith/mont_field.hpp>

namespace proofline {

struct FpParams;

namespace detail {

namespace fp32 {

inline constexpr int kLimbs = 12;

/// p in 32-bit limbs, least significant first (tests/gpu_host checks them against FpParams::modulus). A
/// conditional chain rather than an array, so that an unrolled constant index folds to an immediate.
PL_HD_INLINE constexpr std::uint32_t p_limb(int k) {
  return k == 0    ? 0xffffaaabu
         : k == 1  ? 0xb9feffffu
         : k == 2  ? 0xb153ffffu
         : k == 3  ? 0x1eabfffeu
         : k == 4  ? 0xf6b0f624u
         : k == 5  ? 0x6730d2a0u
         : k == 6  ? 0xf38512bfu
         : k == 7  ? 0x64774b84u
         : k == 8  ? 0x434bacd7u
         : k == 9  ? 0x4b1ba7b6u
         : k == 10 ? 0x397fe69au
                   : 0x1a0111eau;
}
/// -p^-1 mod 2^32.
inline constexpr std::uint32_t kM0 = 0xfffcfffdu;

/// Adds m·p to (E at position 0, O at position 1) with m = E[0]·M0, which clears E[0].
template <class Ops>
PL_HD_INLINE void reduce_row(Ops& ops, std::uint32_t* e, std::uint32_t* o) {
  std::uint32_t m;
  ops.mul_lo(m, e[0], kM0);
  ops.mad_lo_cc(o[0], m, p_limb(1), o[0]);
  ops.madc_hi_cc(o[1], m, p_limb(1), o[1]);
  PL_UNROLL for (int k = 1; k < 5; ++k) {
    ops.madc_lo_cc(o[2 * k], m, p_limb(2 * k + 1), o[2 * k]);
    ops.madc_hi_cc(o[2 * k + 1], m, p_limb(2 * k + 1), o[2 * k + 1]);
  }
  ops.madc_lo_cc(o[10], m, p_limb(11), o[10]);
  ops.madc_hi(o[11], m, p_limb(11), o[11]);  // position 12: small, no carry out
  ops.mad_lo_cc(e[0], m, p_limb(0), e[0]);
  ops.madc_hi_cc(e[1], m, p_limb(0), e[1]);
  PL_UNROLL for (int k = 1; k < 6; ++k) {
    ops.madc_lo_cc(e[2 * k], m, p_limb(2 * k), e[2 * k]);
    ops.madc_hi_cc(e[2 * k + 1], m, p_limb(2 * k), e[2 * k + 1]);
  }
  ops.addc(o[11], o[11], 0u);  // the even chain's carry out of position 11 lands at position 12
}

/// After a reduction row (E at position 0 with E[0] = 0, O at position 1), adds a·x: O becomes the position-0
/// accumulator (taking E[1]) and E, shifted down two limbs by the odd chain's destinations, the position-1
/// one.
template <class Ops>
PL_HD_INLINE void multiply_row(Ops& ops, std::uint32_t* e, std::uint32_t* o, const std::uint32_t* a,
                               std::uint32_t x) {
  ops.add_cc(o[0], o[0], e[1]);  // position 0; its carry goes to position 1, taken by the odd chain below
  PL_UNROLL for (int k = 0; k < 5; ++k) {
    ops.madc_lo_cc(e[2 * k], a[2 * k + 1], x, e[2 * k + 2]);
    ops.madc_hi_cc(e[2 * k + 1], a[2 * k + 1], x, e[2 * k + 3]);
  }
  ops.madc_lo_cc(e[10], a[11], x, 0u);
  ops.madc_hi(e[11], a[11], x, 0u);
  ops.mad_lo_cc(o[0], a[0], x, o[0]);
  ops.madc_hi_cc(o[1], a[0], x, o[1]);
  PL_UNROLL for (int k = 1; k < 6; ++k) {
    ops.madc_lo_cc(o[2 * k], a[2 * k], x, o[2 * k]);
    ops.madc_hi_cc(o[2 * k + 1], a[2 * k], x, o[2 * k + 1]);
  }
  ops.addc(e[11], e[11], 0u);  // position 12
}

/// out = x - p if x >= p, else x (x < 2p); branch-free.
template <class Ops>
PL_HD_INLINE void reduce_once(Ops& ops, std::uint32_t* out, const std::uint32_t* x) {
  std::uint32_t t[kLimbs], mask;
  ops.sub_cc(t[0], x[0], p_limb(0));
  PL_UNROLL for (int k = 1; k < kLimbs; ++k) ops.subc_cc(t[k], x[k], p_limb(k));
  ops.subc(mask, 0u, 0u);  // all ones when x < p
  PL_UNROLL for (int k = 0; k < kLimbs; ++k) out[k] = (x[k] & mask) | (t[k] & ~mask);
}

/// out = a·b·2^-384 mod p for fully reduced a, b (out may alias a or b).
template <class Ops>
PL_HD_INLINE void mont_mul(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  std::uint32_t u[kLimbs], v[kLimbs];  // which one is the position-0 accumulator alternates per row
  PL_UNROLL for (int k = 0; k < 6; ++k) {
    ops.mul_lo(u[2 * k], a[2 * k], b[0]);
    ops.mul_hi(u[2 * k + 1], a[2 * k], b[0]);
    ops.mul_lo(v[2 * k], a[2 * k + 1], b[0]);
    ops.mul_hi(v[2 * k + 1], a[2 * k + 1], b[0]);
  }
  reduce_row(ops, u, v);
  PL_UNROLL for (int i = 1; i < kLimbs; i += 2) {
    multiply_row(ops, u, v, a, b[i]);  // v now at position 0, u at position 1
    reduce_row(ops, v, u);
    if (i + 1 < kLimbs) {
      multiply_row(ops, v, u, a, b[i + 1]);
      reduce_row(ops, u, v);
    }
  }
  // After row 11, v is at position 0 (v[0] is zero) and u at position 1: the value is u + (v >> 32) < 2p.
  std::uint32_t x[kLimbs];
  ops.add_cc(x[0], u[0], v[1]);
  PL_UNROLL for (int k = 1; k < kLimbs - 1; ++k) ops.addc_cc(x[k], u[k], v[k + 1]);
  ops.addc(x[kLimbs - 1], u[kLimbs - 1], 0u);
  reduce_once(ops, out, x);
}

/// Divides (E at position 0 with E[0] = 0, O at position 1) by 2^32 without adding a product (the reduction
/// rows of a squaring): O becomes the position-0 accumulator (taking E[1]) and E, shifted down two limbs, the
/// position-1 one; the carry out of position 0 ripples through it.
template <class Ops>
PL_HD_INLINE void shift_row(Ops& ops, std::uint32_t* e, std::uint32_t* o) {
  ops.add_cc(o[0], o[0], e[1]);
  PL_UNROLL for (int k = 0; k < kLimbs - 2; ++k) ops.addc_cc(e[k], e[k + 2], 0u);
  ops.addc(e[kLimbs - 2], 0u, 0u);
  e[kLimbs - 1] = 0u;
}

/// out = t·2^-384 mod p, fully reduced, for a 24-limb t < p·2^384: REDC(t) = REDC(t mod 2^384) + floor(t /
/// 2^384), where the first term is twelve reduction rows (as in mont_mul, without the products) and is at
/// most p and the second is below p, so one conditional subtraction finishes.
template <class Ops>
PL_HD_INLINE void redc_wide(Ops& ops, std::uint32_t* out, const std::uint32_t* t) {
  std::uint32_t u[kLimbs], v[kLimbs];  // u at position 0, v at position 1, alternating as in mont_mul
  PL_UNROLL for (int k = 0; k < kLimbs; ++k) {
    u[k] = t[k];
    v[k] = 0u;
  }
  reduce_row(ops, u, v);
  PL_UNROLL for (int i = 1; i < kLimbs; i += 2) {
    shift_row(ops, u, v);  // v now at position 0, u at position 1
    reduce_row(ops, v, u);
    if (i + 1 < kLimbs) {
      shift_row(ops, v, u);
      reduce_row(ops, u, v);
    }
  }
  // u + (v >> 32) + t_hi < 2p.
  std::uint32_t x[kLimbs];
  ops.add_cc(x[0], u[0], v[1]);
  PL_UNROLL for (int k = 1; k < kLimbs - 1; ++k) ops.addc_cc(x[k], u[k], v[k + 1]);
  ops.addc(x[kLimbs - 1], u[kLimbs - 1], 0u);
  ops.add_cc(x[0], x[0], t[kLimbs]);
  PL_UNROLL for (int k = 1; k < kLimbs - 1; ++k) ops.addc_cc(x[k], x[k], t[kLimbs + k]);
  ops.addc(x[kLimbs - 1], x[kLimbs - 1], t[2 * kLimbs - 1]);
  reduce_once(ops, out, x);
}

/// t = a·b as 24 limbs for a, b < 2^384. Two accumulators indexed by absolute position take the runs of
/// non-overlapping products: row i's products a_j b_i with even j start at position i, odd j at i + 1, and a
/// run goes to E when it starts at an even position, to O otherwise; each run's carry lands in the limb just
/// past it, which holds at most earlier runs' carries. t = E + O.
template <class Ops>
PL_HD_INLINE void mul_wide(Ops& ops, std::uint32_t* t, const std::uint32_t* a, const std::uint32_t* b) {
  constexpr int kWide = 2 * kLimbs + 1;
  std::uint32_t e[kWide], o[kWide];
  PL_UNROLL for (int k = 0; k < kWide; ++k) e[k] = o[k] = 0u;
  PL_UNROLL for (int i = 0; i < kLimbs; ++i) {
    PL_UNROLL for (int parity = 0; parity < 2; ++parity) {
      std::uint32_t* acc = ((i + parity) % 2 == 0) ? e : o;
      const int start = i + parity;
      ops.mad_lo_cc(acc[start], a[parity], b[i], acc[start]);
      ops.madc_hi_cc(acc[start + 1], a[parity], b[i], acc[start + 1]);
      PL_UNROLL for (int j = parity + 2; j < kLimbs; j += 2) {
        ops.madc_lo_cc(acc[i + j], a[j], b[i], acc[i + j]);
        ops.madc_hi_cc(acc[i + j + 1], a[j], b[i], acc[i + j + 1]);
      }
      ops.addc(acc[start + kLimbs], acc[start + kLimbs], 0u);
    }
  }
  ops.add_cc(t[0], e[0], o[0]);
  PL_UNROLL for (int k = 1; k < 2 * kLimbs - 1; ++k) ops.addc_cc(t[k], e[k], o[k]);
  ops.addc(t[2 * kLimbs - 1], e[2 * kLimbs - 1], o[2 * kLimbs - 1]);
}

/// Fp2 = Fp[u]/(u^2 + 1) product with lazy reduction (Karatsuba on unreduced products): c0 = REDC(a0 b0 - a1
/// b1
/// (+ p·2^384 when negative)), c1 = REDC((a0 + a1)(b0 + b1) - a0 b0 - a1 b1); three 24-limb products and two
/// reductions instead of three full Montgomery products. Both wide values are below p·2^384, so each REDC is
/// fully reduced: the limbs equal the host's Karatsuba in MontField.
template <class Ops>
PL_HD_INLINE void fp2_mul(Ops& ops, std::uint32_t* c0, std::uint32_t* c1, const std::uint32_t* a0,
                          const std::uint32_t* a1, const std::uint32_t* b0, const std::uint32_t* b1) {
  constexpr int kWide = 2 * kLimbs;
  std::uint32_t t0[kWide], t1[kWide], t2[kWide], sa[kLimbs], sb[kLimbs];
  mul_wide(ops, t0, a0, b0);
  mul_wide(ops, t1, a1, b1);
  // a0 + a1 and b0 + b1 below 2p < 2^382: plain sums, no reduction.
  ops.add_cc(sa[0], a0[0], a1[0]);
  PL_UNROLL for (int k = 1; k < kLimbs - 1; ++k) ops.addc_cc(sa[k], a0[k], a1[k]);
  ops.addc(sa[kLimbs - 1], a0[kLimbs - 1], a1[kLimbs - 1]);
  ops.add_cc(sb[0], b0[0], b1[0]);
  PL_UNROLL for (int k = 1; k < kLimbs - 1; ++k) ops.addc_cc(sb[k], b0[k], b1[k]);
  ops.addc(sb[kLimbs - 1], b0[kLimbs - 1], b1[kLimbs - 1]);
  mul_wide(ops, t2, sa, sb);
  // t2 = t2 - t0 - t1 = a0 b1 + a1 b0 >= 0.
  ops.sub_cc(t2[0], t2[0], t0[0]);
  PL_UNROLL for (int k = 1; k < kWide - 1; ++k) ops.subc_cc(t2[k], t2[k], t0[k]);
  ops.subc(t2[kWide - 1], t2[kWide - 1], t0[kWide - 1]);
  ops.sub_cc(t2[0], t2[0], t1[0]);
  PL_UNROLL for (int k = 1; k < kWide - 1; ++k) ops.subc_cc(t2[k], t2[k], t1[k]);
  ops.subc(t2[kWide - 1], t2[kWide - 1], t1[kWide - 1]);
  // t0 = t0 - t1, plus p·2^384 when that wrapped (the wrap and the addition's carry cancel mod 2^768).
  std::uint32_t mask;
  ops.sub_cc(t0[0], t0[0], t1[0]);
  PL_UNROLL for (int k = 1; k < kWide; ++k) ops.subc_cc(t0[k], t0[k], t1[k]);
  ops.subc(mask, 0u, 0u);
  ops.add_cc(t0[kLimbs], t0[kLimbs], p_limb(0) & mask);
  PL_UNROLL for (int k = 1; k < kLimbs - 1; ++k)
      ops.addc_cc(t0[kLimbs + k], t0[kLimbs + k], p_limb(k) & mask);
  std::uint32_t carry;
  ops.addc(carry, 0u, 0u);
  t0[kWide - 1] += (p_limb(kLimbs - 1) & mask) + carry;  // wraps on purpose when mask is set
  redc_wide(ops, c0, t0);
  redc_wide(ops, c1, t2);
}

/// out = a^2·2^-384 mod p for fully reduced a. The cross products a_i a_j (i < j) are formed once, in two
/// accumulators of non-overlapping runs (j - i odd starts at odd positions, even at even ones), doubled, and
/// the squares a_i^2 added: T = a^2 in 24 limbs with 78 products instead of 144. Then REDC(T) =
/// REDC(T mod 2^384) + floor(T / 2^384), where the first term is twelve reduction rows (as in mont_mul,
/// without the products) and is at most p, and the second is below p/8, so one conditional subtraction
/// finishes.
template <class Ops>
PL_HD_INLINE void mont_sqr(Ops& ops, std::uint32_t* out, const std::uint32_t* a) {
  constexpr int kWide = 2 * kLimbs - 1;  // positions 0..22 (E) and 1..23 (O): a^2 < 2^762
  std::uint32_t e[kWide], o[kWide];
  PL_UNROLL for (int k = 0; k < kWide; ++k) e[k] = o[k] = 0u;
  // Row i adds a_i a_j for j = i+1, i+3, ... at O index 2i (positions 2i+1..) and j = i+2, i+4, ... at E
  // index 2i+2. Each run's carry lands in the limb just past it, which holds at most earlier runs' carries.
  PL_UNROLL for (int i = 0; i < kLimbs - 1; ++i) {
    PL_UNROLL for (int j = i + 1, k = 2 * i; j < kLimbs; j += 2, k += 2) {
      if (j == i + 1) {
        ops.mad_lo_cc(o[k], a[i], a[j], o[k]);
      } else {
        ops.madc_lo_cc(o[k], a[i], a[j], o[k]);
      }
      ops.madc_hi_cc(o[k + 1], a[i], a[j], o[k + 1]);
      if (j + 2 >= kLimbs) ops.addc(o[k + 2], o[k + 2], 0u);
    }
    PL_UNROLL for (int j = i + 2, k = 2 * i + 2; j < kLimbs; j += 2, k += 2) {
      if (j == i + 2) {
        ops.mad_lo_cc(e[k], a[i], a[j], e[k]);
      } else {
        ops.madc_lo_cc(e[k], a[i], a[j], e[k]);
      }
      ops.madc_hi_cc(e[k + 1], a[i], a[j], e[k + 1]);
      if (j + 2 >= kLimbs) ops.addc(e[k + 2], e[k + 2], 0u);
    }
  }
  // t = 2 (E + O·2^32) + sum a_i^2 2^(64 i), 24 limbs.
  std::uint32_t t[2 * kLimbs];
  t[0] = 0u;
  ops.add_cc(t[1], e[1], o[0]);
  PL_UNROLL for (int k = 2; k < kWide; ++k) ops.addc_cc(t[k], e[k], o[k - 1]);
  ops.addc(t[kWide], 0u, o[kWide - 1]);
  PL_UNROLL for (int k = 2 * kLimbs - 1; k > 0; --k) t[k] = (t[k] << 1) | (t[k - 1] >> 31);
  t[0] = 0u;
  ops.mad_lo_cc(t[0], a[0], a[0], t[0]);
  ops.madc_hi_cc(t[1], a[0], a[0], t[1]);
  PL_UNROLL for (int i = 1; i < kLimbs - 1; ++i) {
    ops.madc_lo_cc(t[2 * i], a[i], a[i], t[2 * i]);
    ops.madc_hi_cc(t[2 * i + 1], a[i], a[i], t[2 * i + 1]);
  }
  ops.madc_lo_cc(t[2 * kLimbs - 2], a[kLimbs - 1], a[kLimbs - 1], t[2 * kLimbs - 2]);
  ops.madc_hi(t[2 * kLimbs - 1], a[kLimbs - 1], a[kLimbs - 1], t[2 * kLimbs - 1]);
  redc_wide(ops, out, t);
}

/// out = a + b mod p.
template <class Ops>
PL_HD_INLINE void mod_add(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  std::uint32_t x[kLimbs];
  ops.add_cc(x[0], a[0], b[0]);
  PL_UNROLL for (int k = 1; k < kLimbs - 1; ++k) ops.addc_cc(x[k], a[k], b[k]);
  ops.addc(x[kLimbs - 1], a[kLimbs - 1], b[kLimbs - 1]);  // a + b < 2p < 2^384: no carry out
  reduce_once(ops, out, x);
}

/// out = a - b mod p.
template <class Ops>
PL_HD_INLINE void mod_sub(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  std::uint32_t x[kLimbs], mask;
  ops.sub_cc(x[0], a[0], b[0]);
  PL_UNROLL for (int k = 1; k < kLimbs; ++k) ops.subc_cc(x[k], a[k], b[k]);
  ops.subc(mask, 0u, 0u);  // all ones when a < b: add p back
  ops.add_cc(out[0], x[0], p_limb(0) & mask);
  PL_UNROLL for (int k = 1; k < kLimbs - 1; ++k) ops.addc_cc(out[k], x[k], p_limb(k) & mask);
  ops.addc(out[kLimbs - 1], x[kLimbs - 1], p_limb(kLimbs - 1) & mask);
}

/// 64-bit limbs (MontField's layout) to and from 32-bit limbs: on the device both are the same registers.
PL_HD_INLINE void split_limbs(std::uint32_t* out, const std::uint64_t* in) {
  PL_UNROLL for (int k = 0; k < 6; ++k) {
    out[2 * k] = static_cast<std::uint32_t>(in[k]);
    out[2 * k + 1] = static_cast<std::uint32_t>(in[k] >> 32);
  }
}
PL_HD_INLINE void join_limbs(std::uint64_t* out, const std::uint32_t* in) {
  PL_UNROLL for (int k = 0; k < 6; ++k) out[k] =
      (static_cast<std::uint64_t>(in[2 * k + 1]) << 32) | in[2 * k];
}

}  // namespace fp32

#if defined(__CUDACC__)
/// MontField<FpParams> on the device: operator*, + and − come here (see DeviceFieldOps in mont_field.hpp).
template <>
struct DeviceFieldOps<FpParams> {
  __device__ __forceinline__ static void mul(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[fp32::kLimbs], y[fp32::kLimbs], z[fp32::kLimbs];
    fp32::split_limbs(x, a);
    fp32::split_limbs(y, b);
    PtxCarryOps ops;
    fp32::mont_mul(ops, z, x, y);
    fp32::join_limbs(out, z);
  }
  /// a^2 (squared() passes a twice; the second operand is not read).
  __device__ __forceinline__ static void sqr(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t*) {
    std::uint32_t x[fp32::kLimbs], z[fp32::kLimbs];
    fp32::split_limbs(x, a);
    PtxCarryOps ops;
    fp32::mont_sqr(ops, z, x);
    fp32::join_limbs(out, z);
  }
  __device__ __forceinline__ static void add(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[fp32::kLimbs], y[fp32::kLimbs], z[fp32::kLimbs];
    fp32::split_limbs(x, a);
    fp32::split_limbs(y, b);
    PtxCarryOps ops;
    fp32::mod_add(ops, z, x, y);
    fp32::join_limbs(out, z);
  }
  __device__ __forceinline__ static void sub(std::uint64_t* out, const std::uint64_t* a,
                                             const std::uint64_t* b) {
    std::uint32_t x[fp32::kLimbs], y[fp32::kLimbs], z[fp32::kLimbs];
    fp32::split_limbs(x, a);
    fp32::split_limbs(y, b);
    PtxCarryOps ops;
    fp32::mod_sub(ops, z, x, y);
    fp32::join_limbs(out, z);
  }
};
#endif

}  // namespace detail

}  // namespace proofline
