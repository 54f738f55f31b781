// BN254 keys on the CUDA backend (runs only where a GPU exists): keys of both curves in one pipeline,
// whichever curve registers first (it sizes the device slots and gets its NTT tables with them; the other
// curve's tables come at its first key), in pinned and baseline mode, with the SRS resident in VRAM and
// streamed from host memory. Every proof is checked by its own curve's pairing, and a changed public input
// must not verify. The keys are synthetic circuits of both curves (BN254's in snarkjs's H convention, as
// circom users' keys are) and the bn128 fixture made by snarkjs itself, proved from its .wtns and checked
// with snarkjs's verifying key. Keys below the NTT passes' smallest domain (2^2 to 2^9 rows, snarkjs's small
// chain among them) prove on the GPU like the others.
#include <doctest/doctest.h>

#include <vector>

#include "gpu/pipeline_curves_support.hpp"

using namespace proofline;
using namespace proofline::graph;
using proofline::graph::test::make_pipeline;
using proofline::graph::test::TestConfig;

namespace {

using namespace proofline::gpu_test;

/// Registers a BN254 key of 2^14 rows, a BLS12-381 key of 2^12, a BN254 key of 2^12 and snarkjs's bn128 key
/// (in that order, or with the BLS12-381 key first), proves `rounds` jobs of each interleaved and checks
/// every proof. Returns the pipeline's stats after shutdown.
PipelineStats prove_both_curves(TestConfig config, bool bls_first, int rounds) {
  const auto& bn14 = synthetic_keys<Bn254>(14);
  const auto& bn12 = synthetic_keys<Bn254>(12);
  const auto& bls12 = synthetic_keys<Bls12_381>(12);
  const SnarkjsBn& fixture = snarkjs_bn();
  Pipeline pipeline = make_pipeline(config);
  REQUIRE(pipeline.backend() == Backend::cuda);
  KeyHandle k_bls;
  if (bls_first) k_bls = pipeline.add_key(bls12.spec("bls-12"));
  const KeyHandle k_bn14 = pipeline.add_key(bn14.spec("bn-14"));
  if (!bls_first) k_bls = pipeline.add_key(bls12.spec("bls-12"));
  const KeyHandle k_bn12 = pipeline.add_key(bn12.spec("bn-12"));
  const KeyHandle k_snarkjs = pipeline.add_key(fixture.spec("snarkjs"));

  std::vector<std::pair<int, Submission>> submitted;
  for (int i = 0; i < rounds; ++i) {
    submitted.emplace_back(0, pipeline.submit(synthetic_job(bn14, k_bn14, 10 + i)));
    submitted.emplace_back(1, pipeline.submit(synthetic_job(bls12, k_bls, 20 + i)));
    submitted.emplace_back(2, pipeline.submit(synthetic_job(bn12, k_bn12, 30 + i)));
    submitted.emplace_back(3, pipeline.submit(Job{.key = k_snarkjs, .witness = WtnsFile{fixture.wtns}}));
  }
  for (auto& [kind, submission] : submitted) {
    CAPTURE(kind);
    const JobResult r = await_result(submission);
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
      2 * (synthetic_keys<Bn254>(14).pk->query_bytes() + synthetic_keys<Bls12_381>(12).pk->query_bytes() +
           synthetic_keys<Bn254>(12).pk->query_bytes() + snarkjs_bn().key.pk->query_bytes());
  std::uint64_t bytes = 0, batches = 0;
  for (const GpuStats& gpu : stats.gpus) {
    bytes += gpu.srs_stream_bytes;
    batches += gpu.srs_stream_batches;
  }
  CHECK(bytes == expected);  // every point of every job's five queries uploaded exactly once
  CHECK(batches > 2 * 4 * 5);
}

TEST_CASE("pipeline/gpu/bn254/keys of 2^2 to 2^9 rows prove on the GPU in both curves and conventions") {
  // Below the NTT passes' smallest size H takes one thread block; the rest of the job is the usual one.
  using test_support::make_synthetic_keys;
  const auto bn2 = make_synthetic_keys<Bn254>(2, 516, 517);
  const auto bn9 = make_synthetic_keys<Bn254>(9, 518, 519);
  const auto bls3 = make_synthetic_keys<Bls12_381>(3, 520, 521);  // generator 7
  const auto bls6 = make_synthetic_keys<Bls12_381>(6, 522, 523, HConvention::snarkjs);
  const SnarkjsBn chain16 = load_snarkjs_bn("bn128/chain_16");  // snarkjs's own key and witness
  REQUIRE(chain16.key.pk->log_domain_size < 10);
  for (const bool gpu_evaluate : {true, false})
    for (const Mode mode : {Mode::pinned, Mode::baseline}) {
      if (!gpu_evaluate && mode == Mode::baseline) continue;
      CAPTURE(gpu_evaluate);
      CAPTURE(to_string(mode));
      Pipeline pipeline = make_pipeline(gpu_config(mode, gpu_evaluate));
      REQUIRE(pipeline.backend() == Backend::cuda);
      const KeyHandle k_bn2 = pipeline.add_key(bn2->spec("bn-2"));
      const KeyHandle k_bn9 = pipeline.add_key(bn9->spec("bn-9"));
      const KeyHandle k_bls3 = pipeline.add_key(bls3->spec("bls-3"));
      const KeyHandle k_bls6 = pipeline.add_key(bls6->spec("bls-6"));
      const KeyHandle k_chain = pipeline.add_key(chain16.spec("chain16"));
      std::vector<std::pair<int, Submission>> submitted;
      for (int i = 0; i < 3; ++i) {
        submitted.emplace_back(0, pipeline.submit(synthetic_job(*bn2, k_bn2, 40 + i)));
        submitted.emplace_back(1, pipeline.submit(synthetic_job(*bn9, k_bn9, 50 + i)));
        submitted.emplace_back(2, pipeline.submit(synthetic_job(*bls3, k_bls3, 60 + i)));
        submitted.emplace_back(3, pipeline.submit(synthetic_job(*bls6, k_bls6, 70 + i)));
        submitted.emplace_back(4, pipeline.submit(Job{.key = k_chain, .witness = WtnsFile{chain16.wtns}}));
      }
      for (auto& [kind, submission] : submitted) {
        CAPTURE(kind);
        const JobResult r = await_result(submission);
        if (kind == 0) check_proof(bn2->pvk, r);
        if (kind == 1) check_proof(bn9->pvk, r);
        if (kind == 2) check_proof(bls3->pvk, r);
        if (kind == 3) check_proof(bls6->pvk, r);
        if (kind == 4) check_proof(chain16.pvk, r);
      }
      pipeline.drain();
      CHECK(pipeline.stats().proofs == 15);
      CHECK(pipeline.stats().failed == 0);
      pipeline.shutdown();
      CHECK(pipeline.stats().pool.bytes_leased == 0);
    }
}
