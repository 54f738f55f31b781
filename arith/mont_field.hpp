// A prime field in Montgomery form (R = 2^(64N)), one source for host and device.
//
// Params supplies the modulus; every derived constant (R mod p, R^2 mod p, -p^-1 mod 2^64) is computed at
// compile time from it, so a typo cannot hide in a hand-copied constant. Multiplication is CIOS without the
// extra carry word, which is valid because both BLS12-381 moduli leave the top bit of the top limb clear
// (static_assert below). Elements are always fully reduced, so limb equality is value equality.
#pragma once

#include <cstddef>
#include <cstdint>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/config.hpp>

namespace proofline {

namespace detail {

template <std::size_t N>
constexpr std::uint64_t neg_inverse_mod_2_64(const BigInt<N>& modulus) {
  // Newton iteration doubles the number of correct low bits: 1 -> 2 -> 4 ... -> 64 (p is odd).
  std::uint64_t inverse = 1;
  for (int i = 0; i < 6; ++i) inverse *= 2 - modulus.limb[0] * inverse;
  return ~inverse + 1;
}

/// 2^exponent mod modulus by repeated modular doubling (compile time only).
template <std::size_t N>
constexpr BigInt<N> pow2_mod(const BigInt<N>& modulus, std::size_t exponent) {
  BigInt<N> value = BigInt<N>::from_u64(1);
  for (std::size_t i = 0; i < exponent; ++i) {
    const std::uint64_t top = value.limb[N - 1] >> 63;
    value.shift_left_1();
    if (top || value >= modulus) value.sub_in_place(modulus);
  }
  return value;
}

/// Device-only arithmetic tuned for one field, specialised next to its Params (fr.hpp, fp.hpp). In device
/// code (outside constant evaluation) operator*, + and − call its static mul / add / sub(out, a, b) on 64-bit
/// limb arrays when the specialisation has that member, squared() its sqr(out, a, a) and product_difference
/// its product_difference(out, a, b, c, d); the portable code below serves everything else.
template <class Params>
struct DeviceFieldOps {};

}  // namespace detail

#if defined(__CUDA_ARCH__)
#define PL_DEVICE_FIELD_OP(op, a, b)                                     \
  if constexpr (requires { &detail::DeviceFieldOps<Params>::op; }) {     \
    if (!__builtin_is_constant_evaluated()) {                            \
      MontField out_{};                                                  \
      detail::DeviceFieldOps<Params>::op(out_.limb, (a).limb, (b).limb); \
      return out_;                                                       \
    }                                                                    \
  }
#define PL_DEVICE_FIELD_PRODUCT_DIFFERENCE(a, b, c, d)                                                       \
  if constexpr (requires { &detail::DeviceFieldOps<Params>::product_difference; }) {                         \
    if (!__builtin_is_constant_evaluated()) {                                                                \
      MontField out_{};                                                                                      \
      detail::DeviceFieldOps<Params>::product_difference(out_.limb, (a).limb, (b).limb, (c).limb, (d).limb); \
      return out_;                                                                                           \
    }                                                                                                        \
  }
#else
#define PL_DEVICE_FIELD_OP(op, a, b)
#define PL_DEVICE_FIELD_PRODUCT_DIFFERENCE(a, b, c, d)
#endif

template <class Params>
struct alignas(16) MontField {
  static constexpr std::size_t N = Params::limbs;
  using Int = BigInt<N>;

  static constexpr Int modulus = Params::modulus;
  static constexpr std::size_t modulus_bits = modulus.bit_length();
  static constexpr std::size_t byte_count = (modulus_bits + 7) / 8;
  static constexpr std::uint64_t inv = detail::neg_inverse_mod_2_64(modulus);
  static constexpr Int r_mod = detail::pow2_mod(modulus, 64 * N);    // Montgomery form of 1
  static constexpr Int r2_mod = detail::pow2_mod(modulus, 128 * N);  // converts into Montgomery form
  static_assert(modulus.limb[N - 1] < (std::uint64_t{1} << 63) - 1,
                "CIOS without carry word needs a spare bit");

  /// Montgomery representation: value * R mod p.
  std::uint64_t limb[N];

  // ---- construction and conversion -------------------------------------------------------------------

  PL_HD_INLINE static constexpr MontField zero() {
    MontField out{};
    return out;
  }
  PL_HD_INLINE static constexpr MontField one() {
    constexpr Int montgomery_one = r_mod;
    return from_montgomery(montgomery_one);
  }

