// Known answers for Fr and Fp: the moduli, Montgomery constants and roots of unity against the published
// BLS12-381 values (zkcrypto/bls12_381, arkworks) and snarkjs's (ffjavascript's) root, re-derived with GMP
// where a derivation exists; and evaluation of the field code in constant expressions.
#include <doctest/doctest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include <proofline/arith/fp.hpp>
#include <proofline/arith/fp2.hpp>
#include <proofline/arith/fr.hpp>

#include "arith/fr_known_values.hpp"
#include "arith/gmp_oracle.hpp"

using namespace proofline;
using namespace proofline::test;

namespace {

constexpr const char* kP =
    "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
constexpr const char* kFpMontR =
    "0x15f65ec3fa80e4935c071a97a256ec6d77ce5853705257455f48985753c758baebf4000bc40c0002760900000002fffd";
constexpr const char* kFpMontR2 =
    "0x11988fe592cae3aa9a793e85b519952d67eb88a9939d83c08de5476c4c95b6d50a76e6a609d104f1f4df1f341c341746";
constexpr std::uint64_t kFpInv = 0x89f3fffcfffcfffd;

// r - 1 = 2^32 * 3 * 11 * 19 * 10177 * 125527 * 859267 * 906349^2 * 2508409 * 2529403 * 52437899 *
// 254760293^2.
const std::vector<std::pair<unsigned long, unsigned>> kFrMinusOneFactors = {
    {2, 32},     {3, 1},      {11, 1},      {19, 1},      {10177, 1},    {125527, 1},
    {859267, 1}, {906349, 2}, {2508409, 1}, {2529403, 1}, {52437899, 1}, {254760293, 2}};

Fr fr_from_hex(const char* hex) {
  return FrOracle::element(from_hex_text(hex));
}

// ---- constant expressions: these fail the build, not the run, if the code stops being constexpr ----------

constexpr Fr kConstOne = Fr::one() * Fr::one();
static_assert(kConstOne == Fr::one());
static_assert(Fr::from_u64(2) + Fr::from_u64(3) == Fr::from_u64(5));
static_assert(Fr::from_u64(6) * Fr::from_u64(7) == Fr::from_u64(42));
static_assert(Fr::from_u64(3) - Fr::from_u64(5) == -Fr::from_u64(2));
static_assert(Fr::from_u64(7).inverse() * Fr::from_u64(7) == Fr::one());
static_assert(Fr::from_u64(42).canonical() == BigInt<4>::from_u64(42));
constexpr Fr kConstOmega7 = Fr::from_u64(7).pow(BigInt<4>::from_hex(kFrT));
static_assert(kConstOmega7.canonical() == BigInt<4>::from_hex(kOmega7));
static_assert(kConstOmega7.pow(std::uint64_t{1} << 31) == -Fr::one());
static_assert(Fr::inv == kFrInv);
static_assert(Fp::inv == kFpInv);
static_assert(Fr::modulus_bits == 255 && Fr::byte_count == 32);
static_assert(Fp::modulus_bits == 381 && Fp::byte_count == 48);
static_assert(Fp::from_u64(4).legendre() == 1);
constexpr bool fp_sqrt_of_nine() {
  Fp root = Fp::zero();
  return Fp::from_u64(9).sqrt(root) && (root == Fp::from_u64(3) || root == -Fp::from_u64(3));
}
static_assert(fp_sqrt_of_nine());
constexpr Fp2 kConstU = {Fp::zero(), Fp::one()};
static_assert(kConstU * kConstU == -Fp2::one());

}  // namespace

TEST_CASE("arith/fr/modulus and montgomery constants match the reference") {
  const mpz_class r = from_hex_text(kR);
  CHECK(to_mpz(Fr::modulus) == r);
  CHECK(mpz_probab_prime_p(r.get_mpz_t(), 30) != 0);
  CHECK(Fr::modulus_bits == 255);
  CHECK(mpz_sizeinbase(r.get_mpz_t(), 2) == 255);
  CHECK(Fr::byte_count == 32);
  CHECK(to_mpz(Fr::r_mod) == from_hex_text(kFrMontR));
  CHECK(to_mpz(Fr::r_mod) == mod(pow2(256), r));
  CHECK(to_mpz(Fr::r2_mod) == from_hex_text(kFrMontR2));
  CHECK(to_mpz(Fr::r2_mod) == mod(pow2(512), r));
  CHECK(Fr::inv == kFrInv);
  CHECK(Fr::inv * Fr::modulus.limb[0] == ~std::uint64_t{0});  // -r^-1 * r = -1 mod 2^64
  CHECK(to_mpz(Fr::one().montgomery()) == from_hex_text(kFrMontR));
}

TEST_CASE("arith/fp/modulus and montgomery constants match the reference") {
  const mpz_class p = from_hex_text(kP);
  CHECK(to_mpz(Fp::modulus) == p);
  CHECK(mpz_probab_prime_p(p.get_mpz_t(), 30) != 0);
  CHECK(Fp::modulus_bits == 381);
  CHECK(mpz_sizeinbase(p.get_mpz_t(), 2) == 381);
  CHECK(Fp::byte_count == 48);
  CHECK(to_mpz(Fp::r_mod) == from_hex_text(kFpMontR));
  CHECK(to_mpz(Fp::r_mod) == mod(pow2(384), p));
  CHECK(to_mpz(Fp::r2_mod) == from_hex_text(kFpMontR2));
  CHECK(to_mpz(Fp::r2_mod) == mod(pow2(768), p));
  CHECK(Fp::inv == kFpInv);
  CHECK(Fp::inv * Fp::modulus.limb[0] == ~std::uint64_t{0});
  CHECK(to_mpz(Fp::one().montgomery()) == from_hex_text(kFpMontR));
  // Fp::sqrt and the Fp2 tower (u^2 = -1) rely on p = 3 mod 4, which makes -1 a non-square.
  CHECK(mpz_fdiv_ui(p.get_mpz_t(), 4) == 3);
  CHECK((-Fp::one()).legendre() == -1);
}

