// BN254 keys on the CUDA backend (runs only where a GPU exists): keys of both curves in one pipeline,
// whichever curve registers first (it sizes the device slots and gets its NTT tables with them; the other
// curve's tables come at its first key), in pinned and baseline mode, with the SRS resident in VRAM and
// streamed from host memory. Every proof is checked by its own curve's pairing, and a changed public input
// must not verify. The keys are synthetic circuits of both curves (BN254's in snarkjs's H convention, as
// circom users' keys are) and the bn128 fixture made by snarkjs itself, proved from its .wtns and checked
// with snarkjs's verifying key.
#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>

#include "snarkjs/helpers.hpp"
#include "support/pipeline_hooks.hpp"
#include "support/synthetic_keys.hpp"

using namespace proofline;
using namespace proofline::graph;
using proofline::graph::test::make_pipeline;
using proofline::graph::test::TestConfig;
using namespace std::chrono_literals;

namespace {

using BnFr = bn254::Fr;

/// The bn128 fixture of snarkjs: its key and the verifying key from its verification_key.json.
struct SnarkjsBn {
  groth16::BasicSnarkjsKey<Bn254> key;
  groth16::BasicPreparedVerifyingKey<Bn254> pvk;
  std::filesystem::path wtns;
};

const SnarkjsBn& snarkjs_bn() {
  static const SnarkjsBn fixture = [] {
    const auto file = [](const char* name) { return snarkjs_test::fixture("bn128/chain_1024", name); };
    auto any = groth16::load_any_snarkjs_key(file("circuit_final.zkey"));
    REQUIRE(std::holds_alternative<groth16::BasicSnarkjsKey<Bn254>>(any));
    return SnarkjsBn{
        std::get<groth16::BasicSnarkjsKey<Bn254>>(std::move(any)),
        groth16::prepare(groth16::read_snarkjs_verifying_key<Bn254>(file("verification_key.json"))),
        file("witness.wtns")};
  }();
  return fixture;
}

template <class Curve>
const test_support::BasicSyntheticKeys<Curve>& synthetic(unsigned log_size) {
  static const auto k12 = test_support::make_synthetic_keys<Curve>(12, 512, 513);
  static const auto k14 = test_support::make_synthetic_keys<Curve>(14, 514, 515);
  return log_size == 12 ? *k12 : *k14;
}

TestConfig gpu_config(Mode mode) {
  TestConfig config;
  config.backend = Backend::cuda;
  config.mode = mode;
  config.host_budget = 8ull << 30;
  config.max_log_n = 14;
  config.verify = true;
  return config;
}

/// A synthetic job whose witness a callback writes into the slot's views of the key's curve.
template <class Curve>
Job synthetic_job(const test_support::BasicSyntheticKeys<Curve>& c, KeyHandle key, std::uint64_t seed) {
  WitnessCallback fill{[&c, seed](const WitnessTarget& t) {
                         if constexpr (std::is_same_v<Curve, Bn254>)
                           groth16::synthetic_witness_into(*c.cs, c.options, seed, t.bn254_z.unchecked());
                         else
                           groth16::synthetic_witness_into(*c.cs, c.options, seed, t.z.unchecked());
                       },
                       WitnessCallback::Fills::witness, Curve::id};
  return Job{
      .key = key, .witness = std::move(fill), .label = std::string(Curve::name) + " " + std::to_string(seed)};
}

JobResult await(Submission& s) {
  REQUIRE_MESSAGE(s.result.wait_for(600s) == std::future_status::ready, "job " << s.id << " never finished");
  return s.result.get();
}

/// The proof verifies with `pvk` and, with its first public input changed, does not; only the result fields
/// of the key's curve are set.
template <class Curve>
void check_proof(const groth16::BasicPreparedVerifyingKey<Curve>& pvk, const JobResult& r) {
  using F = typename Curve::Fr;
  REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
  CHECK(r.curve == Curve::id);
  CHECK(r.gpu >= 0);
  constexpr bool bn = std::is_same_v<Curve, Bn254>;
  CHECK(r.proof.has_value() != bn);
  CHECK(r.bn254_proof.has_value() == bn);
  const auto& proof = [&]() -> const auto& {
    if constexpr (bn)
      return r.bn254_proof;
    else
      return r.proof;
  }
  ();
  REQUIRE(proof);
  std::vector<F> inputs;
  if constexpr (bn)
    inputs = r.bn254_public_inputs;
  else
    inputs = r.public_inputs;
  CHECK(groth16::verify(pvk, std::span<const F>(inputs), *proof));
  inputs.at(0) += F::one();
  CHECK_FALSE(groth16::verify(pvk, std::span<const F>(inputs), *proof));
}

/// Registers a BN254 key of 2^14 rows, a BLS12-381 key of 2^12, a BN254 key of 2^12 and snarkjs's bn128 key
/// (in that order, or with the BLS12-381 key first), proves `rounds` jobs of each interleaved and checks
/// every proof. Returns the pipeline's stats after shutdown.
PipelineStats prove_both_curves(TestConfig config, bool bls_first, int rounds) {
  const auto& bn14 = synthetic<Bn254>(14);
  const auto& bn12 = synthetic<Bn254>(12);
  const auto& bls12 = synthetic<Bls12_381>(12);
  const SnarkjsBn& fixture = snarkjs_bn();
  Pipeline pipeline = make_pipeline(config);
  REQUIRE(pipeline.backend() == Backend::cuda);
  KeyHandle k_bls;
  if (bls_first) k_bls = pipeline.add_key(bls12.spec("bls-12"));
  const KeyHandle k_bn14 = pipeline.add_key(bn14.spec("bn-14"));
  if (!bls_first) k_bls = pipeline.add_key(bls12.spec("bls-12"));
  const KeyHandle k_bn12 = pipeline.add_key(bn12.spec("bn-12"));
  const KeyHandle k_snarkjs =
      pipeline.add_key(BasicKeySpec<Bn254>{"snarkjs", fixture.key.pk, fixture.key.cs, fixture.key.vk});

  std::vector<std::pair<int, Submission>> submitted;
  for (int i = 0; i < rounds; ++i) {
    submitted.emplace_back(0, pipeline.submit(synthetic_job(bn14, k_bn14, 10 + i)));
    submitted.emplace_back(1, pipeline.submit(synthetic_job(bls12, k_bls, 20 + i)));
    submitted.emplace_back(2, pipeline.submit(synthetic_job(bn12, k_bn12, 30 + i)));
    submitted.emplace_back(3, pipeline.submit(Job{.key = k_snarkjs, .witness = WtnsFile{fixture.wtns}}));
  }
  for (auto& [kind, submission] : submitted) {
    CAPTURE(kind);
    const JobResult r = await(submission);
    switch (kind) {
      case 0:
        check_proof(bn14.pvk, r);
        break;
      case 1:
        check_proof(bls12.pvk, r);
        break;
      case 2:
        check_proof(bn12.pvk, r);
        break;
      default:
        check_proof(fixture.pvk, r);
        CHECK(r.verified);  // a .zkey has no C matrix: each of its proofs is verified before it is reported
    }
  }
  pipeline.drain();
  PipelineStats stats = pipeline.stats();
  CHECK(stats.proofs == 4 * static_cast<std::uint64_t>(rounds));
  CHECK(stats.failed == 0);
  pipeline.shutdown();
  stats = pipeline.stats();
  CHECK(stats.pool.bytes_leased == 0);
  return stats;
}

}  // namespace

