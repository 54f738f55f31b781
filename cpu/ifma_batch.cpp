// Batch-affine additions eight at a time with AVX-512 IFMA (detail/ifma_batch.hpp). Every function that uses
// AVX-512 carries the target attribute itself, so this file needs no global compiler flag and nothing in it
// runs on a CPU without IFMA (callers check ifma_enabled() first).
#include <proofline/cpu/detail/ifma_batch.hpp>

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
// GCC 12's AVX-512 shift intrinsics pass _mm512_undefined_epi32() as an unused merge source, which its
// -Wuninitialized reports (GCC bug 105593, fixed in 13): a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#define PL_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define PL_IFMA_INLINE PL_IFMA_TARGET __attribute__((always_inline)) inline
#endif

namespace proofline::cpu::detail {

#if defined(__x86_64__)

namespace {

constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;

/// 52-bit limb j of a little-endian multi-word integer of `words` 64-bit words.
std::uint64_t limb52(const std::uint64_t* w, std::size_t words, std::size_t j) {
  const std::size_t bit = 52 * j, q = bit / 64, s = bit % 64;
  std::uint64_t v = q < words ? w[q] >> s : 0;
  if (s > 12 && q + 1 < words) v |= w[q + 1] << (64 - s);
  return v & kMask52;
}

/// The modulus in the lanes' form. L = 52-bit limbs (5 for N = 4, 8 for N = 6); the Montgomery reduction
/// takes L − 1 steps of 52 bits and a last one of `last_bits`, 64 N in all, so R is the library's 2^(64 N).
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
    for (int q = 0; q < N; ++q) r_mod_p[q] = 0;
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

template <int L>
struct Vec {
  __m512i v[L];
};

/// Limbs normalised to 52 bits with signed carries; returns the carry out of the top limb.
template <int L>
PL_IFMA_INLINE __m512i normalise(Vec<L>& r) {
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i carry = _mm512_setzero_si512();
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
  for (int j = 0; j < L; ++j) s.v[j] = _mm512_sub_epi64(r.v[j], m[j]);
  const __m512i top = normalise(s);
  const __mmask8 keep_s = _mm512_cmpeq_epi64_mask(top, _mm512_setzero_si512());
  Vec<L> out;
  for (int j = 0; j < L; ++j) out.v[j] = _mm512_mask_blend_epi64(keep_s, r.v[j], s.v[j]);
  return out;
}

/// a − b mod 2p, for a, b below 2p.
template <int N, int L>
PL_IFMA_INLINE Vec<L> sub(const Lanes<N, L>& c, const Vec<L>& a, const Vec<L>& b) {
  Vec<L> r;
  for (int j = 0; j < L; ++j) r.v[j] = _mm512_add_epi64(_mm512_sub_epi64(a.v[j], b.v[j]), c.p2[j]);
  normalise(r);
  return subtract_if_not_below(r, c.p2);
}

/// a·b·2^(−64 N) mod p, below 2p, for a, b below 2p.
template <int N, int L>
PL_IFMA_INLINE Vec<L> mul(const Lanes<N, L>& c, const Vec<L>& a, const Vec<L>& b) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i t[2 * L + 1];
  for (int k = 0; k < 2 * L + 1; ++k) t[k] = zero;
  for (int i = 0; i < L; ++i) {
    for (int j = 0; j < L; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], a.v[i], b.v[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a.v[i], b.v[j]);
    }
    __m512i q = _mm512_madd52lo_epu64(zero, _mm512_and_si512(t[i], mask), c.pinv);
    if (i == L - 1)
      q = _mm512_and_si512(
          q, _mm512_set1_epi64(static_cast<long long>((std::uint64_t{1} << Lanes<N, L>::last_bits) - 1)));
    for (int j = 0; j < L; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], q, c.p[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], q, c.p[j]);
    }
    if (i < L - 1) t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
  }
  // The low 52 (L − 1) + last_bits bits are zero now: normalise from limb L − 1 up and shift them out.
  __m512i carry = zero;
  for (int k = L - 1; k < 2 * L + 1; ++k) {
    const __m512i v = _mm512_add_epi64(t[k], carry);
    t[k] = _mm512_and_si512(v, mask);
    carry = _mm512_srli_epi64(v, 52);
  }
  constexpr int shift = Lanes<N, L>::last_bits;
  Vec<L> out;
  for (int j = 0; j < L; ++j) {
    __m512i v = _mm512_srli_epi64(t[L - 1 + j], shift);
    if (shift < 52) v = _mm512_or_si512(v, _mm512_slli_epi64(t[L + j], 52 - shift));
    out.v[j] = _mm512_and_si512(v, mask);
  }
  return out;
}

