// Probe: can the H200's FP64 pipe add Montgomery products to the integer pipe's?
//
// The MSM's bucket additions and the NTT's butterflies are bound by the 32-bit multiply-add pipe (IMAD, 64
// lanes per SM and clock). The H200 also has 64 FP64 FMA lanes per SM and clock, and the library leaves them
// idle. This probe writes a Montgomery product on 48-bit limbs held in doubles, checks it against the
// library's integer product (arith/, MontField) on random and edge inputs, then measures products per second:
// integer chains alone, FP64 chains alone, one of each interleaved in every thread, and an integer kernel and
// an FP64 kernel running at once on two streams.
//
// The FP64 product (L limbs of w = 48 bits, R = 2^(48 L); L = 8 for BLS12-381's p, 6 for its r):
//  - limb k of a value is an integer multiple of 2^(48 k), held at that absolute scale (so products need no
//    shifts), centered: |limb| <= 2^(48 k + 47), the top one a little larger; values are signed, |x| < p.
//  - a column accumulator is kept "in magic form": M_k + value with M_k = 1.5 * 2^(52 + 48 k), whose ulp is
//    2^(48 k), so any multiple of 2^(48 k) of magnitude below 2^(51 + 48 k) adds to it exactly.
//  - a limb product A_i B_j (column k = i + j, |A_i B_j| < 2^(94 + 48 k)) splits with two FMAs: h =
//    fma(A_i, B_j, acc_(k+1)) rounds the exact sum to a multiple of 2^(48 (k+1)), so h - acc_(k+1) is the
//    high part (already added to column k + 1: h is the new accumulator) and fma(A_i, B_j, -high) the exact
//    centered low part, added to column k. Four FP64 operations a limb product.
//  - the product's columns are normalized (carried) once, then a word-by-word Montgomery reduction runs into
//    a second set of accumulators: q_i = t_i p' mod 2^48 (centered) from two FMAs, t_i + q_i p_0 is an exact
//    multiple of 2^(48 (i+1)) that one FMA gives, and q_i p_j for j > 0 split as above. Bounds: every column
//    of either set stays below 1.5 * 2^50 units, inside the magic form's 2^51.
//  - the result, columns L..2L-1 scaled by 2^(-48 L), is below p in magnitude for inputs below p: closed
//    under chained products without a final subtraction.
//
// Build (from the repository root, after a CMake configure made build-gpu/include):
//   nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Ibuild-gpu/include \
//     perf/results/fp64-mont-probe-h200-2026-12-03/fp64_mont_probe.cu -o fp64_mont_probe
// Run: ./fp64_mont_probe [iterations]   (prints the checks, then a table and one JSON line)
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>

using proofline::Fp;
using proofline::Fr;

#define CHECK_CUDA(call)                                                                          \
  do {                                                                                            \
    const cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

constexpr int kW = 48;

template <int L>
struct F64Constants {
  double p[L];          // p's centered 48-bit limbs at absolute scale
  double m[2 * L + 1];  // magic constants 1.5 * 2^(52 + 48 k)
  double pinv[L];       // (-p^-1 mod 2^48) * 2^(-48 i)
  double pow[L];        // 2^(48 i)
  double mq;            // 1.5 * 2^100: rounds q's product to a multiple of 2^48
  double scale;         // 2^(-48 L)
};

__constant__ F64Constants<8> c_fp;
__constant__ F64Constants<6> c_fr;

template <int L>
__device__ __forceinline__ const F64Constants<L>& constants();
template <>
__device__ __forceinline__ const F64Constants<8>& constants<8>() {
  return c_fp;
}
template <>
__device__ __forceinline__ const F64Constants<6>& constants<6>() {
  return c_fr;
}

/// out = a b 2^(-48 L) mod p, signed, |out| < p for |a|, |b| < p (out may alias a or b).
template <int L>
__host__ __device__ __forceinline__ void f64_mont_mul(double* out, const double* a, const double* b,
                                                      const F64Constants<L>& c) {
  double acc[2 * L];
#pragma unroll
  for (int k = 0; k < 2 * L; ++k) acc[k] = c.m[k];
#pragma unroll
  for (int i = 0; i < L; ++i) {
#pragma unroll
    for (int j = 0; j < L; ++j) {
      const int k = i + j;
      const double h = fma(a[i], b[j], acc[k + 1]);
      const double high = h - acc[k + 1];
      acc[k + 1] = h;
      acc[k] += fma(a[i], b[j], -high);
    }
  }
  // Normalize the product's columns: v_k centered below 2^(48 k + 47).
  double v[2 * L];
#pragma unroll
  for (int k = 0; k + 1 < 2 * L; ++k) {
    const double x = acc[k] - c.m[k];
    const double h = acc[k + 1] + x;
    const double carry = h - acc[k + 1];
    acc[k + 1] = h;
    v[k] = x - carry;
  }
  v[2 * L - 1] = acc[2 * L - 1] - c.m[2 * L - 1];
  // Word-by-word reduction into fresh accumulators.
#pragma unroll
  for (int k = 0; k < 2 * L; ++k) acc[k] = c.m[k];
#pragma unroll
  for (int i = 0; i < L; ++i) {
    const double t = i == 0 ? v[0] : v[i] + (acc[i] - c.m[i]);
    const double hq = fma(t, c.pinv[i], c.mq) - c.mq;
    const double q = fma(t, c.pinv[i], -hq) * c.pow[i];
    acc[i + 1] += fma(q, c.p[0], t);  // t + q p_0: an exact multiple of 2^(48 (i+1))
#pragma unroll
    for (int j = 1; j < L; ++j) {
      const int k = i + j;
      const double h = fma(q, c.p[j], acc[k + 1]);
      const double high = h - acc[k + 1];
      acc[k + 1] = h;
      acc[k] += fma(q, c.p[j], -high);
    }
  }
  double u[L];
#pragma unroll
  for (int k = 0; k < L; ++k) u[k] = v[L + k] + (acc[L + k] - c.m[L + k]);
#pragma unroll
  for (int k = 0; k + 1 < L; ++k) {
    const double carry = (u[k] + c.m[L + k + 1]) - c.m[L + k + 1];
    u[k] -= carry;
    u[k + 1] += carry;
  }
#pragma unroll
  for (int k = 0; k < L; ++k) out[k] = u[k] * c.scale;
}

// ---- kernels ---------------------------------------------------------------------------------------------

template <int L>
__global__ void f64_products(const double* a, const double* b, double* out, int n, int chain) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x[L], y[L];
  for (int k = 0; k < L; ++k) {
    x[k] = a[i * L + k];
    y[k] = b[i * L + k];
  }
  for (int s = 0; s < chain; ++s) f64_mont_mul<L>(x, x, y, constants<L>());
  for (int k = 0; k < L; ++k) out[i * L + k] = x[k];
}

