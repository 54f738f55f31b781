// Internal: modular inversion by the binary GCD with 31 steps at a time on 64-bit approximations (T. Pornin,
// "Optimized Binary GCD for Modular Inversion", 2020). The batch-affine MSM inverts once per batch of bucket
// additions; Fermat's a^(p − 2) costs about 480 Montgomery products, this four linear combinations of
// multi-limb numbers with 32-bit factors an iteration (25 iterations for a 381-bit modulus, 17 for 254 bits).
//
// Each outer iteration runs 31 binary-GCD steps on the low 31 and the top 33 bits of (a, b), collecting them
// in a 2x2 matrix of signed factors, then applies the matrix to the full a, b (divided by 2^31) and to the
// Bézout coefficients u, v (Montgomery-reduced by 2^64 to stay below m). With a ≡ y u c and b ≡ y v c
// (mod m) for c = 2^(33 t) after t iterations, the GCD ends at a = 0, b = 1 after ceil((2 len(m) − 1) / 31)
// iterations, so y^-1 = v 2^(33 t) mod m. Variable time: the prover's inversions need no constant time.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <proofline/arith/bigint.hpp>

namespace proofline::cpu::detail::bingcd {

using proofline::detail::uint128;

/// Outer iterations that take any y < m to the GCD: 2 len(m) − 1 steps, 31 an iteration.
constexpr int iterations(int modulus_bits) {
  return (2 * modulus_bits - 1 + 30) / 31;
}

template <std::size_t N>
int bit_length(const std::uint64_t (&x)[N]) {
  for (std::size_t i = N; i-- > 0;)
    if (x[i] != 0) return static_cast<int>(64 * i) + std::bit_width(x[i]);
  return 0;
}

/// Bits [from, from + 33) of x (zeros above the top limb).
template <std::size_t N>
std::uint64_t bits33(const std::uint64_t (&x)[N], int from) {
  const std::size_t i = static_cast<std::size_t>(from) / 64;
  const int shift = from % 64;
  std::uint64_t value = x[i] >> shift;
  if (shift != 0 && i + 1 < N) value |= x[i + 1] << (64 - shift);
  return value & ((std::uint64_t{1} << 33) - 1);
}

/// out = x f + y g in two's complement over N + 2 limbs, for x, y below 2^(64 N) and |f|, |g| <= 2^62.
template <std::size_t N>
void linear_combination(std::uint64_t (&out)[N + 2], const std::uint64_t (&x)[N], std::int64_t f,
                        const std::uint64_t (&y)[N], std::int64_t g) {
  const auto product = [](std::uint64_t(&p)[N + 2], const std::uint64_t(&v)[N], std::int64_t k) {
    const bool negative = k < 0;
    const std::uint64_t magnitude = negative ? std::uint64_t{0} - static_cast<std::uint64_t>(k) : k;
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const uint128 t = static_cast<uint128>(v[i]) * magnitude + carry;
      p[i] = static_cast<std::uint64_t>(t);
      carry = static_cast<std::uint64_t>(t >> 64);
    }
    p[N] = carry;
    p[N + 1] = 0;
    if (negative) {  // two's complement: invert and add one
      unsigned char c = 1;
      for (std::size_t i = 0; i < N + 2; ++i) {
        const std::uint64_t inverted = ~p[i];
        p[i] = inverted + c;
        c = c != 0 && p[i] == 0;
      }
    }
  };
  std::uint64_t p[N + 2], q[N + 2];
  product(p, x, f);
  product(q, y, g);
  uint128 carry = 0;
  for (std::size_t i = 0; i < N + 2; ++i) {
    carry += static_cast<uint128>(p[i]) + q[i];
    out[i] = static_cast<std::uint64_t>(carry);
    carry >>= 64;
  }
}

template <std::size_t N>
bool is_negative(const std::uint64_t (&x)[N + 2]) {
  return (x[N + 1] >> 63) != 0;
}

template <std::size_t N>
void negate(std::uint64_t (&x)[N + 2]) {
  unsigned char c = 1;
  for (std::size_t i = 0; i < N + 2; ++i) {
    x[i] = ~x[i] + c;
    c = c != 0 && x[i] == 0;
  }
}

/// x (N + 2 limbs, two's complement) + k m for k = ±1.
template <std::size_t N>
void add_multiple(std::uint64_t (&x)[N + 2], const std::uint64_t (&m)[N], bool subtract) {
  uint128 carry = subtract ? 1 : 0;  // subtracting: x + ~m + 1
  for (std::size_t i = 0; i < N + 2; ++i) {
    const std::uint64_t mi = i < N ? m[i] : 0;
    carry += static_cast<uint128>(x[i]) + (subtract ? ~mi : mi);
    x[i] = static_cast<std::uint64_t>(carry);
    carry >>= 64;
  }
}

/// Whether x (N + 2 limbs, non-negative) >= m.
template <std::size_t N>
bool at_least(const std::uint64_t (&x)[N + 2], const std::uint64_t (&m)[N]) {
  if (x[N] != 0 || x[N + 1] != 0) return true;
  for (std::size_t i = N; i-- > 0;)
    if (x[i] != m[i]) return x[i] > m[i];
  return true;
}

