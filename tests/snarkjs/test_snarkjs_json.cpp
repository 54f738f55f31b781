// snarkjs's JSON formats: written byte for byte as snarkjs writes them (the fixture files are the reference),
// read back with every field checked.
#include <doctest/doctest.h>

#include <proofline/arith/int_text.hpp>
#include <proofline/arith/pairing.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>

#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

/// Parses `text`, applies `change` and reads the result as a proof / verifying key, returning the error.
std::string proof_error(const std::string& text, const std::function<void(std::string&)>& change) {
  std::string changed = text;
  change(changed);
  return bad_input_message([&] { snarkjs_proof_from_json(json::parse(changed, "p.json"), "p.json"); });
}

void replace_first(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("groth16/snarkjs_json/the fixture files read and write back byte for byte") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    // verification_key.json: from the zkey's header and IC, with vk_alphabeta_12 from our pairing.
    const ZkeyFile key = read_zkey(fixture(circuit, "circuit_final.zkey"));
    CHECK(snarkjs_stringify(snarkjs_verifying_key_to_json(key.vk)) ==
          file_text(fixture(circuit, "verification_key.json")));
    for (const char* name : {"proof.json", "proof_ref_rs0.json"}) {
      CAPTURE(name);
      const Proof proof = read_snarkjs_proof(fixture(circuit, name));
      CHECK(snarkjs_stringify(snarkjs_proof_to_json(proof)) == file_text(fixture(circuit, name)));
    }
    // public.json: z[1..nPublic] of the witness.
    const std::vector<Fr> z = read_wtns(fixture(circuit, "witness.wtns"));
    const std::vector<Fr> inputs(z.begin() + 1, z.begin() + 3);
    CHECK(snarkjs_stringify(snarkjs_public_to_json(inputs)) == file_text(fixture(circuit, "public.json")));
    CHECK(read_snarkjs_public(fixture(circuit, "public.json")) == inputs);
  }
  // A circuit without public signals: `snarkjs groth16 prove` writes its public.json as "[\n]".
  CHECK(snarkjs_stringify(snarkjs_public_to_json(std::vector<Fr>{})) == "[\n]");
  CHECK(snarkjs_public_from_json(json::parse("[\n]")).empty());
  groth16::test::TempDir dir;
  const Proof proof = read_snarkjs_proof(fixture("chain_16", "proof.json"));
  write_snarkjs_proof(dir / "p.json", proof);
  CHECK(file_text(dir / "p.json") == file_text(fixture("chain_16", "proof.json")));
  CHECK(read_snarkjs_proof(dir / "p.json") == proof);
  const VerifyingKey vk = read_snarkjs_verifying_key(fixture("chain_16", "verification_key.json"));
  write_snarkjs_verifying_key(dir / "vk.json", vk);
  CHECK(read_snarkjs_verifying_key(dir / "vk.json") == vk);
}

TEST_CASE("groth16/snarkjs_json/points at infinity use ffjavascript's forms") {
  const Proof proof{G1Affine::infinity(), G2Affine::infinity(), G1Affine::generator()};
  const json::Value value = snarkjs_proof_to_json(proof);
  CHECK(json::dump(value.at("pi_a"), -1) == R"(["0","1","0"])");
  CHECK(json::dump(value.at("pi_b"), -1) == R"([["0","0"],["1","0"],["0","0"]])");
  CHECK(snarkjs_proof_from_json(value) == proof);
  CHECK(json::dump(snarkjs_fp12_to_json(Fp12::one()), -1) ==
        R"([[["1","0"],["0","0"],["0","0"]],[["0","0"],["0","0"],["0","0"]]])");
}

