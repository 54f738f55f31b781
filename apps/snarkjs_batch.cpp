#include "snarkjs_batch.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <vector>

#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/graph/observe.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/trace/chrome_trace.hpp>

#include "batch_common.hpp"

namespace proofline::apps {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The key and the witnesses it will prove, every file checked before anything is proved.
struct Plan {
  groth16::SnarkjsKey key;
  std::vector<groth16::WtnsJob> jobs;
};

Plan plan(const BatchOptions& o, graph::Config& config) {
  return setup_step([&] {
    const auto start = Clock::now();
    Plan p;
    p.key = groth16::load_snarkjs_key(*o.zkey, groth16::ZkeyOptions{.points = o.zkey_check});
    const double load_s = seconds_since(start);
    p.jobs = groth16::plan_wtns_jobs(o.wtns, p.key.pk->num_variables, o.zkey->string());
    // The GPU NTT starts at 2^10 rows: small circuits go to the CPU unless the GPU was asked for.
    if (config.backend == graph::Backend::automatic && p.key.pk->log_domain_size < cuda::NttEngine::min_log_n)
      config.backend = graph::Backend::cpu;
    std::printf(
        "batch_prove: %zu witnesses for %s (2^%u rows, %llu variables, %llu public), key read in %.2f s\n",
        p.jobs.size(), o.zkey->string().c_str(), p.key.pk->log_domain_size,
        static_cast<unsigned long long>(p.key.pk->num_variables),
        static_cast<unsigned long long>(p.key.pk->num_public), load_s);
    std::fflush(stdout);
    return p;
  });
}

/// With --out, each proof as LABEL.proof.json and LABEL.public.json, as soon as it is made.
ResultCollector::Writer proof_writer(const BatchOptions& o) {
  if (!o.out) return {};
  return [dir = *o.out](const graph::JobResult& r) {
    groth16::write_snarkjs_outputs(dir, r.label, *r.proof, r.public_inputs);
  };
}

}  // namespace

int run_snarkjs(const BatchOptions& o) {
  log::set_level(o.log_level);
  check_outputs_writable(o);
  graph::Config config = o.config;
  const Plan p = plan(o, config);
  ResultCollector results;  // before the pipeline, which reports into it until it is destroyed
  results.attach(config, proof_writer(o));
  std::optional<graph::Pipeline> prover;
  const graph::KeyHandle handle = setup_step([&] {
    prover.emplace(config);
    return prover->add_key(graph::KeySpec{p.key.name, p.key.pk, p.key.cs, p.key.vk});
  });
  results.start_progress(o.progress, p.jobs.size());
  const auto start = Clock::now();
  prove_until_stopped(
      *prover, p.jobs.size(),
      [&](std::uint64_t i) {
        return graph::Job{.key = handle, .witness = graph::WtnsFile{p.jobs[i].wtns}, .label = p.jobs[i].name};
      },
      results);
  const double wall_s = seconds_since(start);
  prover->shutdown();
  results.finish_progress();

  const graph::RunReport report = graph::make_run_report(
      graph::recorder(*prover).snapshot(), graph::run_roles(*prover), prover->stats(), p.jobs.size(), wall_s);
  std::fputs(graph::report_summary(report).c_str(), stdout);
  print_failures(results, "");
  if (o.out)
    std::printf("batch_prove: wrote %llu proofs to %s\n", static_cast<unsigned long long>(results.written()),
                o.out->string().c_str());
  if (o.report) write_file(*o.report, graph::report_json(report));
  if (o.trace) trace::write_chrome_trace_file(graph::recorder(*prover).snapshot(), o.trace->string());
  return batch_status(report, p.jobs.size(), o.config.verify, results);
}

}  // namespace proofline::apps
