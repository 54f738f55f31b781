// Keys of both curves in one pipeline (CPU backend): BLS12-381 (a synthetic circuit) and BN254 (snarkjs's
// bn128 fixtures, made by snarkjs itself, and a synthetic BN254 circuit whose witness a callback writes),
// their jobs interleaved and every proof checked by the pairing of its own curve; the bn128 fixtures proved
// from their .wtns (a file or its image in memory) and checked against snarkjs's verification key; witnesses
// of the other curve refused with a message naming both; a wrong bn128 witness failing (a .zkey has no C
// matrix, so its proof is verified, and does not verify).
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/wtns.hpp>

#include "pipeline/helpers.hpp"
#include "snarkjs/helpers.hpp"

namespace proofline::graph::test {

namespace {

using BnFr = bn254::Fr;
using snarkjs_test::contains;

std::filesystem::path bn(const std::string& circuit, const std::string& file) {
  return snarkjs_test::fixture("bn128/" + circuit, file);
}

/// A bn128 fixture's key, its witness, and the verifying key from snarkjs's own verification_key.json.
struct BnCircuit {
  groth16::BasicSnarkjsKey<Bn254> key;
  groth16::BasicPreparedVerifyingKey<Bn254> pvk;
  std::vector<BnFr> z;

  BasicKeySpec<Bn254> spec(std::string name) const { return {std::move(name), key.pk, key.cs, key.vk}; }
  std::vector<BnFr> publics() const { return {z.begin() + 1, z.begin() + 1 + key.pk->num_public}; }
};

const BnCircuit& bn_circuit(const std::string& circuit) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<BnCircuit>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[circuit];
  if (!slot) {
    const auto any = groth16::load_any_snarkjs_key(bn(circuit, "circuit_final.zkey"));
    REQUIRE(std::holds_alternative<groth16::BasicSnarkjsKey<Bn254>>(any));
    slot = std::make_unique<BnCircuit>(BnCircuit{
        std::get<groth16::BasicSnarkjsKey<Bn254>>(any),
        groth16::prepare(groth16::read_snarkjs_verifying_key<Bn254>(bn(circuit, "verification_key.json"))),
        groth16::read_wtns<BnFr>(bn(circuit, "witness.wtns"))});
  }
  return *slot;
}

Job bn_wtns_job(KeyHandle key, const std::string& circuit, const std::string& label) {
  return Job{.key = key, .witness = WtnsFile{bn(circuit, "witness.wtns")}, .label = label};
}

/// A file's bytes, as a witness calculator library hands a .wtns over.
std::shared_ptr<const std::vector<std::byte>> image_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> chars{std::istreambuf_iterator<char>(in), {}};
  const auto* first = reinterpret_cast<const std::byte*>(chars.data());
  return std::make_shared<const std::vector<std::byte>>(first, first + chars.size());
}

Job bn_memory_job(KeyHandle key, std::vector<BnFr> z, const std::string& label) {
  return Job{.key = key,
             .witness = MemoryWitness{.bn254_z = std::make_shared<const std::vector<BnFr>>(std::move(z))},
             .label = label};
}

/// A job of a synthetic BN254 circuit whose witness a callback writes into the slot's BN254 views.
Job bn_callback_job(const test_support::BasicSyntheticKeys<Bn254>& c, KeyHandle key, std::uint64_t seed) {
  return Job{.key = key,
             .witness = WitnessCallback{[&c, seed](const WitnessTarget& t) {
                                          CHECK(t.curve == CurveId::bn254);
                                          CHECK(t.z.empty());  // the BLS12-381 views are not the job's
                                          groth16::synthetic_witness_into(*c.cs, c.options, seed,
                                                                          t.bn254_z.unchecked());
                                        },
                                        WitnessCallback::Fills::witness, CurveId::bn254},
             .label = "bn synthetic " + std::to_string(seed)};
}

