// proofline witness: circom's witness calculator run in-process (the circuit's --c generator, built once and
// cached), for callers that want .wtns files - what `node generate_witness.js` or the compiled C++ binary
// make, from many inputs at once, in parallel.
//
//   proofline witness --circuit CIRCUIT_cpp/|CIRCUIT_js/ --input a.json b.json ... --out DIR     DIR/a.wtns,
//   DIR/b.wtns
#include <tbb/parallel_for.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <vector>

#include <proofline/circom/witness_generator.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/util/options.hpp>

#include "batch_common.hpp"
#include "circom_jobs.hpp"
#include "proofline_commands.hpp"
#include "proofline_options.hpp"

namespace proofline::apps {

namespace {

namespace fs = std::filesystem;

struct WitnessRun {
  std::optional<fs::path> circuit, out;
  std::vector<fs::path> inputs;
  circom::BuildOptions build;
};

/// What became of one input: written, failed (the problem, naming the input) or stopped by a signal.
struct WitnessOutcome {
  bool written = false;
  std::string problem;
};

/// Computes and writes one witness.
WitnessOutcome make_witness(const circom::WitnessGenerator& generator, const fs::path& input,
                            const fs::path& wtns, const std::atomic<bool>& stop) {
  try {
    // The .wtns header names the circuit's prime, as snarkjs's does; the generator's canonical values go into
    // the file as they are.
    const std::string text = circom::read_input_file(input);
    groth16::write_wtns_canonical(wtns, generator.curve(), generator.compute_canonical(text, &stop));
    return {true, {}};
  } catch (const Error& e) {
    if (e.code() == Errc::cancelled) return {};
    const std::string what = e.what();
    return {false, what.rfind(input.string(), 0) == 0 ? what : input.string() + ": " + what};
  }
}

int run_witnesses(const WitnessRun& run) {
  if (!run.circuit || run.inputs.empty())
    throw OptionError("needs --circuit CIRCUIT (CIRCUIT_cpp/ or CIRCUIT_js/) and --input FILES");
  if (!run.out) throw OptionError("needs --out DIR: each input NAME.json gives DIR/NAME.wtns");
  std::vector<CircomJobSpec> jobs = jobs_into_dir(run.inputs, true, run.out);
  std::error_code error;
  create_output_folder(*run.out, error);
  for (CircomJobSpec& job : jobs) {  // each job writes one .wtns
    job.proof = *run.out / (circom_job_name(job.source) + ".wtns");
    job.public_inputs.clear();
  }
  check_job_outputs(jobs, circuit_files(*run.circuit));
  const auto generator =
      setup_step([&] { return circom::WitnessGenerator::open(*run.circuit, stoppable(run.build)); });
  const auto start = std::chrono::steady_clock::now();
  // SIGINT or SIGTERM stops the witnesses being computed (a circuit's loop may run as long as its input
  // says) and leaves the others unstarted.
  std::atomic<bool> stop{false};
  std::jthread watch([&stop](std::stop_token done) {
    while (!done.stop_requested() && stop_signal() == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (stop_signal() != 0) stop = true;
  });
  std::vector<WitnessOutcome> outcomes(jobs.size());
  tbb::parallel_for(std::size_t{0}, jobs.size(), [&](std::size_t i) {
    if (!stop) outcomes[i] = make_witness(*generator, jobs[i].source, jobs[i].proof, stop);
  });
  watch.request_stop();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::size_t failed = 0, written = 0;
  for (const WitnessOutcome& outcome : outcomes) {
    written += outcome.written ? 1 : 0;
    if (!outcome.problem.empty()) {
      print_error_line("proofline witness", outcome.problem);
      ++failed;
    }
  }
  std::printf("proofline witness: %zu of %zu witnesses written to %s in %.3f s (%llu values each)%s\n",
              written, jobs.size(), run.out->string().c_str(), seconds,
              static_cast<unsigned long long>(generator->witness_size()),
              stop ? "; stopped by a signal" : "");
  return failed == 0 && written == jobs.size() ? 0 : 1;
}

}  // namespace

int run_witness_command(int argc, char** argv) {
  WitnessRun run;
  OptionParser cli(
      "proofline witness", "usage: proofline witness --circuit CIRCUIT --input FILES --out DIR",
      "Computes circom witnesses (.wtns) from input JSON in-process with the circuit's circom --c "
      "generator (built once with g++ and cached) or its circom --wasm output (translated with wasm2c, built "
      "once with cc and cached), in parallel: DIR/NAME.wtns for each NAME.json.");
  cli.path("--circuit", "CIRCUIT",
           "the folder circom --c wrote (CIRCUIT_cpp/), or circom --wasm's CIRCUIT_js/ or its .wasm",
           run.circuit);
  cli.values("--input", "a.json b.json...", "input JSON files",
             [&run](std::string_view file) { run.inputs.emplace_back(file); });
  cli.path("--out", "DIR", "where the .wtns files go", run.out);
  cli.path("--cache-dir", "DIR", "where built generators are kept", run.build.cache_dir);
  cli.epilog("Exit codes: 0 every witness written; 1 some inputs failed (each named); 2 unusable options.");
  if (!cli.parse(argc, argv)) return 0;
  return run_until_stopped("proofline witness", [&] { return run_witnesses(run); });
}

}  // namespace proofline::apps
