// BN254 (snarkjs's bn128, circom's default prime) through the host stack: the readers take the curve from the
// file, snarkjs's verifying key is reproduced byte for byte (its e(alpha, beta) included), our verifier
// accepts snarkjs's proofs and rejects tampered ones, our CPU prover's proofs verify (on snarkjs's keys and
// on known-trapdoor keys of a synthetic BN254 circuit, written as a bn128 .zkey), and batch_prove proves
// bn128 keys and the --curve bn254 synthetic workload through the pipeline into files verify_proof accepts,
// with --key-cache keeping each curve's keys apart; and BN254 proofs as EIP-197 points.
// The fixtures are made by snarkjs itself (tests/fixtures/snarkjs/make_fixture.sh, bn128/).
#include <doctest/doctest.h>

#include <algorithm>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/r1cs_file.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/groth16/zkey_writer.hpp>

#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"
#include "support/run_program.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

using BnFr = bn254::Fr;

std::filesystem::path bn(const std::string& circuit, const std::string& file) {
  return fixture("bn128/" + circuit, file);
}

const BasicZkeyFile<Bn254>& bn_key(const std::string& circuit) {
  static const BasicZkeyFile<Bn254> chain_16 = read_zkey<Bn254>(bn("chain_16", "circuit_final.zkey"));
  static const BasicZkeyFile<Bn254> chain_1024 = read_zkey<Bn254>(bn("chain_1024", "circuit_final.zkey"));
  return circuit == "chain_16" ? chain_16 : chain_1024;
}

}  // namespace

TEST_CASE("groth16/bn254/the readers take the curve from the file and refuse the other curve's") {
  const auto zkey = bn("chain_16", "circuit_final.zkey");
  const AnyZkeyFile any = read_any_zkey(zkey);
  REQUIRE(std::holds_alternative<BasicZkeyFile<Bn254>>(any));
  const auto& key = std::get<BasicZkeyFile<Bn254>>(any);
  CHECK(key.pk.num_variables == 19);
  CHECK(key.pk.num_public == 2);
  CHECK(key.pk.convention == HConvention::snarkjs);
  CHECK(std::holds_alternative<ZkeyFile>(read_any_zkey(fixture("chain_16", "circuit_final.zkey"))));
  CHECK(contains(bad_input_message([&] { read_zkey(zkey); }), "the key is for BN254, not BLS12-381"));
  CHECK(contains(bad_input_message([&] { read_zkey<Bn254>(fixture("chain_16", "circuit_final.zkey")); }),
                 "the key is for BLS12-381, not BN254"));

  CHECK(read_wtns_header(bn("chain_16", "witness.wtns")).curve == CurveId::bn254);
  CHECK(check_wtns(bn("chain_16", "witness.wtns"), CurveId::bn254).num_witness == 19);
  CHECK(contains(bad_input_message([&] { check_wtns(bn("chain_16", "witness.wtns"), CurveId::bls12_381); }),
                 "the witness is over BN254's scalar field, not BLS12-381's"));
  CHECK(contains(bad_input_message([&] { read_wtns(bn("chain_16", "witness.wtns")); }), "BN254"));

  CHECK(r1cs_curve(bn("chain_16", "circuit.r1cs")) == CurveId::bn254);
  CHECK(r1cs_curve(fixture("chain_16", "circuit.r1cs")) == CurveId::bls12_381);
  const auto r1cs = read_r1cs<Bn254>(bn("chain_16", "circuit.r1cs"));
  const std::vector<BnFr> z = read_wtns<BnFr>(bn("chain_16", "witness.wtns"));
  CHECK(is_satisfied(r1cs.cs, std::span<const BnFr>(z)));
  std::vector<BnFr> broken = z;
  broken[5] += BnFr::one();
  CHECK_FALSE(is_satisfied(r1cs.cs, std::span<const BnFr>(broken)));
}

