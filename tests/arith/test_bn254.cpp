// BN254 (alt_bn128, snarkjs's bn128) host arithmetic against GMP: the constants derived from u, Fp and Fr
// on random and edge values, Fp2 and Fp12 against a schoolbook model in the w basis (w^6 = 9 + u), the
// curves and their generators, and the optimal ate pairing (bilinearity, non-degeneracy and EIP-197's
// published precompile vectors).
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <proofline/arith/bn254/curve_params.hpp>
#include <proofline/arith/bn254/fp12.hpp>
#include <proofline/arith/bn254/pairing.hpp>
#include <proofline/arith/random.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/seed.hpp"

namespace bn254 = proofline::bn254;  // not `using namespace proofline`: BLS12-381's Fp2, Fp12 share the names
using namespace proofline::test;
using proofline::BigInt;
using namespace proofline::test_support;
using proofline::bn254::Fp12;
using proofline::bn254::Fp2;
using proofline::bn254::Fp6;

namespace {

using BnFp = bn254::Fp;
using BnFr = bn254::Fr;
using BnFpOracle = FieldOracle<BnFp>;
using BnFrOracle = FieldOracle<BnFr>;

const mpz_class kP("21888242871839275222246405745257275088696311157297823662689037894645226208583");
const mpz_class kR("21888242871839275222246405745257275088548364400416034343698204186575808495617");
const mpz_class kU("4965661367192848881");

// ---- GMP model of BN254's Fp2 and Fp12, from the definitions --------------------------------------------

MpzFp2 fp2_reduce(const MpzFp2& a) {
  return {mod(a.c0, kP), mod(a.c1, kP)};
}
MpzFp2 fp2_add(const MpzFp2& a, const MpzFp2& b) {
  return fp2_reduce({a.c0 + b.c0, a.c1 + b.c1});
}
MpzFp2 fp2_mul(const MpzFp2& a, const MpzFp2& b) {
  return fp2_reduce({a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0});  // u^2 = -1
}
MpzFp2 fp2_pow(MpzFp2 base, mpz_class exponent) {
  MpzFp2 result{1, 0};
  while (exponent > 0) {
    if (mpz_odd_p(exponent.get_mpz_t())) result = fp2_mul(result, base);
    base = fp2_mul(base, base);
    exponent >>= 1;
  }
  return result;
}
MpzFp2 fp2_value(const Fp2& x) {
  return {BnFpOracle::value(x.c0), BnFpOracle::value(x.c1)};
}
Fp2 fp2_element(const MpzFp2& x) {
  return {BnFpOracle::element(x.c0), BnFpOracle::element(x.c1)};
}
bool fp2_equal(const MpzFp2& a, const MpzFp2& b) {
  return a.c0 == b.c0 && a.c1 == b.c1;
}
const MpzFp2 kXi{9, 1};

using MpzFp12Bn = std::array<MpzFp2, 6>;  // coefficient of w^i

const Fp2& slot(const Fp12& x, std::size_t power) {
  const Fp6& half = power % 2 == 0 ? x.c0 : x.c1;
  const Fp2* slots[3] = {&half.c0, &half.c1, &half.c2};
  return *slots[power / 2];
}
MpzFp12Bn fp12_value(const Fp12& x) {
  MpzFp12Bn out;
  for (std::size_t i = 0; i < 6; ++i) out[i] = fp2_value(slot(x, i));
  return out;
}
Fp12 fp12_element(const MpzFp12Bn& x) {
  Fp12 out = Fp12::zero();
  for (std::size_t i = 0; i < 6; ++i) const_cast<Fp2&>(slot(out, i)) = fp2_element(x[i]);
  return out;
}
MpzFp12Bn fp12_mul(const MpzFp12Bn& a, const MpzFp12Bn& b) {
  std::array<MpzFp2, 11> wide;
  for (auto& c : wide) c = {0, 0};
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j) wide[i + j] = fp2_add(wide[i + j], fp2_mul(a[i], b[j]));
  MpzFp12Bn out;
  for (std::size_t k = 0; k < 6; ++k)
    out[k] = k + 6 < 11 ? fp2_add(wide[k], fp2_mul(kXi, wide[k + 6])) : wide[k];
  return out;
}
MpzFp12Bn fp12_pow(MpzFp12Bn base, mpz_class exponent) {
  MpzFp12Bn result;
  for (auto& c : result) c = {0, 0};
  result[0] = {1, 0};
  while (exponent > 0) {
    if (mpz_odd_p(exponent.get_mpz_t())) result = fp12_mul(result, base);
    base = fp12_mul(base, base);
    exponent >>= 1;
  }
  return result;
}
bool fp12_equal(const MpzFp12Bn& a, const MpzFp12Bn& b) {
  for (std::size_t i = 0; i < 6; ++i)
    if (!fp2_equal(a[i], b[i])) return false;
  return true;
}

