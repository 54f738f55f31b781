// The optimal ate pairing: against a reference written from the textbook definition (affine Miller loop with
// full Fp12 lines on the untwisted point, final exponentiation by plain powering, all in the GMP model of
// fp12_oracle.hpp), bilinearity, non-degeneracy, the order of the values, the multi and prepared Miller
// loops, points at infinity, and two published values: snarkjs's vk_alphabeta_12 and zkcrypto's Gt generator.
#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <proofline/arith/curve_params.hpp>
#include <proofline/arith/fp12.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/arith/int_text.hpp>
#include <proofline/arith/pairing.hpp>

#include "arith/fp12_oracle.hpp"
#include "arith/gmp_oracle.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

using PreparedPair = std::pair<G1Affine, std::reference_wrapper<const PreparedG2>>;

BigInt<4> random_scalar(Rng& rng) {
  return to_bigint<4>(mod(random_mpz_bits(rng, 320), Fp12Oracle::r()));
}

G1Affine g1_times(const BigInt<4>& k) {
  return G1Affine::generator().mul(k).to_affine();
}
G2Affine g2_times(const BigInt<4>& k) {
  return G2Affine::generator().mul(k).to_affine();
}

MpzFp12 oracle(const Fp12& x) {
  return Fp12Oracle::value(x);
}

/// The reference: f_{|z|,Q}(P) by the affine Miller loop on psi(Q) = (x w^-2, y w^-3) in E(Fp12), every line
/// yP - yT - lambda (xP - xT) evaluated in full (only vertical lines, which lie in Fp6, are left out), then
/// f_{z,Q} = 1 / f_{|z|,Q} and the power 3 (p^12 - 1) / r.
MpzFp12 reference_pairing(const G1Affine& p, const G2Affine& q) {
  using O = Fp2Oracle;
  const MpzFp2 xi_inv = O::inverse({1, 1});
  // w^6 = xi: w^-1 = w^5 / xi, w^-2 = w^4 / xi, w^-3 = w^3 / xi.
  const auto times_w_inverse = [&](const MpzFp2& c, std::size_t power) {
    return Fp12Oracle::monomial(O::mul(c, xi_inv), 6 - power);
  };
  const MpzFp12 xp = Fp12Oracle::monomial({FpOracle::value(p.x), 0}, 0);
  const MpzFp12 yp = Fp12Oracle::monomial({FpOracle::value(p.y), 0}, 0);
  const MpzFp2 qx = O::value(q.x), qy = O::value(q.y);

  // The untwisted point lies on E: y^2 = x^3 + 4.
  const MpzFp12 ux = times_w_inverse(qx, 2), uy = times_w_inverse(qy, 3);
  const MpzFp12 four = Fp12Oracle::monomial({4, 0}, 0);
  REQUIRE(Fp12Oracle::equal(Fp12Oracle::mul(uy, uy),
                            Fp12Oracle::add(Fp12Oracle::mul(ux, Fp12Oracle::mul(ux, ux)), four)));

  // On E the slope is lambda' w^-1 for the slope lambda' on the twist.
  const auto line = [&](const MpzFp2& tx, const MpzFp2& ty, const MpzFp2& slope) {
    const MpzFp12 run = Fp12Oracle::sub(xp, times_w_inverse(tx, 2));
    return Fp12Oracle::sub(Fp12Oracle::sub(yp, times_w_inverse(ty, 3)),
                           Fp12Oracle::mul(times_w_inverse(slope, 1), run));
  };
  MpzFp12 f = Fp12Oracle::one();
  MpzFp2 tx = qx, ty = qy;
  const unsigned top = 63 - std::countl_zero(bls_z_abs);
  for (unsigned i = top; i-- > 0;) {
    const MpzFp2 tangent = O::mul(O::mul({3, 0}, O::mul(tx, tx)), O::inverse(O::add(ty, ty)));
    f = Fp12Oracle::mul(Fp12Oracle::mul(f, f), line(tx, ty, tangent));
    const MpzFp2 x2 = O::sub(O::mul(tangent, tangent), O::add(tx, tx));
    ty = O::sub(O::mul(tangent, O::sub(tx, x2)), ty);
    tx = x2;
    if ((bls_z_abs >> i) & 1u) {
      const MpzFp2 chord = O::mul(O::sub(ty, qy), O::inverse(O::sub(tx, qx)));
      f = Fp12Oracle::mul(f, line(tx, ty, chord));
      const MpzFp2 x3 = O::sub(O::sub(O::mul(chord, chord), tx), qx);
      ty = O::sub(O::mul(chord, O::sub(tx, x3)), ty);
      tx = x3;
    }
  }
  // The loop visited [|z|]Q.
  CHECK(q.mul(bls_z_abs_int) == G2Affine{Fp2Oracle::element(tx), Fp2Oracle::element(ty)});
  const mpz_class group_order = Fp12Oracle::p_power(12) - 1;
  return Fp12Oracle::pow(f, group_order - Fp12Oracle::final_exponent());  // 1 / f, then the power
}