  /// Wraps limbs that are already in Montgomery form (e.g. read from a snarkjs .zkey).
  PL_HD_INLINE static constexpr MontField from_montgomery(const Int& montgomery) {
    MontField out{};
    for (std::size_t i = 0; i < N; ++i) out.limb[i] = montgomery.limb[i];
    return out;
  }
  PL_HD_INLINE constexpr Int montgomery() const {
    Int out;
    for (std::size_t i = 0; i < N; ++i) out.limb[i] = limb[i];
    return out;
  }

  /// Canonical integer (must be < p; callers validate untrusted input with is_canonical) to field element.
  PL_HD_INLINE static constexpr MontField from_canonical(const Int& value) {
    constexpr Int r2 = r2_mod;
    return from_montgomery(value) * from_montgomery(r2);
  }
  PL_HD_INLINE static constexpr MontField from_u64(std::uint64_t value) {
    return from_canonical(Int::from_u64(value));
  }
  PL_HD_INLINE constexpr Int canonical() const {
    Int one_int = Int::from_u64(1);
    return (*this * from_montgomery(one_int)).montgomery();
  }
  PL_HD_INLINE static constexpr bool is_canonical(const Int& value) {
    constexpr Int p = modulus;
    return value < p;
  }

  // ---- predicates ------------------------------------------------------------------------------------

  PL_HD_INLINE constexpr bool is_zero() const {
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < N; ++i) acc |= limb[i];
    return acc == 0;
  }
  PL_HD_INLINE constexpr bool is_one() const { return *this == one(); }
  PL_HD_INLINE friend constexpr bool operator==(const MontField& a, const MontField& b) {
    std::uint64_t diff = 0;
    for (std::size_t i = 0; i < N; ++i) diff |= a.limb[i] ^ b.limb[i];
    return diff == 0;
  }
  PL_HD_INLINE friend constexpr bool operator!=(const MontField& a, const MontField& b) { return !(a == b); }

  // ---- arithmetic ------------------------------------------------------------------------------------

  PL_HD_INLINE friend constexpr MontField operator+(const MontField& a, const MontField& b) {
    PL_DEVICE_FIELD_OP(add, a, b)
    MontField out{};
    std::uint64_t carry = 0;
    PL_UNROLL for (std::size_t i = 0; i < N; ++i) out.limb[i] =
        detail::add_carry(a.limb[i], b.limb[i], carry);
    out.reduce_once();  // a + b < 2p < 2^(64N): no carry out thanks to the spare bit
    return out;
  }

  PL_HD_INLINE friend constexpr MontField operator-(const MontField& a, const MontField& b) {
    PL_DEVICE_FIELD_OP(sub, a, b)
    MontField out{};
    std::uint64_t borrow = 0;
    PL_UNROLL for (std::size_t i = 0; i < N; ++i) out.limb[i] =
        detail::sub_borrow(a.limb[i], b.limb[i], borrow);
    // Add p back when the subtraction wrapped; the mask keeps it branch-free.
    constexpr Int p = modulus;
    const std::uint64_t mask = ~borrow + 1;
    std::uint64_t carry = 0;
    PL_UNROLL for (std::size_t i = 0; i < N; ++i) out.limb[i] =
        detail::add_carry(out.limb[i], p.limb[i] & mask, carry);
    return out;
  }

  PL_HD_INLINE constexpr MontField operator-() const { return zero() - *this; }

  PL_HD_INLINE friend constexpr MontField operator*(const MontField& a, const MontField& b) {
    PL_DEVICE_FIELD_OP(mul, a, b)
    // CIOS without the extra carry word (valid for moduli with a spare top bit; see the static_assert).
    constexpr Int p = modulus;
    std::uint64_t t[N] = {};
    PL_UNROLL for (std::size_t i = 0; i < N; ++i) {
      std::uint64_t carry_a = 0;
      t[0] = detail::mac(t[0], a.limb[0], b.limb[i], carry_a);
      const std::uint64_t m = t[0] * inv;
      std::uint64_t carry_m = 0;
      detail::mac(t[0], m, p.limb[0], carry_m);
      PL_UNROLL for (std::size_t j = 1; j < N; ++j) {
        t[j] = detail::mac(t[j], a.limb[j], b.limb[i], carry_a);
        t[j - 1] = detail::mac(t[j], m, p.limb[j], carry_m);
      }
      t[N - 1] = carry_a + carry_m;
    }
    MontField out{};
    PL_UNROLL for (std::size_t i = 0; i < N; ++i) out.limb[i] = t[i];
    out.reduce_once();
    return out;
  }

  /// a·b − c·d. In device code a field whose DeviceFieldOps has product_difference(out, a, b, c, d) reduces
  /// the difference of the two wide products once instead of reducing each product (the Y3 of the XYZZ
  /// formulas); the value is the same.
  PL_HD_INLINE static constexpr MontField product_difference(const MontField& a, const MontField& b,
                                                             const MontField& c, const MontField& d) {
    PL_DEVICE_FIELD_PRODUCT_DIFFERENCE(a, b, c, d)
    return a * b - c * d;
  }