Fp2 random_fp2(Rng& rng) {
  return {BnFpOracle::random_element(rng), BnFpOracle::random_element(rng)};
}
Fp12 random_fp12(Rng& rng) {
  return {{random_fp2(rng), random_fp2(rng), random_fp2(rng)},
          {random_fp2(rng), random_fp2(rng), random_fp2(rng)}};
}

mpz_class mpz_of(std::uint64_t value) {
  mpz_class out;
  mpz_import(out.get_mpz_t(), 1, -1, sizeof(value), 0, 0, &value);
  return out;
}

/// Prime-field ops against the oracle on fresh random values and the oracle's edge values.
template <class Field>
void check_field_ops(Rng& rng) {
  using Oracle = FieldOracle<Field>;
  const mpz_class& m = Oracle::p();
  std::vector<mpz_class> values = Oracle::edge_values();
  values.push_back(mod(pow2(254) - 1, m));  // near 2^254 (both moduli are just above 2^253.5)
  values.push_back(mod(pow2(253) + 12345, m));
  for (int i = 0; i < 40; ++i) values.push_back(Oracle::random_value(rng));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const mpz_class& x = values[i];
    const mpz_class& y = values[(i * 7 + 3) % values.size()];
    const Field a = Oracle::element(x), b = Oracle::element(y);
    CAPTURE(x);
    CAPTURE(y);
    CHECK(Oracle::value(a + b) == mod(x + y, m));
    CHECK(Oracle::value(a - b) == mod(x - y, m));
    CHECK(Oracle::value(-a) == mod(-x, m));
    CHECK(Oracle::value(a * b) == mod(x * y, m));
    CHECK(Oracle::value(a.squared()) == mod(x * x, m));
    CHECK(Oracle::value(a.inverse()) == invert(x, m));
    CHECK(Oracle::reduced(a * b));
    CHECK(to_mpz(a.canonical()) == x);
    CHECK(Field::from_canonical(to_bigint<Field::N>(x)) == a);
  }
}

