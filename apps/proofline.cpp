// proofline: the circom user's front door. Subcommands from a table (proofline_commands.hpp):
//
//   proofline prove KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json        rapidsnark's order, verified first
//   proofline prove KEY.zkey --circuit C_cpp/ --input in.json PROOF.json PUBLIC.json
//   proofline batch KEY.zkey ... --out DIR | --manifest FILE           many jobs, one key load
//   proofline verify VK.json PUBLIC.json PROOF.json                    snarkjs's order
//   proofline serve KEY.zkey --circuit C_cpp/ --listen :8080           HTTP: POST /prove/KEY
//   proofline devices [--json]                                         the GPUs, usable or why not
//   proofline worker|submit|wait|status|migrate                        the PostgreSQL fleet (with libpq)
//
// Exit codes as each subcommand's --help says: 0 success, 1 failed jobs or an invalid proof, 2 unusable
// input or options.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

#include "batch_common.hpp"
#include "proofline_commands.hpp"

namespace proofline::apps {

namespace {

constexpr Subcommand circom_table[] = {
    {"prove", "one proof from a .wtns or input JSON (rapidsnark's argument order), verified, then written",
     run_prove_command},
    {"batch", "many proofs with one key load: --wtns/--input files into --out DIR, or a --manifest",
     run_batch_command},
    {"verify", "check a proof as `snarkjs groth16 verify VK.json PUBLIC.json PROOF.json` does",
     run_verify_command},
    {"witness", "compute .wtns files from input JSON in-process (circom's --c or --wasm output)",
     run_witness_command},
    {"serve", "an HTTP proving service: keys resident, concurrent requests proven together",
     run_serve_command},
    {"devices", "the GPUs this build sees, and whether each can prove (or why not)", run_devices_command},
};

}  // namespace

std::span<const Subcommand> circom_subcommands() {
  return circom_table;
}

}  // namespace proofline::apps

namespace {

using namespace proofline;

void print_usage(std::FILE* out, const std::vector<apps::Subcommand>& commands) {
  std::fprintf(
      out,
      "usage: proofline COMMAND [ARGS]    (proofline COMMAND --help for each)\n"
      "Proves circom circuits (keys from snarkjs) with Groth16 on BLS12-381 (--prime bls12381) or BN254\n"
      "(bn128, circom's default prime), on the GPU when there is one, alone or as a fleet of workers fed\n"
      "from PostgreSQL.\n\n"
      "commands:\n");
  for (const apps::Subcommand& c : commands) std::fprintf(out, "  %-8s %s\n", c.name, c.summary);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<apps::Subcommand> commands(apps::circom_subcommands().begin(),
                                         apps::circom_subcommands().end());
#if PROOFLINE_HAVE_FLEET
  commands.insert(commands.end(), apps::fleet_subcommands().begin(), apps::fleet_subcommands().end());
#endif
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    print_usage(argc < 2 ? stderr : stdout, commands);
    return argc < 2 ? 2 : 0;
  }
  for (const apps::Subcommand& c : commands) {
    if (std::strcmp(argv[1], c.name) != 0) continue;
    return apps::run_command(std::string("proofline ") + c.name, [&] { return c.run(argc - 1, argv + 1); });
  }
  print_error_line("proofline", "unknown command " + quote_for_message(argv[1], 80, '\''));
  print_usage(stderr, commands);
  return 2;
}