template <class F>
__global__ void int_products(const F* a, const F* b, F* out, int n, int chain) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  F x = a[i];
  const F y = b[i];
  for (int s = 0; s < chain; ++s) x = x * y;
  out[i] = x;
}

/// Per thread: NI integer chains and NF FP64 chains of dependent products, interleaved in one loop (each
/// chain multiplies by its own fixed operand). NI = 0 or NF = 0 gives the pure kernels.
template <class F, int L, int NI, int NF>
__global__ void __launch_bounds__(128) chains_bench(F* idata, double* fdata, int iterations) {
  const std::size_t t = blockIdx.x * blockDim.x + threadIdx.x;
  F x[NI > 0 ? NI : 1], y[NI > 0 ? NI : 1];
  double u[NF > 0 ? NF : 1][L], v[NF > 0 ? NF : 1][L];
#pragma unroll
  for (int c = 0; c < NI; ++c) {
    x[c] = idata[(t * 2 + 0) * 4 + c];
    y[c] = idata[(t * 2 + 1) * 4 + c];
  }
#pragma unroll
  for (int c = 0; c < NF; ++c)
#pragma unroll
    for (int k = 0; k < L; ++k) {
      u[c][k] = fdata[((t * 2 + 0) * 4 + c) * L + k];
      v[c][k] = fdata[((t * 2 + 1) * 4 + c) * L + k];
    }
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int c = 0; c < (NI > NF ? NI : NF); ++c) {
      if (c < NI) x[c] = x[c] * y[c];
      if (c < NF) f64_mont_mul<L>(u[c], u[c], v[c], constants<L>());
    }
  }
#pragma unroll
  for (int c = 0; c < NI; ++c) idata[(t * 2 + 0) * 4 + c] = x[c];
#pragma unroll
  for (int c = 0; c < NF; ++c)
#pragma unroll
    for (int k = 0; k < L; ++k) fdata[((t * 2 + 0) * 4 + c) * L + k] = u[c][k];
}

// ---- the MSM's bucket addition (madd-2008-s, as cuda/kernels/detail/msm_body.hpp's bucket_add) --------

/// Limb-wise sums leave limbs above 2^47; a carry pass brings each below 2^47 again (the top one takes the
/// rest) before the value enters a product.
template <int L>
__host__ __device__ __forceinline__ void f64_normalize(double* v, const F64Constants<L>& c) {
#pragma unroll
  for (int k = 0; k + 1 < L; ++k) {
    const double carry = (v[k] + c.m[k + 1]) - c.m[k + 1];
    v[k] -= carry;
    v[k + 1] += carry;
  }
}

