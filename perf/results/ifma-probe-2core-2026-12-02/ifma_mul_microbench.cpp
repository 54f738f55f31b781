// Standalone probe: Montgomery products of 8 field elements at once with AVX-512 IFMA (vpmadd52luq/huq on
// 52-bit limbs, R = 2^(52 L)) against the library's scalar products (portable MontField and the mulx twin of
// cpu/detail/mulx_field.hpp), for BN254's Fp (L = 5) and BLS12-381's Fp (L = 8). Thread CPU time per product:
// throughput (independent chains) and latency (one dependent chain). The IFMA products are checked first
// against GMP on random inputs below 2p (results are kept below 2p, as chained products allow:
// 4p < 2^(52 L)). Build from the worktree root on a CPU with AVX512F and AVX512IFMA:
//   g++ -O3 -std=c++20 -mavx512f -mavx512ifma -I build-cpu/include \
//       perf/results/ifma-probe-2core-2026-12-02/ifma_mul_microbench.cpp -lgmp -o /tmp/ifma_probe
#include <gmp.h>
#include <immintrin.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>

#include <proofline/arith/bn254/fp.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/cpu/detail/mulx_field.hpp>

namespace proofline::cpu::detail {
bool cpu_has_mulx_adx() {
  return true;
}
}  // namespace proofline::cpu::detail

using namespace proofline;

namespace {

double cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;

/// p in 52-bit limbs, broadcast, and -p^-1 mod 2^52.
template <int L>
struct IfmaModulus {
  __m512i p[L];
  __m512i pinv;
  std::uint64_t p52[L];
};

/// 8 elements, limb i of every lane in v[i].
template <int L>
struct Vec8 {
  __m512i v[L];
};

template <int L>
inline Vec8<L> mont_mul(const IfmaModulus<L>& m, const Vec8<L>& a, const Vec8<L>& b) {
  const __m512i zero = _mm512_setzero_si512(), mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  __m512i t[2 * L + 1];
  for (int i = 0; i < 2 * L + 1; ++i) t[i] = zero;
  for (int i = 0; i < L; ++i) {
    for (int j = 0; j < L; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], a.v[i], b.v[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a.v[i], b.v[j]);
    }
    const __m512i q = _mm512_madd52lo_epu64(zero, _mm512_and_si512(t[i], mask), m.pinv);
    for (int j = 0; j < L; ++j) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], q, m.p[j]);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], q, m.p[j]);
    }
    t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
  }
  Vec8<L> out;
  __m512i carry = zero;
  for (int i = 0; i < L; ++i) {
    const __m512i v = _mm512_add_epi64(t[L + i], carry);
    out.v[i] = _mm512_and_si512(v, mask);
    carry = _mm512_srli_epi64(v, 52);
  }
  return out;
}

template <int L, std::size_t N>
IfmaModulus<L> make_modulus(const BigInt<N>& modulus) {
  IfmaModulus<L> m{};
  mpz_t p, r, inv;
  mpz_inits(p, r, inv, nullptr);
  mpz_import(p, N, -1, 8, 0, 0, modulus.limb);
  for (int i = 0; i < L; ++i) {
    mpz_t limb;
    mpz_init(limb);
    mpz_fdiv_q_2exp(limb, p, 52 * i);
    mpz_fdiv_r_2exp(limb, limb, 52);
    m.p52[i] = mpz_get_ui(limb);
    m.p[i] = _mm512_set1_epi64(static_cast<long long>(m.p52[i]));
    mpz_clear(limb);
  }
  mpz_set_ui(r, 1);
  mpz_mul_2exp(r, r, 52);
  mpz_invert(inv, p, r);
  mpz_sub(inv, r, inv);  // -p^-1 mod 2^52
  m.pinv = _mm512_set1_epi64(static_cast<long long>(mpz_get_ui(inv)));
  mpz_clears(p, r, inv, nullptr);
  return m;
}

template <int L>
void to_mpz(mpz_t out, const Vec8<L>& x, int lane) {
  alignas(64) std::uint64_t limbs[8];
  mpz_set_ui(out, 0);
  for (int i = L - 1; i >= 0; --i) {
    _mm512_store_si512(limbs, x.v[i]);
    mpz_mul_2exp(out, out, 52);
    mpz_add_ui(out, out, limbs[lane]);
  }
}

/// Random lanes below 2p.
template <int L, std::size_t N>
Vec8<L> random_vec(std::mt19937_64& rng, const BigInt<N>& modulus) {
  mpz_t p, x, two_p;
  mpz_inits(p, x, two_p, nullptr);
  mpz_import(p, N, -1, 8, 0, 0, modulus.limb);
  mpz_mul_2exp(two_p, p, 1);
  alignas(64) std::uint64_t limbs[L][8];
  for (int lane = 0; lane < 8; ++lane) {
    std::uint64_t words[2 * N];
    for (auto& w : words) w = rng();
    mpz_import(x, 2 * N, -1, 8, 0, 0, words);
    mpz_mod(x, x, two_p);
    for (int i = 0; i < L; ++i) {
      mpz_t limb;
      mpz_init(limb);
      mpz_fdiv_q_2exp(limb, x, 52 * i);
      mpz_fdiv_r_2exp(limb, limb, 52);
      limbs[i][lane] = mpz_get_ui(limb);
      mpz_clear(limb);
    }
  }
  Vec8<L> v;
  for (int i = 0; i < L; ++i) v.v[i] = _mm512_load_si512(limbs[i]);
  mpz_clears(p, x, two_p, nullptr);
  return v;
}