TEST_CASE("groth16/snarkjs_json/malformed or foreign proofs are clear errors") {
  const std::string text = file_text(fixture("chain_16", "proof.json"));
  CHECK(contains(proof_error(text, [](auto& t) { replace_first(t, "bls12381", "bn128"); }),
                 "p.json: \"curve\" is \"bn128\", expected \"bls12381\""));
  CHECK(contains(proof_error(text, [](auto& t) { replace_first(t, "\"groth16\"", "\"plonk\""); }),
                 "\"protocol\""));
  CHECK(contains(proof_error(text, [](auto& t) { replace_first(t, "\"pi_c\"", "\"pi_x\""); }),
                 "missing member \"pi_c\""));
  // z of pi_a = 2 without x and y scaled by it, a non-decimal coordinate, one above p, a pair too short.
  CHECK(contains(proof_error(text, [](auto& t) { replace_first(t, "\"1\"\n ]", "\"2\"\n ]"); }),
                 "p.json: pi_a: the point is not on the curve"));
  CHECK(contains(proof_error(text, [](auto& t) { replace_first(t, "\"2007", "\"x007"); }),
                 "is not an integer"));
  CHECK(contains(proof_error(text,
                             [](auto& t) {
                               replace_first(t, "\"2007", "\"40025");  // > p = 4.00240...e114
                             }),
                 "below the Fp modulus"));
  CHECK(
      contains(proof_error(text, [](auto& t) { replace_first(t, "[\n   \"1\",\n   \"0\"\n  ]", "[\"1\"]"); }),
               "pi_b: expected an array of 2 items"));
  // A changed digit: still canonical, but the point leaves the curve (full check), or passes shape_only.
  std::string changed = text;
  replace_first(changed, "\"2007", "\"2008");
  CHECK(contains(bad_input_message([&] { snarkjs_proof_from_json(json::parse(changed)); }),
                 "pi_a: the point is not on the curve"));
  CHECK_NOTHROW(snarkjs_proof_from_json(json::parse(changed), "p", ProofPointCheck::shape_only));
  CHECK(contains(bad_input_message([&] { json::parse("{\"pi_a\": [", "p.json"); }), "p.json"));
}

TEST_CASE(
    "groth16/snarkjs_json/what snarkjs's verifier reads too: [x, y] points, no proof curve, its curve "
    "names") {
  const json::Value proof_doc = json::parse(file_text(fixture("chain_16", "proof.json")));
  const Proof proof = read_snarkjs_proof(fixture("chain_16", "proof.json"));
  // Points without z (z = 1), as some provers write them; a proof without "curve" (snarkjs takes the key's).
  json::Value affine = json::Value::object();
  for (const auto& [k, v] : proof_doc.as_object()) {
    if (k == "curve") continue;
    if (k.rfind("pi_", 0) != 0) {
      affine.set(k, v);
      continue;
    }
    json::Value xy = json::Value::array();
    xy.push_back(v.at(std::size_t{0}));
    xy.push_back(v.at(std::size_t{1}));
    affine.set(k, xy);
  }
  CHECK(snarkjs_proof_from_json(affine) == proof);
  json::Value one = json::Value::array();
  one.push_back(proof_doc.at("pi_a").at(std::size_t{0}));
  affine.set("pi_a", one);
  CHECK(contains(bad_input_message([&] { snarkjs_proof_from_json(affine, "p.json"); }),
                 "p.json: pi_a: expected an array of 3 items ([x, y, z]; or 2, [x, y])"));

  // Jacobian coordinates (x z^2, y z^3, z) and hexadecimal ones, as snarkjs's verifier reads them.
  const auto jacobian = [](const auto& point, const auto& z) {
    const auto zz = z.squared();
    const auto to_json = [](const auto& value) {
      if constexpr (requires { value.c0; })
        return json::Value::array(
            {json::Value(field_to_decimal(value.c0)), json::Value(field_to_decimal(value.c1))});
      else
        return json::Value(field_to_decimal(value));
    };
    return json::Value::array({to_json(point.x * zz), to_json(point.y * zz * z), to_json(z)});
  };
  json::Value scaled = proof_doc;
  scaled.set("pi_a", jacobian(proof.a, Fp::from_u64(5)));
  scaled.set("pi_b", jacobian(proof.b, Fp2{Fp::from_u64(3), Fp::from_u64(7)}));
  CHECK(snarkjs_proof_from_json(scaled) == proof);
  json::Value hex = proof_doc;
  hex.set("pi_c", json::Value::array({json::Value(to_hex(proof.c.x.canonical())),
                                      json::Value("0X" + to_hex(proof.c.y.canonical()).substr(2)), "0x1"}));
  CHECK(snarkjs_proof_from_json(hex) == proof);

  // A key's "curve" as snarkjs reads it (letters and digits, any case), and a key without "nPublic".
  const std::string vk_text = file_text(fixture("chain_16", "verification_key.json"));
  const VerifyingKey vk = read_snarkjs_verifying_key(fixture("chain_16", "verification_key.json"));
  for (const char* name : {"BLS12-381", "bls12_381", "Bls12381"}) {
    CAPTURE(name);
    std::string renamed = vk_text;
    replace_first(renamed, "\"bls12381\"", std::string("\"") + name + "\"");
    CHECK(snarkjs_curve(json::parse(renamed), "vk") == CurveId::bls12_381);
    CHECK(snarkjs_verifying_key_from_json(json::parse(renamed)) == vk);
  }
  for (const char* name : {"bn128", "bn254", "BN254", "altbn128", "alt_bn128"}) {
    CAPTURE(name);
    CHECK(snarkjs_curve(json::parse(std::string("{\"curve\": \"") + name + "\"}"), "vk") == CurveId::bn254);
  }
  CHECK(contains(bad_input_message([] { snarkjs_curve(json::parse("{\"curve\": \"bn256\"}"), "vk"); }),
                 "\"curve\" is \"bn256\", expected \"bn128\" or \"bls12381\""));
  const json::Value vk_doc = json::parse(vk_text);
  json::Value counted = json::Value::object();
  for (const auto& [k, v] : vk_doc.as_object())
    if (k != "nPublic") counted.set(k, v);
  CHECK(snarkjs_verifying_key_from_json(counted) == vk);
  CHECK(vk.num_public() == 2);
}

