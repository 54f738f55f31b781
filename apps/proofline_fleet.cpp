// `proofline worker|submit|wait|status|migrate`: the fleet's commands (fleet/commands.hpp) as rows of
// proofline's subcommand table, where the fleet library was built (it needs libpq).
#include <array>
#include <cstddef>
#include <iterator>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <proofline/fleet/commands.hpp>

#include "proofline_commands.hpp"

namespace proofline::apps {

namespace {

/// argv[0] is the subcommand's name; the fleet's functions take what follows it.
template <std::size_t I>
int run_fleet_command(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  return fleet::commands[I].main("proofline", args);
}

template <std::size_t... I>
constexpr std::array<Subcommand, sizeof...(I)> table_of(std::index_sequence<I...>) {
  return {Subcommand{fleet::commands[I].name, fleet::commands[I].summary, run_fleet_command<I>}...};
}

constexpr auto fleet_table = table_of(std::make_index_sequence<std::size(fleet::commands)>());

}  // namespace

std::span<const Subcommand> fleet_subcommands() {
  return fleet_table;
}

}  // namespace proofline::apps
