// a = A·z, b = B·z, c = C·z made on the GPU (Config::gpu_evaluate, the default in pinned mode): keys of both
// curves, with their C matrix (rows checked on the GPU) and without (snarkjs's bn128 fixture: c = a∘b, proofs
// verified), prove and verify, and only z crosses PCIe; a witness that breaks a row fails naming the same row
// as the host's check finds; with gpu_evaluate off the host evaluates and a, b, c are copied as before.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <proofline/graph/observe.hpp>
#include <proofline/trace/snapshot.hpp>

#include "gpu/pipeline_curves_support.hpp"

using namespace proofline;
using namespace proofline::graph;
using proofline::graph::test::make_pipeline;

namespace {

using namespace proofline::gpu_test;

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
  const auto& bls = synthetic_keys<Bls12_381>(12);
  const auto& bn = synthetic_keys<Bn254>(14);
  const SnarkjsBn& fixture = snarkjs_bn();
  const groth16::BasicProvingKey<Bn254>& fixture_pk = *fixture.key.pk;
  for (const bool on_gpu : {true, false}) {
    CAPTURE(on_gpu);
    Pipeline pipeline = make_pipeline(gpu_config(Mode::pinned, on_gpu));
    const KeyHandle k_bls = pipeline.add_key(bls.spec("bls"));
    const KeyHandle k_bn = pipeline.add_key(bn.spec("bn"));
    const KeyHandle k_zkey = pipeline.add_key(fixture.spec("zkey"));
    std::vector<std::pair<int, Submission>> submitted;
    for (std::uint64_t i = 0; i < 4; ++i) {
      submitted.emplace_back(0, pipeline.submit(synthetic_job(bls, k_bls, 40 + i)));
      submitted.emplace_back(1, pipeline.submit(synthetic_job(bn, k_bn, 50 + i)));
      submitted.emplace_back(2, pipeline.submit(Job{.key = k_zkey, .witness = WtnsFile{fixture.wtns}}));
    }
    std::uint64_t z_bytes = 0, all_bytes = 0;
    for (auto& [kind, s] : submitted) {
      CAPTURE(kind);
      const JobResult r = await_result(s);
      // Both curves' scalars are 32 bytes: z alone, or z and a, b, c over the domain.
      const auto count = [&](const auto& pk) {
        z_bytes += pk.num_variables * 32;
        all_bytes += (pk.num_variables + 3 * pk.domain_size()) * 32;
      };
      if (kind == 0) {
        check_proof(bls.pvk, r);
        count(*bls.pk);
      } else if (kind == 1) {
        check_proof(bn.pvk, r);
        count(*bn.pk);
      } else {
        check_proof(fixture.pvk, r);
        CHECK(r.verified);  // no C: c = a∘b, so the proof is verified before it is reported
        count(fixture_pk);
      }
    }
    pipeline.drain();
    CHECK(h2d_bytes(pipeline) == (on_gpu ? z_bytes : all_bytes));
    pipeline.shutdown();
    CHECK(pipeline.stats().pool.bytes_leased == 0);
  }
}

TEST_CASE("pipeline/gpu/evaluate/a witness that breaks a row fails naming the row the host check finds") {
  const auto& bls = synthetic_keys<Bls12_381>(14);
  const auto& bn = synthetic_keys<Bn254>(12);
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
    Pipeline pipeline = make_pipeline(gpu_config(Mode::pinned, on_gpu));
    const KeyHandle k_bls = pipeline.add_key(bls.spec("bls"));
    const KeyHandle k_bn = pipeline.add_key(bn.spec("bn"));
    Submission good_bls = pipeline.submit(synthetic_job(bls, k_bls, 60));
    Submission bad_bls = pipeline.submit(synthetic_job(bls, k_bls, 61, true));
    Submission bad_bn = pipeline.submit(synthetic_job(bn, k_bn, 62, true));
    Submission good_bn = pipeline.submit(synthetic_job(bn, k_bn, 63));
    const JobResult r_bad_bls = await_result(bad_bls), r_bad_bn = await_result(bad_bn);
    REQUIRE(r_bad_bls.error);
    CHECK(r_bad_bls.error->code == Errc::bad_input);
    CHECK_MESSAGE(r_bad_bls.error->message.find(first_bad(bls, 61) + "bls'") != std::string::npos,
                  r_bad_bls.error->message);
    REQUIRE(r_bad_bn.error);
    CHECK(r_bad_bn.error->code == Errc::bad_input);
    CHECK_MESSAGE(r_bad_bn.error->message.find(first_bad(bn, 62) + "bn'") != std::string::npos,
                  r_bad_bn.error->message);
    check_proof(bls.pvk, await_result(good_bls));
    check_proof(bn.pvk, await_result(good_bn));
    pipeline.shutdown();
    CHECK(pipeline.stats().pool.bytes_leased == 0);
  }
}