TEST_CASE("groth16/snarkjs_json/malformed verifying keys and public inputs are clear errors") {
  const std::string text = file_text(fixture("chain_16", "verification_key.json"));
  const auto vk_error = [&](const std::function<void(std::string&)>& change) {
    std::string changed = text;
    change(changed);
    return bad_input_message([&] { snarkjs_verifying_key_from_json(json::parse(changed), "vk.json"); });
  };
  CHECK(contains(vk_error([](auto& t) { replace_first(t, "bls12381", "bn128"); }), "\"curve\" is \"bn128\""));
  CHECK(contains(vk_error([](auto& t) { replace_first(t, "\"nPublic\": 2", "\"nPublic\": 3"); }),
                 "\"IC\" has 3 points, nPublic = 3 needs nPublic + 1"));
  CHECK(contains(vk_error([](auto& t) { replace_first(t, "\"nPublic\": 2", "\"nPublic\": \"2\""); }),
                 "\"nPublic\" is not a number"));
  // One digit of the first vk_alphabeta_12 coordinate.
  CHECK(contains(vk_error([](auto& t) { replace_first(t, "\"3985", "\"3986"); }),
                 "vk_alphabeta_12 is not e(vk_alpha_1, vk_beta_2)"));
  CHECK(contains(vk_error([](auto& t) { replace_first(t, "\"3008", "\"3009"); }),
                 "vk_alpha_1: the point is not on the curve"));
  // Without vk_alphabeta_12 (it is informational) the key still reads.
  json::Value doc = json::parse(text);
  json::Value trimmed = json::Value::object();
  for (const auto& [k, v] : doc.as_object())
    if (k != "vk_alphabeta_12") trimmed.set(k, v);
  CHECK(snarkjs_verifying_key_from_json(trimmed) ==
        read_snarkjs_verifying_key(fixture("chain_16", "verification_key.json")));

  const auto public_error = [&](const std::string& json_text) {
    return bad_input_message([&] { snarkjs_public_from_json(json::parse(json_text), "pub.json"); });
  };
  CHECK(contains(public_error("{}"), "pub.json: expected a JSON array"));
  // Read as snarkjs's verifier reads them: decimal and 0x strings and JSON integers, nothing else.
  CHECK(snarkjs_public_from_json(json::parse("[\"1\", 2, \"0x3\", \"0X1f\"]")) ==
        std::vector<Fr>{Fr::from_u64(1), Fr::from_u64(2), Fr::from_u64(3), Fr::from_u64(31)});
  CHECK(contains(public_error("[\"1\", true]"), "pub.json: [1]: expected a decimal string, a 0x string"));
  CHECK(contains(public_error("[2.5]"),
                 "pub.json: [0]: \"2.5\" is not an integer in decimal digits, or hexadecimal after 0x (an "
                 "element of Fr)"));
  CHECK(contains(public_error("[\"0x\"]"), "\"0x\" is not an integer"));
  CHECK(contains(
      public_error("[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]"),
      "below the Fr modulus"));
  CHECK(snarkjs_public_from_json(json::parse("[]")).empty());

  groth16::test::TempDir dir;
  CHECK(contains(bad_input_message([&] { read_json_file(dir / "none.json"); }), "none.json: cannot open"));
  write_file_text(dir / "bad.json", "[\"1\",");
  CHECK(contains(bad_input_message([&] { read_snarkjs_public(dir / "bad.json"); }), "bad.json"));
}