/// A BN254 result: its proof in the BN254 fields only, checked by BN254's pairing against `c`'s key; a
/// public input changed must fail the same check (so this check can fail).
void check_bn254_proof(const BnCircuit& c, const JobResult& r) {
  REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
  CHECK(r.curve == CurveId::bn254);
  CHECK_FALSE(r.proof);
  CHECK(r.public_inputs.empty());
  REQUIRE(r.bn254_proof);
  CHECK(r.bn254_public_inputs == c.publics());
  CHECK(groth16::verify(c.pvk, std::span<const BnFr>(r.bn254_public_inputs), *r.bn254_proof));
  std::vector<BnFr> other = r.bn254_public_inputs;
  other[0] += BnFr::one();
  CHECK_FALSE(groth16::verify(c.pvk, std::span<const BnFr>(other), *r.bn254_proof));
}

}  // namespace

TEST_CASE("pipeline/curves/one pipeline proves BLS12-381 and BN254 jobs interleaved, each by its curve") {
  const Circuit& bls = circuit(8);
  const BnCircuit& bn16 = bn_circuit("chain_16");
  const BnCircuit& bn1024 = bn_circuit("chain_1024");
  const auto synthetic = test_support::make_synthetic_keys<Bn254>(9, 41, 42);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle k_bls = pipeline.add_key(bls.spec("bls"));
  const KeyHandle k16 = pipeline.add_key(bn16.spec("bn-16"));
  const KeyHandle k1024 = pipeline.add_key(bn1024.spec("bn-1024"));
  const KeyHandle k_synthetic = pipeline.add_key(synthetic->spec("bn-synthetic"));

  std::vector<std::pair<int, Submission>> submitted;
  for (int i = 0; i < 20; ++i) {
    switch (i % 5) {
      case 0:
        submitted.emplace_back(0, pipeline.submit(job(bls, k_bls, 500 + i)));
        break;
      case 1:
        submitted.emplace_back(1, pipeline.submit(bn_wtns_job(k16, "chain_16", "bn16 " + std::to_string(i))));
        break;
      case 2:
        submitted.emplace_back(2, pipeline.submit(bn_memory_job(k1024, bn1024.z, "bn1024 memory")));
        break;
      case 3:
        submitted.emplace_back(2, pipeline.submit(bn_wtns_job(k1024, "chain_1024", "bn1024 wtns")));
        break;
      default:
        submitted.emplace_back(3, pipeline.submit(bn_callback_job(*synthetic, k_synthetic, 700 + i)));
    }
  }
  for (auto& [kind, submission] : submitted) {
    CAPTURE(kind);
    const JobResult r = await(submission);
    if (kind == 0) {
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(r.curve == CurveId::bls12_381);
      CHECK_FALSE(r.bn254_proof);
      CHECK(r.bn254_public_inputs.empty());
      CHECK(verifies(bls, r));
    } else if (kind == 3) {
      // The synthetic circuit has its C matrix: its witness was checked row by row, and its proof is checked
      // here by BN254's pairing.
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(r.curve == CurveId::bn254);
      CHECK_FALSE(r.proof);
      REQUIRE(r.bn254_proof);
      CHECK(groth16::verify(synthetic->pvk, std::span<const BnFr>(r.bn254_public_inputs), *r.bn254_proof));
      std::vector<BnFr> other = r.bn254_public_inputs;
      other[0] += BnFr::one();
      CHECK_FALSE(groth16::verify(synthetic->pvk, std::span<const BnFr>(other), *r.bn254_proof));
    } else {
      check_bn254_proof(kind == 1 ? bn16 : bn1024, r);
      CHECK(r.verified);  // a .zkey has no C matrix: each of its proofs is verified before it is reported
    }
  }
  pipeline.drain();
  CHECK(pipeline.stats().proofs == 20);
  check_idle(pipeline);
  pipeline.shutdown();
}