// EIP-197 precompile vectors, from go-ethereum core/vm/testdata/precompiles/bn256Pairing.json (the
// Ethereum reference client's test data for the 0x08 precompile): name, input (192-byte pairs), expected.
struct Eip197Vector {
  const char* name;
  const char* input;
  bool expected;
};
const Eip197Vector kEip197Vectors[] = {
    {"jeff1",
     "1c76476f4def4bb94541d57ebba1193381ffa7aa76ada664dd31c16024c43f593034dd2920f673e204fee2811c678745fc819b5"
     "5d3e9d294"
     "e45c9b03a76aef41209dd15ebff5d46c4bd888e51a93cf99a7329636c63514396b4a452003a35bf704bf11ca01483bfa8b34b43"
     "561848d"
     "28905960114c8ac04049af4b6315a416782bb8324af6cfc93537a2ad1a445cfd0ca2a71acd7ac41fadbf933c2a51be344d120a2"
     "a4cf30c"
     "1bf9845f20c6fe39e07ea2cce61f0c9bb048165fe5e4de877550111e129f1cf1097710d41c4ac70fcdfa5ba2023c6ff1cbeac32"
     "2de49d1"
     "b6df7c2032c61a830e3c17286de9462bf242fca2883585b93870a73853face6a6bf411198e9393920d483a7260bfb731fb5d25f"
     "1aa4933"
     "35a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff07"
     "5ec9e99"
     "ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7"
     "daa",
     true},
    {"jeff2",
     "2eca0c7238bf16e83e7a1e6c5d49540685ff51380f309842a98561558019fc0203d3260361bb8451de5ff5ecd17f010ff22f5c3"
     "1cdf184e9"
     "020b06fa5997db841213d2149b006137fcfb23036606f848d638d576a120ca981b5b1a5f9300b3ee2276cf730cf493cd95d6467"
     "7bbb75f"
     "c42db72513a4c1e387b476d056f80aa75f21ee6226d31426322afcda621464d0611d226783262e21bb3bc86b537e986237096df"
     "1f82dff"
     "337dd5972e32a8ad43e28a78a96a823ef1cd4debe12b6552ea5f06967a1237ebfeca9aaae0d6d0bab8e28c198c5a339ef8a2407"
     "e31cdac"
     "516db922160fa257a5fd5b280642ff47b65eca77e626cb685c84fa6d3b6882a283ddd1198e9393920d483a7260bfb731fb5d25f"
     "1aa4933"
     "35a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff07"
     "5ec9e99"
     "ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7"
     "daa",
     true},
    {"jeff6",
     "1c76476f4def4bb94541d57ebba1193381ffa7aa76ada664dd31c16024c43f593034dd2920f673e204fee2811c678745fc819b5"
     "5d3e9d294"
     "e45c9b03a76aef41209dd15ebff5d46c4bd888e51a93cf99a7329636c63514396b4a452003a35bf704bf11ca01483bfa8b34b43"
     "561848d"
     "28905960114c8ac04049af4b6315a416782bb8324af6cfc93537a2ad1a445cfd0ca2a71acd7ac41fadbf933c2a51be344d120a2"
     "a4cf30c"
     "1bf9845f20c6fe39e07ea2cce61f0c9bb048165fe5e4de877550111e129f1cf1097710d41c4ac70fcdfa5ba2023c6ff1cbeac32"
     "2de49d1"
     "b6df7c103188585e2364128fe25c70558f1560f4f9350baf3959e603cc91486e110936198e9393920d483a7260bfb731fb5d25f"
     "1aa4933"
     "35a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff07"
     "5ec9e99"
     "ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7"
     "daa",
     false},
    {"one_point",
     "0000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000"
     "000000000"
     "0000000000000002198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a006"
     "65e5c44"
     "79674322d4f75edadd46debd5cd992f6ed090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b12c85"
     "ea5db8c"
     "6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa",
     false},
    {"two_point_match_2",
     "0000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000"
     "000000000"
     "0000000000000002198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a006"
     "65e5c44"
     "79674322d4f75edadd46debd5cd992f6ed090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b12c85"
     "ea5db8c"
     "6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa000000000000000000000000000000000000000000000000000"
     "000000000"
     "00010000000000000000000000000000000000000000000000000000000000000002198e9393920d483a7260bfb731fb5d25f1a"
     "a493335"
     "a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed275dc4a288d1afb3c"
     "bb1ac09"
     "187524c7db36395df7be3b99e673b13a075a65ec1d9befcd05a5323e6da4d435f3b617cdb3af83285c2df711ef39c01571827f9"
     "d",
     true},
};

BnFp fp_from_hex_word(const std::string& hex) {
  const mpz_class value(hex, 16);
  REQUIRE(value < kP);
  return BnFpOracle::element(value);
}

std::vector<std::pair<bn254::G1Affine, bn254::G2Affine>> decode_eip197(const std::string& input) {
  REQUIRE(input.size() % 384 == 0);
  std::vector<std::pair<bn254::G1Affine, bn254::G2Affine>> pairs;
  for (std::size_t at = 0; at < input.size(); at += 384) {
    auto word = [&](int k) { return fp_from_hex_word(input.substr(at + 64 * k, 64)); };
    const bn254::G1Affine p{word(0), word(1)};
    const bn254::G2Affine q{{word(3), word(2)}, {word(5), word(4)}};  // (imaginary, real) on the wire
    REQUIRE(p.is_on_curve());
    REQUIRE(q.is_on_curve());
    REQUIRE(bn254::is_in_subgroup(q));
    pairs.emplace_back(p, q);
  }
  return pairs;
}

}  // namespace