// ---- snarkjs verification_key.json ------------------------------------------------------------------------

/// The fixture folder: PROOFLINE_SNARKJS_FIXTURES from the environment, else the path CMake knows.
std::string fixture_dir() {
  const char* env = std::getenv("PROOFLINE_SNARKJS_FIXTURES");
  return env != nullptr ? env : PROOFLINE_SNARKJS_FIXTURES_DIR;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(),
                  "cannot open the snarkjs fixture " << path << " (set PROOFLINE_SNARKJS_FIXTURES)");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// The first `count` quoted strings after "key": in the file. The JSON arrays nest in the order the strings
/// appear, so this is their flattening.
std::vector<std::string> strings_after(const std::string& text, const std::string& key, std::size_t count) {
  std::size_t position = text.find('"' + key + '"');
  REQUIRE_MESSAGE(position != std::string::npos, "no " << key);
  position += key.size() + 2;
  std::vector<std::string> out;
  while (out.size() < count) {
    const std::size_t open = text.find('"', position);
    REQUIRE(open != std::string::npos);
    const std::size_t close = text.find('"', open + 1);
    REQUIRE(close != std::string::npos);
    out.push_back(text.substr(open + 1, close - open - 1));
    position = close + 1;
  }
  return out;
}

Fp fp_from_decimal(const std::string& text) {
  const auto value = field_from_decimal<Fp>(text);
  REQUIRE_MESSAGE(value.has_value(), "not a canonical Fp decimal: " << text);
  return *value;
}

struct SnarkjsKey {
  G1Affine alpha;
  G2Affine beta;
  Fp12 alphabeta;
};

SnarkjsKey read_snarkjs_key(const std::string& path) {
  const std::string text = read_text(path);
  SnarkjsKey key;
  // G1: [x, y, "1"]; G2: [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]] (affine with z = 1).
  const auto alpha = strings_after(text, "vk_alpha_1", 3);
  REQUIRE(alpha[2] == "1");
  key.alpha = {fp_from_decimal(alpha[0]), fp_from_decimal(alpha[1])};
  const auto beta = strings_after(text, "vk_beta_2", 6);
  REQUIRE(beta[4] == "1");
  REQUIRE(beta[5] == "0");
  key.beta = {{fp_from_decimal(beta[0]), fp_from_decimal(beta[1])},
              {fp_from_decimal(beta[2]), fp_from_decimal(beta[3])}};
  // Gt: [[[c0.c0.c0, c0.c0.c1], [c0.c1.c0, c0.c1.c1], [c0.c2.c0, c0.c2.c1]], [[c1.c0.c0, ...], ...]]: the
  // same tower as ours (ffjavascript's F12 = F6[w] / (w^2 - v), F6 = F2[v] / (v^3 - (1 + u))), listed
  // outermost coefficient first, each Fp2 as [real, u].
  const auto gt = strings_after(text, "vk_alphabeta_12", 12);
  Fp2* slots[6] = {&key.alphabeta.c0.c0, &key.alphabeta.c0.c1, &key.alphabeta.c0.c2,
                   &key.alphabeta.c1.c0, &key.alphabeta.c1.c1, &key.alphabeta.c1.c2};
  for (std::size_t i = 0; i < 6; ++i)
    *slots[i] = {fp_from_decimal(gt[2 * i]), fp_from_decimal(gt[2 * i + 1])};
  return key;
}