TEST_CASE(
    "groth16/bn254/snarkjs's verification_key.json is reproduced byte for byte, e(alpha, beta) included") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const auto& key = bn_key(circuit);
    CHECK(snarkjs_stringify(snarkjs_verifying_key_to_json(key.vk)) ==
          file_text(bn(circuit, "verification_key.json")));
    const BasicVerifyingKey<Bn254> vk =
        read_snarkjs_verifying_key<Bn254>(bn(circuit, "verification_key.json"));
    CHECK(vk == key.vk);
    CHECK(snarkjs_curve(read_json_file(bn(circuit, "verification_key.json")), "vk") == CurveId::bn254);
  }
}

TEST_CASE("groth16/bn254/our verifier accepts snarkjs's proofs and rejects tampered ones") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const auto pvk = prepare(bn_key(circuit).vk);
    const BasicProof<Bn254> proof = read_snarkjs_proof<Bn254>(bn(circuit, "proof.json"));
    const std::vector<BnFr> inputs = read_snarkjs_public<BnFr>(bn(circuit, "public.json"));
    REQUIRE(inputs.size() == 2);
    CHECK(verify_status(pvk, inputs, proof) == VerifyStatus::ok);
    std::vector<BnFr> other = inputs;
    other[1] += BnFr::one();
    CHECK(verify_status(pvk, other, proof) == VerifyStatus::pairing_failed);
    BasicProof<Bn254> swapped = proof;
    std::swap(swapped.a, swapped.c);
    CHECK(verify_status(pvk, inputs, swapped) == VerifyStatus::pairing_failed);
    BasicProof<Bn254> negated = proof;
    negated.b = -negated.b;
    CHECK_FALSE(verify(pvk, inputs, negated));
    CHECK(verify_status(pvk, std::span<const BnFr>(inputs).first(1), proof) ==
          VerifyStatus::wrong_input_count);
    // A BLS12-381 proof.json is not read as BN254.
    CHECK(contains(bad_input_message([&] { read_snarkjs_proof<Bn254>(fixture("chain_16", "proof.json")); }),
                   "expected \"bn128\""));
  }
}

TEST_CASE("groth16/bn254/the CPU prover's proofs verify and are written as snarkjs writes them") {
  groth16::test::TempDir dir;
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const auto& key = bn_key(circuit);
    const std::vector<BnFr> z = read_wtns<BnFr>(bn(circuit, "witness.wtns"));
    const auto pvk = prepare(key.vk);
    const std::span<const BnFr> inputs = public_inputs(std::span<const BnFr>(z), key.pk.num_public);
    const BasicProof<Bn254> first = prove(key.pk, key.cs, std::span<const BnFr>(z));
    const BasicProof<Bn254> second = prove(key.pk, key.cs, std::span<const BnFr>(z));
    CHECK(verify_status(pvk, inputs, first) == VerifyStatus::ok);
    CHECK(verify(pvk, inputs, second));
    CHECK_FALSE(first == second);  // fresh r and s each time
    // A witness that breaks a row: the zkey has no C to check it against, so the proof is made and fails
    // verification; with the circuit's C (the .r1cs) the prover refuses it before any MSM.
    std::vector<BnFr> broken = z;
    broken.back() += BnFr::one();
    CHECK_FALSE(verify(pvk, inputs, prove(key.pk, key.cs, std::span<const BnFr>(broken))));
    R1csOptions rows;
    rows.snarkjs_input_rows = true;
    const auto r1cs = read_r1cs<Bn254>(bn(circuit, "circuit.r1cs"), rows);
    CHECK(verify(pvk, inputs, prove(key.pk, r1cs.cs, std::span<const BnFr>(z))));
    CHECK_THROWS_AS(prove(key.pk, r1cs.cs, std::span<const BnFr>(broken)), Error);

    write_snarkjs_proof(dir / "proof.json", first);
    write_snarkjs_public(dir / "public.json", inputs);
    CHECK(contains(file_text(dir / "proof.json"), "\"curve\": \"bn128\""));
    CHECK(file_text(dir / "public.json") == file_text(bn(circuit, "public.json")));
    CHECK(read_snarkjs_proof<Bn254>(dir / "proof.json") == first);
  }
}