/// (X, Y, ZZ, ZZZ) += (qx, qy) in XYZZ coordinates, FP64 limbs: 10 products, every sum normalized.
template <int L>
__host__ __device__ __forceinline__ void f64_madd(double* X, double* Y, double* ZZ, double* ZZZ,
                                                  const double* qx, const double* qy,
                                                  const F64Constants<L>& c) {
  double u2[L], s2[L], p[L], r[L], pp[L], ppp[L], q[L], t[L];
  f64_mont_mul<L>(u2, qx, ZZ, c);
  f64_mont_mul<L>(s2, qy, ZZZ, c);
#pragma unroll
  for (int k = 0; k < L; ++k) {
    p[k] = u2[k] - X[k];
    r[k] = s2[k] - Y[k];
  }
  f64_normalize<L>(p, c);
  f64_normalize<L>(r, c);
  f64_mont_mul<L>(pp, p, p, c);
  f64_mont_mul<L>(ppp, p, pp, c);
  f64_mont_mul<L>(q, X, pp, c);
  f64_mont_mul<L>(t, r, r, c);
#pragma unroll
  for (int k = 0; k < L; ++k) X[k] = t[k] - ppp[k] - 2 * q[k];  // X3
  f64_normalize<L>(X, c);
#pragma unroll
  for (int k = 0; k < L; ++k) t[k] = q[k] - X[k];
  f64_normalize<L>(t, c);
  f64_mont_mul<L>(t, r, t, c);
  f64_mont_mul<L>(u2, Y, ppp, c);
#pragma unroll
  for (int k = 0; k < L; ++k) Y[k] = t[k] - u2[k];
  f64_normalize<L>(Y, c);
  f64_mont_mul<L>(ZZ, ZZ, pp, c);
  f64_mont_mul<L>(ZZZ, ZZZ, ppp, c);
}

/// The same on the library's integer field: what bucket_add computes when no special case applies.
template <class F>
__host__ __device__ __forceinline__ void int_madd(F* acc, const F& qx, const F& qy) {
  const F u2 = qx * acc[2];
  const F s2 = qy * acc[3];
  const F p = u2 - acc[0];
  const F r = s2 - acc[1];
  const F pp = p.squared();
  const F ppp = p * pp;
  const F q = acc[0] * pp;
  const F x3 = r.squared() - ppp - q.doubled();
  acc[1] = F::product_difference(r, q - x3, acc[1], ppp);
  acc[0] = x3;
  acc[2] = acc[2] * pp;
  acc[3] = acc[3] * ppp;
}

/// Per thread: NI integer and NF FP64 XYZZ accumulators, each adding its own fixed point `iterations` times.
template <int NI, int NF>
__global__ void __launch_bounds__(128) madd_bench(Fp* idata, double* fdata, int iterations) {
  constexpr int L = 8;
  const std::size_t t = blockIdx.x * blockDim.x + threadIdx.x;
  Fp acc[NI > 0 ? NI : 1][4], qi[NI > 0 ? NI : 1][2];
  double fa[NF > 0 ? NF : 1][4][L], fq[NF > 0 ? NF : 1][2][L];
#pragma unroll
  for (int a = 0; a < NI; ++a)
#pragma unroll
    for (int k = 0; k < 6; ++k) (k < 4 ? acc[a][k] : qi[a][k - 4]) = idata[(t * 2 + a) * 6 + k];
#pragma unroll
  for (int a = 0; a < NF; ++a)
#pragma unroll
    for (int k = 0; k < 6; ++k)
#pragma unroll
      for (int l = 0; l < L; ++l)
        (k < 4 ? fa[a][k][l] : fq[a][k - 4][l]) = fdata[((t * 2 + a) * 6 + k) * L + l];
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int a = 0; a < (NI > NF ? NI : NF); ++a) {
      if (a < NI) int_madd(acc[a], qi[a][0], qi[a][1]);
      if (a < NF) f64_madd<L>(fa[a][0], fa[a][1], fa[a][2], fa[a][3], fq[a][0], fq[a][1], constants<L>());
    }
  }
#pragma unroll
  for (int a = 0; a < NI; ++a)
#pragma unroll
    for (int k = 0; k < 4; ++k) idata[(t * 2 + a) * 6 + k] = acc[a][k];
#pragma unroll
  for (int a = 0; a < NF; ++a)
#pragma unroll
    for (int k = 0; k < 4; ++k)
#pragma unroll
      for (int l = 0; l < L; ++l) fdata[((t * 2 + a) * 6 + k) * L + l] = fa[a][k][l];
}

// ---- host: limb conversions and the check
// ------------------------------------------------------------------

/// A signed integer of 9 64-bit words, two's complement (enough for |x| < 2^560).
using Wide = std::array<std::uint64_t, 9>;

