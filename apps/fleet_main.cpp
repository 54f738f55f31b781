// proofline-fleet: proofline workers fed from a PostgreSQL job queue, and the clients that feed and watch
// them (worker, submit, wait, status, migrate: fleet/commands.hpp, docs/fleet.md).
#include <string_view>
#include <vector>

#include <proofline/fleet/commands.hpp>

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  return proofline::fleet::fleet_main("proofline-fleet", args);
}
