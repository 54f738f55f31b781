// Fr and Fp operations against GMP on edge values and on thousands of fresh random inputs per operation.
// Results are compared by limbs with the oracle's fully reduced element, so a correct value left unreduced
// (>= p) also fails.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/random.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

constexpr int kRandomInputs = 2000;

template <class F>
std::vector<mpz_class> edges_and_random(Rng& rng, int random_count) {
  std::vector<mpz_class> values = FieldOracle<F>::edge_values();
  for (int i = 0; i < random_count; ++i) values.push_back(FieldOracle<F>::random_value(rng));
  return values;
}

/// Edge x edge, edge x random, random x random.
template <class F, class Check>
void for_pairs(Rng& rng, Check&& check) {
  using O = FieldOracle<F>;
  const auto edges = O::edge_values();
  for (const auto& a : edges) {
    for (const auto& b : edges) check(a, b);
  }
  for (int i = 0; i < kRandomInputs; ++i) {
    const mpz_class random = O::random_value(rng);
    const mpz_class& edge = edges[i % edges.size()];
    check(edge, random);
    check(random, edge);
    check(random, O::random_value(rng));
  }
}

template <class F>
void check_add_sub_neg_double() {
  using O = FieldOracle<F>;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for_pairs<F>(rng, [](const mpz_class& va, const mpz_class& vb) {
    const F a = O::element(va), b = O::element(vb);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(a + b == O::element(va + vb));
    CHECK(a - b == O::element(va - vb));
    F sum = a;
    sum += b;
    CHECK(sum == O::element(va + vb));
    F difference = a;
    difference -= b;
    CHECK(difference == O::element(va - vb));
  });
  for (const auto& v : edges_and_random<F>(rng, kRandomInputs)) {
    const F a = O::element(v);
    CAPTURE(a);
    CHECK(-a == O::element(-v));
    CHECK(a.doubled() == O::element(2 * v));
    CHECK(a + (-a) == F::zero());
    F self = a;
    self += self;  // aliasing
    CHECK(self == O::element(2 * v));
    self = a;
    self -= self;
    CHECK(self == F::zero());
  }
  CHECK(-F::zero() == F::zero());
}

template <class F>
void check_mul_square() {
  using O = FieldOracle<F>;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for_pairs<F>(rng, [](const mpz_class& va, const mpz_class& vb) {
    const F a = O::element(va), b = O::element(vb);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(a * b == O::element(va * vb));
    F product = a;
    product *= b;
    CHECK(product == O::element(va * vb));
  });
  for (const auto& v : edges_and_random<F>(rng, kRandomInputs)) {
    const F a = O::element(v);
    CAPTURE(a);
    CHECK(a.squared() == O::element(v * v));
    F self = a;
    self *= self;  // aliasing
    CHECK(self == O::element(v * v));
    CHECK(a * F::one() == a);
    CHECK(a * F::zero() == F::zero());
  }
}

template <class F, std::size_t M>
void check_pow_exponent(const mpz_class& base, const mpz_class& exponent) {
  using O = FieldOracle<F>;
  const F a = O::element(base);
  const BigInt<M> e = to_bigint<M>(exponent);
  CAPTURE(a);
  CAPTURE(e);
  CHECK(a.pow(e) == O::element(powm(base, exponent, O::p())));
}

/// Runs the exponent at the narrowest limb count that holds it, and at 8 limbs (zero high limbs).
template <class F>
void check_pow_any_width(const mpz_class& base, const mpz_class& exponent) {
  const std::size_t bits = exponent == 0 ? 0 : mpz_sizeinbase(exponent.get_mpz_t(), 2);
  if (bits <= 64) {
    check_pow_exponent<F, 1>(base, exponent);
  } else if (bits <= 128) {
    check_pow_exponent<F, 2>(base, exponent);
  } else if (bits <= 256) {
    check_pow_exponent<F, 4>(base, exponent);
  } else if (bits <= 384) {
    check_pow_exponent<F, 6>(base, exponent);
  }
  check_pow_exponent<F, 8>(base, exponent);
}