TEST_CASE(
    "apps/batch_prove/a bn128 zkey proves its wtns files with the default backend into bn128 files that "
    "verify") {
  using test_support::run_program;
  groth16::test::TempDir dir;
  std::filesystem::copy_file(bn("chain_16", "witness.wtns"), dir / "A.wtns");
  std::filesystem::copy_file(bn("chain_16", "witness.wtns"), dir / "B.wtns");
  const auto zkey = bn("chain_16", "circuit_final.zkey");
  const auto out = dir / "out";
  // The default backend, the CPU here (the CI machine has no GPU); where there is one, this small circuit
  // proves on it (tests/gpu).
  test_support::ProgramOutcome o = run_program(
      PROOFLINE_BATCH_PROVE, "--no-progress --threads 2 --verify --zkey " + zkey.string() + " --wtns " +
                                 (dir / "A.wtns").string() + " " + (dir / "B.wtns").string() + " --out " +
                                 out.string() + " --report " + (dir / "report.json").string());
  INFO(o.out << o.err);
  REQUIRE(o.code == 0);
  CHECK(contains(o.out, "curve: BN254"));
  CHECK(contains(o.out, "(BN254 key)"));
  CHECK(contains(file_text(dir / "report.json"), "\"curve\": \"BN254\""));
  const auto pvk = prepare(read_snarkjs_verifying_key<Bn254>(bn("chain_16", "verification_key.json")));
  for (const char* name : {"A", "B"}) {
    CAPTURE(name);
    const auto proof = out / (std::string(name) + ".proof.json");
    const auto pub = out / (std::string(name) + ".public.json");
    CHECK(file_text(pub) == file_text(bn("chain_16", "public.json")));
    CHECK(contains(file_text(proof), "\"curve\": \"bn128\""));
    CHECK(verify(pvk, read_snarkjs_public<BnFr>(pub), read_snarkjs_proof<Bn254>(proof)));
    const auto checked =
        run_program(PROOFLINE_VERIFY_PROOF, bn("chain_16", "verification_key.json").string() + " " +
                                                pub.string() + " " + proof.string());
    CHECK(checked.code == 0);
  }
  CHECK_FALSE(file_text(out / "A.proof.json") == file_text(out / "B.proof.json"));  // fresh r, s per proof

  // A BLS12-381 witness for the bn128 key: exit 2, one line naming both curves, before anything is proved.
  std::filesystem::remove_all(out);
  o = run_program(PROOFLINE_BATCH_PROVE,
                  "--no-progress --zkey " + zkey.string() + " --wtns " + (dir / "A.wtns").string() + " " +
                      fixture("chain_16", "witness.wtns").string() + " --out " + out.string());
  CHECK(o.code == 2);
  CHECK(contains(o.err, "the witness is over BLS12-381's scalar field, not BN254's"));
  CHECK_FALSE(std::filesystem::exists(out / "A.proof.json"));
}

TEST_CASE("groth16/bn254/a synthetic BN254 circuit's known-trapdoor keys prove and write a bn128 zkey") {
  const SyntheticOptions options{.log_size = 8, .num_public = 2, .seed = 5};
  const BasicSyntheticCircuit<Bn254> circuit = make_synthetic_circuit<Bn254>(options);
  CHECK(is_satisfied(circuit.cs, std::span<const BnFr>(circuit.witness)));
  const BasicKeyPair<Bn254> keys = setup_from_trapdoor(
      circuit.cs, trapdoor_from_seed<Bn254>(9), BasicSetupOptions<Bn254>{.convention = HConvention::snarkjs});
  const auto pvk = prepare(keys.vk);
  const std::span<const BnFr> z(circuit.witness);
  const std::span<const BnFr> inputs = public_inputs(z, 2);
  CHECK(verify(pvk, inputs, prove(keys.pk, circuit.cs, z)));
  // Another witness of the same circuit proves too; a broken one is refused row by row (the system has C).
  const std::vector<BnFr> other = synthetic_witness(circuit.cs, options, 77);
  CHECK(verify(pvk, public_inputs(std::span<const BnFr>(other), 2),
               prove(keys.pk, circuit.cs, std::span<const BnFr>(other))));
  std::vector<BnFr> broken = circuit.witness;
  broken.back() += BnFr::one();
  CHECK_THROWS_AS(prove(keys.pk, circuit.cs, std::span<const BnFr>(broken)), Error);

  // The zkey writer writes a bn128 key the reader takes back: the same points, proofs that verify.
  groth16::test::TempDir dir;
  write_zkey(dir / "k.zkey", keys.pk, keys.vk, circuit.cs);
  CHECK(std::filesystem::file_size(dir / "k.zkey") == zkey_file_size(keys.pk, circuit.cs));
  const AnyZkeyFile any = read_any_zkey(dir / "k.zkey");
  REQUIRE(std::holds_alternative<BasicZkeyFile<Bn254>>(any));
  const auto& read = std::get<BasicZkeyFile<Bn254>>(any);
  CHECK(read.vk == keys.vk);
  CHECK(read.pk.h_query.size() == keys.pk.h_query.size());
  REQUIRE(read.pk.b2_query.size() == keys.pk.b2_query.size());
  CHECK(std::equal(read.pk.b2_query.data(), read.pk.b2_query.data() + read.pk.b2_query.size(),
                   keys.pk.b2_query.data()));
  CHECK(verify(pvk, inputs, prove(read.pk, read.cs, z)));
}

