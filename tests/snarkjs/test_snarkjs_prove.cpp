// Proving from snarkjs keys and circom witnesses: our CPU prover reproduces snarkjs's deterministic r = s = 0
// proof byte for byte (and every MSM of it), the pipeline proves from .zkey + .wtns, and our verifier accepts
// snarkjs's proofs and rejects tampered ones.
#include <doctest/doctest.h>

#include <proofline/arith/int_text.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>

#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

const ZkeyFile& key_of(const std::string& circuit) {
  static const ZkeyFile chain_16 = read_zkey(fixture("chain_16", "circuit_final.zkey"));
  static const ZkeyFile chain_1024 = read_zkey(fixture("chain_1024", "circuit_final.zkey"));
  return circuit == "chain_16" ? chain_16 : chain_1024;
}

std::vector<Fr> public_of(const std::vector<Fr>& z, std::uint64_t n) {
  return std::vector<Fr>(z.begin() + 1, z.begin() + 1 + static_cast<std::ptrdiff_t>(n));
}

/// Three reference points of ref_intermediates_rs0.json, read through the proof.json reader.
Proof reference_points(const json::Value& ref, const char* a, const char* b, const char* c) {
  return snarkjs_proof_from_json(json::Value::object({{"pi_a", ref.at(a)},
                                                      {"pi_b", ref.at(b)},
                                                      {"pi_c", ref.at(c)},
                                                      {"protocol", "groth16"},
                                                      {"curve", "bls12381"}}),
                                 "ref_intermediates_rs0.json", ProofPointCheck::shape_only);
}

graph::Config cpu_config() {
  graph::Config config;
  config.backend = graph::Backend::cpu;
  config.pinning = memory::PinningKind::host;
  config.host_budget = 256ull << 20;
  config.max_threads = 4;
  config.synthesis_concurrency = 2;
  return config;
}

}  // namespace

TEST_CASE("groth16/snarkjs_prove/r = s = 0 reproduces the reference proof and every MSM byte for byte") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const ZkeyFile& key = key_of(circuit);
    const std::vector<Fr> z = read_wtns(fixture(circuit, "witness.wtns"));
    const json::Value ref = json::parse(file_text(fixture(circuit, "ref_intermediates_rs0.json")));

    // The H scalars (odd-coset A·B − C, snarkjs's joinABC output).
    const std::uint64_t n = key.pk.domain_size();
    std::vector<Fr> a(n), b(n), c(n);
    synthesize(key.pk, key.cs, z, a, b, c);
    const std::span<const Fr> h = compute_h_scalars(key.pk, a, b, c);
    const json::Value& h_ref = ref.at("H_scalars");
    REQUIRE(h.size() == h_ref.size());
    for (std::size_t i = 0; i < h.size(); ++i) REQUIRE(field_to_decimal(h[i]) == h_ref.at(i).as_string());

    const MsmResults msm = compute_msms(key.pk, z, h);
    const Proof abc = reference_points(ref, "msm_A", "msm_B2", "msm_C");
    const Proof b1h = reference_points(ref, "msm_B1", "msm_B2", "msm_H");
    CHECK(msm.a.to_affine() == abc.a);
    CHECK(msm.b2.to_affine() == abc.b);
    CHECK(msm.l.to_affine() == abc.c);
    CHECK(msm.b1.to_affine() == b1h.a);
    CHECK(msm.h.to_affine() == b1h.c);

    ProveOptions options;
    options.fixed_randomness = ProofRandomness{Fr::zero(), Fr::zero()};
    const Proof proof = prove(key.pk, key.cs, z, options);
    CHECK(snarkjs_stringify(snarkjs_proof_to_json(proof)) ==
          file_text(fixture(circuit, "proof_ref_rs0.json")));
    CHECK(verify(prepare(key.vk), public_of(z, 2), proof));
  }
}

TEST_CASE("groth16/snarkjs_prove/proofs with fresh r and s verify here and differ each time") {
  const ZkeyFile& key = key_of("chain_16");
  const std::vector<Fr> z = read_wtns(fixture("chain_16", "witness.wtns"));
  const Proof p1 = prove(key.pk, key.cs, z);
  const Proof p2 = prove(key.pk, key.cs, z);
  CHECK_FALSE(p1 == p2);
  const PreparedVerifyingKey pvk =
      prepare(read_snarkjs_verifying_key(fixture("chain_16", "verification_key.json")));
  CHECK(verify(pvk, public_of(z, 2), p1));
  CHECK(verify(pvk, public_of(z, 2), p2));
}

TEST_CASE("groth16/snarkjs_prove/our verifier accepts snarkjs's proofs and rejects tampered ones") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const PreparedVerifyingKey pvk =
        prepare(read_snarkjs_verifying_key(fixture(circuit, "verification_key.json")));
    const std::vector<Fr> inputs = read_snarkjs_public(fixture(circuit, "public.json"));
    const Proof proof = read_snarkjs_proof(fixture(circuit, "proof.json"));
    CHECK(verify_status(pvk, inputs, proof) == VerifyStatus::ok);
    CHECK(verify_status(pvk, inputs, read_snarkjs_proof(fixture(circuit, "proof_ref_rs0.json"))) ==
          VerifyStatus::ok);

    std::vector<Fr> wrong = inputs;
    wrong[1] += Fr::one();  // b = 8 instead of 7
    CHECK(verify_status(pvk, wrong, proof) == VerifyStatus::pairing_failed);
    std::swap(wrong[0], wrong[1]);
    CHECK(verify_status(pvk, wrong, proof) == VerifyStatus::pairing_failed);
    CHECK(verify_status(pvk, std::vector<Fr>(inputs.begin(), inputs.begin() + 1), proof) ==
          VerifyStatus::wrong_input_count);
    Proof tampered = proof;
    tampered.a = (proof.a.to_jacobian() + G1Affine::generator()).to_affine();  // a valid point, the wrong one
    CHECK(verify_status(pvk, inputs, tampered) == VerifyStatus::pairing_failed);
    tampered = proof;
    tampered.c = -proof.c;
    CHECK(verify_status(pvk, inputs, tampered) == VerifyStatus::pairing_failed);
    tampered = proof;
    tampered.b = -proof.b;
    CHECK(verify_status(pvk, inputs, tampered) == VerifyStatus::pairing_failed);
    tampered = proof;
    tampered.a.y += Fp::one();  // off the curve
    CHECK(verify_status(pvk, inputs, tampered) == VerifyStatus::a_invalid);
    // The proof of the other circuit.
    const char* other = std::string(circuit) == "chain_16" ? "chain_1024" : "chain_16";
    CHECK(verify_status(pvk, read_snarkjs_public(fixture(other, "public.json")),
                        read_snarkjs_proof(fixture(other, "proof.json"))) == VerifyStatus::pairing_failed);
  }
}

