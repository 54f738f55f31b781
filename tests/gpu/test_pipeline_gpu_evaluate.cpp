// a = A·z, b = B·z, c = C·z made on the GPU (Config::gpu_evaluate, the default in pinned mode): keys of both
// curves, with their C matrix (rows checked on the GPU) and without (snarkjs's bn128 fixture: c = a∘b, proofs
// verified), prove and verify, and only z crosses PCIe; a witness that breaks a row fails naming the same row
// as the host's check finds; with gpu_evaluate off the host evaluates and a, b, c are copied as before.
#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <proofline/graph/observe.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/trace/snapshot.hpp>

#include "snarkjs/helpers.hpp"
#include "support/pipeline_hooks.hpp"
#include "support/synthetic_keys.hpp"

using namespace proofline;
using namespace proofline::graph;
using proofline::graph::test::make_pipeline;
using proofline::graph::test::TestConfig;
using namespace std::chrono_literals;

namespace {

template <class Curve>
const test_support::BasicSyntheticKeys<Curve>& keys_of(unsigned log_size) {
  static const auto k12 = test_support::make_synthetic_keys<Curve>(12, 620, 621);
  static const auto k14 = test_support::make_synthetic_keys<Curve>(14, 622, 623);
  return log_size == 12 ? *k12 : *k14;
}

TestConfig config(bool gpu_evaluate) {
  TestConfig c;
  c.backend = Backend::cuda;
  c.host_budget = 8ull << 30;
  c.max_log_n = 14;
  c.verify = true;
  c.gpu_evaluate = gpu_evaluate;
  return c;
}

/// A synthetic job whose witness a callback writes; `broken` changes the last variable after, so that some
/// row no longer holds.
template <class Curve>
Job job_of(const test_support::BasicSyntheticKeys<Curve>& c, KeyHandle key, std::uint64_t seed,
           bool broken = false) {
  WitnessCallback fill{[&c, seed, broken](const WitnessTarget& t) {
                         auto z = [&] {
                           if constexpr (std::is_same_v<Curve, Bn254>)
                             return t.bn254_z.unchecked();
                           else
                             return t.z.unchecked();
                         }();
                         groth16::synthetic_witness_into(*c.cs, c.options, seed, z);
                         if (broken) z.back() += Curve::Fr::one();
                       },
                       WitnessCallback::Fills::witness, Curve::id};
  return Job{.key = key, .witness = std::move(fill), .label = std::to_string(seed)};
}

JobResult await(Submission& s) {
  REQUIRE_MESSAGE(s.result.wait_for(600s) == std::future_status::ready, "job " << s.id << " never finished");
  return s.result.get();
}

template <class Curve>
bool verifies(const test_support::BasicSyntheticKeys<Curve>& c, const JobResult& r) {
  using F = typename Curve::Fr;
  if constexpr (std::is_same_v<Curve, Bn254>)
    return r.bn254_proof && groth16::verify(c.pvk, std::span<const F>(r.bn254_public_inputs), *r.bn254_proof);
  else
    return r.proof && groth16::verify(c.pvk, std::span<const F>(r.public_inputs), *r.proof);
}

/// Bytes the H2D spans of the run carried.
std::uint64_t h2d_bytes(Pipeline& pipeline) {
  const trace::Snapshot snapshot = recorder(pipeline).snapshot();
  const auto h2d = snapshot.find_stage("h2d");
  REQUIRE(h2d);
  std::uint64_t bytes = 0;
  for (const trace::Span& span : snapshot.spans)
    if (span.stage == *h2d && snapshot.track(span.track).kind == trace::TrackKind::cuda_stream)
      bytes += span.bytes;
  return bytes;
}

}  // namespace

