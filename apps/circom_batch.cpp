#include "circom_batch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <variant>

#include <proofline/circom/witness_generator.hpp>
#include <proofline/graph/observe.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/graph/report.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/trace/chrome_trace.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/stop_signals.hpp>

#include "batch_common.hpp"

namespace proofline::apps {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// A job refused before proving (its witness or input unusable), or one the pipeline failed.
struct Failure {
  std::string label, message;
};

/// The key (of the curve its file names), the generator (for jobs from input JSON) and which jobs are fit to
/// prove.
struct Plan {
  groth16::AnySnarkjsKey key;
  CurveId curve = CurveId::bls12_381;
  std::string key_name;
  std::uint64_t num_variables = 0;
  std::shared_ptr<const circom::WitnessGenerator> generator;
  std::vector<std::size_t> runnable;  ///< indices into CircomBatch::jobs, in order
  std::vector<Failure> refused;
};

/// The key of the file's curve, and its shape for the checks that do not depend on the curve.
Plan read_key(const CircomBatch& b) {
  Plan plan;
  // The full check's subgroup tests run on the GPU when the batch may prove there (one is usable).
  groth16::ZkeyOptions options{.points = b.zkey_check};
  options.key_check.tester = graph::subgroup_tester_for(b.config);
  plan.key = groth16::load_any_snarkjs_key(b.zkey, options);
  std::visit(
      [&]<class Curve>(const groth16::BasicSnarkjsKey<Curve>& key) {
        plan.curve = Curve::id;
        plan.key_name = key.name;
        plan.num_variables = key.pk->num_variables;
      },
      plan.key);
  return plan;
}

/// How far an input JSON is checked before proving: read (its witness is computed in the pipeline, which
/// names any problem then), its signals checked against the circuit's inputs without running it, or run
/// through the generator (fail-fast checks everything before proving).
enum class InputCheck { read, signals, run };

/// Why a job cannot be proved, found without proving it; empty when it looks fine.
std::string precheck(const CircomJobSpec& job, const Plan& plan, InputCheck depth) {
  try {
    if (!job.from_input) {
      const groth16::WtnsHeader header = groth16::check_wtns(job.source, plan.curve);
      groth16::check_wtns_length(job.source, header, plan.num_variables, plan.key_name + ".zkey");
    } else {
      const std::string text = circom::read_input_file(job.source);
      if (depth == InputCheck::signals)
        plan.generator->check_input(text);
      else if (depth == InputCheck::run && plan.curve == CurveId::bn254)
        plan.generator->compute_bn254(text);
      else if (depth == InputCheck::run)
        plan.generator->compute(text);
    }
  } catch (const Error& e) {
    const std::string what = e.what();
    return what.rfind(job.source.string(), 0) == 0 ? what : job.source.string() + ": " + what;
  }
  return {};
}

Plan plan_batch(CircomBatch& b) {
  Plan p = setup_step([&] {
    Plan plan = read_key(b);
    if (b.circuit) {
      plan.generator = circom::WitnessGenerator::open(*b.circuit, stoppable(b.build));
      plan.generator->check_curve(plan.curve, b.zkey.string());
      plan.generator->check_fits(plan.num_variables, b.zkey.string());
    }
    return plan;
  });
  if (b.make_jobs) b.jobs = b.make_jobs();
  std::vector<NamedPath> inputs = {{"the key", b.zkey}};
  if (b.manifest) inputs.push_back({"the manifest", *b.manifest});
  if (b.circuit) std::ranges::move(circuit_files(*b.circuit), std::back_inserter(inputs));
  check_job_outputs(b.jobs, inputs,
                    {{"--report", b.report.value_or(fs::path())}, {"--trace", b.trace.value_or(fs::path())}});
  if (!p.generator)
    for (const CircomJobSpec& job : b.jobs)
      if (job.from_input)
        throw UnusableInput(
            job.source.string() +
            ": an input JSON needs the circuit's generator (--circuit CIRCUIT_cpp/ or CIRCUIT_js/)");
  const InputCheck depth =
      b.fail_fast ? InputCheck::run : (b.refuse_unusable ? InputCheck::signals : InputCheck::read);
  for (std::size_t i = 0; i < b.jobs.size(); ++i) {
    std::string why = precheck(b.jobs[i], p, depth);
    if (why.empty())
      p.runnable.push_back(i);
    else if (b.fail_fast || b.refuse_unusable)
      throw UnusableInput(why);
    else
      p.refused.push_back({b.jobs[i].label, std::move(why)});
  }
  return p;
}

graph::WitnessSource witness_of(const CircomJobSpec& job, const Plan& p) {
  if (job.from_input) return circom::witness_from_input(p.generator, job.source);
  return graph::WtnsFile{job.source};
}

/// Each proof's public.json, then proof.json (each written atomically), where the job says.
ResultCollector::Writer proof_writer(const CircomBatch& b, const Plan& p) {
  return [&b, &p](const graph::JobResult& r) {
    const CircomJobSpec& job = b.jobs[p.runnable.at(r.seq)];
    if (job.proof.empty()) return;  // batch_prove --zkey without --out: proved, not kept
    // The proof in its curve's result fields; snarkjs's files name the curve ("bn128" for BN254). Both
    // files or neither: a public.json whose proof could not be written is taken back.
    if (r.curve == CurveId::bn254)
      groth16::write_snarkjs_public(job.public_inputs, r.bn254_public_inputs);
    else
      groth16::write_snarkjs_public(job.public_inputs, r.public_inputs);
    try {
      if (r.curve == CurveId::bn254)
        groth16::write_snarkjs_proof(job.proof, *r.bn254_proof);
      else
        groth16::write_snarkjs_proof(job.proof, *r.proof);
    } catch (...) {
      std::error_code ignored;
      std::filesystem::remove(job.public_inputs, ignored);
      throw;
    }
  };
}

void print_failure(const CircomBatch& b, const Failure& f) {
  if (f.message.find(f.label) != std::string::npos)
    print_error_line(b.program, "job failed: " + f.message);
  else
    print_error_line(b.program, f.label + " failed: " + f.message);
}

/// Every failure on stderr (refused ones first, then the pipeline's in submission order) and a summary.
std::size_t print_outcome(const CircomBatch& b, const Plan& p, ResultCollector& results, double wall_s) {
  for (const Failure& f : p.refused) print_failure(b, f);
  const std::vector<JobFailure> failed = results.failures();
  for (const JobFailure& f : failed) print_failure(b, {b.jobs[p.runnable.at(f.seq)].label, f.message});
  const std::size_t failures = p.refused.size() + failed.size();
  // batch_prove --zkey without --out proves without keeping the proofs.
  const bool kept = std::ranges::any_of(b.jobs, [](const CircomJobSpec& job) { return !job.proof.empty(); });
  const std::uint64_t done = kept ? results.written() : results.proven();
  // Stopped by a signal: the jobs cancelled or never submitted are neither proven nor failed.
  const int stopped_by = stop_signal();
  const std::uint64_t unproven = b.jobs.size() - std::min<std::uint64_t>(b.jobs.size(), done + failures);
  const std::string stopped =
      stopped_by != 0 && unproven > 0
          ? "; " + std::to_string(unproven) + " not proven (stopped by " + stop_signal_name(stopped_by) + ")"
          : "";
  if (!b.quiet || failures > 0 || !stopped.empty())
    std::fprintf(failures > 0 || !stopped.empty() ? stderr : stdout,
                 "%s: %llu of %zu proofs %s%s in %.2f s (%s key); %zu failed%s\n", b.program.c_str(),
                 static_cast<unsigned long long>(done), b.jobs.size(),
                 kept ? "written" : "made (not written: no --out)",
                 b.config.verify ? " (each verified first)" : "", wall_s,
                 std::string(curve_name(p.curve)).c_str(), failures, stopped.c_str());
  return failures;
}

/// The pipeline's default synthesis concurrency, half its threads, suits syntheses that are parallel inside.
/// The circuit's generator computes a witness on one thread, so a batch from input JSON would leave half the
/// host idle while the GPU waits for witnesses: it may synthesize as many jobs at once as there are threads
/// (the ramp still starts at one job per GPU and adds jobs only while jobs wait).
graph::Config with_generator_concurrency(graph::Config config, const CircomBatch& b, const Plan& p) {
  const bool from_input =
      std::ranges::any_of(p.runnable, [&](std::size_t i) { return b.jobs[i].from_input; });
  if (from_input && config.synthesis_concurrency == 0)
    config.synthesis_concurrency = graph::thread_plan(config).threads;
  return config;
}

}  // namespace

