// Shared by the GPU pipeline cases over both curves (test_pipeline_gpu_bn254.cpp,
// test_pipeline_gpu_evaluate.cpp): synthetic keys of either curve, snarkjs's bn128 fixture, the CUDA
// configuration, jobs whose witness a callback writes, and the check that a proof verifies with its own
// curve's key and not with a changed public input.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>

#include "snarkjs/helpers.hpp"
#include "support/pipeline_hooks.hpp"
#include "support/synthetic_keys.hpp"

namespace proofline::gpu_test {

/// Synthetic keys of 2^12 or 2^14 rows on `Curve`, made once per process.
template <class Curve>
const test_support::BasicSyntheticKeys<Curve>& synthetic_keys(unsigned log_size) {
  static const auto k12 = test_support::make_synthetic_keys<Curve>(12, 512, 513);
  static const auto k14 = test_support::make_synthetic_keys<Curve>(14, 514, 515);
  REQUIRE((log_size == 12 || log_size == 14));
  return log_size == 12 ? *k12 : *k14;
}

/// snarkjs's bn128 fixture chain_1024: its key (no C matrix), the verifying key from its
/// verification_key.json, and its witness file.
struct SnarkjsBn {
  groth16::BasicSnarkjsKey<Bn254> key;
  groth16::BasicPreparedVerifyingKey<Bn254> pvk;
  std::filesystem::path wtns;

  graph::BasicKeySpec<Bn254> spec(std::string name) const {
    return {std::move(name), key.pk, key.cs, key.vk};
  }
};

/// One of snarkjs's bn128 fixtures (`folder` under the fixtures, "bn128/chain_1024" or "bn128/chain_16").
inline SnarkjsBn load_snarkjs_bn(const char* folder) {
  const auto file = [folder](const char* name) { return snarkjs_test::fixture(folder, name); };
  auto any = groth16::load_any_snarkjs_key(file("circuit_final.zkey"));
  REQUIRE(std::holds_alternative<groth16::BasicSnarkjsKey<Bn254>>(any));
  return SnarkjsBn{
      std::get<groth16::BasicSnarkjsKey<Bn254>>(std::move(any)),
      groth16::prepare(groth16::read_snarkjs_verifying_key<Bn254>(file("verification_key.json"))),
      file("witness.wtns")};
}

inline const SnarkjsBn& snarkjs_bn() {
  static const SnarkjsBn fixture = load_snarkjs_bn("bn128/chain_1024");
  return fixture;
}

/// The CUDA backend with room for keys up to 2^14 rows, every proof verified.
inline graph::test::TestConfig gpu_config(graph::Mode mode = graph::Mode::pinned, bool gpu_evaluate = true) {
  graph::test::TestConfig config;
  config.backend = graph::Backend::cuda;
  config.mode = mode;
  config.host_budget = 8ull << 30;
  config.max_log_n = 14;
  config.verify = true;
  config.gpu_evaluate = gpu_evaluate;
  return config;
}

/// A synthetic job whose witness a callback writes into the slot's views of the key's curve; `broken`
/// changes the last variable after, so that some row no longer holds.
template <class Curve>
graph::Job synthetic_job(const test_support::BasicSyntheticKeys<Curve>& c, graph::KeyHandle key,
                         std::uint64_t seed, bool broken = false) {
  graph::WitnessCallback fill{[&c, seed, broken](const graph::WitnessTarget& t) {
                                auto z = [&] {
                                  if constexpr (std::is_same_v<Curve, Bn254>)
                                    return t.bn254_z.unchecked();
                                  else
                                    return t.z.unchecked();
                                }();
                                groth16::synthetic_witness_into(*c.cs, c.options, seed, z);
                                if (broken) z.back() += Curve::Fr::one();
                              },
                              graph::WitnessCallback::Fills::witness, Curve::id};
  return graph::Job{
      .key = key, .witness = std::move(fill), .label = std::string(Curve::name) + " " + std::to_string(seed)};
}

inline graph::JobResult await_result(graph::Submission& s) {
  using namespace std::chrono_literals;
  REQUIRE_MESSAGE(s.result.wait_for(600s) == std::future_status::ready, "job " << s.id << " never finished");
  return s.result.get();
}

/// The job proved on a GPU, its proof verifies with `pvk` and, with its first public input changed, does
/// not; only the result fields of the key's curve are set.
template <class Curve>
void check_proof(const groth16::BasicPreparedVerifyingKey<Curve>& pvk, const graph::JobResult& r) {
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

}  // namespace proofline::gpu_test
