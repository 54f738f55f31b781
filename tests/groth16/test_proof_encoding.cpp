// Proof encodings: the 192-byte compressed form and our JSON form round trip, and reject garbage, points off
// the curve or outside the subgroup, non-canonical coordinates and malformed documents.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include <proofline/arith/curve_encoding.hpp>
#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/point_json.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/proof_json.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;

namespace {

Proof random_proof(std::uint64_t seed) {
  const auto s = test::random_scalars(3, seed);
  return {test::g1_times(s[0]), test::g2_times(s[1]), test::g1_times(s[2])};
}

/// A point of E(Fp) outside G1: the first x whose x^3 + 4 is a square (the cofactor is huge, so it is almost
/// never in the subgroup; the test checks).
G1Affine non_subgroup_g1() {
  for (std::uint64_t x = 1;; ++x) {
    const Fp fx = Fp::from_u64(x);
    Fp y;
    if ((fx.squared() * fx + Fp::from_u64(4)).sqrt(y)) {
      const G1Affine p{fx, y};
      if (!is_in_subgroup(p)) return p;
    }
  }
}

G2Affine non_subgroup_g2() {
  for (std::uint64_t x = 1;; ++x) {
    const Fp2 fx{Fp::from_u64(x), Fp::one()};
    Fp2 y;
    if ((fx.squared() * fx + Fp2{Fp::from_u64(4), Fp::from_u64(4)}).sqrt(y)) {
      const G2Affine p{fx, y};
      if (!is_in_subgroup(p)) return p;
    }
  }
}

std::string decode_error(const std::array<std::uint8_t, proof_encoded_size>& bytes) {
  std::string why;
  CHECK_FALSE(try_decode_proof(bytes, &why).has_value());
  return why;
}

}  // namespace

TEST_CASE("groth16/proof/192-byte encoding round trips") {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const Proof proof = random_proof(seed);
    const auto bytes = encode_proof(proof);
    CHECK((bytes[0] & 0x80) != 0);  // compressed flags on each point
    CHECK((bytes[48] & 0x80) != 0);
    CHECK((bytes[144] & 0x80) != 0);
    CHECK(decode_proof(bytes) == proof);
    CHECK(std::equal(bytes.begin(), bytes.begin() + 48, encode_compressed(proof.a).begin()));
    CHECK(std::equal(bytes.begin() + 48, bytes.begin() + 144, encode_compressed(proof.b).begin()));
  }
  const Proof with_infinity{G1Affine::infinity(), G2Affine::infinity(), test::g1_times(Fr::from_u64(3))};
  CHECK(decode_proof(encode_proof(with_infinity)) == with_infinity);
  // A proof the prover made.
  const auto& f = test::small_fixture(6, HConvention::generator7);
  const Proof made = prove(f.keys.pk, f.circuit.cs, f.circuit.witness);
  CHECK(decode_proof(encode_proof(made)) == made);
}