template <class F>
void check_pow() {
  using O = FieldOracle<F>;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const mpz_class& p = O::p();
  const std::vector<mpz_class> fixed_exponents = {0,
                                                  1,
                                                  2,
                                                  3,
                                                  pow2(64) - 1,
                                                  pow2(64),
                                                  p - 2,
                                                  p - 1,
                                                  p,
                                                  p + 1,
                                                  pow2(256) - 1,
                                                  pow2(384) - 1,
                                                  pow2(512) - 1};
  const std::vector<unsigned> widths = {1,   2,   17,  63,  64,  65,  127, 128,
                                        129, 200, 255, 256, 381, 384, 500, 512};
  const auto edges = O::edge_values();
  for (const auto& base : edges) {
    for (const auto& exponent : fixed_exponents) check_pow_any_width<F>(base, exponent);
  }
  for (int i = 0; i < kRandomInputs; ++i) {
    const mpz_class base = i % 4 == 0 ? edges[i / 4 % edges.size()] : O::random_value(rng);
    const unsigned width = widths[rng() % widths.size()];
    const mpz_class exponent = pow2(width - 1) + random_mpz_bits(rng, width - 1);  // exactly `width` bits
    check_pow_any_width<F>(base, exponent);
  }
  for (int i = 0; i < 200; ++i) {
    const mpz_class base = O::random_value(rng);
    const std::uint64_t exponent = i < 3 ? std::uint64_t(i) : rng() >> (rng() % 64);
    const F a = O::element(base);
    CAPTURE(a);
    CAPTURE(exponent);
    CHECK(a.pow(exponent) == O::element(powm(base, mpz_class(std::to_string(exponent)), p)));
  }
}

template <class F>
void check_inverse() {
  using O = FieldOracle<F>;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  CHECK(F::zero().inverse() == F::zero());
  for (const auto& v : edges_and_random<F>(rng, kRandomInputs)) {
    const F a = O::element(v);
    CAPTURE(a);
    CHECK(a.inverse() == O::element(invert(v, O::p())));
    if (v != 0) CHECK(a * a.inverse() == F::one());
  }
}

template <class F>
void check_legendre() {
  using O = FieldOracle<F>;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  int counts[3] = {};
  for (const auto& v : edges_and_random<F>(rng, kRandomInputs)) {
    const F a = O::element(v);
    CAPTURE(a);
    const int expected = mpz_legendre(v.get_mpz_t(), O::p().get_mpz_t());
    CHECK(a.legendre() == expected);
    if (v != 0) CHECK(a.squared().legendre() == 1);
    ++counts[expected + 1];
  }
  // Both symbols must actually have been exercised.
  CHECK(counts[0] > kRandomInputs / 4);
  CHECK(counts[2] > kRandomInputs / 4);
}

template <class F>
void check_montgomery_and_canonical() {
  using O = FieldOracle<F>;
  constexpr std::size_t N = F::N;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  CHECK(to_mpz(F::zero().montgomery()) == 0);
  CHECK(to_mpz(F::one().montgomery()) == O::r());
  CHECK(F::one() == O::element(1));
  CHECK(F::one().is_one());
  CHECK_FALSE(F::zero().is_one());
  CHECK(F::zero().is_zero());
  CHECK_FALSE(F::one().is_zero());
  for (const auto& v : edges_and_random<F>(rng, kRandomInputs)) {
    CAPTURE(v);
    const F a = F::from_canonical(to_bigint<N>(v));
    CHECK(to_mpz(a.montgomery()) == mod(v * O::r(), O::p()));
    CHECK(a == O::element(v));
    CHECK(a.canonical() == to_bigint<N>(v));
    CHECK(F::from_montgomery(a.montgomery()) == a);
    CHECK(a.is_zero() == (v == 0));
    CHECK(a.is_one() == (v == 1));
    CHECK(F::is_canonical(to_bigint<N>(v)));
    // The element whose Montgomery limbs are v: canonical() must undo the R factor.
    CHECK(to_mpz(F::from_montgomery(to_bigint<N>(v)).canonical()) == mod(v * O::r_inv(), O::p()));
  }
  const mpz_class& p = O::p();
  for (const mpz_class& v :
       {mpz_class(p), mpz_class(p + 1), mpz_class(2 * p - 1), mpz_class(pow2(64 * N) - 1)}) {
    CAPTURE(v);
    CHECK_FALSE(F::is_canonical(to_bigint<N>(v)));
  }
  std::vector<std::uint64_t> words = {
      0, 1, 2, 0xffffffff, std::uint64_t{1} << 32, std::uint64_t{1} << 63, ~std::uint64_t{0}};
  for (int i = 0; i < 100; ++i) words.push_back(rng());
  for (std::uint64_t word : words) {
    CAPTURE(word);
    CHECK(F::from_u64(word) == O::element(mpz_class(std::to_string(word))));
  }
}