// ---- zkcrypto/bls12_381 src/pairings.rs, Gt::generator() = pairing(G1 generator, G2 generator)
// ------------- Montgomery limbs (R = 2^384, little-endian limbs, our representation too), in the order
// c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1.
constexpr std::uint64_t kZkcryptoGtGenerator[12][6] = {
    {0x1972e433a01f85c5, 0x97d32b76fd772538, 0xc8ce546fc96bcdf9, 0xcef63e7366d40614, 0xa611342781843780,
     0x13f3448a3fc6d825},
    {0xd26331b02e9d6995, 0x9d68a482f7797e7d, 0x9c9b29248d39ea92, 0xf4801ca2e13107aa, 0xa16c0732bdbcb066,
     0x083ca4afba360478},
    {0x59e261db0916b641, 0x2716b6f4b23e960d, 0xc8e55b10a0bd9c45, 0x0bdb0bd99c4deda8, 0x8cf89ebf57fdaac5,
     0x12d6b7929e777a5e},
    {0x5fc85188b0e15f35, 0x34a06e3a8f096365, 0xdb3126a6e02ad62c, 0xfc6f5aa97d9a990b, 0xa12f55f5eb89c210,
     0x1723703a926f8889},
    {0x93588f2971828778, 0x43f65b8611ab7585, 0x3183aaf5ec279fdf, 0xfa73d7e18ac99df6, 0x64e176a6a64c99b0,
     0x179fa78c58388f1f},
    {0x672a0a11ca2aef12, 0x0d11b9b52aa3f16b, 0xa44412d0699d056e, 0xc01d0177221a5ba5, 0x66e0cede6c735529,
     0x05f5a71e9fddc339},
    {0xd30a88a1b062c679, 0x5ac56a5d35fc8304, 0xd0c834a6a81f290d, 0xcd5430c2da3707c7, 0xf0c27ff780500af0,
     0x09245da6e2d72eae},
    {0x9f2e0676791b5156, 0xe2d1c8234918fe13, 0x4c9e459f3c561bf4, 0xa3e85e53b9d3e3c1, 0x820a121e21a70020,
     0x15af618341c59acc},
    {0x7c95658c24993ab1, 0x73eb38721ca886b9, 0x5256d749477434bc, 0x8ba41902ea504a8b, 0x04a3d3f80c86ce6d,
     0x18a64a87fb686eaa},
    {0xbb83e71bb920cf26, 0x2a5277ac92a73945, 0xfc0ee59f94f046a0, 0x7158cdf3786058f7, 0x7cc1061b82f945f6,
     0x03f847aa9fdbe567},
    {0x8078dba56134e657, 0x1cd7ec9a43998a6e, 0xb1aa599a1a993766, 0xc9a0f62f0842ee44, 0x8e159be3b605dffa,
     0x0c86ba0d4af13fc2},
    {0xe80ff2a06a52ffb1, 0x7694ca48721a906c, 0x7583183e03b08514, 0xf567afdd40cee4e2, 0x9a6d96d2e526a5fc,
     0x197e9f49861f2242},
};

Fp12 zkcrypto_gt_generator() {
  Fp coefficients[12];
  for (std::size_t i = 0; i < 12; ++i) {
    BigInt<6> limbs;
    for (std::size_t j = 0; j < 6; ++j) limbs.limb[j] = kZkcryptoGtGenerator[i][j];
    REQUIRE(Fp::is_canonical(limbs));
    coefficients[i] = Fp::from_montgomery(limbs);
  }
  const auto fp2 = [&](std::size_t i) { return Fp2{coefficients[2 * i], coefficients[2 * i + 1]}; };
  return {{fp2(0), fp2(1), fp2(2)}, {fp2(3), fp2(4), fp2(5)}};
}

}  // namespace

TEST_CASE("arith/pairing/matches the textbook reference on random points") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  std::vector<std::pair<G1Affine, G2Affine>> cases = {{G1Affine::generator(), G2Affine::generator()}};
  for (int i = 0; i < 2; ++i) cases.push_back({g1_times(random_scalar(rng)), g2_times(random_scalar(rng))});
  for (const auto& [p, q] : cases) {
    REQUIRE(p.is_on_curve());
    REQUIRE(q.is_on_curve());
    const Fp12 value = pairing(p, q);
    CHECK(Fp12Oracle::equal(oracle(value), reference_pairing(p, q)));
    // The final exponentiation alone, on the Miller loop's output.
    CHECK(Fp12Oracle::equal(oracle(value),
                            Fp12Oracle::pow(oracle(miller_loop(p, q)), Fp12Oracle::final_exponent())));
  }
}

