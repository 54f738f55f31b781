// verify_proof's one exit-code rule: a well-formed file set gets a verdict (0 valid, 1 invalid), whatever is
// wrong with the proof's points, (0, 0, 1) included; input that is not a well-formed file set is 2. One line
// each time.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <proofline/groth16/json.hpp>
#include <proofline/groth16/snarkjs_json.hpp>

#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"
#include "support/run_program.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

using Outcome = test_support::ProgramOutcome;

Outcome verify_proof(const std::string& args) {
  return test_support::run_program(PROOFLINE_VERIFY_PROOF, args);
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// chain_16's key and public inputs with `proof`: exit 1 (on stdout, one line, containing `reason`).
void check_invalid(const std::filesystem::path& proof, const std::string& reason) {
  CAPTURE(proof.filename().string());
  const Outcome o = verify_proof(fixture("chain_16", "verification_key.json").string() + " " +
                                 fixture("chain_16", "public.json").string() + " " + proof.string());
  CHECK(o.code == 1);
  CHECK_MESSAGE(contains(o.out, "invalid: " + reason), o.out << o.err);
  CHECK(lines(o.out) == 1);
  CHECK(o.err.empty());
}

/// Exit 2 on stderr, one line, containing `reason`; nothing on stdout.
void check_unusable(const std::string& args, const std::string& reason) {
  CAPTURE(args);
  const Outcome o = verify_proof(args);
  CHECK(o.code == 2);
  CHECK_MESSAGE(contains(o.err, reason), o.err);
  CHECK(lines(o.err) == 1);
  CHECK(o.out.empty());
}

/// chain_16's good proof.json with member `name` replaced by `point`, written to `path`.
std::filesystem::path proof_with(const std::filesystem::path& path, const std::string& name,
                                 const json::Value& point) {
  json::Value proof = json::parse(file_text(fixture("chain_16", "proof.json")));
  proof.set(name, point);
  write_file_text(path, snarkjs_stringify(proof));
  return path;
}

json::Value g1_zero_affine() {
  return json::Value::array({"0", "0", "1"});
}

json::Value g2_zero_affine() {
  return json::Value::array(
      {json::Value::array({"0", "0"}), json::Value::array({"0", "0"}), json::Value::array({"1", "0"})});
}

/// A point of E(Fp) on the curve and outside G1 (the cofactor is large, so the first x that gives a point
/// does).
G1Affine curve_point_outside_g1() {
  for (std::uint64_t x = 1;; ++x) {
    G1Affine p{Fp::from_u64(x), Fp::zero()};
    if (!(p.x.squared() * p.x + Fp::from_u64(4)).sqrt(p.y)) continue;
    if (!is_in_subgroup(p)) return p;
  }
}

G2Affine twist_point_outside_g2() {
  for (std::uint64_t x = 1;; ++x) {
    G2Affine p{Fp2{Fp::from_u64(x), Fp::one()}, Fp2{}};
    const Fp2 b{Fp::from_u64(4), Fp::from_u64(4)};
    if (!(p.x.squared() * p.x + b).sqrt(p.y)) continue;
    if (!is_in_subgroup(p)) return p;
  }
}

}  // namespace

TEST_CASE("apps/verify_proof/an affine (0 0) point makes the proof invalid (exit 1) not the file unusable") {
  groth16::test::TempDir dir;
  check_invalid(proof_with(dir / "a00.json", "pi_a", g1_zero_affine()),
                "proof point A is not a valid G1 element: (0, 0) is not on the curve");
  check_invalid(proof_with(dir / "b00.json", "pi_b", g2_zero_affine()),
                "proof point B is not a valid G2 element: (0, 0) is not on the curve");
  check_invalid(proof_with(dir / "c00.json", "pi_c", g1_zero_affine()),
                "proof point C is not a valid G1 element: (0, 0) is not on the curve");
  // Zero spelled with leading zeros reads as zero too.
  check_invalid(proof_with(dir / "a000.json", "pi_a", json::Value::array({"00", "0", "01"})),
                "proof point A is not a valid G1 element");

  // A wrong number of public inputs is still reported as such.
  write_file_text(dir / "pub1.json", "[\"7\"]");
  const Outcome o = verify_proof(fixture("chain_16", "verification_key.json").string() + " " +
                                 (dir / "pub1.json").string() + " " + (dir / "a00.json").string());
  CHECK(o.code == 1);
  CHECK(contains(o.out, "has 1, the key expects 2"));

  // The rest of the file is still checked: (0, 0, 1) in a file for another curve is unusable input.
  json::Value other = json::parse(file_text(dir / "a00.json"));
  other.set("curve", "bn128");
  write_file_text(dir / "a00_bn128.json", snarkjs_stringify(other));
  check_unusable(fixture("chain_16", "verification_key.json").string() + " " +
                     fixture("chain_16", "public.json").string() + " " + (dir / "a00_bn128.json").string(),
                 "bn128");
  check_unusable(fixture("chain_16", "verification_key.json").string() + " " +
                     fixture("chain_16", "public.json").string() + " " +
                     proof_with(dir / "c00_short.json", "pi_c", json::Value::array({"0", "0"})).string(),
                 "pi_c");
}