TEST_CASE("arith/fr/moduli follow from the bls parameter z") {
  // z = -0xd201000000010000; r = z^4 - z^2 + 1; p = (z - 1)^2 r / 3 + z.
  const mpz_class z = -from_hex_text("0xd201000000010000");
  const mpz_class r = z * z * z * z - z * z + 1;
  const mpz_class numerator = (z - 1) * (z - 1) * r;
  CHECK(mpz_divisible_ui_p(numerator.get_mpz_t(), 3) != 0);
  CHECK(to_mpz(Fr::modulus) == r);
  CHECK(to_mpz(Fp::modulus) == numerator / 3 + z);
}

TEST_CASE("arith/fr/two-adicity is 32 and 7 generates the multiplicative group") {
  const mpz_class r = to_mpz(Fr::modulus);
  const mpz_class t = from_hex_text(kFrT);
  CHECK(fr_two_adicity == 32);
  CHECK(r - 1 == pow2(32) * t);
  CHECK(mpz_odd_p(t.get_mpz_t()) != 0);
  CHECK(mpz_scan1(mpz_class(r - 1).get_mpz_t(), 0) == 32);

  // The published factorisation of r - 1 is complete and its factors are prime ...
  mpz_class product = 1;
  for (const auto& [prime, power] : kFrMinusOneFactors) {
    CAPTURE(prime);
    CHECK(mpz_probab_prime_p(mpz_class(prime).get_mpz_t(), 30) != 0);
    mpz_class prime_power;
    mpz_ui_pow_ui(prime_power.get_mpz_t(), prime, power);
    product *= prime_power;
  }
  CHECK(product == r - 1);
  // ... so 7 is a primitive root iff 7^((r-1)/q) != 1 for every prime q | r - 1 (field code and GMP agree).
  const Fr seven = Fr::from_u64(7);
  for (const auto& [prime, power] : kFrMinusOneFactors) {
    CAPTURE(prime);
    const mpz_class exponent = (r - 1) / prime;
    CHECK_FALSE(seven.pow(to_bigint<4>(exponent)).is_one());
    CHECK(powm(7, exponent, r) != 1);
  }
  CHECK(seven.legendre() == -1);
  CHECK(seven.inverse() == fr_from_hex(kSevenInv));
  // 5 is the smallest non-residue (snarkjs' nqr): 2, 3 and 4 are squares.
  CHECK(Fr::from_u64(2).legendre() == 1);
  CHECK(Fr::from_u64(3).legendre() == 1);
  CHECK(Fr::from_u64(4).legendre() == 1);
  CHECK(Fr::from_u64(5).legendre() == -1);
}

TEST_CASE("arith/fr/both 2^32-th roots of unity match the reference and have exact order 2^32") {
  const BigInt<4> t = to_bigint<4>(from_hex_text(kFrT));
  struct Root {
    std::uint64_t base;
    const char* hex;
  };
  for (const Root& root : {Root{7, kOmega7}, Root{5, kOmega5}}) {
    CAPTURE(root.base);
    const Fr omega = Fr::from_u64(root.base).pow(t);
    CHECK(omega == fr_from_hex(root.hex));
    CHECK(omega.canonical() == to_bigint<4>(from_hex_text(root.hex)));
    CHECK(omega.pow(std::uint64_t{1} << 31) == -Fr::one());  // order is not a divisor of 2^31 ...
    CHECK(omega.pow(std::uint64_t{1} << 32) == Fr::one());   // ... but divides 2^32
    // Squaring 32 times reaches 1 exactly at the last step.
    Fr power = omega;
    for (int i = 0; i < 31; ++i) {
      CHECK_FALSE(power.is_one());
      power = power.squared();
    }
    CHECK(power == -Fr::one());
  }
  const Fr omega7 = fr_from_hex(kOmega7);
  CHECK(to_mpz(omega7.montgomery()) == from_hex_text(kOmega7Mont));
  CHECK(omega7.inverse() == fr_from_hex(kOmega7Inv));
  // The root of a 2^k domain is omega^(2^(32-k)).
  CHECK(omega7.pow(std::uint64_t{1} << 12) == fr_from_hex(kOmega7Pow2_20));
  CHECK(omega7.pow(std::uint64_t{1} << 8) == fr_from_hex(kOmega7Pow2_24));
  CHECK(omega7.pow(std::uint64_t{1} << 5) == fr_from_hex(kOmega7Pow2_27));
  CHECK(omega7.pow(std::uint64_t{1} << 4) == fr_from_hex(kOmega7Pow2_28));
  // snarkjs and arkworks-style code use different roots: mixing them up changes every NTT.
  CHECK(fr_from_hex(kOmega5) != omega7);
}

TEST_CASE("arith/fr/constant expressions agree with run time") {
  Fr seven = Fr::from_u64(7);
  const BigInt<4> t = to_bigint<4>(from_hex_text(kFrT));
  CHECK(kConstOmega7 == seven.pow(t));
  CHECK(kConstOmega7 == fr_from_hex(kOmega7));
  CHECK(kConstOne == FrOracle::element(1));
  CHECK(kConstU == Fp2{Fp::zero(), FpOracle::element(1)});
}