TEST_CASE("apps/batch_prove/curve bn254 proves the synthetic workload and exports a bn128 key that proves") {
  using test_support::run_program;
  groth16::test::TempDir dir;
  test_support::ProgramOutcome o =
      run_program(PROOFLINE_BATCH_PROVE,
                  "--no-progress --backend cpu --threads 2 --synthetic 8 --count 3 --curve bn254 "
                  "--verify --out " +
                      (dir / "proofs").string());
  INFO(o.out << o.err);
  REQUIRE(o.code == 0);
  CHECK(contains(o.out, "3 jobs of 2^8 rows on the cpu backend (pinned mode), BN254 keys made"));
  CHECK(contains(o.out, "proofs 3/3 (verified 3)"));
  CHECK(contains(o.out, "curve: BN254"));
  CHECK(contains(file_text(dir / "proofs" / "proof-000000.json"), "\"curve\": \"bn128\""));
  CHECK(std::filesystem::exists(dir / "proofs" / "proof-000002.public.json"));

  // --export-snarkjs writes a bn128 key and witnesses; batch_prove --zkey proves them into files that
  // verify_proof accepts with the exported verifying key.
  o = run_program(
      PROOFLINE_BATCH_PROVE,
      "--no-progress --synthetic 8 --count 2 --curve bn254 --export-snarkjs " + (dir / "export").string());
  REQUIRE(o.code == 0);
  CHECK(contains(o.out, "bn128 key"));
  CHECK(contains(file_text(dir / "export" / "verification_key.json"), "\"curve\": \"bn128\""));
  const auto wtns0 = dir / "export" / "witness-000000.wtns";
  const auto wtns1 = dir / "export" / "witness-000001.wtns";
  CHECK(read_wtns_header(wtns0).curve == CurveId::bn254);
  o = run_program(PROOFLINE_BATCH_PROVE, "--no-progress --threads 2 --verify --zkey " +
                                             (dir / "export" / "circuit.zkey").string() + " --wtns " +
                                             wtns0.string() + " " + wtns1.string() + " --out " +
                                             (dir / "out").string());
  REQUIRE(o.code == 0);
  for (const char* name : {"witness-000000", "witness-000001"}) {
    CAPTURE(name);
    const auto checked = run_program(PROOFLINE_VERIFY_PROOF,
                                     (dir / "export" / "verification_key.json").string() + " " +
                                         (dir / "out" / (std::string(name) + ".public.json")).string() + " " +
                                         (dir / "out" / (std::string(name) + ".proof.json")).string());
    CHECK(checked.code == 0);
  }

  // Options that do not go together: a curve for a zkey (the file names its own).
  o = run_program(PROOFLINE_BATCH_PROVE, "--no-progress --curve bn254 --zkey " +
                                             bn("chain_16", "circuit_final.zkey").string() + " --wtns " +
                                             bn("chain_16", "witness.wtns").string());
  CHECK(o.code == 2);
  CHECK(contains(o.err, "a --zkey names its own"));
}