TEST_CASE("groth16/proof/192-byte decoding rejects garbage and bad points") {
  std::mt19937_64 rng(17);
  for (int i = 0; i < 200; ++i) {
    std::array<std::uint8_t, proof_encoded_size> bytes;
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    CHECK_FALSE(try_decode_proof(bytes).has_value());
  }
  const auto good = encode_proof(random_proof(3));
  std::string why;
  CHECK_FALSE(try_decode_proof(std::span(good).first(191), &why).has_value());
  CHECK(why == "length 191, expected 192");
  std::vector<std::uint8_t> longer(good.begin(), good.end());
  longer.push_back(0);
  CHECK_THROWS_WITH_AS(decode_proof(longer), "proof: length 193, expected 192", Error);

  auto bytes = good;
  bytes[0] &= 0x7f;  // A no longer says "compressed"
  CHECK(decode_error(bytes) == "A: compression flag does not match the length");
  bytes = good;
  bytes[48] |= 0x40;  // B's infinity flag with coordinates set
  CHECK(decode_error(bytes).rfind("B: ", 0) == 0);
  bytes = good;
  bytes[144] = 0x9f;  // compressed, x's top five bits set: above p, whatever follows
  std::fill(bytes.begin() + 145, bytes.begin() + 192, 0xff);
  CHECK(decode_error(bytes) == "C: coordinate not below the field modulus");

  const G1Affine outside1 = non_subgroup_g1();
  const G2Affine outside2 = non_subgroup_g2();
  REQUIRE(outside1.is_on_curve());
  REQUIRE(outside2.is_on_curve());
  bytes = good;
  const auto enc1 = encode_compressed(outside1);
  std::copy(enc1.begin(), enc1.end(), bytes.begin());
  CHECK(decode_error(bytes) == "A: point not in the prime-order subgroup");
  bytes = good;
  const auto enc2 = encode_compressed(outside2);
  std::copy(enc2.begin(), enc2.end(), bytes.begin() + 48);
  CHECK(decode_error(bytes) == "B: point not in the prime-order subgroup");
  bytes = good;
  std::copy(enc1.begin(), enc1.end(), bytes.begin() + 144);
  CHECK(decode_error(bytes) == "C: point not in the prime-order subgroup");
  // An x with no point on the curve.
  for (std::uint64_t x = 1;; ++x) {
    const Fp fx = Fp::from_u64(x);
    Fp y;
    if (!(fx.squared() * fx + Fp::from_u64(4)).sqrt(y)) {
      bytes = good;
      std::fill(bytes.begin(), bytes.begin() + 48, 0);
      fx.to_bytes_be(bytes.data());
      bytes[0] |= 0x80;
      CHECK(decode_error(bytes) == "A: point not on the curve");
      break;
    }
  }
}

TEST_CASE("groth16/proof/json round trips") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Proof proof = random_proof(seed);
    const std::string text = write_proof_json(proof);
    CHECK(read_proof_json(text) == proof);
    const json::Value doc = json::parse(text);
    CHECK(doc.at("protocol").as_string() == "groth16");
    CHECK(doc.at("a").at(0).as_string() == field_to_decimal(proof.a.x));
    CHECK(doc.at("b").at(1).at(1).as_string() == field_to_decimal(proof.b.y.c1));
  }
  const Proof with_infinity{G1Affine::infinity(), G2Affine::infinity(), G1Affine::infinity()};
  CHECK(read_proof_json(write_proof_json(with_infinity)) == with_infinity);
}

TEST_CASE("groth16/proof/json rejects malformed proofs") {
  const Proof proof = random_proof(9);
  const json::Value good = proof_to_json(proof);
  const auto error = [](const json::Value& doc) {
    try {
      proof_from_json(doc, "p.json");
    } catch (const Error& e) {
      CHECK(e.code() == Errc::bad_input);
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  json::Value doc = good;
  doc.set("curve", "bn128");
  CHECK(error(doc) == "p.json: \"curve\" must be \"bls12-381\"");
  doc = good;
  doc = json::Value::object({{"protocol", "groth16"},
                             {"curve", "bls12-381"},
                             {"format", "proofline"},
                             {"a", good.at("a")},
                             {"b", good.at("b")}});
  CHECK(error(doc) == "p.json: missing member \"c\"");
  doc = good;
  doc.set("a", json::Value::array({"12x", "3"}));
  CHECK(error(doc).find("p.json: a: \"12x\" is not an integer in decimal digits, or hexadecimal after 0x (an "
                        "element of Fp)") == 0);
  doc = good;
  doc.set("a", json::Value::array({to_decimal(Fp::modulus), "3"}));
  CHECK(error(doc).find("below the Fp modulus") != std::string::npos);
  doc = good;
  doc.set("a", json::Value::array({field_to_decimal(proof.a.x), field_to_decimal(proof.a.y + Fp::one())}));
  CHECK(error(doc) == "p.json: a: the point is not on the curve");
  doc = good;
  doc.set("c", to_json(non_subgroup_g1()));
  CHECK(error(doc) == "p.json: c: the point is not in the prime-order subgroup");
  doc = good;
  doc.set("b", json::Value::array({"1", "2"}));
  CHECK(error(doc).find("p.json: b: expected an array of two coordinates") == 0);
  doc = good;
  doc.set("a", json::Value::array({1, 2}));
  CHECK(error(doc).find("expected a decimal string") != std::string::npos);
  CHECK_THROWS_AS(read_proof_json("[1, 2]"), Error);
  CHECK_THROWS_AS(read_proof_json("{\"protocol\": \"groth16\""), Error);
}