/// Eight field elements (N words each) into 52-bit limbs.
template <int N, int L, class Word>
PL_IFMA_INLINE Vec<L> load(Word* const* at) {
  __m512i w[N];
  for (int q = 0; q < N; ++q)
    w[q] = _mm512_set_epi64(static_cast<long long>(at[7][q]), static_cast<long long>(at[6][q]),
                            static_cast<long long>(at[5][q]), static_cast<long long>(at[4][q]),
                            static_cast<long long>(at[3][q]), static_cast<long long>(at[2][q]),
                            static_cast<long long>(at[1][q]), static_cast<long long>(at[0][q]));
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  Vec<L> out;
  for (int j = 0; j < L; ++j) {
    const int bit = 52 * j, q = bit / 64, s = bit % 64;
    __m512i v = q < N ? _mm512_srli_epi64(w[q], static_cast<unsigned>(s)) : _mm512_setzero_si512();
    if (s > 12 && q + 1 < N)
      v = _mm512_or_si512(v, _mm512_slli_epi64(w[q + 1], static_cast<unsigned>(64 - s)));
    out.v[j] = _mm512_and_si512(v, mask);
  }
  return out;
}

/// 52-bit limbs (a value below 2^(64 N)) into 64-bit words, lane by lane.
template <int N, int L>
PL_IFMA_INLINE void to_words(const Vec<L>& x, std::uint64_t (*words)[8]) {
  for (int q = 0; q < N; ++q) {
    const int bit = 64 * q, j = bit / 52, s = bit % 52;
    __m512i v = _mm512_srli_epi64(x.v[j], static_cast<unsigned>(s));
    if (j + 1 < L) v = _mm512_or_si512(v, _mm512_slli_epi64(x.v[j + 1], static_cast<unsigned>(52 - s)));
    if (104 - s < 64 && j + 2 < L)
      v = _mm512_or_si512(v, _mm512_slli_epi64(x.v[j + 2], static_cast<unsigned>(104 - s)));
    _mm512_storeu_si512(words[q], v);
  }
}

/// Stores eight values, reduced below p here.
template <int N, int L>
PL_IFMA_INLINE void store(const Lanes<N, L>& c, const Vec<L>& x, std::uint64_t* const* at) {
  alignas(64) std::uint64_t words[N][8];
  to_words<N, L>(subtract_if_not_below(x, c.p), words);
  for (int lane = 0; lane < 8; ++lane)
    for (int q = 0; q < N; ++q) at[lane][q] = words[q][lane];
}

/// An element of Fp (D = 1) or Fp2 = Fp[u]/(u^2 + 1) (D = 2), eight lanes.
template <int L, int D>
struct Elem {
  Vec<L> c[D];
};

template <int N, int L>
PL_IFMA_INLINE Vec<L> add(const Lanes<N, L>& c, const Vec<L>& a, const Vec<L>& b) {
  Vec<L> r;
  for (int j = 0; j < L; ++j) r.v[j] = _mm512_add_epi64(a.v[j], b.v[j]);
  normalise(r);
  return subtract_if_not_below(r, c.p2);
}

template <int N, int L, int D>
PL_IFMA_INLINE Elem<L, D> sub(const Lanes<N, L>& c, const Elem<L, D>& a, const Elem<L, D>& b) {
  Elem<L, D> r;
  for (int k = 0; k < D; ++k) r.c[k] = sub(c, a.c[k], b.c[k]);
  return r;
}