void wide_add_shifted(Wide& acc, std::int64_t value, int shift) {
  // acc += value * 2^shift
  const bool negative = value < 0;
  std::uint64_t magnitude = negative ? static_cast<std::uint64_t>(-value) : static_cast<std::uint64_t>(value);
  Wide term{};
  const int word = shift / 64, bit = shift % 64;
  term[word] = magnitude << bit;
  if (bit != 0 && word + 1 < 9) term[word + 1] = magnitude >> (64 - bit);
  if (negative) {  // two's complement of term
    unsigned __int128 carry = 1;
    for (auto& w : term) {
      carry += static_cast<std::uint64_t>(~w);
      w = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
  }
  unsigned __int128 carry = 0;
  for (int k = 0; k < 9; ++k) {
    carry += static_cast<unsigned __int128>(acc[k]) + term[k];
    acc[k] = static_cast<std::uint64_t>(carry);
    carry >>= 64;
  }
}

template <std::size_t N>
Wide wide_of(const proofline::BigInt<N>& x) {
  Wide out{};
  for (std::size_t k = 0; k < N; ++k) out[k] = x.limb[k];
  return out;
}
bool wide_negative(const Wide& x) {
  return (x[8] >> 63) != 0;
}
bool wide_less(const Wide& a, const Wide& b) {  // both non-negative
  for (int k = 8; k >= 0; --k)
    if (a[k] != b[k]) return a[k] < b[k];
  return false;
}
void wide_add(Wide& a, const Wide& b) {
  unsigned __int128 carry = 0;
  for (int k = 0; k < 9; ++k) {
    carry += static_cast<unsigned __int128>(a[k]) + b[k];
    a[k] = static_cast<std::uint64_t>(carry);
    carry >>= 64;
  }
}
void wide_sub(Wide& a, const Wide& b) {
  unsigned __int128 borrow = 0;
  for (int k = 0; k < 9; ++k) {
    const unsigned __int128 d = static_cast<unsigned __int128>(a[k]) - b[k] - borrow;
    a[k] = static_cast<std::uint64_t>(d);
    borrow = (d >> 64) != 0 ? 1 : 0;
  }
}

/// The value of FP64 limbs reduced into [0, p).
template <class F, int L>
typename F::Int reduce_f64(const double* limbs) {
  Wide acc{};
  for (int k = 0; k < L; ++k) {
    const double unit = std::ldexp(limbs[k], -kW * k);
    if (unit != std::floor(unit) || std::fabs(unit) >= 0x1p62) {
      std::fprintf(stderr, "limb %d is not an integer at its scale: %a\n", k, limbs[k]);
      std::exit(1);
    }
    wide_add_shifted(acc, static_cast<std::int64_t>(unit), kW * k);
  }
  const Wide p = wide_of(F::modulus);
  while (wide_negative(acc)) wide_add(acc, p);
  while (!wide_less(acc, p)) wide_sub(acc, p);
  typename F::Int out;
  for (std::size_t k = 0; k < F::N; ++k) out.limb[k] = acc[k];
  return out;
}

/// A Montgomery-form value's raw integer (< p) as centered FP64 limbs.
template <class F, int L>
void to_f64(const F& x, double* limbs) {
  const auto raw = x.montgomery();
  std::int64_t carry = 0;
  for (int k = 0; k < L; ++k) {
    std::int64_t digit = carry;
    for (int b = 0; b < kW; ++b) {
      const int bit = kW * k + b;
      if (bit < static_cast<int>(64 * F::N) && ((raw.limb[bit / 64] >> (bit % 64)) & 1))
        digit += std::int64_t{1} << b;
    }
    carry = 0;
    if (k + 1 < L && digit >= (std::int64_t{1} << (kW - 1))) {
      digit -= std::int64_t{1} << kW;
      carry = 1;
    }
    limbs[k] = std::ldexp(static_cast<double>(digit), kW * k);
  }
}

template <class F, int L>
F64Constants<L> make_constants() {
  F64Constants<L> c{};
  const auto p = F::modulus;
  double p_limbs[L];
  to_f64<F, L>(F::from_montgomery(p), p_limbs);  // p itself, read as a raw integer
  for (int k = 0; k < L; ++k) c.p[k] = p_limbs[k];
  for (int k = 0; k <= 2 * L; ++k) c.m[k] = std::ldexp(1.5, 52 + kW * k);
  // -p^-1 mod 2^48 from the 64-bit Montgomery constant.
  const std::uint64_t pinv = F::inv & ((std::uint64_t{1} << kW) - 1);
  for (int i = 0; i < L; ++i) {
    c.pinv[i] = std::ldexp(static_cast<double>(pinv), -kW * i);
    c.pow[i] = std::ldexp(1.0, kW * i);
  }
  c.mq = std::ldexp(1.5, 52 + kW);
  c.scale = std::ldexp(1.0, -kW * L);
  return c;
}

template <class F>
F random_element(std::mt19937_64& rng) {
  typename F::Int x;
  do {
    for (std::size_t k = 0; k < F::N; ++k) x.limb[k] = rng();
    x.limb[F::N - 1] &= (std::uint64_t{1} << (F::modulus_bits - 64 * (F::N - 1))) - 1;
  } while (!(x < F::modulus));
  return F::from_montgomery(x);
}

/// x 2^(-(48 L - 64 N)): the FP64 product's extra factor when its R exceeds the integer one (Fr: 2^288 vs
/// 2^256).
template <class F, int L>
F adjust(const F& x) {
  constexpr int extra = kW * L - 64 * static_cast<int>(F::N);
  if (extra == 0) return x;
  typename F::Int two{};
  two.limb[(64 * F::N - extra) / 64] = std::uint64_t{1} << ((64 * F::N - extra) % 64);
  return x * F::from_montgomery(two);  // x 2^(64N - extra) 2^(-64N)
}

template <class F, int L>
bool check_field(const char* name, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> a, b;
  // Edge values first: 0, 1, 2, p - 1, p - 2, 2^k around limb borders, then random.
  std::vector<typename F::Int> edges;
  edges.push_back(typename F::Int{});
  edges.push_back(F::Int::from_u64(1));
  edges.push_back(F::Int::from_u64(2));
  auto pm = F::modulus;
  pm.limb[0] -= 1;
  edges.push_back(pm);
  pm.limb[0] -= 1;
  edges.push_back(pm);
  for (int bit : {47, 48, 95, 96, 143, 144, 200, 240, 250}) {
    if (bit >= static_cast<int>(F::modulus_bits)) continue;
    typename F::Int x{};
    x.limb[bit / 64] = std::uint64_t{1} << (bit % 64);
    edges.push_back(x);
    typename F::Int y{};  // 2^bit - 1
    for (int k = 0; k < bit; ++k) y.limb[k / 64] |= std::uint64_t{1} << (k % 64);
    edges.push_back(y);
  }
  for (const auto& x : edges)
    for (const auto& y : edges) {
      a.push_back(F::from_montgomery(x));
      b.push_back(F::from_montgomery(y));
    }
  const std::size_t random_pairs = 200000;
  for (std::size_t k = 0; k < random_pairs; ++k) {
    a.push_back(random_element<F>(rng));
    b.push_back(random_element<F>(rng));
  }
  const int n = static_cast<int>(a.size());
  int mismatches = 0;
  for (const int chain : {1, 64}) {
    std::vector<double> fa(static_cast<std::size_t>(n) * L), fb(fa.size()), fout(fa.size());
    for (int i = 0; i < n; ++i) {
      to_f64<F, L>(a[i], &fa[static_cast<std::size_t>(i) * L]);
      to_f64<F, L>(b[i], &fb[static_cast<std::size_t>(i) * L]);
    }
    double *da, *db, *dout;
    CHECK_CUDA(cudaMalloc(&da, fa.size() * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&db, fa.size() * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&dout, fa.size() * sizeof(double)));
    CHECK_CUDA(cudaMemcpy(da, fa.data(), fa.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, fb.data(), fa.size() * sizeof(double), cudaMemcpyHostToDevice));
    f64_products<L><<<(n + 127) / 128, 128>>>(da, db, dout, n, chain);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(fout.data(), dout, fa.size() * sizeof(double), cudaMemcpyDeviceToHost));
    // The integer chain on the device (the library's product), and the first products on the host too.
    F *ia, *ib, *iout;
    CHECK_CUDA(cudaMalloc(&ia, n * sizeof(F)));
    CHECK_CUDA(cudaMalloc(&ib, n * sizeof(F)));
    CHECK_CUDA(cudaMalloc(&iout, n * sizeof(F)));
    std::vector<F> badj(n);
    for (int i = 0; i < n; ++i) badj[i] = adjust<F, L>(b[i]);  // x b 2^-extra per step
    CHECK_CUDA(cudaMemcpy(ia, a.data(), n * sizeof(F), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(ib, badj.data(), n * sizeof(F), cudaMemcpyHostToDevice));
    int_products<F><<<(n + 127) / 128, 128>>>(ia, ib, iout, n, chain);
    CHECK_CUDA(cudaGetLastError());
    std::vector<F> iref(n);
    CHECK_CUDA(cudaMemcpy(iref.data(), iout, n * sizeof(F), cudaMemcpyDeviceToHost));
    double worst_top = 0;
    for (int i = 0; i < n; ++i) {
      F expected = iref[i];
      if (chain == 1 && i % 16 == 0) {
        const F host = a[i] * badj[i];
        if (!(host.montgomery() == expected.montgomery())) ++mismatches;
      }
      const auto got = reduce_f64<F, L>(&fout[static_cast<std::size_t>(i) * L]);
      if (!(got == expected.montgomery())) {
        if (mismatches < 5) std::fprintf(stderr, "%s: mismatch at pair %d (chain %d)\n", name, i, chain);
        ++mismatches;
      }
      worst_top = std::max(
          worst_top, std::fabs(std::ldexp(fout[static_cast<std::size_t>(i) * L + L - 1], -kW * (L - 1))));
    }
    std::printf("check %s: %d pairs (%zu edge), chains of %d products: %s; largest top limb 2^%.2f\n", name,
                n, edges.size() * edges.size(), chain, mismatches == 0 ? "all equal" : "MISMATCH",
                std::log2(worst_top));
    for (void* ptr : {static_cast<void*>(da), static_cast<void*>(db), static_cast<void*>(dout),
                      static_cast<void*>(ia), static_cast<void*>(ib), static_cast<void*>(iout)})
      CHECK_CUDA(cudaFree(ptr));
  }
  return mismatches == 0;
}

/// The same FP64 product on the host (std::fma is correctly rounded), chained, against MontField: the
/// algorithm's check where no GPU is.
template <class F, int L>
bool host_check(const char* name, std::uint64_t seed, int pairs, int chain) {
  const auto c = make_constants<F, L>();
  std::mt19937_64 rng(seed);
  int mismatches = 0;
  for (int i = 0; i < pairs; ++i) {
    const F a = random_element<F>(rng), b = random_element<F>(rng);
    double x[L], y[L];
    to_f64<F, L>(a, x);
    to_f64<F, L>(b, y);
    F expected = a;
    const F b_adjusted = adjust<F, L>(b);
    for (int s = 0; s < chain; ++s) {
      f64_mont_mul<L>(x, x, y, c);
      expected = expected * b_adjusted;
    }
    if (!(reduce_f64<F, L>(x) == expected.montgomery())) ++mismatches;
  }
  std::printf("host check %s: %d chains of %d products: %s\n", name, pairs, chain,
              mismatches == 0 ? "all equal" : "MISMATCH");
  return mismatches == 0;
}

/// The bucket addition's check: `threads` accumulators, each adding its own point `chain` times on the device
/// in both arithmetics (one of each per thread), against the host's integer chain.
bool check_madd(std::uint64_t seed, int threads, int chain) {
  constexpr int L = 8;
  std::mt19937_64 rng(seed);
  std::vector<Fp> ihost(static_cast<std::size_t>(threads) * 12);
  for (auto& x : ihost) x = random_element<Fp>(rng);
  std::vector<double> fhost(ihost.size() * L);
  for (std::size_t i = 0; i < ihost.size(); ++i) to_f64<Fp, L>(ihost[i], &fhost[i * L]);
  // Host: both arithmetics on the first accumulators, then the device.
  const auto c = make_constants<Fp, L>();
  int mismatches = 0;
  std::vector<std::array<Fp, 4>> expected(threads);
  for (int t = 0; t < threads; ++t) {
    Fp acc[4];
    double fa[4][L];
    for (int k = 0; k < 4; ++k) {
      acc[k] = ihost[static_cast<std::size_t>(t) * 12 + k];
      std::copy_n(&fhost[(static_cast<std::size_t>(t) * 12 + k) * L], L, fa[k]);
    }
    const Fp qx = ihost[static_cast<std::size_t>(t) * 12 + 4],
             qy = ihost[static_cast<std::size_t>(t) * 12 + 5];
    const double* fqx = &fhost[(static_cast<std::size_t>(t) * 12 + 4) * L];
    const double* fqy = &fhost[(static_cast<std::size_t>(t) * 12 + 5) * L];
    for (int s = 0; s < chain; ++s) {
      int_madd(acc, qx, qy);
      if (t < 256) f64_madd<L>(fa[0], fa[1], fa[2], fa[3], fqx, fqy, c);
    }
    for (int k = 0; k < 4; ++k) {
      expected[t][k] = acc[k];
      if (t < 256 && !(reduce_f64<Fp, L>(fa[k]) == acc[k].montgomery())) ++mismatches;
    }
  }
  std::printf("host check XYZZ mixed addition: 256 accumulators x %d additions: %s\n", chain,
              mismatches == 0 ? "FP64 equals integer" : "MISMATCH");
  Fp* idata;
  double* fdata;
  CHECK_CUDA(cudaMalloc(&idata, ihost.size() * sizeof(Fp)));
  CHECK_CUDA(cudaMalloc(&fdata, fhost.size() * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(idata, ihost.data(), ihost.size() * sizeof(Fp), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(fdata, fhost.data(), fhost.size() * sizeof(double), cudaMemcpyHostToDevice));
  madd_bench<1, 1><<<threads / 128, 128>>>(idata, fdata, chain);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(ihost.data(), idata, ihost.size() * sizeof(Fp), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(fhost.data(), fdata, fhost.size() * sizeof(double), cudaMemcpyDeviceToHost));
  int device_mismatches = 0;
  for (int t = 0; t < threads; ++t)
    for (int k = 0; k < 4; ++k) {
      const auto want = expected[t][k].montgomery();
      if (!(ihost[static_cast<std::size_t>(t) * 12 + k].montgomery() == want)) ++device_mismatches;
      if (!(reduce_f64<Fp, L>(&fhost[(static_cast<std::size_t>(t) * 12 + k) * L]) == want))
        ++device_mismatches;
    }
  std::printf("device check XYZZ mixed addition: %d accumulators x %d additions, integer and FP64: %s\n",
              threads, chain, device_mismatches == 0 ? "all equal the host" : "MISMATCH");
  CHECK_CUDA(cudaFree(idata));
  CHECK_CUDA(cudaFree(fdata));
  return mismatches == 0 && device_mismatches == 0;
}

// ---- throughput
// --------------------------------------------------------------------------------------------

struct Timer {
  cudaEvent_t start, stop;
  Timer() {
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
  }
  ~Timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
};

template <class Launch>
double median_ms(Launch&& launch, int runs) {
  Timer timer;
  std::vector<double> ms;
  launch();  // warm-up
  CHECK_CUDA(cudaDeviceSynchronize());
  for (int r = 0; r < runs; ++r) {
    CHECK_CUDA(cudaEventRecord(timer.start));
    launch();
    CHECK_CUDA(cudaEventRecord(timer.stop));
    CHECK_CUDA(cudaEventSynchronize(timer.stop));
    float elapsed = 0;
    CHECK_CUDA(cudaEventElapsedTime(&elapsed, timer.start, timer.stop));
    ms.push_back(elapsed);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class F, int L, int NI, int NF>
double run_chains(F* idata, double* fdata, int blocks, int iterations, cudaStream_t stream = nullptr) {
  chains_bench<F, L, NI, NF><<<blocks, 128, 0, stream>>>(idata, fdata, iterations);
  CHECK_CUDA(cudaGetLastError());
  return static_cast<double>(blocks) * 128 * (NI + NF) * iterations;  // products
}

template <class F, int L>
void throughput(const char* field, int iterations, int sms, std::string& json) {
  std::mt19937_64 rng(7);
  const int blocks = sms * 8, threads = blocks * 128;
  std::vector<F> ihost(static_cast<std::size_t>(threads) * 8);
  for (auto& x : ihost) x = random_element<F>(rng);
  std::vector<double> fhost(static_cast<std::size_t>(threads) * 8 * L);
  for (std::size_t i = 0; i < fhost.size() / L; ++i) to_f64<F, L>(random_element<F>(rng), &fhost[i * L]);
  F* idata;
  double* fdata;
  CHECK_CUDA(cudaMalloc(&idata, ihost.size() * sizeof(F)));
  CHECK_CUDA(cudaMalloc(&fdata, fhost.size() * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(idata, ihost.data(), ihost.size() * sizeof(F), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(fdata, fhost.data(), fhost.size() * sizeof(double), cudaMemcpyHostToDevice));
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  double int_rate = 0;
  auto row = [&](const char* how, auto launch) {
    double products = 0;
    const double ms = median_ms([&] { products = launch(); }, 7);
    const double rate = products / ms / 1e6;  // giga-products per second
    if (int_rate == 0) int_rate = rate;
    std::printf("| %s | %s | %.3f | %.2f | %.2fx |\n", field, how, ms, rate, rate / int_rate);
    char entry[256];
    std::snprintf(entry, sizeof(entry),
                  "%s{\"field\": \"%s\", \"kernel\": \"%s\", \"ms\": %.4f, \"gmul_s\": %.4f}",
                  json.empty() ? "" : ", ", field, how, ms, rate);
    json += entry;
  };
  const int it = iterations;
  row("integer x2 (library)", [&] { return run_chains<F, L, 2, 0>(idata, fdata, blocks, it); });
  row("integer x1", [&] { return run_chains<F, L, 1, 0>(idata, fdata, blocks, it); });
  row("integer x4", [&] { return run_chains<F, L, 4, 0>(idata, fdata, blocks, it / 2); });
  row("FP64 x1", [&] { return run_chains<F, L, 0, 1>(idata, fdata, blocks, it); });
  row("FP64 x2", [&] { return run_chains<F, L, 0, 2>(idata, fdata, blocks, it); });
  row("int 1 + FP64 1 per thread", [&] { return run_chains<F, L, 1, 1>(idata, fdata, blocks, it); });
  row("int 2 + FP64 1 per thread", [&] { return run_chains<F, L, 2, 1>(idata, fdata, blocks, it); });
  row("int 1 + FP64 2 per thread", [&] { return run_chains<F, L, 1, 2>(idata, fdata, blocks, it); });
  row("int 2 + FP64 2 per thread", [&] { return run_chains<F, L, 2, 2>(idata, fdata, blocks, it / 2); });
  // Both pure kernels at once on two streams: blocks of both kinds co-resident on the SMs.
  cudaEvent_t fork, join;
  CHECK_CUDA(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK_CUDA(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  row("int x2 and FP64 x2 kernels at once", [&] {
    CHECK_CUDA(cudaEventRecord(fork, nullptr));
    CHECK_CUDA(cudaStreamWaitEvent(s1, fork));
    CHECK_CUDA(cudaStreamWaitEvent(s2, fork));
    double products = run_chains<F, L, 2, 0>(idata, fdata, blocks / 2, it, s1);
    products += run_chains<F, L, 0, 2>(idata, fdata, blocks / 2, it, s2);
    CHECK_CUDA(cudaEventRecord(join, s1));
    CHECK_CUDA(cudaStreamWaitEvent(nullptr, join));
    CHECK_CUDA(cudaEventRecord(join, s2));
    CHECK_CUDA(cudaStreamWaitEvent(nullptr, join));
    return products;
  });
  CHECK_CUDA(cudaEventDestroy(fork));
  CHECK_CUDA(cudaEventDestroy(join));
  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaStreamDestroy(s2));
  CHECK_CUDA(cudaFree(idata));
  CHECK_CUDA(cudaFree(fdata));
}

/// Bucket additions per second: integer, FP64, one of each per thread, and the two kernels at once.
void madd_throughput(int iterations, int sms, std::string& json) {
  constexpr int L = 8;
  std::mt19937_64 rng(9);
  const int blocks = sms * 8, threads = blocks * 128;
  std::vector<Fp> ihost(static_cast<std::size_t>(threads) * 12);
  for (auto& x : ihost) x = random_element<Fp>(rng);
  std::vector<double> fhost(ihost.size() * L);
  for (std::size_t i = 0; i < ihost.size(); ++i) to_f64<Fp, L>(ihost[i], &fhost[i * L]);
  Fp* idata;
  double* fdata;
  CHECK_CUDA(cudaMalloc(&idata, ihost.size() * sizeof(Fp)));
  CHECK_CUDA(cudaMalloc(&fdata, fhost.size() * sizeof(double)));
  CHECK_CUDA(cudaMemcpy(idata, ihost.data(), ihost.size() * sizeof(Fp), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(fdata, fhost.data(), fhost.size() * sizeof(double), cudaMemcpyHostToDevice));
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CHECK_CUDA(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK_CUDA(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  double int_rate = 0;
  auto row = [&](const char* how, auto launch) {
    double additions = 0;
    const double ms = median_ms([&] { additions = launch(); }, 7);
    const double rate = additions / ms / 1e6;  // giga-additions per second
    if (int_rate == 0) int_rate = rate;
    std::printf("| G1 XYZZ mixed addition | %s | %.3f | %.3f | %.2fx |\n", how, ms, rate, rate / int_rate);
    char entry[256];
    std::snprintf(entry, sizeof(entry),
                  ", {\"field\": \"G1 madd\", \"kernel\": \"%s\", \"ms\": %.4f, \"gadd_s\": %.4f}", how, ms,
                  rate);
    json += entry;
  };
  auto run = [&](auto kernel, int ni_nf, int grid, cudaStream_t stream) {
    kernel<<<grid, 128, 0, stream>>>(idata, fdata, iterations);
    CHECK_CUDA(cudaGetLastError());
    return static_cast<double>(grid) * 128 * ni_nf * iterations;
  };
  row("integer x1 (library)", [&] { return run(madd_bench<1, 0>, 1, blocks, nullptr); });
  row("integer x2", [&] { return run(madd_bench<2, 0>, 2, blocks, nullptr); });
  row("FP64 x1", [&] { return run(madd_bench<0, 1>, 1, blocks, nullptr); });
  row("int 1 + FP64 1 per thread", [&] { return run(madd_bench<1, 1>, 2, blocks, nullptr); });
  row("int x1 and FP64 x1 kernels at once", [&] {
    CHECK_CUDA(cudaEventRecord(fork, nullptr));
    CHECK_CUDA(cudaStreamWaitEvent(s1, fork));
    CHECK_CUDA(cudaStreamWaitEvent(s2, fork));
    double additions = run(madd_bench<1, 0>, 1, blocks / 2, s1);
    additions += run(madd_bench<0, 1>, 1, blocks / 2, s2);
    CHECK_CUDA(cudaEventRecord(join, s1));
    CHECK_CUDA(cudaStreamWaitEvent(nullptr, join));
    CHECK_CUDA(cudaEventRecord(join, s2));
    CHECK_CUDA(cudaStreamWaitEvent(nullptr, join));
    return additions;
  });
  CHECK_CUDA(cudaEventDestroy(fork));
  CHECK_CUDA(cudaEventDestroy(join));
  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaStreamDestroy(s2));
  CHECK_CUDA(cudaFree(idata));
  CHECK_CUDA(cudaFree(fdata));
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--host") {
    const bool ok =
        host_check<Fp, 8>("BLS12-381 Fp", 1, 2000, 16) & host_check<Fr, 6>("BLS12-381 Fr", 2, 2000, 16);
    // The addition's host half (the device half needs a GPU).
    const auto c = make_constants<Fp, 8>();
    std::mt19937_64 rng(3);
    int bad = 0;
    for (int t = 0; t < 256; ++t) {
      Fp acc[4], q[2];
      double fa[4][8], fq[2][8];
      for (int k = 0; k < 4; ++k) to_f64<Fp, 8>(acc[k] = random_element<Fp>(rng), fa[k]);
      for (int k = 0; k < 2; ++k) to_f64<Fp, 8>(q[k] = random_element<Fp>(rng), fq[k]);
      for (int s = 0; s < 16; ++s) {
        int_madd(acc, q[0], q[1]);
        f64_madd<8>(fa[0], fa[1], fa[2], fa[3], fq[0], fq[1], c);
      }
      for (int k = 0; k < 4; ++k) bad += !(reduce_f64<Fp, 8>(fa[k]) == acc[k].montgomery());
    }
    std::printf("host check XYZZ mixed addition: 256 x 16: %s\n",
                bad == 0 ? "FP64 equals integer" : "MISMATCH");
    return ok && bad == 0 ? 0 : 1;
  }
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 512;
  const auto fp = make_constants<Fp, 8>();
  const auto fr = make_constants<Fr, 6>();
  CHECK_CUDA(cudaMemcpyToSymbol(c_fp, &fp, sizeof(fp)));
  CHECK_CUDA(cudaMemcpyToSymbol(c_fr, &fr, sizeof(fr)));
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const bool ok = check_field<Fp, 8>("BLS12-381 Fp (8 x 48 bits)", 11) &
                  check_field<Fr, 6>("BLS12-381 Fr (6 x 48 bits)", 12) & check_madd(13, 128 * 64, 24);
  if (!ok) {
    std::printf("checks FAILED: no throughput measured\n");
    return 1;
  }
  std::printf(
      "\nProducts per second: %d blocks of 128 threads, %d iterations of each thread's chains, medians "
      "of 7 (CUDA events)\n\n",
      prop.multiProcessorCount * 8, iterations);
  std::printf("| field | kernel | ms | G products/s | vs integer x2 |\n|---|---|---|---|---|\n");
  std::string json;
  throughput<Fp, 8>("Fp", iterations, prop.multiProcessorCount, json);
  throughput<Fr, 6>("Fr", iterations, prop.multiProcessorCount, json);
  madd_throughput(iterations / 8, prop.multiProcessorCount, json);
  std::printf("\n{\"iterations\": %d, \"rows\": [%s]}\n", iterations, json.c_str());
  return 0;
}
