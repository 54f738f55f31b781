#include "synthetic_keys.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <span>
#include <type_traits>
#include <utility>

#include <proofline/cuda/gpu_fixed_base.hpp>
#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/setup.hpp>

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

namespace proofline::apps {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Known-trapdoor setup is fixed-base multiplication; the GPU does it in a fraction of the CPU's time.
template <class Curve>
groth16::BasicSetupOptions<Curve> setup_options(const graph::Config& config, graph::Backend backend) {
  using F = typename Curve::Fr;
  using G1 = typename Curve::G1Affine;
  using G2 = typename Curve::G2Affine;
  groth16::BasicSetupOptions<Curve> setup;
  if (backend != graph::Backend::cuda) return setup;
  const int device = config.gpus.empty() ? 0 : config.gpus.front();
  setup.fixed_base.g1 = [device](const G1& b, std::span<const F> s, std::span<G1> out) {
    cuda::fixed_base_mul_g1(b, s, out, device);
  };
  setup.fixed_base.g2 = [device](const G2& b, std::span<const F> s, std::span<G2> out) {
    cuda::fixed_base_mul_g2(b, s, out, device);
  };
  return setup;
}

/// The keys from the trapdoor of --seed, or from the key cache (either curve: each file records its own).
template <class Curve>
groth16::BasicKeyPair<Curve> setup_keys(const BatchOptions& o,
                                        const groth16::BasicConstraintSystem<Curve>& cs,
                                        const groth16::BasicSetupOptions<Curve>& setup,
                                        const SyntheticSetup<Curve>& s, bool& loaded) {
  if (o.key_cache)
    return groth16::load_or_setup(
        cs,
        groth16::KeyCacheRequest{*o.key_cache, groth16::synthetic_circuit_name(s.circuit_options), o.seed},
        setup, &loaded);
  return groth16::setup_from_trapdoor(cs, groth16::trapdoor_from_seed<Curve>(o.seed), setup);
}

template <class Curve>
void make_keys(const BatchOptions& o, const graph::Config& config, graph::Backend backend,
               SyntheticSetup<Curve>& s) {
  s.circuit_options = groth16::SyntheticOptions{.log_size = o.log2, .num_public = 1, .seed = o.seed};
  // The circuit's own witness is not needed (jobs make theirs from their seeds): only its system is kept,
  // and the witness is gone before the setup's peak (4 GiB at 2^27 rows).
  s.cs = std::make_shared<const groth16::BasicConstraintSystem<Curve>>(
      std::move(groth16::make_synthetic_circuit<Curve>(s.circuit_options).cs));
  groth16::BasicSetupOptions<Curve> setup = setup_options<Curve>(config, backend);
  // A .zkey holds snarkjs's H points (--export-snarkjs); proofs from either convention are the same.
  if (o.export_snarkjs) setup.convention = HConvention::snarkjs;
  const auto start = Clock::now();
  groth16::BasicKeyPair<Curve> keys = setup_keys(o, *s.cs, setup, s, s.loaded);
  s.setup_s = seconds_since(start);
  s.pk = std::make_shared<const groth16::BasicProvingKey<Curve>>(std::move(keys.pk));
  s.vk = std::make_shared<const groth16::BasicVerifyingKey<Curve>>(std::move(keys.vk));
}

/// Bytes of one job's z, a, b, c.
template <class Curve>
std::uint64_t job_bytes(const SyntheticSetup<Curve>& s) {
  return (3 * s.pk->domain_size() + s.pk->num_variables) * sizeof(typename Curve::Fr);
}

template <class Curve>
Presynthesized<Curve> sized_job(const SyntheticSetup<Curve>& s) {
  Presynthesized<Curve> job;
  job.z.resize(s.pk->num_variables);
  job.a.resize(s.pk->domain_size());
  job.b.resize(s.pk->domain_size());
  job.c.resize(s.pk->domain_size());
  return job;
}

/// Distinct witnesses up to 16 GiB, or half the host budget when one is given (they live beside the
/// pipeline's memory, which the budget is meant to bound), shared out among --keys, reused round robin: every
/// proof still differs (fresh r, s).
template <class Curve>
void presynthesize(const BatchOptions& o, SyntheticSetup<Curve>& s) {
  using F = typename Curve::Fr;
  std::uint64_t room = std::uint64_t{16} << 30;
  if (o.config.host_budget) room = std::min(room, *o.config.host_budget / 2);
  room /= o.keys;  // every key's jobs share it
  const std::uint64_t cap = std::max<std::uint64_t>(1, room / job_bytes(s));
  const std::uint64_t count = std::min<std::uint64_t>(o.count, cap);
  const auto start = Clock::now();
  for (std::uint64_t i = 0; i < count; ++i) {
    auto job = std::make_shared<Presynthesized<Curve>>(sized_job(s));
    groth16::synthetic_witness_into(*s.cs, s.circuit_options, witness_seed(o, i), std::span<F>(job->z));
    groth16::evaluate(*s.cs, std::span<const F>(job->z), std::span<F>(job->a), std::span<F>(job->b),
                      std::span<F>(job->c));
    s.presynthesized.push_back(std::move(job));
  }
  s.presynthesis_s = seconds_since(start);
}

/// Synthesizes `scratch.size()` jobs at once, over and over, on `threads` threads until `stop`.
template <class Curve>
void synthesize_until(const std::atomic<bool>& stop, std::size_t threads, const SyntheticSetup<Curve>& s,
                      std::uint64_t seed, std::vector<Presynthesized<Curve>>& scratch) {
  oneapi::tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    for (std::uint64_t round = 0; !stop.load(); ++round) {
      oneapi::tbb::parallel_for(std::size_t{0}, scratch.size(), [&](std::size_t j) {
        if (stop.load()) return;
        Presynthesized<Curve>& job = scratch[j];
        groth16::synthetic_witness_into(*s.cs, s.circuit_options,
                                        seed * 7'777'777 + round * scratch.size() + j, job.z);
        groth16::evaluate(*s.cs, job.z, job.a, job.b, job.c);
      });
    }
  });
}