TEST_CASE("arith/bn254/constants derive from u, and Fr's generator and root of unity are snarkjs's") {
  CHECK(kP == 36 * kU * kU * kU * kU + 36 * kU * kU * kU + 24 * kU * kU + 6 * kU + 1);
  CHECK(kR == 36 * kU * kU * kU * kU + 36 * kU * kU * kU + 18 * kU * kU + 6 * kU + 1);
  CHECK(to_mpz(BnFp::modulus) == kP);
  CHECK(to_mpz(BnFr::modulus) == kR);
  CHECK(mpz_of(bn254::ate_u) == kU);
  CHECK(to_mpz(bn254::ate_loop_count) == 6 * kU + 2);
  CHECK(to_mpz(bn254::g2_psi_eigenvalue) == mod(kP, kR));
  CHECK(mpz_probab_prime_p(kP.get_mpz_t(), 40) > 0);
  CHECK(mpz_probab_prime_p(kR.get_mpz_t(), 40) > 0);

  // Two-adicity 28, and 5 generates Fr*: r - 1 = 2^28 3^2 13 29 983 11003 237073 405928799 1670836401704629
  // 13818364434197438864469338081, each factor checked prime, and 5^((r - 1) / q) != 1 for every q.
  const mpz_class odd = (kR - 1) >> bn254::fr_two_adicity;
  CHECK(mpz_odd_p(odd.get_mpz_t()));
  const std::vector<mpz_class> factors = {2,
                                          3,
                                          13,
                                          29,
                                          983,
                                          11003,
                                          237073,
                                          405928799,
                                          mpz_class("1670836401704629"),
                                          mpz_class("13818364434197438864469338081")};
  mpz_class product = pow2(28) * 9;
  for (std::size_t i = 2; i < factors.size(); ++i) product *= factors[i];
  CHECK(product == kR - 1);
  const mpz_class g = mpz_of(bn254::fr_multiplicative_generator);
  for (const auto& q : factors) {
    CAPTURE(q);
    CHECK(mpz_probab_prime_p(q.get_mpz_t(), 40) > 0);
    CHECK(powm(g, (kR - 1) / q, kR) != 1);
  }
  const mpz_class root = to_mpz(bn254::fr_root_of_unity_canonical);
  CHECK(root == powm(g, odd, kR));
  CHECK(powm(root, pow2(27), kR) == kR - 1);  // order exactly 2^28
  CHECK(BnFr::from_canonical(bn254::fr_root_of_unity_canonical) == BnFrOracle::element(root));

  // The twist's b' = 3 / xi and the psi coefficients xi^((p - 1) / 3), xi^((p - 1) / 2).
  CHECK(fp2_equal(fp2_mul(fp2_value(bn254::G2Params::b), kXi), MpzFp2{3, 0}));
  CHECK(fp2_equal(fp2_value(bn254::g2_psi_coeff_x), fp2_pow(kXi, (kP - 1) / 3)));
  CHECK(fp2_equal(fp2_value(bn254::g2_psi_coeff_y), fp2_pow(kXi, (kP - 1) / 2)));
}

TEST_CASE("arith/bn254/Fp and Fr match the oracle on random and edge values") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_field_ops<BnFp>(rng);
  check_field_ops<BnFr>(rng);
  // Fp square roots (p = 3 mod 4).
  for (int i = 0; i < 20; ++i) {
    const mpz_class x = BnFpOracle::random_value(rng);
    const BnFp a = BnFpOracle::element(x);
    BnFp root;
    const bool is_square = mpz_legendre(x.get_mpz_t(), kP.get_mpz_t()) >= 0;
    CHECK(a.sqrt(root) == is_square);
    if (is_square) {
      CHECK(root.squared() == a);
    }
  }
}

TEST_CASE("arith/bn254/Fp2 matches the oracle, with xi = 9 + u") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int round = 0; round < 60; ++round) {
    Fp2 a = random_fp2(rng), b = random_fp2(rng);
    if (round == 0) a = Fp2::zero();
    if (round == 1) a = Fp2::one();
    if (round == 2) a = {-BnFp::one(), -BnFp::one()};  // p - 1 in both slots
    const MpzFp2 x = fp2_value(a), y = fp2_value(b);
    CHECK(fp2_equal(fp2_value(a * b), fp2_mul(x, y)));
    CHECK(fp2_equal(fp2_value(a.squared()), fp2_mul(x, x)));
    CHECK(fp2_equal(fp2_value(a + b), fp2_add(x, y)));
    CHECK(fp2_equal(fp2_value(a - b), fp2_reduce({x.c0 - y.c0, x.c1 - y.c1})));
    CHECK(fp2_equal(fp2_value(a.mul_by_nonresidue()), fp2_mul(x, kXi)));
    CHECK(fp2_equal(fp2_value(a.conjugate()), fp2_pow(x, kP)));
    if (!a.is_zero()) {
      CHECK((a * a.inverse()) == Fp2::one());
    }
    Fp2 root;
    const bool found = a.squared().sqrt(root);
    CHECK(found);
    if (found) {
      CHECK(root.squared() == a.squared());
    }
  }
}