/// (x f + y g) 2^-64 mod m in [0, m), for x, y in [0, m); m_neg_inv = −m^-1 mod 2^64.
template <std::size_t N>
void combine_mod(std::uint64_t (&out)[N], const std::uint64_t (&x)[N], std::int64_t f,
                 const std::uint64_t (&y)[N], std::int64_t g, const std::uint64_t (&m)[N],
                 std::uint64_t m_neg_inv) {
  std::uint64_t t[N + 2];
  linear_combination<N>(t, x, f, y, g);
  // t + q m is divisible by 2^64; |t| < 2^32 m, so |(t + q m) / 2^64| < m (1 + 2^-32).
  const std::uint64_t q = t[0] * m_neg_inv;
  uint128 carry = 0;
  for (std::size_t i = 0; i < N + 2; ++i) {
    carry += static_cast<uint128>(t[i]) + (i < N ? static_cast<uint128>(m[i]) * q : 0);
    t[i] = static_cast<std::uint64_t>(carry);
    carry >>= 64;
  }
  const bool negative_before = (t[N + 1] >> 63) != 0;
  // Shift right one limb, sign-extending.
  for (std::size_t i = 0; i + 1 < N + 2; ++i) t[i] = t[i + 1];
  t[N + 1] = negative_before ? ~std::uint64_t{0} : 0;
  while (is_negative<N>(t)) add_multiple<N>(t, m, false);
  while (at_least<N>(t, m)) add_multiple<N>(t, m, true);
  for (std::size_t i = 0; i < N; ++i) out[i] = t[i];
}

/// (x f + y g) / 2^31 for x, y below 2^(64 N), which the GCD keeps exact and within N limbs in magnitude;
/// `negated` tells whether the result was negative (and is returned as its magnitude).
template <std::size_t N>
void combine_shift(std::uint64_t (&out)[N], bool& negated, const std::uint64_t (&x)[N], std::int64_t f,
                   const std::uint64_t (&y)[N], std::int64_t g) {
  std::uint64_t t[N + 2];
  linear_combination<N>(t, x, f, y, g);
  negated = is_negative<N>(t);
  if (negated) negate<N>(t);
  for (std::size_t i = 0; i < N; ++i) out[i] = (t[i] >> 31) | (t[i + 1] << 33);
}

/// v with y v 2^(33 iterations(len m)) ≡ 1 (mod m), for 0 < y < m, m an odd prime below 2^(64 N − 1).
/// False if the GCD did not end at 1 (y not invertible): the caller then falls back to another method.
template <std::size_t N>
bool inverse_scaled(std::uint64_t (&v_out)[N], const std::uint64_t (&y)[N], const std::uint64_t (&m)[N],
                    std::uint64_t m_neg_inv) {
  std::uint64_t a[N], b[N], u[N] = {1}, v[N] = {};
  for (std::size_t i = 0; i < N; ++i) {
    a[i] = y[i];
    b[i] = m[i];
  }
  const int rounds = iterations(bit_length(m));
  for (int round = 0; round < rounds; ++round) {
    const int n = std::max({bit_length(a), bit_length(b), 64});
    const std::uint64_t low_mask = (std::uint64_t{1} << 31) - 1;
    std::uint64_t a_ = (a[0] & low_mask) | (bits33(a, n - 33) << 31);
    std::uint64_t b_ = (b[0] & low_mask) | (bits33(b, n - 33) << 31);
    std::int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    for (int step = 0; step < 31; ++step) {
      if ((a_ & 1) != 0) {
        if (a_ < b_) {
          std::swap(a_, b_);
          std::swap(f0, f1);
          std::swap(g0, g1);
        }
        a_ -= b_;
        f0 -= f1;
        g0 -= g1;
      }
      a_ >>= 1;
      f1 *= 2;
      g1 *= 2;
    }
    std::uint64_t a_next[N], b_next[N];
    bool a_negated = false, b_negated = false;
    combine_shift<N>(a_next, a_negated, a, f0, b, g0);
    combine_shift<N>(b_next, b_negated, a, f1, b, g1);
    if (a_negated) {
      f0 = -f0;
      g0 = -g0;
    }
    if (b_negated) {
      f1 = -f1;
      g1 = -g1;
    }
    std::uint64_t u_next[N], v_next[N];
    combine_mod<N>(u_next, u, f0, v, g0, m, m_neg_inv);
    combine_mod<N>(v_next, u, f1, v, g1, m, m_neg_inv);
    for (std::size_t i = 0; i < N; ++i) {
      a[i] = a_next[i];
      b[i] = b_next[i];
      u[i] = u_next[i];
      v[i] = v_next[i];
    }
  }
  bool ends_at_one = b[0] == 1;
  for (std::size_t i = 0; i < N; ++i) ends_at_one = ends_at_one && a[i] == 0 && (i == 0 || b[i] == 0);
  for (std::size_t i = 0; i < N; ++i) v_out[i] = v[i];
  return ends_at_one;
}

}  // namespace proofline::cpu::detail::bingcd
