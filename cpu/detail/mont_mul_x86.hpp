// Internal: host-only Montgomery multiplication of 4- and 6-limb field elements with the x86-64 carry
// instructions (mulx from BMI2, adcx/adox from ADX), for the CPU prover's hot loops. Two carry chains run
// side by side (adox through OF for the low words of the products, adcx through CF for the high words), which
// the portable CIOS of arith/mont_field.hpp cannot express in C++. Callers must have checked
// carry_instructions_enabled(); the portable code stays the reference and the fallback.
//
// CIOS without the extra carry word, as the portable code: valid for moduli below 2^(64N − 1) (a spare top
// bit), so every intermediate fits in N + 1 words and each round ends below 2p. The operands' limbs are
// separate asm inputs ("rm": the compiler keeps them in registers where it can instead of spilling whole
// elements to memory for the asm to read, which costs more latency than the carry instructions save) and the
// modulus' limbs are read from static memory, so no register holds a pointer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

// The asm needs fifteen general registers at once; sanitized builds keep too few free (clang refuses the
// 6-limb product under ASan, GCC under TSan), so they, like other targets, have the portable products alone.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PL_MULX_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PL_MULX_SANITIZED 1
#endif
#if defined(__x86_64__) && !defined(__CUDACC__) && !defined(PL_MULX_SANITIZED)
#define PL_MULX_ASM 1
#include <immintrin.h>
#else
#define PL_MULX_ASM 0
#endif