TEST_CASE("arith/bn254/Fp12 products, inverses and Frobenius maps match the oracle") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int round = 0; round < 8; ++round) {
    const Fp12 a = random_fp12(rng), b = random_fp12(rng);
    const MpzFp12Bn x = fp12_value(a);
    CHECK(fp12_equal(fp12_value(a * b), fp12_mul(x, fp12_value(b))));
    CHECK(fp12_equal(fp12_value(a.squared()), fp12_mul(x, x)));
    CHECK((a * a.inverse()).is_one());
    CHECK(fp12_equal(fp12_value(a.frobenius_map(1)), fp12_pow(x, kP)));
    CHECK(fp12_equal(fp12_value(a.frobenius_map(2)), fp12_pow(x, kP * kP)));
    CHECK(a.frobenius_map(6) == a.conjugate());
    // Sparse D-type line product against the full product.
    const Fp2 l0 = random_fp2(rng), l1 = random_fp2(rng), l3 = random_fp2(rng);
    const Fp12 line{{l0, Fp2::zero(), Fp2::zero()}, {l1, l3, Fp2::zero()}};
    CHECK(a.mul_by_line_d(l0, l1, l3) == a * line);
    // Cyclotomic squaring on x^((p^6 - 1)(p^2 + 1)).
    const Fp12 c = fp12_element(fp12_pow(x, (kP * kP * kP * kP * kP * kP - 1) * (kP * kP + 1)));
    CHECK(c.cyclotomic_squared() == c.squared());
  }
}

TEST_CASE("arith/bn254/generators lie on their curves and have order r") {
  const auto g1 = bn254::G1Affine::generator();
  const auto g2 = bn254::G2Affine::generator();
  CHECK(g1.is_on_curve());
  CHECK(g2.is_on_curve());
  CHECK(!g1.is_infinity());
  CHECK(!g2.is_infinity());
  CHECK(g1.mul(BnFr::modulus).is_infinity());
  CHECK(g2.mul(BnFr::modulus).is_infinity());
  CHECK(bn254::is_in_subgroup(g2));
  // psi acts on G2 as multiplication by p mod r = 6u^2.
  CHECK(bn254::g2_psi(g2).to_jacobian() == g2.mul(bn254::g2_psi_eigenvalue));
  // A twist point off G2 fails the check: (x, y) for a small x, where the cofactor is not cleared.
  for (std::uint64_t x = 1;; ++x) {
    const Fp2 px{BnFp::from_u64(x), BnFp::one()};
    Fp2 py;
    if (!(px.squared() * px + bn254::G2Params::b).sqrt(py)) continue;
    const bn254::G2Affine q{px, py};
    REQUIRE(q.is_on_curve());
    CHECK(!bn254::is_in_subgroup(q));
    break;
  }
}

TEST_CASE("arith/bn254/final exponentiation is f^((p^12 - 1) / r), computed by GMP from the definition") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  mpz_class p12 = 1;
  for (int i = 0; i < 12; ++i) p12 *= kP;
  const Fp12 miller = bn254::miller_loop(bn254::G1Affine::generator(), bn254::G2Affine::generator());
  const Fp12 inputs[] = {random_fp12(rng), miller};
  for (const Fp12& f : inputs) {
    CHECK(fp12_equal(fp12_value(bn254::final_exponentiation(f)), fp12_pow(fp12_value(f), (p12 - 1) / kR)));
  }
}

TEST_CASE("arith/bn254/pairing is bilinear and non-degenerate") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const auto g1 = bn254::G1Affine::generator();
  const auto g2 = bn254::G2Affine::generator();
  const Fp12 base = bn254::pairing(g1, g2);
  CHECK(!base.is_one());
  CHECK(base.pow(BnFr::modulus).is_one());
  for (int round = 0; round < 2; ++round) {
    const BnFr a = proofline::random_field<BnFr>(rng), b = proofline::random_field<BnFr>(rng);
    const auto p = g1.mul(a).to_affine();
    const auto q = g2.mul(b).to_affine();
    CHECK(bn254::pairing(p, q) == base.pow((a * b).canonical()));
    CHECK(bn254::pairing(p, g2) == base.pow(a.canonical()));
    // e(P, Q) e(-P, Q) = 1, as a product check.
    const std::pair<bn254::G1Affine, bn254::G2Affine> pairs[] = {{p, q}, {-p, q}};
    CHECK(bn254::pairing_product_is_one(pairs));
    const std::pair<bn254::G1Affine, bn254::G2Affine> unbalanced[] = {{p, q}, {p, q}};
    CHECK(!bn254::pairing_product_is_one(unbalanced));
  }
  CHECK(bn254::pairing(bn254::G1Affine::infinity(), g2).is_one());
}

TEST_CASE("arith/bn254/pairing agrees with EIP-197's published precompile vectors") {
  for (const auto& vector : kEip197Vectors) {
    CAPTURE(vector.name);
    const auto pairs = decode_eip197(vector.input);
    CHECK(bn254::pairing_product_is_one(pairs) == vector.expected);
  }
}