TEST_CASE("arith/pairing/final exponentiation is the power 3 (p^12 - 1) over r") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const Fp12 f = random_fp12(rng);
  CHECK(Fp12Oracle::equal(oracle(final_exponentiation(f)),
                          Fp12Oracle::pow(oracle(f), Fp12Oracle::final_exponent())));
  CHECK(final_exponentiation(Fp12::one()).is_one());
  // Elements of proper subfields (here Fp6) are killed by the easy part.
  CHECK(final_exponentiation({random_fp6(rng), Fp6::zero()}).is_one());
}

TEST_CASE("arith/pairing/bilinear") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const G1Affine p = g1_times(random_scalar(rng));
  const G2Affine q = g2_times(random_scalar(rng));
  const Fp12 base = pairing(p, q);
  for (int round = 0; round < 3; ++round) {
    const BigInt<4> a = random_scalar(rng), b = random_scalar(rng);
    const BigInt<4> ab = to_bigint<4>(mod(to_mpz(a) * to_mpz(b), Fp12Oracle::r()));
    const G1Affine ap = p.mul(a).to_affine();
    const G2Affine bq = q.mul(b).to_affine();
    const G2Affine aq = q.mul(a).to_affine();
    CHECK(pairing(ap, bq) == base.pow(ab));
    CHECK(pairing(ap, q) == pairing(p, aq));
    CHECK(pairing(ap, q) == base.pow(a));
  }
  // Additivity in each argument, and negation inverts.
  const G1Affine p2 = g1_times(random_scalar(rng));
  const G2Affine q2 = g2_times(random_scalar(rng));
  CHECK(pairing((p.to_jacobian() + p2).to_affine(), q) == pairing(p, q) * pairing(p2, q));
  CHECK(pairing(p, (q.to_jacobian() + q2).to_affine()) == pairing(p, q) * pairing(p, q2));
  CHECK(pairing(-p, q) == base.conjugate());
  CHECK(pairing(p, -q) == base.conjugate());
  CHECK(pairing(-p, q) * base == Fp12::one());
}

TEST_CASE("arith/pairing/non-degenerate with values of order r") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const BigInt<4> r = Fr::modulus;
  BigInt<4> r_minus_1 = r;
  r_minus_1.sub_in_place(BigInt<4>::from_u64(1));
  for (const auto& [p, q] : {std::pair{G1Affine::generator(), G2Affine::generator()},
                             std::pair{g1_times(random_scalar(rng)), g2_times(random_scalar(rng))}}) {
    const Fp12 value = pairing(p, q);
    CHECK(!is_one(value));
    CHECK(is_one(value.pow(r)));
    // r is prime, so value != 1 has order exactly r; value^(r - 1) is then its inverse.
    CHECK(value.pow(r_minus_1) == value.conjugate());
  }
}

TEST_CASE("arith/pairing/points at infinity give one") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const G1Affine p = g1_times(random_scalar(rng));
  const G2Affine q = g2_times(random_scalar(rng));
  CHECK(is_one(pairing(G1Affine::infinity(), q)));
  CHECK(is_one(pairing(p, G2Affine::infinity())));
  CHECK(is_one(pairing(G1Affine::infinity(), G2Affine::infinity())));
  CHECK(is_one(miller_loop(G1Affine::infinity(), q)));
  CHECK(is_one(miller_loop(p, G2Affine::infinity())));
  // [r]P is the point at infinity reached through arithmetic.
  CHECK(is_one(pairing(p.mul(Fr::modulus).to_affine(), q)));
  const PreparedG2 prepared_infinity(G2Affine::infinity());
  CHECK(prepared_infinity.is_infinity());
  CHECK(PreparedG2().is_infinity());
  const std::vector<PreparedPair> prepared = {{p, prepared_infinity}};
  CHECK(is_one(multi_miller_loop(std::span(prepared))));
  CHECK(is_one(multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>>())));
  CHECK(is_one(multi_miller_loop(std::span<const PreparedPair>())));
}