TEST_CASE("apps/batch_prove/key-cache keeps bn254 and bls12-381 keys apart and loads each of its own curve") {
  using test_support::run_program;
  groth16::test::TempDir dir;
  const std::string cache = (dir / "cache").string();
  const auto run = [&](const std::string& curve) {
    test_support::ProgramOutcome o =
        run_program(PROOFLINE_BATCH_PROVE,
                    "--no-progress --backend cpu --threads 2 --synthetic 7 --count 2 --verify --curve " +
                        curve + " --key-cache " + cache);
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    CHECK(contains(o.out, "proofs 2/2 (verified 2)"));
    return o.out;
  };
  CHECK(contains(run("bn254"), "BN254 keys made"));
  CHECK(contains(run("bn254"), "BN254 keys loaded"));
  // The same synthetic circuit on the other curve: its key is not the cached BN254 one.
  CHECK(contains(run("bls12-381"), "BLS12-381 keys made"));
  CHECK(contains(run("bls12-381"), "BLS12-381 keys loaded"));
  CHECK(contains(run("bn254"), "BN254 keys loaded"));
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(cache))
    files.push_back(entry.path().extension().string());
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{".plkey", ".zkey"});
}

TEST_CASE("groth16/bn254/snarkjs's bn128 proof as EIP-197 points: 256 bytes that round trip or are refused") {
  const json::Value document = read_json_file(bn("chain_16", "proof.json"));
  const BasicProof<Bn254> proof = snarkjs_proof_from_json<Bn254>(document);
  const auto bytes = encode_proof(proof);
  // The reference: snarkjs's decimals big-endian, G1 as x, y; G2's coordinates as [c1, c0] (EIP-197's order,
  // the reverse of snarkjs's JSON pairs).
  const auto coordinate = [](const json::Value& decimal) {
    const auto value = parse_decimal<4>(decimal.as_string());
    REQUIRE(value.has_value());
    std::vector<std::uint8_t> be(32);
    for (std::size_t i = 0; i < 32; ++i)
      be[31 - i] = static_cast<std::uint8_t>(value->limb[i / 8] >> (8 * (i % 8)));
    return be;
  };
  const json::Value& a = document.at("pi_a");
  const json::Value& b = document.at("pi_b");
  const json::Value& c = document.at("pi_c");
  std::vector<std::uint8_t> expected;
  for (const json::Value* v :
       {&a.at(std::size_t{0}), &a.at(std::size_t{1}), &b.at(std::size_t{0}).at(std::size_t{1}),
        &b.at(std::size_t{0}).at(std::size_t{0}), &b.at(std::size_t{1}).at(std::size_t{1}),
        &b.at(std::size_t{1}).at(std::size_t{0}), &c.at(std::size_t{0}), &c.at(std::size_t{1})}) {
    const auto be = coordinate(*v);
    expected.insert(expected.end(), be.begin(), be.end());
  }
  CHECK(std::vector<std::uint8_t>(bytes.begin(), bytes.end()) == expected);
  CHECK(decode_bn254_proof(bytes) == proof);
  const BasicProof<Bn254> with_infinity{bn254::G1Affine::infinity(), proof.b, proof.c};
  CHECK(decode_bn254_proof(encode_proof(with_infinity)) == with_infinity);

  const auto refused = [](std::span<const std::uint8_t> image) {
    std::string why;
    CHECK_FALSE(try_decode_bn254_proof(image, &why).has_value());
    return why;
  };
  CHECK(refused(std::span(bytes).first(255)) == "length 255, expected 256");
  auto off_curve = bytes;
  off_curve[63] ^= 1;  // A.y
  CHECK(refused(off_curve) == "A: not on the curve");
  auto not_reduced = bytes;
  std::fill(not_reduced.begin() + 64, not_reduced.begin() + 96, 0xff);  // B.x.c1 = 2^256 - 1
  CHECK(refused(not_reduced) == "B: a coordinate is not below p");
  auto off_twist = bytes;
  off_twist[255] ^= 1;  // C.y
  CHECK(refused(off_twist) == "C: not on the curve");
  CHECK_THROWS_AS(decode_bn254_proof(off_curve), Error);
}