/// Fp2: Karatsuba, (a0 + a1 u)(b0 + b1 u) = a0 b0 − a1 b1 + ((a0 + a1)(b0 + b1) − a0 b0 − a1 b1) u.
template <int N, int L, int D>
PL_IFMA_INLINE Elem<L, D> mul(const Lanes<N, L>& c, const Elem<L, D>& a, const Elem<L, D>& b) {
  Elem<L, D> r;
  if constexpr (D == 1) {
    r.c[0] = mul(c, a.c[0], b.c[0]);
  } else {
    const Vec<L> v0 = mul(c, a.c[0], b.c[0]), v1 = mul(c, a.c[1], b.c[1]);
    const Vec<L> s = mul(c, add(c, a.c[0], a.c[1]), add(c, b.c[0], b.c[1]));
    r.c[0] = sub(c, v0, v1);
    r.c[1] = sub(c, sub(c, s, v0), v1);
  }
  return r;
}

/// One coordinate (D components) of eight points.
template <int N, int L, int D, class Word>
PL_IFMA_INLINE Elem<L, D> load_elem(Word* const (*at)[8]) {
  Elem<L, D> r;
  for (int k = 0; k < D; ++k) r.c[k] = load<N, L>(at[k]);
  return r;
}

template <int N, int L, int D>
PL_IFMA_INLINE void store_elem(const Lanes<N, L>& c, const Elem<L, D>& x, std::uint64_t* const (*at)[8]) {
  for (int k = 0; k < D; ++k) store<N, L>(c, x.c[k], at[k]);
}

/// An element kept in (or fetched from) the scratch rows.
template <int L, int D>
PL_IFMA_INLINE void keep(__m512i* to, const Elem<L, D>& x) {
  for (int k = 0; k < D; ++k)
    for (int j = 0; j < L; ++j) _mm512_storeu_si512(to + k * L + j, x.c[k].v[j]);
}
template <int L, int D>
PL_IFMA_INLINE Elem<L, D> fetch(const __m512i* from) {
  Elem<L, D> x;
  for (int k = 0; k < D; ++k)
    for (int j = 0; j < L; ++j) x.c[k].v[j] = _mm512_loadu_si512(from + k * L + j);
  return x;
}