TEST_CASE("apps/verify_proof/points off the curve or outside the subgroup are invalid proofs (exit 1)") {
  groth16::test::TempDir dir;
  const Proof good = read_snarkjs_proof(fixture("chain_16", "proof.json"));
  Proof proof = good;
  proof.a = curve_point_outside_g1();
  REQUIRE(proof.a.is_on_curve());
  write_snarkjs_proof(dir / "a_subgroup.json", proof);
  check_invalid(dir / "a_subgroup.json", "proof point A is not a valid G1 element");
  proof = good;
  proof.b = twist_point_outside_g2();
  REQUIRE(proof.b.is_on_curve());
  write_snarkjs_proof(dir / "b_subgroup.json", proof);
  check_invalid(dir / "b_subgroup.json", "proof point B is not a valid G2 element");
  proof = good;
  proof.b.y += Fp2::one();
  REQUIRE_FALSE(proof.b.is_on_curve());
  write_snarkjs_proof(dir / "b_off.json", proof);
  check_invalid(dir / "b_off.json", "proof point B is not a valid G2 element");
  proof = good;
  proof.c.x += Fp::one();
  REQUIRE_FALSE(proof.c.is_on_curve());
  write_snarkjs_proof(dir / "c_off.json", proof);
  check_invalid(dir / "c_off.json", "proof point C is not a valid G1 element");
}

TEST_CASE("apps/verify_proof/malformed files and arguments are unusable input (exit 2)") {
  groth16::test::TempDir dir;
  const std::string vk = fixture("chain_16", "verification_key.json").string();
  const std::string pub = fixture("chain_16", "public.json").string();
  const std::string good = vk + " " + pub + " ";
  check_unusable(
      good + proof_with(dir / "big.json", "pi_a", json::Value::array({std::string(120, '9'), "1", "1"}))
                 .string(),
      "is not below the Fp modulus");
  check_unusable(good + proof_with(dir / "num.json", "pi_c", json::Value::array({0, 0, 1})).string(),
                 "expected a decimal string");
  write_file_text(dir / "empty.json", "");
  check_unusable(good + (dir / "empty.json").string(), "empty.json");
  write_file_text(dir / "pub_number.json", "[true, 8]");  // numbers are read, as snarkjs reads them
  check_unusable(
      vk + " " + (dir / "pub_number.json").string() + " " + fixture("chain_16", "proof.json").string(),
      "pub_number.json");
  check_unusable(
      (dir / "missing_vk.json").string() + " " + pub + " " + fixture("chain_16", "proof.json").string(),
      "missing_vk.json");
  check_unusable("", "verify_proof: expected 3 arguments (VK.json PUBLIC.json PROOF.json), got 0");
  check_unusable(good, "expected 3 arguments (VK.json PUBLIC.json PROOF.json), got 2");
  check_unusable(good + "a b", "got 4");
  check_unusable("--strict " + good + "x", "verify_proof: unknown option '--strict'");

  const Outcome help = verify_proof("--help");
  CHECK(help.code == 0);
  CHECK(contains(help.out, "usage: verify_proof VK.json PUBLIC.json PROOF.json"));
  CHECK(contains(help.out, "Exit codes: 0 valid; 1 invalid"));
  CHECK(help.err.empty());
}

TEST_CASE("apps/verify_proof/bn128 proofs from snarkjs are judged on BN254, the curve taken from the key") {
  groth16::test::TempDir dir;
  const auto bn = [](const std::string& file) { return fixture("bn128/chain_16", file).string(); };
  const Outcome good =
      verify_proof(bn("verification_key.json") + " " + bn("public.json") + " " + bn("proof.json"));
  CHECK_MESSAGE(good.code == 0, good.out << good.err);
  CHECK(contains(good.out, "valid: the proof verifies for 2 public inputs"));

  const json::Value inputs = json::parse(file_text(bn("public.json")));
  // b = 8, not the 7 it was proved with.
  write_file_text(dir / "public.json",
                  snarkjs_stringify(json::Value::array({inputs.at(std::size_t{0}), json::Value("8")})));
  const Outcome tampered = verify_proof(bn("verification_key.json") + " " + (dir / "public.json").string() +
                                        " " + bn("proof.json"));
  CHECK(tampered.code == 1);
  CHECK(contains(tampered.out, "invalid: the pairing check failed"));

  // A BLS12-381 proof under a bn128 key: the files do not belong together (exit 2).
  check_unusable(bn("verification_key.json") + " " + bn("public.json") + " " +
                     fixture("chain_16", "proof.json").string(),
                 "expected \"bn128\"");
}

