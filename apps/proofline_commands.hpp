// `proofline`'s subcommands: a table, so that other front doors (a fleet library's worker, submit and
// status) mount beside the circom ones by adding rows.
#pragma once

#include <span>

namespace proofline::apps {

struct Subcommand {
  const char* name;     ///< argv[1]
  const char* summary;  ///< one line in `proofline --help`
  /// Runs with argv[0] = "proofline NAME"; returns the exit code (2 for unusable input or options).
  int (*run)(int argc, char** argv);
};

int run_prove_command(int argc, char** argv);
int run_batch_command(int argc, char** argv);
int run_verify_command(int argc, char** argv);
int run_witness_command(int argc, char** argv);
int run_serve_command(int argc, char** argv);
int run_devices_command(int argc, char** argv);

/// The circom user's commands: prove, batch, verify, witness, serve, devices.
std::span<const Subcommand> circom_subcommands();
/// The fleet's commands: worker, submit, wait, status, migrate (proofline_fleet.cpp; only where libpq is, see
/// PROOFLINE_HAVE_FLEET).
std::span<const Subcommand> fleet_subcommands();

}  // namespace proofline::apps