TEST_CASE("pipeline/snarkjs/the pipeline proves zkey plus wtns jobs on the CPU backend") {
  const SnarkjsKey key = load_snarkjs_key(fixture("chain_1024", "circuit_final.zkey"));
  CHECK(key.name == "circuit_final");
  groth16::test::TempDir dir;
  const std::vector<Fr> z = read_wtns(fixture("chain_1024", "witness.wtns"));
  write_wtns(dir / "short.wtns", std::vector<Fr>(z.begin(), z.end() - 1));
  std::vector<Fr> unsatisfying = z;
  unsatisfying[7] += Fr::one();  // no C in a zkey: the proof is made, and the verify step fails it
  write_wtns(dir / "changed.wtns", unsatisfying);

  graph::Config config = cpu_config();
  config.verify = true;
  graph::Pipeline prover(config);
  const graph::KeyHandle handle = prover.add_key({key.name, key.pk, key.cs, key.vk});
  std::vector<graph::Submission> submitted;
  for (int i = 0; i < 3; ++i)
    submitted.push_back(
        prover.submit({.key = handle, .witness = graph::WtnsFile{fixture("chain_1024", "witness.wtns")}}));
  submitted.push_back(prover.submit({.key = handle, .witness = graph::WtnsFile{dir / "short.wtns"}}));
  submitted.push_back(prover.submit({.key = handle, .witness = graph::WtnsFile{dir / "changed.wtns"}}));
  const PreparedVerifyingKey pvk =
      prepare(read_snarkjs_verifying_key(fixture("chain_1024", "verification_key.json")));
  std::vector<graph::JobResult> results;
  for (auto& s : submitted) results.push_back(s.result.get());
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    REQUIRE(results[i].ok());
    CHECK(results[i].verified);
    CHECK(results[i].public_inputs == public_of(z, 2));
    CHECK(verify(pvk, results[i].public_inputs, *results[i].proof));
    // (append, not "w" + ...: GCC 12 warns falsely of an overlapping memcpy in that operator+ at -O3)
    const std::string name = std::string("w").append(std::to_string(i));
    write_snarkjs_outputs(dir.path(), name, *results[i].proof, results[i].public_inputs);
    CHECK(file_text(dir / (name + ".public.json")) == file_text(fixture("chain_1024", "public.json")));
    CHECK(read_snarkjs_proof(dir / (name + ".proof.json")) == *results[i].proof);
  }
  REQUIRE(results[3].error);
  CHECK(contains(results[3].error->message, "short.wtns"));
  CHECK(contains(results[3].error->message, "1026"));
  REQUIRE(results[4].error);
  const bool wrong_witness_verified = results[4].proof.has_value() && results[4].verified;
  CHECK_FALSE(wrong_witness_verified);
  prover.shutdown();
}

TEST_CASE("pipeline/snarkjs/a wrong witness for a zkey fails its job even without Config::verify") {
  // A .zkey has no C matrix, so the rows of a witness cannot be checked: the pipeline verifies such proofs by
  // default, and a witness that does not satisfy the circuit fails with a message that says so.
  const SnarkjsKey key = load_snarkjs_key(fixture("chain_16", "circuit_final.zkey"));
  groth16::test::TempDir dir;
  std::vector<Fr> z = read_wtns(fixture("chain_16", "witness.wtns"));
  z[5] += Fr::one();
  write_wtns(dir / "wrong.wtns", z);

  graph::Config config = cpu_config();
  REQUIRE_FALSE(config.verify);
  graph::Pipeline prover(config);
  const graph::KeyHandle handle = prover.add_key({key.name, key.pk, key.cs, key.vk});
  auto good = prover.submit({.key = handle, .witness = graph::WtnsFile{fixture("chain_16", "witness.wtns")}});
  auto bad = prover.submit({.key = handle, .witness = graph::WtnsFile{dir / "wrong.wtns"}});
  const graph::JobResult ok = good.result.get();
  REQUIRE(ok.ok());
  CHECK(ok.verified);
  const graph::JobResult failed = bad.result.get();
  REQUIRE(failed.error);
  CHECK_FALSE(failed.proof);
  CHECK(failed.error->code == Errc::bad_input);
  CHECK(failed.error->stage == graph::Stage::release);
  CHECK(contains(failed.error->message, "does not satisfy the circuit"));

  // Without the verifying key, such a key could be checked neither way: refused at registration.
  CHECK_THROWS_WITH_AS(prover.add_key({"no-vk", key.pk, key.cs, nullptr}),
                       doctest::Contains("has no C matrix"), Error);
  prover.shutdown();
}
