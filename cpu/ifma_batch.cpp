// Batch-affine additions eight at a time with AVX-512 IFMA (detail/ifma_batch.hpp). Every function that uses
// AVX-512 carries the target attribute itself, so this file needs no global compiler flag and nothing in it
// runs on a CPU without IFMA (callers check ifma_enabled() first).
#include <proofline/cpu/detail/ifma_batch.hpp>

#include <cstdlib>
#include <cstring>

#include <proofline/cpu/detail/ifma_lanes.hpp>

namespace proofline::cpu::detail {

#if defined(__x86_64__)

namespace {

using ifma::add;
using ifma::Lanes;
using ifma::load;
using ifma::mul;
using ifma::store;
using ifma::sub;
using ifma::subtract_if_not_below;
using ifma::to_words;
using ifma::Vec;

/// An element of Fp (D = 1) or Fp2 = Fp[u]/(u^2 + 1) (D = 2), eight lanes.
template <int L, int D>
struct Elem {
  Vec<L> c[D];
};

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