TEST_CASE("pipeline/curves/the bn128 fixtures prove from their wtns and verify with snarkjs's key") {
  TempDir dir;
  for (const Mode mode : {Mode::pinned, Mode::baseline}) {
    for (const char* name : {"chain_16", "chain_1024"}) {
      CAPTURE(name);
      CAPTURE(to_string(mode));
      const BnCircuit& c = bn_circuit(name);
      // The key's own verifying key is the one snarkjs exported.
      CHECK(*c.key.vk == groth16::read_snarkjs_verifying_key<Bn254>(bn(name, "verification_key.json")));
      TestConfig config = cpu_config();
      config.mode = mode;
      config.verify = true;
      Pipeline pipeline = make_pipeline(config);
      const KeyHandle key = pipeline.add_key(c.spec(name));
      Submission s = pipeline.submit(bn_wtns_job(key, name, name));
      const JobResult r = await(s);
      check_bn254_proof(c, r);
      CHECK(r.verified);
      CHECK(r.bn254_public_inputs == groth16::read_snarkjs_public<BnFr>(bn(name, "public.json")));
      groth16::write_snarkjs_public(dir / "public.json", r.bn254_public_inputs);
      groth16::write_snarkjs_proof(dir / "proof.json", *r.bn254_proof);
      CHECK(snarkjs_test::file_text(dir / "public.json") == snarkjs_test::file_text(bn(name, "public.json")));
      CHECK(contains(snarkjs_test::file_text(dir / "proof.json"), "\"curve\": \"bn128\""));
      CHECK(groth16::read_snarkjs_proof<Bn254>(dir / "proof.json") == *r.bn254_proof);
      pipeline.shutdown();
      CHECK(pipeline.stats().pool.bytes_leased == 0);
    }
  }
}