TEST_CASE(
    "pipeline/gpu/evaluate/a, b, c made on the GPU: both curves prove and verify and only z is copied") {
  const auto& bls = keys_of<Bls12_381>(12);
  const auto& bn = keys_of<Bn254>(14);
  const auto bn_zkey =
      groth16::load_any_snarkjs_key(snarkjs_test::fixture("bn128/chain_1024", "circuit_final.zkey"));
  REQUIRE(std::holds_alternative<groth16::BasicSnarkjsKey<Bn254>>(bn_zkey));
  const auto& fixture = std::get<groth16::BasicSnarkjsKey<Bn254>>(bn_zkey);
  const auto fixture_pvk = groth16::prepare(groth16::read_snarkjs_verifying_key<Bn254>(
      snarkjs_test::fixture("bn128/chain_1024", "verification_key.json")));
  for (const bool on_gpu : {true, false}) {
    CAPTURE(on_gpu);
    Pipeline pipeline = make_pipeline(config(on_gpu));
    const KeyHandle k_bls = pipeline.add_key(bls.spec("bls"));
    const KeyHandle k_bn = pipeline.add_key(bn.spec("bn"));
    const KeyHandle k_zkey =
        pipeline.add_key(BasicKeySpec<Bn254>{"zkey", fixture.pk, fixture.cs, fixture.vk});
    std::vector<std::pair<int, Submission>> submitted;
    for (std::uint64_t i = 0; i < 4; ++i) {
      submitted.emplace_back(0, pipeline.submit(job_of(bls, k_bls, 40 + i)));
      submitted.emplace_back(1, pipeline.submit(job_of(bn, k_bn, 50 + i)));
      submitted.emplace_back(2, pipeline.submit(Job{.key = k_zkey,
                                                    .witness = WtnsFile{snarkjs_test::fixture(
                                                        "bn128/chain_1024", "witness.wtns")}}));
    }
    std::uint64_t z_bytes = 0, all_bytes = 0;
    for (auto& [kind, s] : submitted) {
      CAPTURE(kind);
      const JobResult r = await(s);
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(r.gpu >= 0);
      if (kind == 0) {
        CHECK(verifies(bls, r));
        z_bytes += bls.pk->num_variables * 32;
        all_bytes += (bls.pk->num_variables + 3 * bls.pk->domain_size()) * 32;
      } else if (kind == 1) {
        CHECK(verifies(bn, r));
        z_bytes += bn.pk->num_variables * 32;
        all_bytes += (bn.pk->num_variables + 3 * bn.pk->domain_size()) * 32;
      } else {
        CHECK(r.verified);  // no C: c = a∘b, so the proof is verified before it is reported
        REQUIRE(r.bn254_proof);
        CHECK(
            groth16::verify(fixture_pvk, std::span<const bn254::Fr>(r.bn254_public_inputs), *r.bn254_proof));
        z_bytes += fixture.pk->num_variables * 32;
        all_bytes += (fixture.pk->num_variables + 3 * fixture.pk->domain_size()) * 32;
      }
    }
    pipeline.drain();
    CHECK(h2d_bytes(pipeline) == (on_gpu ? z_bytes : all_bytes));
    pipeline.shutdown();
    CHECK(pipeline.stats().pool.bytes_leased == 0);
  }
}

TEST_CASE("pipeline/gpu/evaluate/a witness that breaks a row fails naming the row the host check finds") {
  const auto& bls = keys_of<Bls12_381>(14);
  const auto& bn = keys_of<Bn254>(12);
  // The row each broken witness fails, by the host's own check of the constraint system.
  const auto first_bad = []<class Curve>(const test_support::BasicSyntheticKeys<Curve>& c,
                                         std::uint64_t seed) {
    using F = typename Curve::Fr;
    std::vector<F> z = c.witness(seed);
    z.back() += F::one();
    const auto row = groth16::first_unsatisfied_row(*c.cs, std::span<const F>(z));
    REQUIRE(row);
    return "the witness does not satisfy constraint row " + std::to_string(*row) + " of key '";
  };
  for (const bool on_gpu : {true, false}) {
    CAPTURE(on_gpu);
    Pipeline pipeline = make_pipeline(config(on_gpu));
    const KeyHandle k_bls = pipeline.add_key(bls.spec("bls"));
    const KeyHandle k_bn = pipeline.add_key(bn.spec("bn"));
    Submission good_bls = pipeline.submit(job_of(bls, k_bls, 60));
    Submission bad_bls = pipeline.submit(job_of(bls, k_bls, 61, true));
    Submission bad_bn = pipeline.submit(job_of(bn, k_bn, 62, true));
    Submission good_bn = pipeline.submit(job_of(bn, k_bn, 63));
    const JobResult r_bad_bls = await(bad_bls), r_bad_bn = await(bad_bn);
    REQUIRE(r_bad_bls.error);
    CHECK(r_bad_bls.error->code == Errc::bad_input);
    CHECK_MESSAGE(r_bad_bls.error->message.find(first_bad(bls, 61) + "bls'") != std::string::npos,
                  r_bad_bls.error->message);
    REQUIRE(r_bad_bn.error);
    CHECK(r_bad_bn.error->code == Errc::bad_input);
    CHECK_MESSAGE(r_bad_bn.error->message.find(first_bad(bn, 62) + "bn'") != std::string::npos,
                  r_bad_bn.error->message);
    CHECK(verifies(bls, await(good_bls)));
    CHECK(verifies(bn, await(good_bn)));
    pipeline.shutdown();
    CHECK(pipeline.stats().pool.bytes_leased == 0);
  }
}
