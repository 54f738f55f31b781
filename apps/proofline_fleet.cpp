// `proofline worker|submit|status|migrate`: the fleet's commands (fleet/commands.hpp) as rows of proofline's
// subcommand table, where the fleet library was built (it needs libpq).
#include <span>
#include <string_view>
#include <vector>

#include <proofline/fleet/commands.hpp>

#include "proofline_commands.hpp"

namespace proofline::apps {

namespace {

/// argv[0] is the subcommand's name; the fleet's functions take what follows it.
template <int (*Main)(std::string_view, std::span<const std::string_view>)>
int run_fleet_command(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  return Main("proofline", args);
}

constexpr Subcommand fleet_table[] = {
    {"worker", "serve a PostgreSQL job queue: keys stay resident, jobs are claimed as pinned slots free up",
     run_fleet_command<fleet::worker_main>},
    {"submit", "queue jobs (--zkey K --wtns A.wtns ...) for the fleet; --wait writes their proofs",
     run_fleet_command<fleet::submit_main>},
    {"status", "the fleet: workers and their heartbeats, jobs by state, proofs/s",
     run_fleet_command<fleet::status_main>},
    {"migrate", "create or upgrade the fleet's database schema", run_fleet_command<fleet::migrate_main>},
};

}  // namespace

std::span<const Subcommand> fleet_subcommands() {
  return fleet_table;
}

}  // namespace proofline::apps
