// Fixed-width unsigned integers of N 64-bit limbs (little-endian limb order), usable on host and device and
// in constant expressions. They hold canonical field values, exponents and scalars; the field types build on
// them.
#pragma once

#include <cstddef>
#include <cstdint>

#include <proofline/arith/config.hpp>

namespace proofline {

namespace detail {

__extension__ typedef unsigned __int128 uint128;  // GCC, Clang and nvcc (host and device) all provide it

/// a + b + carry_in, returning the low 64 bits and leaving the carry (0 or 1) in carry.
PL_HD_INLINE constexpr std::uint64_t add_carry(std::uint64_t a, std::uint64_t b, std::uint64_t& carry) {
  const std::uint64_t sum = a + b;
  const std::uint64_t carry1 = sum < a;
  const std::uint64_t result = sum + carry;
  carry = carry1 | (result < sum);
  return result;
}

/// a - b - borrow_in, returning the low 64 bits and leaving the borrow (0 or 1) in borrow.
PL_HD_INLINE constexpr std::uint64_t sub_borrow(std::uint64_t a, std::uint64_t b, std::uint64_t& borrow) {
  const std::uint64_t diff = a - b;
  const std::uint64_t borrow1 = a < b;
  const std::uint64_t result = diff - borrow;
  borrow = borrow1 | (diff < borrow);
  return result;
}

/// Full 64x64 -> 128-bit product.
PL_HD_INLINE constexpr void mul_wide(std::uint64_t a, std::uint64_t b, std::uint64_t& lo, std::uint64_t& hi) {
  const uint128 product = static_cast<uint128>(a) * b;
  lo = static_cast<std::uint64_t>(product);
  hi = static_cast<std::uint64_t>(product >> 64);
}

/// acc + a * b + carry as a 128-bit quantity: returns the low word, leaves the high word in carry.
PL_HD_INLINE constexpr std::uint64_t mac(std::uint64_t acc, std::uint64_t a, std::uint64_t b,
                                         std::uint64_t& carry) {
  std::uint64_t lo = 0, hi = 0;
  mul_wide(a, b, lo, hi);
  lo += acc;
  hi += lo < acc;
  lo += carry;
  hi += lo < carry;
  carry = hi;
  return lo;
}

constexpr int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

}  // namespace detail

template <std::size_t N>
struct BigInt {
  static constexpr std::size_t limb_count = N;
  static constexpr std::size_t bit_count = 64 * N;

  std::uint64_t limb[N] = {};

  PL_HD static constexpr BigInt from_u64(std::uint64_t value) {
    BigInt out;
    out.limb[0] = value;
    return out;
  }

  /// Parses "0x..." or plain hexadecimal at compile time; digits beyond the width are an error in a
  /// constant expression (the throw makes the evaluation fail).
  static constexpr BigInt from_hex(const char* text) {
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text += 2;
    std::size_t length = 0;
    while (text[length] != '\0') ++length;
    BigInt out;
    std::size_t bit = 0;
    for (std::size_t i = length; i-- > 0;) {
      const int digit = detail::hex_digit(text[i]);
      if (digit < 0) throw "invalid hex digit";
      if (digit != 0 && bit >= bit_count) throw "hex value too wide";
      if (bit < bit_count) out.limb[bit / 64] |= static_cast<std::uint64_t>(digit) << (bit % 64);
      bit += 4;
    }
    return out;
  }

  PL_HD constexpr bool is_zero() const {
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < N; ++i) acc |= limb[i];
    return acc == 0;
  }

  PL_HD constexpr bool bit(std::size_t index) const {
    return index < bit_count && ((limb[index / 64] >> (index % 64)) & 1u);
  }

  /// Number of significant bits (0 for zero).
  PL_HD constexpr std::size_t bit_length() const {
    for (std::size_t i = N; i-- > 0;) {
      if (limb[i] != 0) {
        std::size_t bits = 64;
        while (!((limb[i] >> (bits - 1)) & 1u)) --bits;
        return i * 64 + bits;
      }
    }
    return 0;
  }

  /// Bits [offset, offset + width) as an integer, width <= 32.
  PL_HD constexpr std::uint32_t bits(std::size_t offset, std::size_t width) const {
    if (offset >= bit_count) return 0;
    const std::size_t index = offset / 64, shift = offset % 64;
    std::uint64_t word = limb[index] >> shift;
    if (shift + width > 64 && index + 1 < N) word |= limb[index + 1] << (64 - shift);
    return static_cast<std::uint32_t>(word & ((std::uint64_t{1} << width) - 1));
  }

  /// this += other; returns the carry out.
  PL_HD constexpr std::uint64_t add_in_place(const BigInt& other) {
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < N; ++i) limb[i] = detail::add_carry(limb[i], other.limb[i], carry);
    return carry;
  }

  /// this -= other; returns the borrow out.
  PL_HD constexpr std::uint64_t sub_in_place(const BigInt& other) {
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < N; ++i) limb[i] = detail::sub_borrow(limb[i], other.limb[i], borrow);
    return borrow;
  }

  PL_HD constexpr void shift_right_1() {
    for (std::size_t i = 0; i + 1 < N; ++i) limb[i] = (limb[i] >> 1) | (limb[i + 1] << 63);
    limb[N - 1] >>= 1;
  }

  PL_HD constexpr void shift_left_1() {
    for (std::size_t i = N; i-- > 1;) limb[i] = (limb[i] << 1) | (limb[i - 1] >> 63);
    limb[0] <<= 1;
  }

  PL_HD friend constexpr bool operator==(const BigInt& a, const BigInt& b) {
    std::uint64_t diff = 0;
    for (std::size_t i = 0; i < N; ++i) diff |= a.limb[i] ^ b.limb[i];
    return diff == 0;
  }
  PL_HD friend constexpr bool operator!=(const BigInt& a, const BigInt& b) { return !(a == b); }
  PL_HD friend constexpr bool operator<(const BigInt& a, const BigInt& b) {
    for (std::size_t i = N; i-- > 0;) {
      if (a.limb[i] != b.limb[i]) return a.limb[i] < b.limb[i];
    }
    return false;
  }
  PL_HD friend constexpr bool operator>=(const BigInt& a, const BigInt& b) { return !(a < b); }
};

}  // namespace proofline