template <std::size_t Size>
std::string hex_bytes(const std::array<std::uint8_t, Size>& bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t byte : bytes) {
    out.push_back(digits[byte >> 4]);
    out.push_back(digits[byte & 0xf]);
  }
  return out;
}

/// v as `Size` little-endian bytes, computed by GMP (v < 2^(8 Size)).
template <std::size_t Size>
std::array<std::uint8_t, Size> le_bytes(const mpz_class& v) {
  std::array<std::uint8_t, Size> out{};
  std::size_t count = 0;
  REQUIRE(mpz_sizeinbase(v.get_mpz_t(), 256) <= Size);
  mpz_export(out.data(), &count, -1, 1, 0, 0, v.get_mpz_t());
  return out;
}

template <std::size_t Size>
std::array<std::uint8_t, Size> reversed(std::array<std::uint8_t, Size> bytes) {
  std::array<std::uint8_t, Size> out{};
  for (std::size_t i = 0; i < Size; ++i) out[i] = bytes[Size - 1 - i];
  return out;
}

template <class F>
void check_bytes() {
  using O = FieldOracle<F>;
  constexpr std::size_t B = F::byte_count;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (const auto& v : edges_and_random<F>(rng, kRandomInputs)) {
    const F a = O::element(v);
    CAPTURE(a);
    const auto expected_le = le_bytes<B>(v);
    std::array<std::uint8_t, B> le{}, be{};
    a.to_bytes_le(le.data());
    a.to_bytes_be(be.data());
    CHECK(hex_bytes(le) == hex_bytes(expected_le));
    CHECK(hex_bytes(be) == hex_bytes(reversed(expected_le)));
    F from_le = F::one(), from_be = F::one();
    CHECK(from_le.from_bytes_le(le.data()));
    CHECK(from_le == a);
    CHECK(from_be.from_bytes_be(be.data()));
    CHECK(from_be == a);
  }
  // Every value in [p, 2^(8B)) is rejected, and the target is left unchanged.
  const mpz_class& p = O::p();
  std::vector<mpz_class> too_large = {p,
                                      p + 1,
                                      p + 2,
                                      2 * p - 1,
                                      pow2(8 * B) - 1,
                                      pow2(8 * B - 1),
                                      pow2(8 * B - 1) - 1,
                                      p + pow2(64) - 1,
                                      pow2(F::modulus_bits) - 1,
                                      pow2(F::modulus_bits)};
  for (int i = 0; i < 200; ++i) too_large.push_back(p + mod(random_mpz_bits(rng, 8 * B), pow2(8 * B) - p));
  const F sentinel = O::element(12345);
  for (const auto& v : too_large) {
    CAPTURE(v);
    REQUIRE((v >= p && v < pow2(8 * B)));
    const auto le = le_bytes<B>(v);
    const auto be = reversed(le);
    F target = sentinel;
    CHECK_FALSE(target.from_bytes_le(le.data()));
    CHECK(target == sentinel);
    CHECK_FALSE(target.from_bytes_be(be.data()));
    CHECK(target == sentinel);
  }
}