TEST_CASE("arith/pairing/multi Miller loop is the product of Miller loops") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  std::vector<std::pair<G1Affine, G2Affine>> pairs;
  for (int i = 0; i < 4; ++i) pairs.push_back({g1_times(random_scalar(rng)), g2_times(random_scalar(rng))});
  pairs.push_back({G1Affine::infinity(), g2_times(random_scalar(rng))});
  pairs.push_back({g1_times(random_scalar(rng)), G2Affine::infinity()});
  Fp12 product_of_loops = Fp12::one(), product_of_pairings = Fp12::one();
  for (const auto& [p, q] : pairs) {
    product_of_loops *= miller_loop(p, q);
    product_of_pairings *= pairing(p, q);
  }
  const Fp12 multi = multi_miller_loop(std::span(pairs));
  // Sharing the squarings changes nothing: (prod f_i)^2 prod l_i = prod (f_i^2 l_i).
  CHECK(multi == product_of_loops);
  CHECK(final_exponentiation(multi) == product_of_pairings);
  CHECK(!is_one(product_of_pairings));
}

TEST_CASE("arith/pairing/prepared G2 gives the same Miller loop") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  std::vector<std::pair<G1Affine, G2Affine>> pairs;
  for (int i = 0; i < 3; ++i) pairs.push_back({g1_times(random_scalar(rng)), g2_times(random_scalar(rng))});
  pairs.push_back({g1_times(random_scalar(rng)), G2Affine::generator()});
  std::vector<PreparedG2> prepared;
  for (const auto& pair : pairs) prepared.emplace_back(pair.second);
  std::vector<PreparedPair> prepared_pairs;
  for (std::size_t i = 0; i < pairs.size(); ++i) prepared_pairs.push_back({pairs[i].first, prepared[i]});
  // 63 doublings and 5 additions for |z| = 0xd201000000010000.
  CHECK(prepared[0].lines().size() == 68);
  CHECK(multi_miller_loop(std::span(prepared_pairs)) == multi_miller_loop(std::span(pairs)));
  const std::vector<PreparedPair> single = {{pairs[0].first, prepared[0]}};
  CHECK(multi_miller_loop(std::span(single)) == miller_loop(pairs[0].first, pairs[0].second));
}

TEST_CASE("arith/pairing/a Groth16-style product check accepts and rejects") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  // e(-aP, Q) e(P, aQ) = 1, with Q prepared as a verifying key would have it.
  const BigInt<4> a = random_scalar(rng);
  const G1Affine p = g1_times(random_scalar(rng));
  const G2Affine q = g2_times(random_scalar(rng));
  const PreparedG2 prepared_aq(q.mul(a).to_affine());
  const PreparedG2 prepared_q(q);
  const std::vector<PreparedPair> accept = {{-p.mul(a).to_affine(), prepared_q}, {p, prepared_aq}};
  CHECK(is_one(final_exponentiation(multi_miller_loop(std::span(accept)))));
  // Off by one in the scalar: rejected. The Miller loop output itself is not 1.
  BigInt<4> a_plus_1 = a;
  a_plus_1.add_in_place(BigInt<4>::from_u64(1));
  const std::vector<PreparedPair> reject = {{-p.mul(a_plus_1).to_affine(), prepared_q}, {p, prepared_aq}};
  CHECK(!is_one(final_exponentiation(multi_miller_loop(std::span(reject)))));
  CHECK(!is_one(multi_miller_loop(std::span(accept))));
}

TEST_CASE("arith/pairing/snarkjs vk_alphabeta_12 is e(vk_alpha_1 vk_beta_2)") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const SnarkjsKey key = read_snarkjs_key(fixture_dir() + "/" + circuit + "/verification_key.json");
    REQUIRE(key.alpha.is_on_curve());
    REQUIRE(key.beta.is_on_curve());
    REQUIRE(is_in_subgroup(key.alpha));
    REQUIRE(is_in_subgroup(key.beta));
    CHECK(pairing(key.alpha, key.beta) == key.alphabeta);
  }
}

TEST_CASE("arith/pairing/zkcrypto Gt generator is e(G1 G2)") {
  CHECK(pairing(G1Affine::generator(), G2Affine::generator()) == zkcrypto_gt_generator());
}
