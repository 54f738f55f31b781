// Internal: Montgomery arithmetic eight lanes at a time with AVX-512 IFMA (vpmadd52luq/huq), over prime
// fields of N = 4 or 6 64-bit limbs, shared by the MSM's batch-affine additions (ifma_batch.cpp) and the NTT
// (ntt_ifma.cpp).
//
// Values stay in the library's representation in memory: Montgomery form with R = 2^(64 N), fully reduced.
// In the lanes an element is L limbs of 52 bits (5 for N = 4, 8 for N = 6), and the Montgomery reduction runs
// L − 1 steps of 52 bits and a last, narrower one, 64 N bits in all, so its R is the library's and no change
// of radix is needed. Intermediate values stay below 2p; store() reduces below p, so what reaches memory
// equals the scalar code's result bit for bit.
//
// Every function carries the target attribute itself: the includer needs no global AVX-512 flag, and must
// call nothing here unless ifma_enabled() (detail/ifma_batch.hpp) said the CPU has the instructions.
#pragma once

#if defined(__x86_64__)

#include <cstddef>
#include <cstdint>

// GCC 12's AVX-512 shift intrinsics pass _mm512_undefined_epi32() as an unused merge source, which its
// -Wuninitialized reports (GCC bug 105593, fixed in 13): a false positive, reported where the intrinsics are
// inlined into the includer, so the includer's whole translation unit ignores it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#define PL_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define PL_IFMA_INLINE PL_IFMA_TARGET __attribute__((always_inline)) inline
// The loops over limbs must be unrolled so the limbs live in registers: GCC's -O3 heuristics leave the
// product's nested loops rolled, with its accumulators in memory, which costs several times the time.
#define PL_IFMA_UNROLL _Pragma("GCC unroll 32")

namespace proofline::cpu::detail::ifma {

constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;

/// 52-bit limb j of a little-endian multi-word integer of `words` 64-bit words.
inline std::uint64_t limb52(const std::uint64_t* w, std::size_t words, std::size_t j) {
  const std::size_t bit = 52 * j, q = bit / 64, s = bit % 64;
  std::uint64_t v = q < words ? w[q] >> s : 0;
  if (s > 12 && q + 1 < words) v |= w[q + 1] << (64 - s);
  return v & kMask52;
}

/// The modulus in the lanes' form. The Montgomery reduction takes L − 1 steps of 52 bits and a last one of
/// `last_bits`, 64 N in all, so R is the library's 2^(64 N).
template <int N, int L>
struct Lanes {
  static constexpr int last_bits = 64 * N - 52 * (L - 1);
  static_assert(last_bits > 0 && last_bits <= 52, "L limbs of 52 bits cover 64 N bits");

  __m512i p[L], p2[L], one[L];
  __m512i pinv;

  PL_IFMA_TARGET explicit Lanes(const std::uint64_t* modulus) {
    std::uint64_t twice[N + 1] = {}, r_mod_p[N] = {};
    std::uint64_t carry = 0;
    for (int q = 0; q < N; ++q) {
      twice[q] = (modulus[q] << 1) | carry;
      carry = modulus[q] >> 63;
    }
    twice[N] = carry;
    // One in Montgomery form: R mod p, from R − p by subtracting p while it is not below p.
    subtract(r_mod_p, modulus);  // 2^(64 N) − p
    while (!less(r_mod_p, modulus)) subtract(r_mod_p, modulus);
    for (int j = 0; j < L; ++j) {
      p[j] = _mm512_set1_epi64(static_cast<long long>(limb52(modulus, N, static_cast<std::size_t>(j))));
      p2[j] = _mm512_set1_epi64(static_cast<long long>(limb52(twice, N + 1, static_cast<std::size_t>(j))));
      one[j] = _mm512_set1_epi64(static_cast<long long>(limb52(r_mod_p, N, static_cast<std::size_t>(j))));
    }
    // −p^-1 mod 2^52 by Newton's iteration on the low word.
    std::uint64_t inv = modulus[0];
    for (int i = 0; i < 6; ++i) inv *= 2 - modulus[0] * inv;
    pinv = _mm512_set1_epi64(static_cast<long long>((0 - inv) & kMask52));
  }