namespace proofline::cpu::detail {

/// Whether this CPU runs mulx, adcx and adox and this build has the products that use them (checked once per
/// process; false where PL_MULX_ASM is 0).
bool cpu_has_mulx_adx();

/// cpu_has_mulx_adx() unless PROOFLINE_CPU_MULX=0 is in the environment (read once per process): whether the
/// CPU backend's MSM and NTT use the mulx twins of the fields (the variable times the portable path in the
/// same binary).
bool carry_instructions_enabled();

/// Whether mont_mul_mulx exists for fields of `limbs` limbs on this build.
constexpr bool mulx_supported_limbs(std::size_t limbs) {
#if PL_MULX_ASM
  return limbs == 4 || limbs == 6;
#else
  static_cast<void>(limbs);
  return false;
#endif
}

/// F's modulus and −p^(−1) mod 2^64 as static words the asm reads by address.
template <class F>
struct MulxConstants {
  static constexpr typename F::Int p = F::modulus;
  static constexpr std::uint64_t inv = F::inv;
};

#if PL_MULX_ASM

// One instruction per line reads best in the asm templates.
// clang-format off
// t_lo += low word of rdx·src, t_hi += its high word, each on its own carry chain.
#define PL_MULX_STEP(src, t_lo, t_hi)    \
  "mulxq %[" src "], %[lo], %[hi]\n\t" \
  "adoxq %[lo], %[" t_lo "]\n\t"        \
  "adcxq %[hi], %[" t_hi "]\n\t"

// Multiplier setup and the reduction's m = t0·inv: rdx holds the word every step of the pass multiplies by.
#define PL_MULX_PASS_B(bi) "movq %[" bi "], %%rdx\n\t" "xorl %k[zero], %k[zero]\n\t"
#define PL_MULX_PASS_M(t0) "movq %[" t0 "], %%rdx\n\t" "imulq %[inv], %%rdx\n\t" "xorl %k[zero], %k[zero]\n\t"
#define PL_MULX_CLOSE(top) "adoxq %[zero], %[" top "]\n\t"

// One round for 4 limbs: t += a·b_i into five words t0..t4 (t4 zero on entry), then t += m·p, which clears
// t0; the next round reads t1..t4 as its t0..t3 and the cleared t0 as its t4.
#define PL_MULX_ROUND4(bi, t0, t1, t2, t3, t4)                                                        \
  PL_MULX_PASS_B(bi)                                                                                 \
  PL_MULX_STEP("a0", t0, t1) PL_MULX_STEP("a1", t1, t2) PL_MULX_STEP("a2", t2, t3)                   \
  PL_MULX_STEP("a3", t3, t4) PL_MULX_CLOSE(t4)                                                       \
  PL_MULX_PASS_M(t0)                                                                                 \
  PL_MULX_STEP("p0", t0, t1) PL_MULX_STEP("p1", t1, t2) PL_MULX_STEP("p2", t2, t3)                   \
  PL_MULX_STEP("p3", t3, t4) PL_MULX_CLOSE(t4)

// For 6 limbs the operands' limbs are read through pointers (a, b): one asm takes at most 30 operands.
#define PL_MULX_ROUND6(bi, t0, t1, t2, t3, t4, t5, t6)                                                \
  "movq " bi "(%[b]), %%rdx\n\t" "xorl %k[zero], %k[zero]\n\t"                                    \
  PL_MULX_STEP("a0", t0, t1) PL_MULX_STEP("a1", t1, t2) PL_MULX_STEP("a2", t2, t3)                   \
  PL_MULX_STEP("a3", t3, t4) PL_MULX_STEP("a4", t4, t5) PL_MULX_STEP("a5", t5, t6)                   \
  PL_MULX_CLOSE(t6)                                                                                  \
  PL_MULX_PASS_M(t0)                                                                                 \
  PL_MULX_STEP("p0", t0, t1) PL_MULX_STEP("p1", t1, t2) PL_MULX_STEP("p2", t2, t3)                   \
  PL_MULX_STEP("p3", t3, t4) PL_MULX_STEP("p4", t4, t5) PL_MULX_STEP("p5", t5, t6)                   \
  PL_MULX_CLOSE(t6)
// clang-format on

/// out = t − p when that does not borrow, else t (t < 2p).
template <std::size_t N>
inline __attribute__((always_inline)) void mulx_reduce_once(std::uint64_t* out, const std::uint64_t (&t)[N],
                                                            const std::uint64_t* p) {
  unsigned long long s[N];  // the intrinsic's own type: std::uint64_t is unsigned long, a distinct type
  unsigned char borrow = 0;
  for (std::size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, t[i], p[i], &s[i]);
  for (std::size_t i = 0; i < N; ++i) out[i] = borrow ? t[i] : s[i];
}

/// out = a·b·2^(−64N) mod p for a, b < p < 2^(64N − 1), p = F::modulus (N = F::N limbs). out may alias a or
/// b (it is written after the last read).
template <class F, std::size_t N = F::N>
inline __attribute__((always_inline)) void mont_mul_mulx(std::uint64_t (&out)[N], const std::uint64_t (&a)[N],
                                                         const std::uint64_t (&b)[N]) {
  static_assert(N == F::N && (N == 4 || N == 6));
  using C = MulxConstants<F>;
  // Round i leaves its result in the N + 1 registers after its t0, which is zero: the names rotate.
  std::uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, lo, hi, zero;
  if constexpr (N == 4) {
    asm(PL_MULX_ROUND4("b0", "r0", "r1", "r2", "r3", "r4")  //
        PL_MULX_ROUND4("b1", "r1", "r2", "r3", "r4", "r0")  //
        PL_MULX_ROUND4("b2", "r2", "r3", "r4", "r0", "r1")  //
        PL_MULX_ROUND4("b3", "r3", "r4", "r0", "r1", "r2")
        : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4), [lo] "=&r"(lo),
          [hi] "=&r"(hi), [zero] "=&r"(zero)
        : [a0] "rm"(a[0]), [a1] "rm"(a[1]), [a2] "rm"(a[2]), [a3] "rm"(a[3]), [b0] "rm"(b[0]),
          [b1] "rm"(b[1]), [b2] "rm"(b[2]), [b3] "rm"(b[3]), [p0] "m"(C::p.limb[0]), [p1] "m"(C::p.limb[1]),
          [p2] "m"(C::p.limb[2]), [p3] "m"(C::p.limb[3]), [inv] "m"(C::inv)
        : "rdx", "cc");
    const std::uint64_t t[4] = {r4, r0, r1, r2};
    mulx_reduce_once<4>(out, t, C::p.limb);
  } else {
    std::uint64_t r5, r6;
    // The accumulators are cleared inside the asm: read-write operands would count twice toward the limit.
    asm("xorl %k[r0], %k[r0]\n\txorl %k[r1], %k[r1]\n\txorl %k[r2], %k[r2]\n\txorl %k[r3], %k[r3]\n\t"
        "xorl %k[r4], %k[r4]\n\txorl %k[r5], %k[r5]\n\txorl %k[r6], %k[r6]\n\t"  //
        PL_MULX_ROUND6("0", "r0", "r1", "r2", "r3", "r4", "r5", "r6")            //
        PL_MULX_ROUND6("8", "r1", "r2", "r3", "r4", "r5", "r6", "r0")            //
        PL_MULX_ROUND6("16", "r2", "r3", "r4", "r5", "r6", "r0", "r1")           //
        PL_MULX_ROUND6("24", "r3", "r4", "r5", "r6", "r0", "r1", "r2")           //
        PL_MULX_ROUND6("32", "r4", "r5", "r6", "r0", "r1", "r2", "r3")           //
        PL_MULX_ROUND6("40", "r5", "r6", "r0", "r1", "r2", "r3", "r4")
        : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4), [r5] "=&r"(r5),
          [r6] "=&r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi), [zero] "=&r"(zero)
        : [a0] "rm"(a[0]), [a1] "rm"(a[1]), [a2] "rm"(a[2]), [a3] "rm"(a[3]), [a4] "rm"(a[4]),
          [a5] "rm"(a[5]), [b] "r"(&b[0]),
          "m"(b), [p0] "m"(C::p.limb[0]), [p1] "m"(C::p.limb[1]), [p2] "m"(C::p.limb[2]),
          [p3] "m"(C::p.limb[3]), [p4] "m"(C::p.limb[4]), [p5] "m"(C::p.limb[5]), [inv] "m"(C::inv)
        : "rdx", "cc");
    const std::uint64_t t[6] = {r6, r0, r1, r2, r3, r4};
    mulx_reduce_once<6>(out, t, C::p.limb);
  }
}

#undef PL_MULX_ROUND6
#undef PL_MULX_ROUND4
#undef PL_MULX_CLOSE
#undef PL_MULX_PASS_M
#undef PL_MULX_PASS_B
#undef PL_MULX_STEP

#else

template <class>
inline constexpr bool kNoMulx = false;

/// Not available on this target: callers test mulx_supported_limbs first, so this is never instantiated.
template <class F, std::size_t N = F::N>
void mont_mul_mulx(std::uint64_t (&)[N], const std::uint64_t (&)[N], const std::uint64_t (&)[N]) {
  static_assert(kNoMulx<F>, "no mulx on this target");
}

#endif

}  // namespace proofline::cpu::detail
