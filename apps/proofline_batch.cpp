// proofline batch: many proofs with one key loaded once, each written as soon as it is made.
//
//   proofline batch KEY.zkey --wtns A.wtns B.wtns ... --out DIR
//   proofline batch KEY.zkey --circuit CIRCUIT_cpp/|CIRCUIT_js/ --input a.json b.json ... --out DIR
//   proofline batch KEY.zkey [--circuit CIRCUIT_cpp/] --manifest JOBS.jsonl|JOBS.csv
//
// A bad witness or input fails its own job (named on stderr with the problem) while the others are proven;
// --fail-fast refuses the whole batch before proving instead.
#include <optional>
#include <string>
#include <vector>

#include "batch_common.hpp"
#include "proofline_commands.hpp"
#include "proofline_options.hpp"

namespace proofline::apps {

namespace {

namespace fs = std::filesystem;

constexpr const char* about =
    "Proves many circom witnesses with one snarkjs Groth16 key (bls12381 or bn128, on either backend), "
    "loaded "
    "once: .wtns files, or input JSON whose witnesses the circuit's circom --c generator or its --wasm "
    "output "
    "(compiled for the key's prime) computes in-process, in parallel, straight into pinned memory. Each "
    "proof is verified with "
    "the key and written (snarkjs's proof.json and public.json) as soon as it is made: under --out DIR named "
    "after its witness or input, or where a manifest says.";
constexpr const char* exit_codes =
    "Exit codes: 0 every proof written (and verified); 1 some jobs failed (each named on stderr with its "
    "problem, then a summary; the others were proven); 2 unusable key, circuit, manifest or options, outputs "
    "that collide or have no place (nothing proven); 130/143 stopped by SIGINT/SIGTERM.";
constexpr const char* manifest_help =
    "one job a line: JSON lines {\"input\": \"a.json\" | \"witness\": \"a.wtns\", \"proof\": "
    "\"a.proof.json\", "
    "\"public\": \"a.public.json\"}, or CSV SOURCE,PROOF,PUBLIC (a .json source is an input; no quoting, so "
    "no commas in paths); relative paths from the manifest's folder; the outputs' folders are created";

struct Sources {
  std::vector<fs::path> wtns, inputs;
  std::optional<fs::path> manifest, out;
};

std::vector<CircomJobSpec> plan_jobs(const Sources& s) {
  const int kinds = !s.wtns.empty() + !s.inputs.empty() + s.manifest.has_value();
  if (kinds != 1) throw OptionError("give exactly one of --wtns FILES, --input FILES and --manifest FILE");
  if (s.manifest && s.out)
    throw OptionError("--out names outputs of --wtns and --input; a --manifest names its own");
  if (s.manifest) {
    std::vector<CircomJobSpec> jobs = jobs_from_manifest(*s.manifest);
    create_output_folders(jobs);
    return jobs;
  }
  return s.wtns.empty() ? jobs_into_dir(s.inputs, true, s.out) : jobs_into_dir(s.wtns, false, s.out);
}

std::optional<CircomBatch> parse(int argc, char** argv) {
  CircomBatch batch;
  set_prover_defaults(batch);
  std::string zkey;
  Sources s;
  OptionParser cli(
      "proofline batch",
      "usage: proofline batch KEY.zkey (--wtns FILES | --circuit CIRCUIT --input FILES) --out DIR\n"
      "       proofline batch KEY.zkey [--circuit CIRCUIT] --manifest JOBS.jsonl|JOBS.csv",
      about);
  cli.positional(
      "KEY.zkey",
      "snarkjs's Groth16 key: bls12381 (circom --prime bls12381) or bn128 (circom's default prime)", zkey);
  cli.group("jobs");
  cli.values("--wtns", "A.wtns B.wtns...", "witness files, one job each",
             [&s](std::string_view file) { s.wtns.emplace_back(file); });
  cli.values("--input", "a.json b.json...", "input JSON files, one job each (needs --circuit)",
             [&s](std::string_view file) { s.inputs.emplace_back(file); });
  cli.path("--circuit", "CIRCUIT",
           "circom --c's CIRCUIT_cpp/, or --wasm's CIRCUIT_js/ or its .wasm: computes witnesses from inputs",
           batch.circuit);
  cli.path("--manifest", "FILE", manifest_help, s.manifest);
  cli.path("--out", "DIR", "with --wtns or --input: DIR/NAME.proof.json and DIR/NAME.public.json", s.out);
  cli.flag("--fail-fast",
           "refuse the whole batch (exit 2, nothing proven) when any witness or input is unusable; "
           "inputs are then run through the generator once before proving",
           batch.fail_fast);
  cli.path("--report", "FILE.json", "the run's numbers (proofs/s, per-stage p50/p99, pool)", batch.report);
  cli.flag("--no-progress", "no progress line", [&batch] { batch.progress = false; });
  add_prover_options(cli, batch);
  cli.epilog(exit_codes);
  if (!cli.parse(argc, argv)) return std::nullopt;
  batch.program = "proofline batch";
  batch.zkey = zkey;
  if (s.out) {
    std::error_code error;
    create_output_folder(*s.out, error);
    if (error) throw UnusableInput("--out: cannot create '" + s.out->string() + "': " + error.message());
  }
  batch.jobs = plan_jobs(s);
  batch.manifest = s.manifest;
  return batch;
}

}  // namespace

int run_batch_command(int argc, char** argv) {
  const std::optional<CircomBatch> batch = parse(argc, argv);
  if (!batch) return 0;
  return run_until_stopped(batch->program, [&] { return run_circom_batch(*batch); });
}

}  // namespace proofline::apps