  PL_HD_INLINE constexpr MontField& operator+=(const MontField& other) { return *this = *this + other; }
  PL_HD_INLINE constexpr MontField& operator-=(const MontField& other) { return *this = *this - other; }
  PL_HD_INLINE constexpr MontField& operator*=(const MontField& other) { return *this = *this * other; }

  PL_HD_INLINE constexpr MontField squared() const {
    PL_DEVICE_FIELD_OP(sqr, *this, *this)  // a dedicated device squaring where the field has one (Fp)
    return *this * *this;
  }
  PL_HD_INLINE constexpr MontField doubled() const { return *this + *this; }

  /// this^exponent by left-to-right square-and-multiply (variable time: exponents here are public).
  template <std::size_t M>
  PL_HD constexpr MontField pow(const BigInt<M>& exponent) const {
    MontField result = one();
    for (std::size_t i = exponent.bit_length(); i-- > 0;) {
      result = result.squared();
      if (exponent.bit(i)) result *= *this;
    }
    return result;
  }
  PL_HD constexpr MontField pow(std::uint64_t exponent) const { return pow(BigInt<1>::from_u64(exponent)); }

  /// Multiplicative inverse by Fermat (a^(p-2)); the inverse of zero is defined as zero.
  PL_HD constexpr MontField inverse() const {
    constexpr Int p = modulus;
    Int exponent = p;
    exponent.sub_in_place(Int::from_u64(2));
    return pow(exponent);
  }

  /// Legendre symbol: 1 for a nonzero square, -1 for a non-square, 0 for zero.
  PL_HD constexpr int legendre() const {
    if (is_zero()) return 0;
    constexpr Int p = modulus;
    Int exponent = p;
    exponent.sub_in_place(Int::from_u64(1));
    exponent.shift_right_1();
    return pow(exponent).is_one() ? 1 : -1;
  }

  /// Square root for p = 3 mod 4 (the base field Fp): returns false when this is not a square.
  PL_HD constexpr bool sqrt(MontField& root) const {
    static_assert((modulus.limb[0] & 3) == 3, "sqrt is implemented for p = 3 (mod 4) only");
    constexpr Int p = modulus;
    Int exponent = p;
    exponent.add_in_place(Int::from_u64(1));
    exponent.shift_right_1();
    exponent.shift_right_1();
    root = pow(exponent);
    return root.squared() == *this;
  }

  // ---- bytes -----------------------------------------------------------------------------------------

  /// Canonical value as byte_count little-endian bytes.
  PL_HD constexpr void to_bytes_le(std::uint8_t* out) const {
    const Int value = canonical();
    for (std::size_t i = 0; i < byte_count; ++i)
      out[i] = static_cast<std::uint8_t>(value.limb[i / 8] >> (8 * (i % 8)));
  }
  PL_HD constexpr void to_bytes_be(std::uint8_t* out) const {
    std::uint8_t le[byte_count] = {};
    to_bytes_le(le);
    for (std::size_t i = 0; i < byte_count; ++i) out[i] = le[byte_count - 1 - i];
  }
  /// Reads byte_count little-endian bytes of a canonical value; false (and no change) if the value is >= p.
  PL_HD constexpr bool from_bytes_le(const std::uint8_t* in) {
    Int value;
    for (std::size_t i = 0; i < byte_count; ++i)
      value.limb[i / 8] |= static_cast<std::uint64_t>(in[i]) << (8 * (i % 8));
    if (!is_canonical(value)) return false;
    *this = from_canonical(value);
    return true;
  }
  PL_HD constexpr bool from_bytes_be(const std::uint8_t* in) {
    std::uint8_t le[byte_count] = {};
    for (std::size_t i = 0; i < byte_count; ++i) le[i] = in[byte_count - 1 - i];
    return from_bytes_le(le);
  }

 private:
  /// Subtracts p once if this >= p (inputs < 2p).
  PL_HD_INLINE constexpr void reduce_once() {
    constexpr Int p = modulus;
    std::uint64_t reduced[N] = {};
    std::uint64_t borrow = 0;
    PL_UNROLL for (std::size_t i = 0; i < N; ++i) reduced[i] = detail::sub_borrow(limb[i], p.limb[i], borrow);
    if (!borrow) {
      PL_UNROLL for (std::size_t i = 0; i < N; ++i) limb[i] = reduced[i];
    }
  }
};

#undef PL_DEVICE_FIELD_OP
#undef PL_DEVICE_FIELD_PRODUCT_DIFFERENCE

}  // namespace proofline
