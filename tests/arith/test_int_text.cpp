// Hexadecimal and decimal text of big integers and field elements against GMP's own formatting and parsing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/int_text.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

constexpr int kRandomInputs = 1000;

template <std::size_t N>
std::vector<mpz_class> edges_and_random(Rng& rng) {
  std::vector<mpz_class> values = {
      0, 1, 9, 10, 15, 16, pow2(64) - 1, pow2(64), pow2(64 * N) - 1, pow2(64 * N - 1)};
  std::erase_if(values, [](const mpz_class& v) { return v >= pow2(64 * N); });  // 2^64 for N = 1
  for (int i = 0; i < kRandomInputs; ++i) {
    values.push_back(i % 2 == 0 ? to_mpz(random_patterned<N>(rng))
                                : random_mpz_bits(rng, 1 + rng() % (64 * N)));
  }
  return values;
}

template <std::size_t N>
void check_round_trips(Rng& rng) {
  for (const auto& v : edges_and_random<N>(rng)) {
    const BigInt<N> value = to_bigint<N>(v);
    CAPTURE(v);
    const std::string hex = to_hex(value), decimal = to_decimal(value);
    CHECK(hex == "0x" + v.get_str(16));
    CHECK(decimal == v.get_str(10));
    const auto from_hex = parse_hex<N>(hex);
    const auto from_bare_hex = parse_hex<N>(hex.substr(2));
    const auto from_decimal = parse_decimal<N>(decimal);
    REQUIRE(from_hex.has_value());
    REQUIRE(from_bare_hex.has_value());
    REQUIRE(from_decimal.has_value());
    CHECK(*from_hex == value);
    CHECK(*from_bare_hex == value);
    CHECK(*from_decimal == value);
    std::string upper = "0X" + v.get_str(16);
    for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const auto from_upper = parse_hex<N>(upper);
    REQUIRE(from_upper.has_value());
    CHECK(*from_upper == value);
  }
}

template <std::size_t N>
void check_rejections() {
  const mpz_class too_wide = pow2(64 * N);
  const std::string decimal_max = mpz_class(too_wide - 1).get_str(10);
  const std::string hex_max = mpz_class(too_wide - 1).get_str(16);
  CHECK(parse_decimal<N>(decimal_max).has_value());
  CHECK(parse_hex<N>(hex_max).has_value());
  for (const std::string& text :
       {std::string(""), std::string("-1"), std::string("+1"), std::string(" 1"), std::string("1 "),
        std::string("12a"), std::string("0x10"), std::string("1.0"), std::string("1e3"), too_wide.get_str(10),
        mpz_class(too_wide * 10).get_str(10), mpz_class(too_wide + 12345).get_str(10)}) {
    CAPTURE(text);
    CHECK_FALSE(parse_decimal<N>(text).has_value());
  }
  for (const std::string& text :
       {std::string(""), std::string("0x"), std::string("0X"), std::string("x1"), std::string("0x-1"),
        std::string("-0x1"), std::string("0x1g"), std::string("0x 1"), std::string("0xx1"), std::string("g"),
        "0x" + too_wide.get_str(16), "0x" + mpz_class(too_wide * 16 - 1).get_str(16)}) {
    CAPTURE(text);
    CHECK_FALSE(parse_hex<N>(text).has_value());
  }
  // Leading zeros do not count towards the width.
  const auto padded_decimal = parse_decimal<N>(std::string(40 * N, '0') + "7");
  REQUIRE(padded_decimal.has_value());
  CHECK(*padded_decimal == BigInt<N>::from_u64(7));
  const auto padded_hex = parse_hex<N>("0x" + std::string(20 * N, '0') + "7");
  REQUIRE(padded_hex.has_value());
  CHECK(*padded_hex == BigInt<N>::from_u64(7));
}

template <class F>
void check_field_text(Rng& rng) {
  using O = FieldOracle<F>;
  const mpz_class& p = O::p();
  for (const auto& v : O::edge_values()) {
    CAPTURE(v);
    const auto element = field_from_decimal<F>(v.get_str(10));
    REQUIRE(element.has_value());
    CHECK(*element == O::element(v));
    CHECK(field_to_decimal(*element) == v.get_str(10));
  }
  for (int i = 0; i < kRandomInputs; ++i) {
    const mpz_class v = O::random_value(rng);
    CAPTURE(v);
    const auto element = field_from_decimal<F>(v.get_str(10));
    REQUIRE(element.has_value());
    CHECK(*element == O::element(v));
    CHECK(field_to_decimal(O::element(v)) == v.get_str(10));
  }
  for (const mpz_class& v :
       {mpz_class(p), mpz_class(p + 1), mpz_class(2 * p), mpz_class(pow2(64 * F::N) - 1)}) {
    CAPTURE(v);
    CHECK_FALSE(field_from_decimal<F>(v.get_str(10)).has_value());
  }
  CHECK_FALSE(field_from_decimal<F>("").has_value());
  CHECK_FALSE(field_from_decimal<F>("-1").has_value());
  CHECK_FALSE(field_from_decimal<F>(mpz_class(pow2(64 * F::N)).get_str(10)).has_value());
}

}  // namespace

TEST_CASE("arith/text/hex and decimal round trips match gmp") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_round_trips<1>(rng);
  check_round_trips<4>(rng);
  check_round_trips<6>(rng);
  check_round_trips<8>(rng);
  check_round_trips<12>(rng);
  CHECK(to_hex(BigInt<4>{}) == "0x0");
  CHECK(to_decimal(BigInt<4>{}) == "0");
}

TEST_CASE("arith/text/parsers reject empty non-digit and overflowing input") {
  check_rejections<1>();
  check_rejections<4>();
  check_rejections<6>();
  check_rejections<8>();
  check_rejections<12>();
}

TEST_CASE("arith/text/field_from_decimal accepts exactly the canonical range") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_field_text<Fr>(rng);
  check_field_text<Fp>(rng);
}