graph::Pipeline make_batch_pipeline(const CircomBatch& b, graph::Config config) {
  // A server's jobs are not counted in advance.
  return make_pipeline_with_fault(
      std::move(config), b.fault,
      b.jobs.empty() ? std::nullopt : std::optional<std::uint64_t>(b.jobs.size()));
}

int run_circom_batch(const CircomBatch& batch) {
  CircomBatch b = batch;  // its jobs may be made once the key is read
  log::set_level(b.log_level);
  if (b.plan_only) {
    b.make_jobs = nullptr;
    b.jobs.clear();
  }
  const Plan p = plan_batch(b);
  graph::Config config = with_generator_concurrency(b.config, b, p);
  ResultCollector results;  // before the pipeline, which reports into it until it is destroyed
  results.attach(config, proof_writer(b, p));
  std::optional<graph::Pipeline> prover;
  const graph::KeyHandle handle = setup_step([&] {
    prover.emplace(make_batch_pipeline(b, config));
    return std::visit(
        [&]<class Curve>(const groth16::BasicSnarkjsKey<Curve>& key) {
          return prover->add_key(graph::BasicKeySpec<Curve>{key.name, key.pk, key.cs, key.vk});
        },
        p.key);
  });
  if (b.plan_only) return print_memory_plan(*prover, b.report);
  results.start_progress(b.progress && !b.quiet, p.runnable.size());
  const auto start = Clock::now();
  prove_until_stopped(
      *prover, p.runnable.size(),
      [&](std::uint64_t i) {
        const CircomJobSpec& job = b.jobs[p.runnable[i]];
        return graph::Job{.key = handle, .witness = witness_of(job, p), .label = job.label};
      },
      results, b.program);
  const double wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  prover->shutdown();
  results.finish_progress();
  graph::RunReport report =
      graph::make_run_report(graph::recorder(*prover).snapshot(), graph::run_roles(*prover), prover->stats(),
                             p.runnable.size(), wall_s);
  report.curve = std::string(curve_name(p.curve));
  if (b.full_summary) std::fputs(graph::report_summary(report).c_str(), stdout);
  const std::size_t failures = print_outcome(b, p, results, wall_s);
  if (b.report) write_file(*b.report, graph::report_json(report));
  if (b.trace) trace::write_chrome_trace_file(graph::recorder(*prover).snapshot(), b.trace->string());
  const int status = batch_status(report, p.runnable.size(), config.verify, results);
  return status == 0 && failures > 0 ? 1 : status;
}

}  // namespace proofline::apps
