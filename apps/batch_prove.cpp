// batch_prove: proves a batch of Groth16 jobs through the pipeline and reports what bounded it.
//
// With no arguments it proves a small synthetic batch on whatever backend the machine has and prints a
// summary. Exit codes: 0 every proof made (and verified, with --verify), 1 some jobs failed, 2 unusable input
// or options (one line on stderr saying which and why), 130/143 stopped by SIGINT/SIGTERM (queued jobs
// cancelled, running ones finished, their proofs and the report written).
#include <cstdio>
#include <exception>
#include <optional>

#include <proofline/util/options.hpp>

#include "batch_common.hpp"
#include "batch_options.hpp"
#include "snarkjs_batch.hpp"
#include "synthetic_batch.hpp"

int main(int argc, char** argv) {
  using namespace proofline;
  return apps::run_command("batch_prove", [&] {
    const std::optional<apps::BatchOptions> options = apps::parse_batch_options(argc, argv);
    if (!options) return 0;
    // Stopped by SIGINT or SIGTERM: 130 or 143, as a shell reports a program the signal ended.
    return apps::run_until_stopped("batch_prove", [&] {
      return options->zkey ? apps::run_snarkjs(*options) : apps::run_synthetic(*options);
    });
  });
}