template <class F, int L>
void run(const char* name) {
  using M = cpu::detail::MulxField<F>;
  constexpr std::size_t N = F::N;
  const IfmaModulus<L> m = make_modulus<L>(F::modulus);
  std::mt19937_64 rng(42);

  // Check: result = a·b·2^(-52 L) mod p, and below 2p.
  long bad = 0;
  mpz_t p, ea, eb, got, want, rinv, two_p;
  mpz_inits(p, ea, eb, got, want, rinv, two_p, nullptr);
  mpz_import(p, N, -1, 8, 0, 0, F::modulus.limb);
  mpz_mul_2exp(two_p, p, 1);
  mpz_set_ui(rinv, 1);
  mpz_mul_2exp(rinv, rinv, 52 * L);
  mpz_invert(rinv, rinv, p);
  for (int round = 0; round < 20000; ++round) {
    const Vec8<L> a = random_vec<L>(rng, F::modulus), b = random_vec<L>(rng, F::modulus);
    const Vec8<L> c = mont_mul(m, a, b);
    for (int lane = 0; lane < 8; ++lane) {
      to_mpz<L>(ea, a, lane);
      to_mpz<L>(eb, b, lane);
      to_mpz<L>(got, c, lane);
      mpz_mul(want, ea, eb);
      mpz_mul(want, want, rinv);
      mpz_mod(want, want, p);
      const bool below_2p = mpz_cmp(got, two_p) < 0;
      mpz_mod(got, got, p);
      if (!below_2p || mpz_cmp(got, want) != 0) ++bad;
    }
  }
  mpz_clears(p, ea, eb, got, want, rinv, two_p, nullptr);

  // Scalar products: 4 independent chains.
  auto rnd = [&] {
    typename F::Int v;
    for (auto& l : v.limb) l = rng();
    v.limb[N - 1] &= F::modulus.limb[N - 1];
    while (!(v < F::modulus)) v.limb[N - 1] >>= 1;
    return F::from_montgomery(v);
  };
  constexpr int kScalarIters = 2'500'000;
  F x0 = rnd(), x1 = rnd(), x2 = rnd(), x3 = rnd(), y = rnd();
  const double s0 = cpu_ns();
  for (int i = 0; i < kScalarIters; ++i) {
    x0 = x0 * y;
    x1 = x1 * y;
    x2 = x2 * y;
    x3 = x3 * y;
  }
  const double s1 = cpu_ns();
  M m0 = M::from(x0), m1 = M::from(x1), m2 = M::from(x2), m3 = M::from(x3), my = M::from(y);
  for (int i = 0; i < kScalarIters; ++i) {
    m0 = m0 * my;
    m1 = m1 * my;
    m2 = m2 * my;
    m3 = m3 * my;
  }
  const double s2 = cpu_ns();

  // IFMA: 4 independent vector chains of 8 lanes (throughput), then one chain (latency).
  constexpr int kVecIters = 1'250'000;
  Vec8<L> v0 = random_vec<L>(rng, F::modulus), v1 = random_vec<L>(rng, F::modulus),
          v2 = random_vec<L>(rng, F::modulus), v3 = random_vec<L>(rng, F::modulus),
          vy = random_vec<L>(rng, F::modulus);
  const double i0 = cpu_ns();
  for (int i = 0; i < kVecIters; ++i) {
    v0 = mont_mul(m, v0, vy);
    v1 = mont_mul(m, v1, vy);
    v2 = mont_mul(m, v2, vy);
    v3 = mont_mul(m, v3, vy);
  }
  const double i1 = cpu_ns();
  Vec8<L> w = v0;
  for (int i = 0; i < kVecIters; ++i) w = mont_mul(m, w, vy);
  const double i2 = cpu_ns();

  alignas(64) std::uint64_t sink[8];
  _mm512_store_si512(sink, _mm512_xor_si512(_mm512_xor_si512(v0.v[0], v1.v[0]),
                                            _mm512_xor_si512(_mm512_xor_si512(v2.v[0], v3.v[0]), w.v[0])));
  const double scalar_products = 4.0 * kScalarIters, vector_products = 4.0 * 8 * kVecIters;
  std::printf(
      "%-13s L=%d  checked %d products, bad %ld | ns per product, throughput: portable %.2f, mulx %.2f, "
      "ifma %.2f (%.2fx mulx) | ifma latency per 8-lane product %.2f ns (%d)\n",
      name, L, 20000 * 8, bad, (s1 - s0) / scalar_products, (s2 - s1) / scalar_products,
      (i1 - i0) / vector_products, ((s2 - s1) / scalar_products) / ((i1 - i0) / vector_products),
      (i2 - i1) / kVecIters,
      static_cast<int>((sink[0] ^ m0.limb[0] ^ m1.limb[0] ^ m2.limb[0] ^ m3.limb[0] ^ x0.limb[0] ^
                        x1.limb[0] ^ x2.limb[0] ^ x3.limb[0]) &
                       1));
}

}  // namespace

int main() {
  run<bn254::Fp, 5>("BN254 Fp");
  run<Fp, 8>("BLS12-381 Fp");
}
