// BigInt<N> and the limb primitives against GMP (arithmetic mod 2^(64N)) on limb patterns that force carries
// and borrows across every limb, plus fresh random values.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <proofline/arith/bigint.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

constexpr int kRandomInputs = 2000;

mpz_class u64_mpz(std::uint64_t value) {
  return to_mpz(BigInt<1>::from_u64(value));
}

template <std::size_t N>
std::vector<BigInt<N>> edges_and_random(Rng& rng) {
  std::vector<BigInt<N>> values;
  BigInt<N> all_ones;
  for (auto& limb : all_ones.limb) limb = ~std::uint64_t{0};
  values.push_back(BigInt<N>{});
  values.push_back(BigInt<N>::from_u64(1));
  values.push_back(all_ones);
  for (std::size_t i = 0; i < N; ++i) {
    BigInt<N> single_ones, low_ones = all_ones, top_bit;
    single_ones.limb[i] = ~std::uint64_t{0};
    for (std::size_t j = i; j < N; ++j) low_ones.limb[j] = 0;
    top_bit.limb[i] = std::uint64_t{1} << 63;
    values.push_back(single_ones);
    values.push_back(low_ones);  // 2^(64 i) - 1
    values.push_back(top_bit);
  }
  for (int i = 0; i < kRandomInputs; ++i) {
    if (i % 2 == 0) {
      values.push_back(random_patterned<N>(rng));
    } else {
      values.push_back(to_bigint<N>(random_mpz_bits(rng, 1 + rng() % (64 * N))));
    }
  }
  return values;
}

template <std::size_t N>
void check_add_sub_compare(Rng& rng) {
  const auto values = edges_and_random<N>(rng);
  const mpz_class modulus = pow2(64 * N);
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Pair each value with several partners, including itself and its neighbours in the edge list.
    for (std::size_t step : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{97}}) {
      const BigInt<N>& a = values[i];
      const BigInt<N>& b = values[(i + step) % values.size()];
      const mpz_class va = to_mpz(a), vb = to_mpz(b);
      CAPTURE(a);
      CAPTURE(b);
      BigInt<N> sum = a;
      const std::uint64_t carry = sum.add_in_place(b);
      CHECK(to_mpz(sum) == mod(va + vb, modulus));
      CHECK(carry == (va + vb >= modulus ? 1u : 0u));
      BigInt<N> difference = a;
      const std::uint64_t borrow = difference.sub_in_place(b);
      CHECK(to_mpz(difference) == mod(va - vb, modulus));
      CHECK(borrow == (va < vb ? 1u : 0u));
      CHECK((a == b) == (va == vb));
      CHECK((a != b) == (va != vb));
      CHECK((a < b) == (va < vb));
      CHECK((a >= b) == (va >= vb));
    }
  }
}

template <std::size_t N>
void check_shifts_and_bits(Rng& rng) {
  const mpz_class modulus = pow2(64 * N);
  for (const auto& a : edges_and_random<N>(rng)) {
    const mpz_class va = to_mpz(a);
    CAPTURE(a);
    BigInt<N> right = a, left = a;
    right.shift_right_1();
    left.shift_left_1();
    CHECK(to_mpz(right) == va / 2);
    CHECK(to_mpz(left) == mod(va * 2, modulus));
    CHECK(a.bit_length() == (va == 0 ? 0 : mpz_sizeinbase(va.get_mpz_t(), 2)));
    CHECK(a.is_zero() == (va == 0));
  }
  // Every bit index and every window position, including windows that straddle limbs and run off the top.
  for (int sample = 0; sample < 20; ++sample) {
    const BigInt<N> a = random_patterned<N>(rng);
    const mpz_class va = to_mpz(a);
    CAPTURE(a);
    for (std::size_t index = 0; index < 64 * N + 70; ++index) {
      CAPTURE(index);
      CHECK(a.bit(index) == (mpz_tstbit(va.get_mpz_t(), index) != 0));
      for (std::size_t width : {1, 2, 5, 8, 16, 31, 32}) {
        CAPTURE(width);
        const mpz_class expected = mod(va >> index, pow2(width));
        CHECK(u64_mpz(a.bits(index, width)) == expected);
      }
    }
  }
}

}  // namespace