  static bool less(const std::uint64_t* a, const std::uint64_t* b) {
    for (int q = N - 1; q >= 0; --q)
      if (a[q] != b[q]) return a[q] < b[q];
    return false;
  }
  static void subtract(std::uint64_t* a, const std::uint64_t* b) {
    std::uint64_t borrow = 0;
    for (int q = 0; q < N; ++q) {
      const std::uint64_t d = a[q] - b[q];
      const std::uint64_t next = (a[q] < b[q]) | (d < borrow);
      a[q] = d - borrow;
      borrow = next;
    }
  }
};

/// Eight field elements, limb j of every lane in v[j].
template <int L>
struct Vec {
  __m512i v[L];
};

/// Limbs normalised to 52 bits with signed carries; returns the carry out of the top limb.
template <int L>
PL_IFMA_INLINE __m512i normalise(Vec<L>& r) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i carry = _mm512_setzero_si512();
  PL_IFMA_UNROLL
  for (int j = 0; j < L; ++j) {
    const __m512i v = _mm512_add_epi64(r.v[j], carry);
    r.v[j] = _mm512_and_si512(v, mask);
    carry = _mm512_srai_epi64(v, 52);
  }
  return carry;
}

/// r − m where that is not negative, else r (r < 2m).
template <int L>
PL_IFMA_INLINE Vec<L> subtract_if_not_below(const Vec<L>& r, const __m512i* m) {
  Vec<L> s;
  PL_IFMA_UNROLL
  for (int j = 0; j < L; ++j) s.v[j] = _mm512_sub_epi64(r.v[j], m[j]);
  const __m512i top = normalise(s);
  const __mmask8 keep_s = _mm512_cmpeq_epi64_mask(top, _mm512_setzero_si512());
  Vec<L> out;
  PL_IFMA_UNROLL
  for (int j = 0; j < L; ++j) out.v[j] = _mm512_mask_blend_epi64(keep_s, r.v[j], s.v[j]);
  return out;
}

/// a + b mod 2p, for a, b below 2p.
template <int N, int L>
PL_IFMA_INLINE Vec<L> add(const Lanes<N, L>& c, const Vec<L>& a, const Vec<L>& b) {
  Vec<L> r;
  PL_IFMA_UNROLL
  for (int j = 0; j < L; ++j) r.v[j] = _mm512_add_epi64(a.v[j], b.v[j]);
  normalise(r);
  return subtract_if_not_below(r, c.p2);
}

/// a − b mod 2p, for a, b below 2p.
template <int N, int L>
PL_IFMA_INLINE Vec<L> sub(const Lanes<N, L>& c, const Vec<L>& a, const Vec<L>& b) {
  Vec<L> r;
  PL_IFMA_UNROLL
  for (int j = 0; j < L; ++j) r.v[j] = _mm512_add_epi64(_mm512_sub_epi64(a.v[j], b.v[j]), c.p2[j]);
  normalise(r);
  return subtract_if_not_below(r, c.p2);
}

/// a·b·2^(−64 N) mod p, below 2p, for a·b below p·2^(64 N) (both below 2p where 4p < 2^(64 N), else one of
/// them below p).
template <int N, int L>
PL_IFMA_INLINE Vec<L> mul(const Lanes<N, L>& c, const Vec<L>& a, const Vec<L>& b) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i t[2 * L + 1];
  PL_IFMA_UNROLL
  for (int k = 0; k < 2 * L + 1; ++k) t[k] = zero;
  PL_IFMA_UNROLL
  for (int i = 0; i < L; ++i) {
    PL_IFMA_UNROLL
    for (int j = 0; j < L; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], a.v[i], b.v[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a.v[i], b.v[j]);
    }
    __m512i q = _mm512_madd52lo_epu64(zero, _mm512_and_si512(t[i], mask), c.pinv);
    if (i == L - 1)
      q = _mm512_and_si512(
          q, _mm512_set1_epi64(static_cast<long long>((std::uint64_t{1} << Lanes<N, L>::last_bits) - 1)));
    PL_IFMA_UNROLL
    for (int j = 0; j < L; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], q, c.p[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], q, c.p[j]);
    }
    if (i < L - 1) t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
  }
  // The low 52 (L − 1) + last_bits bits are zero now: normalise from limb L − 1 up and shift them out.
  __m512i carry = zero;
  PL_IFMA_UNROLL
  for (int k = L - 1; k < 2 * L + 1; ++k) {
    const __m512i v = _mm512_add_epi64(t[k], carry);
    t[k] = _mm512_and_si512(v, mask);
    carry = _mm512_srli_epi64(v, 52);
  }
  constexpr int shift = Lanes<N, L>::last_bits;
  Vec<L> out;
  PL_IFMA_UNROLL
  for (int j = 0; j < L; ++j) {
    __m512i v = _mm512_srli_epi64(t[L - 1 + j], shift);
    if (shift < 52) v = _mm512_or_si512(v, _mm512_slli_epi64(t[L + j], 52 - shift));
    out.v[j] = _mm512_and_si512(v, mask);
  }
  return out;
}