template <class F>
void check_random_field() {
  using O = FieldOracle<F>;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  constexpr int draws = 4000;
  const mpz_class half = O::p() / 2;
  int below_half = 0;
  std::size_t widest = 0;
  for (int i = 0; i < draws; ++i) {
    const F a = random_field<F>(rng);
    CHECK(O::reduced(a));
    const mpz_class v = O::value(a);
    below_half += v < half;
    if (v != 0) widest = std::max(widest, mpz_sizeinbase(v.get_mpz_t(), 2));
  }
  // Uniform on [0, p): the top bit appears, and half the draws fall below p/2 (6 sigma band).
  CHECK(widest == F::modulus_bits);
  CHECK(below_half > draws / 2 - 300);
  CHECK(below_half < draws / 2 + 300);
}

void check_fp_sqrt() {
  using O = FpOracle;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  int squares = 0, non_squares = 0;
  for (const auto& v : edges_and_random<Fp>(rng, kRandomInputs)) {
    const Fp a = O::element(v);
    CAPTURE(a);
    const bool is_square = mpz_legendre(v.get_mpz_t(), O::p().get_mpz_t()) != -1;
    Fp root = Fp::zero();
    const bool found = a.sqrt(root);
    CHECK(found == is_square);
    if (found) {
      CAPTURE(root);
      CHECK(root.squared() == a);
      CHECK(mod(O::value(root) * O::value(root), O::p()) == v);
      CHECK(O::reduced(root));
    }
    (is_square ? squares : non_squares)++;
  }
  CHECK(squares > kRandomInputs / 4);
  CHECK(non_squares > kRandomInputs / 4);
  // Squares of known roots: the root found is y or -y.
  for (int i = 0; i < kRandomInputs; ++i) {
    const mpz_class y = O::random_value(rng);
    const Fp a = O::element(y * y);
    CAPTURE(a);
    Fp root = Fp::zero();
    REQUIRE(a.sqrt(root));
    const mpz_class found = O::value(root);
    CHECK((found == y || found == mod(-y, O::p())));
  }
}

}  // namespace

TEST_CASE("arith/fr/add sub neg and double match gmp") {
  check_add_sub_neg_double<Fr>();
}
TEST_CASE("arith/fp/add sub neg and double match gmp") {
  check_add_sub_neg_double<Fp>();
}
TEST_CASE("arith/fr/mul and square match gmp") {
  check_mul_square<Fr>();
}
TEST_CASE("arith/fp/mul and square match gmp") {
  check_mul_square<Fp>();
}
TEST_CASE("arith/fr/pow matches gmp for exponents of several widths") {
  check_pow<Fr>();
}
TEST_CASE("arith/fp/pow matches gmp for exponents of several widths") {
  check_pow<Fp>();
}
TEST_CASE("arith/fr/inverse matches gmp and the inverse of zero is zero") {
  check_inverse<Fr>();
}
TEST_CASE("arith/fp/inverse matches gmp and the inverse of zero is zero") {
  check_inverse<Fp>();
}
TEST_CASE("arith/fr/legendre matches gmp") {
  check_legendre<Fr>();
}
TEST_CASE("arith/fp/legendre matches gmp") {
  check_legendre<Fp>();
}
TEST_CASE("arith/fp/sqrt exists exactly for squares and squares back") {
  check_fp_sqrt();
}
TEST_CASE("arith/fr/montgomery conversion and canonical round trip") {
  check_montgomery_and_canonical<Fr>();
}
TEST_CASE("arith/fp/montgomery conversion and canonical round trip") {
  check_montgomery_and_canonical<Fp>();
}
TEST_CASE("arith/fr/bytes round trip and values from p up are rejected") {
  check_bytes<Fr>();
}
TEST_CASE("arith/fp/bytes round trip and values from p up are rejected") {
  check_bytes<Fp>();
}
TEST_CASE("arith/fr/random_field is reduced and uniform over the range") {
  check_random_field<Fr>();
}
TEST_CASE("arith/fp/random_field is reduced and uniform over the range") {
  check_random_field<Fp>();
}