TEST_CASE("arith/bigint/limb primitives match 128-bit arithmetic") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  using detail::uint128;
  const std::vector<std::uint64_t> edges = {
      0, 1, 2, std::uint64_t{1} << 63, ~std::uint64_t{0}, ~std::uint64_t{0} - 1};
  std::vector<std::uint64_t> words = edges;
  for (int i = 0; i < kRandomInputs; ++i) words.push_back(rng() >> (rng() % 64));
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::uint64_t a = words[i], b = words[(i * 31 + 7) % words.size()];
    const std::uint64_t c = words[(i * 17 + 3) % words.size()], d = words[(i * 13 + 5) % words.size()];
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(c);
    CAPTURE(d);
    for (std::uint64_t carry_in : {std::uint64_t{0}, std::uint64_t{1}}) {
      std::uint64_t carry = carry_in;
      const std::uint64_t sum = detail::add_carry(a, b, carry);
      const uint128 wide_sum = uint128(a) + b + carry_in;
      CHECK(sum == static_cast<std::uint64_t>(wide_sum));
      CHECK(carry == static_cast<std::uint64_t>(wide_sum >> 64));
      std::uint64_t borrow = carry_in;
      const std::uint64_t difference = detail::sub_borrow(a, b, borrow);
      CHECK(difference == static_cast<std::uint64_t>(uint128(a) - b - carry_in));
      CHECK(borrow == (uint128(a) < uint128(b) + carry_in ? 1u : 0u));
    }
    std::uint64_t lo = 0, hi = 0;
    detail::mul_wide(a, b, lo, hi);
    CHECK(((uint128(hi) << 64) | lo) == uint128(a) * b);
    std::uint64_t carry = d;
    const std::uint64_t low = detail::mac(c, a, b, carry);
    const uint128 expected = uint128(a) * b + c + d;  // at most 2^128 - 1
    CHECK(low == static_cast<std::uint64_t>(expected));
    CHECK(carry == static_cast<std::uint64_t>(expected >> 64));
  }
  // The extreme case of mac: (2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1.
  std::uint64_t carry = ~std::uint64_t{0};
  CHECK(detail::mac(~std::uint64_t{0}, ~std::uint64_t{0}, ~std::uint64_t{0}, carry) == ~std::uint64_t{0});
  CHECK(carry == ~std::uint64_t{0});
}

TEST_CASE("arith/bigint/add and sub carries borrows and comparisons match gmp") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_add_sub_compare<1>(rng);
  check_add_sub_compare<4>(rng);
  check_add_sub_compare<6>(rng);
}

TEST_CASE("arith/bigint/shifts bit bits and bit_length match gmp at limb boundaries") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_shifts_and_bits<1>(rng);
  check_shifts_and_bits<4>(rng);
  check_shifts_and_bits<6>(rng);
}

TEST_CASE("arith/bigint/from_hex and from_u64") {
  static_assert(BigInt<1>::from_hex("0xff").limb[0] == 255);
  static_assert(BigInt<2>::from_hex("1"
                                    "0000000000000000")
                    .limb[1] == 1);
  CHECK(to_mpz(BigInt<1>::from_u64(0x0123456789abcdef)) == from_hex_text("0x0123456789abcdef"));
  CHECK(to_mpz(BigInt<4>::from_u64(~std::uint64_t{0})) == pow2(64) - 1);
  const char* texts[] = {"0x0",
                         "0",
                         "0X1",
                         "deadBEEF",
                         "0x10000000000000000",
                         "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
                         "0x00000000000000000000000000000000000000000000000000000000000000000000000001"};
  for (const char* text : texts) {
    CAPTURE(text);
    CHECK(to_mpz(BigInt<4>::from_hex(text)) == from_hex_text(text));
  }
  // Outside constant expressions the errors surface as exceptions.
  CHECK_THROWS(BigInt<1>::from_hex("0x1g"));
  CHECK_THROWS(BigInt<1>::from_hex("0x10000000000000000"));
  CHECK_THROWS(BigInt<4>::from_hex("0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"));
}