/// Eight values given as their 64-bit words (w[q]: word q of every lane) in 52-bit limbs.
template <int N, int L>
PL_IFMA_INLINE Vec<L> from_words(const __m512i* w) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  Vec<L> out;
  PL_IFMA_UNROLL
  for (int j = 0; j < L; ++j) {
    const int bit = 52 * j, q = bit / 64, s = bit % 64;
    __m512i v = q < N ? _mm512_srli_epi64(w[q], static_cast<unsigned>(s)) : _mm512_setzero_si512();
    if (s > 12 && q + 1 < N)
      v = _mm512_or_si512(v, _mm512_slli_epi64(w[q + 1], static_cast<unsigned>(64 - s)));
    out.v[j] = _mm512_and_si512(v, mask);
  }
  return out;
}

/// 52-bit limbs (a value below 2^(64 N)) as 64-bit words: w[q] gets word q of every lane.
template <int N, int L>
PL_IFMA_INLINE void to_word_vectors(const Vec<L>& x, __m512i* w) {
  PL_IFMA_UNROLL
  for (int q = 0; q < N; ++q) {
    const int bit = 64 * q, j = bit / 52, s = bit % 52;
    __m512i v = _mm512_srli_epi64(x.v[j], static_cast<unsigned>(s));
    if (j + 1 < L) v = _mm512_or_si512(v, _mm512_slli_epi64(x.v[j + 1], static_cast<unsigned>(52 - s)));
    if (104 - s < 64 && j + 2 < L)
      v = _mm512_or_si512(v, _mm512_slli_epi64(x.v[j + 2], static_cast<unsigned>(104 - s)));
    w[q] = v;
  }
}

/// Eight field elements (N words each, anywhere in memory) into 52-bit limbs.
template <int N, int L, class Word>
PL_IFMA_INLINE Vec<L> load(Word* const* at) {
  __m512i w[N];
  PL_IFMA_UNROLL
  for (int q = 0; q < N; ++q)
    w[q] = _mm512_set_epi64(static_cast<long long>(at[7][q]), static_cast<long long>(at[6][q]),
                            static_cast<long long>(at[5][q]), static_cast<long long>(at[4][q]),
                            static_cast<long long>(at[3][q]), static_cast<long long>(at[2][q]),
                            static_cast<long long>(at[1][q]), static_cast<long long>(at[0][q]));
  return from_words<N, L>(w);
}

/// 52-bit limbs (a value below 2^(64 N)) into 64-bit words, lane by lane.
template <int N, int L>
PL_IFMA_INLINE void to_words(const Vec<L>& x, std::uint64_t (*words)[8]) {
  __m512i w[N];
  to_word_vectors<N, L>(x, w);
  PL_IFMA_UNROLL
  for (int q = 0; q < N; ++q) _mm512_storeu_si512(words[q], w[q]);
}

/// Stores eight values, reduced below p here.
template <int N, int L>
PL_IFMA_INLINE void store(const Lanes<N, L>& c, const Vec<L>& x, std::uint64_t* const* at) {
  alignas(64) std::uint64_t words[N][8];
  to_words<N, L>(subtract_if_not_below(x, c.p), words);
  PL_IFMA_UNROLL
  for (int lane = 0; lane < 8; ++lane) PL_IFMA_UNROLL
  for (int q = 0; q < N; ++q) at[lane][q] = words[q][lane];
}

}  // namespace proofline::cpu::detail::ifma

#endif  // __x86_64__