TEST_CASE(
    "apps/verify_proof/a public signal outside 0..r-1 is an invalid proof (exit 1) as snarkjs judges it") {
  // snarkjs groth16 verify checks every public signal against r first: "Public inputs are not valid." and
  // exit 1 for an integer that is negative or not below r, the same verdict as for a failed pairing check.
  groth16::test::TempDir dir;
  for (const bool bn : {false, true}) {
    const std::string circuit = bn ? "bn128/chain_16" : "chain_16";
    const std::string r =
        bn ? "21888242871839275222246405745257275088548364400416034343698204186575808495617"
           : "52435875175126190479447740508185965837690552500527637822603658699938581184513";
    const std::string r_hex = bn ? "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
                                 : "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
    const std::string curve = bn ? "BN254" : "BLS12-381";
    const json::Value inputs = json::parse(file_text(fixture(circuit, "public.json")));
    const auto with_b = [&](const json::Value& b) {
      const auto path = dir / "public.json";
      write_file_text(path, snarkjs_stringify(json::Value::array({inputs.at(std::size_t{0}), b})));
      return fixture(circuit, "verification_key.json").string() + " " + path.string() + " " +
             fixture(circuit, "proof.json").string();
    };
    for (const json::Value& b :
         {json::Value(r), json::Value(r_hex), json::Value("1" + r), json::Value("0x1" + std::string(64, '0')),
          json::Value("-7"), json::Value::number("-7")}) {
      CAPTURE(bn);
      CAPTURE(json::dump(b, -1));
      const Outcome o = verify_proof(with_b(b));
      CHECK(o.code == 1);
      const std::string text = b.is_string() ? b.as_string() : b.number_text();
      CHECK_MESSAGE(
          contains(o.out, "invalid: public signal [1] of " + (dir / "public.json").string() + ", \"" + text +
                              "\", is " + (text[0] == '-' ? "negative" : "not below r") + " (" + curve +
                              "'s scalar field; snarkjs: \"Public inputs are not valid.\")"),
          o.out << o.err);
      CHECK(lines(o.out) == 1);
      CHECK(o.err.empty());
    }
    // r - 1 is a field element: the proof is merely wrong for it. Text that is no integer stays unusable.
    const Outcome below = verify_proof(with_b(json::Value(r.substr(0, r.size() - 1) + char(r.back() - 1))));
    CHECK(below.code == 1);
    CHECK(contains(below.out, "invalid: the pairing check failed"));
    check_unusable(
        with_b(json::Value("12ab")),
        "\"12ab\" is not an integer in decimal digits, or hexadecimal after 0x (an element of Fr)");
  }
}

TEST_CASE(
    "apps/verify_proof/public signals written as JSON numbers are read through a double as snarkjs does") {
  // snarkjs groth16 verify reads public.json with JSON.parse: a number becomes a double, which its verifier
  // takes as the integer it holds. 7.0, 7e0 and 7.0000000000000001 (the same double) are 7, and a number
  // beyond r is "Public inputs are not valid."; one with a fraction makes BigInt throw (unusable).
  groth16::test::TempDir dir;
  for (const bool bn : {false, true}) {
    CAPTURE(bn);
    const std::string circuit = bn ? "bn128/chain_16" : "chain_16";
    const json::Value inputs = json::parse(file_text(fixture(circuit, "public.json")));
    REQUIRE(inputs.at(std::size_t{1}).as_string() == "7");
    const auto with_b = [&](const std::string& number) {
      const auto path = dir / "public.json";
      write_file_text(path, "[\"" + inputs.at(std::size_t{0}).as_string() + "\", " + number + "]");
      return fixture(circuit, "verification_key.json").string() + " " + path.string() + " " +
             fixture(circuit, "proof.json").string();
    };
    for (const std::string seven : {"7", "7.0", "7e0", "0.7E1", "70e-1", "7.0000000000000001"}) {
      CAPTURE(seven);
      const Outcome o = verify_proof(with_b(seven));
      CHECK_MESSAGE(o.code == 0, o.out << o.err);
      CHECK(contains(o.out, "valid: the proof verifies for 2 public inputs"));
    }
    const Outcome beyond = verify_proof(with_b("1e80"));
    CHECK(beyond.code == 1);
    CHECK_MESSAGE(contains(beyond.out, "is not below r"), beyond.out << beyond.err);
    CHECK(verify_proof(with_b("8.0")).code == 1);
    CHECK(verify_proof(with_b("7.5")).code == 2);
    CHECK(verify_proof(with_b("1e400")).code == 2);
  }
}