TEST_CASE("pipeline/curves/a witness of the other curve is refused with a message naming both curves") {
  const auto bls_key = groth16::load_snarkjs_key(snarkjs_test::fixture("chain_16", "circuit_final.zkey"));
  const BnCircuit& bn16 = bn_circuit("chain_16");
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle k_bls = pipeline.add_key({"bls-16", bls_key.pk, bls_key.cs, bls_key.vk});
  const KeyHandle k_bn = pipeline.add_key(bn16.spec("bn-16"));

  // .wtns files and their images in memory: refused in synthesis, failing their job only.
  Submission bn_for_bls = pipeline.submit(bn_wtns_job(k_bls, "chain_16", "bn128 witness"));
  Submission bls_for_bn = pipeline.submit(
      Job{.key = k_bn, .witness = WtnsFile{snarkjs_test::fixture("chain_16", "witness.wtns")}});
  Submission bn_image_for_bls = pipeline.submit(
      Job{.key = k_bls, .witness = WtnsImage{image_of(bn("chain_16", "witness.wtns")), "the bn128 image"}});
  const JobResult bn_refused = await(bn_for_bls);
  CHECK(contains(bn_refused.error ? bn_refused.error->message : "",
                 "over BN254's scalar field, not BLS12-381's"));
  const JobResult bn_image_refused = await(bn_image_for_bls);
  CHECK(contains(bn_image_refused.error ? bn_image_refused.error->message : "",
                 "the bn128 image: the witness is over BN254's scalar field, not BLS12-381's"));
  for (const JobResult& r : {bn_refused, bn_image_refused, await(bls_for_bn)}) {
    REQUIRE(r.error);
    CHECK_FALSE(r.ok());
    CHECK(r.error->code == Errc::bad_input);
    CHECK(r.error->stage == Stage::synthesis);
    CHECK_MESSAGE(contains(r.error->message, "BN254"), r.error->message);
    CHECK_MESSAGE(contains(r.error->message, "BLS12-381"), r.error->message);
  }

  // In memory and callbacks: refused at submit.
  const auto bls_z = std::make_shared<const std::vector<Fr>>(
      groth16::read_wtns(snarkjs_test::fixture("chain_16", "witness.wtns")));
  CHECK(
      test_support::error_message(Errc::invalid_argument,
                                  [&] { pipeline.submit(Job{.key = k_bn, .witness = MemoryWitness{bls_z}}); })
          .find("key 'bn-16' is BN254: its memory witness goes in MemoryWitness::bn254_z") !=
      std::string::npos);
  CHECK(
      test_support::error_message(Errc::invalid_argument, [&] {
        pipeline.submit(bn_memory_job(k_bls, bn16.z, "bn in memory"));
      }).find("key 'bls-16' is BLS12-381: its memory witness goes in MemoryWitness::z") != std::string::npos);
  CHECK(test_support::error_message(Errc::invalid_argument, [&] {
          pipeline.submit(Job{.key = k_bn, .witness = WtnsImage{}});
        }).find("the .wtns image is empty") != std::string::npos);
  const std::string callback = test_support::error_message(Errc::invalid_argument, [&] {
    pipeline.submit(Job{.key = k_bn, .witness = WitnessCallback{[](const WitnessTarget&) {}}});
  });
  CHECK_MESSAGE(contains(callback, "key 'bn-16' is BN254: the witness callback writes BLS12-381 values"),
                callback);
  const std::string bn_callback = test_support::error_message(Errc::invalid_argument, [&] {
    pipeline.submit(Job{.key = k_bls,
                        .witness = WitnessCallback{[](const WitnessTarget&) {},
                                                   WitnessCallback::Fills::witness, CurveId::bn254}});
  });
  CHECK_MESSAGE(contains(bn_callback, "key 'bls-16' is BLS12-381: the witness callback writes BN254 values"),
                bn_callback);

  // The pipeline goes on: each key still proves its own curve's witness.
  Submission good_bn = pipeline.submit(bn_wtns_job(k_bn, "chain_16", "good"));
  Submission good_bls = pipeline.submit(Job{.key = k_bls, .witness = MemoryWitness{bls_z}});
  Submission good_bn_image =
      pipeline.submit(Job{.key = k_bn, .witness = WtnsImage{image_of(bn("chain_16", "witness.wtns"))}});
  check_bn254_proof(bn16, await(good_bn));
  check_bn254_proof(bn16, await(good_bn_image));
  const JobResult bls = await(good_bls);
  REQUIRE(bls.ok());
  CHECK(groth16::verify(groth16::prepare(*bls_key.vk), bls.public_inputs, *bls.proof));
  pipeline.drain();
  check_idle(pipeline);
  pipeline.shutdown();
}

TEST_CASE("pipeline/curves/a wrong bn128 witness fails: its proof is verified and does not verify") {
  const BnCircuit& c = bn_circuit("chain_16");
  TempDir dir;
  std::vector<BnFr> wrong = c.z;
  wrong[5] += BnFr::one();  // one private value changed
  groth16::write_wtns(dir / "wrong.wtns", std::span<const BnFr>(wrong));

  TestConfig config = cpu_config();
  REQUIRE_FALSE(config.verify);
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("bn-16"));
  Submission from_memory = pipeline.submit(bn_memory_job(key, wrong, "wrong in memory"));
  Submission from_file = pipeline.submit(Job{.key = key, .witness = WtnsFile{dir / "wrong.wtns"}});
  Submission good = pipeline.submit(bn_memory_job(key, c.z, "good"));
  for (auto* s : {&from_memory, &from_file}) {
    const JobResult r = await(*s);
    REQUIRE(r.error);
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.bn254_proof);
    CHECK(r.curve == CurveId::bn254);
    CHECK(r.error->code == Errc::bad_input);
    CHECK(r.error->stage == Stage::release);
    CHECK_MESSAGE(contains(r.error->message, "does not satisfy the circuit of key 'bn-16'"),
                  r.error->message);
  }
  const JobResult r = await(good);
  check_bn254_proof(c, r);
  CHECK(r.verified);
  pipeline.shutdown();
}

}  // namespace proofline::graph::test