/// The H2D rates under the same host load as the pipeline's steady state: `synth` jobs synthesized at once
/// (each parallel inside) on `threads` threads, into heap vectors (fewer jobs if that much would not fit).
template <class Curve>
void probe_under_load(const BatchOptions& o, const graph::Config& config, SyntheticSetup<Curve>& s) {
  const auto [threads, synth] = graph::thread_plan(config);
  const std::uint64_t bytes = job_bytes(s);
  s.probe_load_jobs = static_cast<std::size_t>(
      std::min<std::uint64_t>(synth, std::max<std::uint64_t>(1, (std::uint64_t{24} << 30) / bytes)));
  std::vector<Presynthesized<Curve>> scratch;
  for (std::size_t j = 0; j < s.probe_load_jobs; ++j) scratch.push_back(sized_job(s));
  const int device = config.gpus.empty() ? 0 : config.gpus.front();
  s.probe = probe_h2d(device, std::min<std::uint64_t>(bytes, std::uint64_t{1} << 30), 1.5,
                      [&, threads = threads](const std::atomic<bool>& stop) {
                        synthesize_until(stop, threads, s, o.seed, scratch);
                      });
}

}  // namespace

std::uint64_t witness_seed(const BatchOptions& options, std::uint64_t index) {
  return options.seed * 1'000'003 + index;
}

template <class Curve>
SyntheticSetup<Curve> make_synthetic_setup(const BatchOptions& options, const graph::Config& config,
                                           graph::Backend backend) {
  SyntheticSetup<Curve> setup;
  make_keys(options, config, backend, setup);
  if (std::any_of(options.runs.begin(), options.runs.end(), [](const auto& r) { return r.presynthesized; }))
    presynthesize(options, setup);
  if (options.h2d_probe && backend == graph::Backend::cuda) probe_under_load(options, config, setup);
  return setup;
}

template SyntheticSetup<Bls12_381> make_synthetic_setup(const BatchOptions&, const graph::Config&,
                                                        graph::Backend);
template SyntheticSetup<Bn254> make_synthetic_setup(const BatchOptions&, const graph::Config&,
                                                    graph::Backend);

}  // namespace proofline::apps