template <int N, int L, int D>
PL_IFMA_TARGET void add_batch(const IfmaModulus& modulus, const BatchPoints& points, std::size_t count,
                              InvertEight invert, std::uint64_t* scratch) {
  const Lanes<N, L> c(modulus.p);
  const std::size_t rows = (count + 7) / 8;
  // Lanes past `count` add a dummy point (x = 1) to a dummy bucket (the origin): a nonzero denominator.
  std::uint64_t zeros[N] = {}, one64[N] = {};
  std::uint64_t dummy_bucket[2][D][N] = {};
  {
    alignas(64) std::uint64_t one_words[N][8];
    Vec<L> one;
    for (int j = 0; j < L; ++j) one.v[j] = c.one[j];
    to_words<N, L>(one, one_words);
    for (int q = 0; q < N; ++q) one64[q] = one_words[q][0];
  }
  // The eight entries of row r (dummies past `count`): [x or y][component][lane].
  struct Row {
    std::uint64_t* bucket[2][D][8];
    const std::uint64_t* point[2][D][8];
  };
  const auto row = [&](std::size_t r) {
    Row out;
    for (std::size_t lane = 0; lane < 8; ++lane) {
      const std::size_t k = 8 * r + lane;
      const bool real = k < count;
      for (int xy = 0; xy < 2; ++xy)
        for (int part = 0; part < D; ++part) {
          out.bucket[xy][part][lane] = real ? points.bucket[xy][part][k] : dummy_bucket[xy][part];
          out.point[xy][part][lane] =
              real ? points.point[xy][part][k] : (xy == 0 && part == 0 ? one64 : zeros);
        }
    }
    return out;
  };
  // Per row: the prefix product before it and its denominator, D·L vectors each.
  __m512i* prefix = reinterpret_cast<__m512i*>(scratch);
  __m512i* denominators = prefix + rows * D * L;

  Elem<L, D> product;
  for (int k = 0; k < D; ++k)
    for (int j = 0; j < L; ++j) product.c[k].v[j] = k == 0 ? c.one[j] : _mm512_setzero_si512();
  for (std::size_t r = 0; r < rows; ++r) {
    const Row e = row(r);
    const Elem<L, D> d = sub(c, load_elem<N, L, D>(e.point[0]), load_elem<N, L, D>(e.bucket[0]));
    keep<L, D>(prefix + r * D * L, product);
    keep<L, D>(denominators + r * D * L, d);
    product = mul(c, product, d);
  }

  // The eight chains' totals, inverted by the caller, back into lanes.
  std::uint64_t totals[8 * D * N];
  for (int k = 0; k < D; ++k) {
    alignas(64) std::uint64_t words[N][8];
    to_words<N, L>(subtract_if_not_below(product.c[k], c.p), words);
    for (int lane = 0; lane < 8; ++lane)
      for (int q = 0; q < N; ++q) totals[(lane * D + k) * N + q] = words[q][lane];
  }
  invert(totals);
  const std::uint64_t* total_at[D][8];
  for (int k = 0; k < D; ++k)
    for (int lane = 0; lane < 8; ++lane) total_at[k][lane] = totals + (lane * D + k) * N;
  Elem<L, D> inverse = load_elem<N, L, D>(total_at);

  for (std::size_t r = rows; r-- > 0;) {
    const Row e = row(r);
    const Elem<L, D> before = fetch<L, D>(prefix + r * D * L), d = fetch<L, D>(denominators + r * D * L);
    const Elem<L, D> d_inverse = mul(c, inverse, before);
    inverse = mul(c, inverse, d);
    const Elem<L, D> x1 = load_elem<N, L, D>(e.bucket[0]), y1 = load_elem<N, L, D>(e.bucket[1]);
    const Elem<L, D> x2 = load_elem<N, L, D>(e.point[0]), y2 = load_elem<N, L, D>(e.point[1]);
    const Elem<L, D> lambda = mul(c, sub(c, y2, y1), d_inverse);
    const Elem<L, D> x3 = sub(c, sub(c, mul(c, lambda, lambda), x1), x2);
    const Elem<L, D> y3 = sub(c, mul(c, lambda, sub(c, x1, x3)), y1);
    store_elem<N, L, D>(c, x3, e.bucket[0]);
    store_elem<N, L, D>(c, y3, e.bucket[1]);
  }
}

}  // namespace

bool ifma_enabled() {
  static const bool use = [] {
    const char* setting = std::getenv("PROOFLINE_CPU_IFMA");
    if (setting && std::strcmp(setting, "0") == 0) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
  }();
  return use;
}

std::size_t ifma_scratch_words(std::size_t count, std::size_t limbs64, std::size_t degree) {
  const std::size_t limbs52 = limbs64 == 4 ? 5 : 8;
  return 2 * ((count + 7) / 8) * degree * limbs52 * 8;
}

void ifma_add_batch(const IfmaModulus& modulus, const BatchPoints& points, std::size_t count,
                    InvertEight invert, std::uint64_t* scratch) {
  if (count == 0) return;
  if (modulus.limbs64 == 4)
    points.degree == 1 ? add_batch<4, 5, 1>(modulus, points, count, invert, scratch)
                       : add_batch<4, 5, 2>(modulus, points, count, invert, scratch);
  else
    points.degree == 1 ? add_batch<6, 8, 1>(modulus, points, count, invert, scratch)
                       : add_batch<6, 8, 2>(modulus, points, count, invert, scratch);
}

#else  // not x86-64: never enabled

bool ifma_enabled() {
  return false;
}
std::size_t ifma_scratch_words(std::size_t, std::size_t, std::size_t) {
  return 0;
}
void ifma_add_batch(const IfmaModulus&, const BatchPoints&, std::size_t, InvertEight, std::uint64_t*) {}

#endif

}  // namespace proofline::cpu::detail