TEST_CASE("pipeline/gpu/bn254/keys of both curves prove side by side on the GPU whichever registers first") {
  for (const Mode mode : {Mode::pinned, Mode::baseline})
    for (const bool bls_first : {false, true}) {
      CAPTURE(to_string(mode));
      CAPTURE(bls_first);
      const PipelineStats stats = prove_both_curves(gpu_config(mode), bls_first, 3);
      for (const GpuStats& gpu : stats.gpus) CHECK(gpu.srs_stream_bytes == 0);  // every SRS in VRAM
    }
}

TEST_CASE("pipeline/gpu/bn254/BN254 and BLS12-381 keys stream their SRS from host memory") {
  TestConfig config = gpu_config(Mode::pinned);
  config.srs = SrsPlacement::host;
  config.srs_stream_buffer = 1 << 20;  // 16384 BN254 G1 points a batch: the 2^14 key's MSMs take several
  const PipelineStats stats = prove_both_curves(config, false, 2);
  const std::uint64_t expected =
      2 * (synthetic<Bn254>(14).pk->query_bytes() + synthetic<Bls12_381>(12).pk->query_bytes() +
           synthetic<Bn254>(12).pk->query_bytes() + snarkjs_bn().key.pk->query_bytes());
  std::uint64_t bytes = 0, batches = 0;
  for (const GpuStats& gpu : stats.gpus) {
    bytes += gpu.srs_stream_bytes;
    batches += gpu.srs_stream_batches;
  }
  CHECK(bytes == expected);  // every point of every job's five queries uploaded exactly once
  CHECK(batches > 2 * 4 * 5);
}

TEST_CASE("pipeline/gpu/bn254/a BN254 key below the GPU NTT's smallest domain is refused naming the sizes") {
  Pipeline pipeline = make_pipeline(gpu_config(Mode::pinned));
  const auto small = test_support::make_synthetic_keys<Bn254>(6, 516, 517);
  CHECK_THROWS_WITH_AS(pipeline.add_key(small->spec("bn-6")),
                       doctest::Contains("the GPU NTT needs domains of at least 2^10 rows, the key has 2^6"),
                       Error);
  pipeline.shutdown();
}