TEST_CASE(
    "pipeline/gpu/evaluate/jobs lease z alone, and a job that fills a, b, c itself leases all four and "
    "proves") {
  const auto& bls = synthetic_keys<Bls12_381>(12);
  const std::uint64_t z_bytes = bls.pk->num_variables * 32, abc_bytes = 3 * bls.pk->domain_size() * 32;
  for (const bool on_gpu : {true, false}) {
    CAPTURE(on_gpu);
    Pipeline pipeline = make_pipeline(gpu_config(Mode::pinned, on_gpu));
    const KeyHandle key = pipeline.add_key(bls.spec("bls"));
    CHECK(pipeline.stats().slot_bytes == (on_gpu ? z_bytes : z_bytes + abc_bytes));
    // The caller's own a, b, c (the way a synthesizer without a PCE works): the GPU takes them as they are.
    const WitnessCallback fills_all{[&bls](const WitnessTarget& t) {
                                      groth16::synthetic_witness_into(*bls.cs, bls.options, 70,
                                                                      t.z.unchecked());
                                      groth16::evaluate(*bls.cs, std::span<const Fr>(t.z.unchecked()),
                                                        t.a.unchecked(), t.b.unchecked(), t.c.unchecked());
                                    },
                                    WitnessCallback::Fills::witness_and_abc, CurveId::bls12_381};
    Submission plain = pipeline.submit(synthetic_job(bls, key, 71));
    Submission all = pipeline.submit(Job{.key = key, .witness = fills_all});
    check_proof(bls.pvk, await_result(plain));
    check_proof(bls.pvk, await_result(all));
    pipeline.drain();
    CHECK(h2d_bytes(pipeline) == (on_gpu ? 2 * z_bytes + abc_bytes : 2 * (z_bytes + abc_bytes)));
    pipeline.shutdown();
    CHECK(pipeline.stats().pool.bytes_leased == 0);
  }
}

TEST_CASE(
    "pipeline/gpu/evaluate/automatic device slots give up the NTT's full tables before the GPU's "
    "evaluation") {
  const auto& bls = synthetic_keys<Bls12_381>(14);
  // generator7: both directions' top diagonal and H's two coset tables, 2^14 entries each.
  const std::uint64_t full_tables = std::uint64_t{128} << 14;
  // VRAM in use after add_key, whether the GPU evaluates the key's jobs (its slots hold z alone), the NTT
  // table bytes; two jobs proved and verified.
  struct Seen {
    std::uint64_t used = 0;
    bool gpu_evaluates = false;
    std::size_t slots = 0;
  };
  const auto run = [&](std::size_t slots, std::optional<std::uint64_t> vram) {
    graph::test::TestConfig config = gpu_config(Mode::pinned, true);
    config.msm_tables = false;
    config.device_slots = slots;
    config.vram_budget = vram;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(bls.spec("bls"));
    const PipelineStats stats = pipeline.stats();
    const Seen seen{stats.gpus[0].vram.used, stats.slot_bytes == bls.pk->num_variables * 32,
                    stats.gpus[0].device_slots};
    Submission first = pipeline.submit(synthetic_job(bls, key, 80));
    Submission second = pipeline.submit(synthetic_job(bls, key, 81));
    check_proof(bls.pvk, await_result(first));
    check_proof(bls.pvk, await_result(second));
    pipeline.shutdown();
    return seen;
  };
  const Seen roomy = run(1, std::nullopt);  // one slot, the table, the SRS and the constraint system
  REQUIRE(roomy.gpu_evaluates);
  // Half the tables short: the automatic plan keeps one slot and the evaluation, and leaves them out.
  const Seen tight = run(0, roomy.used - full_tables / 2);
  CHECK(tight.slots == 1);
  CHECK(tight.gpu_evaluates);
  CHECK(tight.used == roomy.used - full_tables);
}
