// The dispatcher that mounts the fleet's commands (commands.hpp) under one program: proofline-fleet.
#include <cstdio>
#include <string>

#include <proofline/fleet/commands.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::fleet {

namespace {

void print_usage(std::FILE* out, std::string_view program) {
  std::fprintf(out, "usage: %.*s COMMAND [options]    (COMMAND --help for its options)\n\ncommands:\n",
               static_cast<int>(program.size()), program.data());
  for (const Command& c : commands) std::fprintf(out, "  %-8s %s\n", c.name, c.summary);
}

}  // namespace

int fleet_main(std::string_view program, std::span<const std::string_view> args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    print_usage(args.empty() ? stderr : stdout, program);
    return args.empty() ? exit_bad_options : 0;
  }
  for (const Command& c : commands)
    if (args[0] == c.name) return c.main(program, args.subspan(1));
  print_error_line(program, "unknown command " + quote_for_message(args[0], 80, '\''));
  print_usage(stderr, program);
  return exit_bad_options;
}

}  // namespace proofline::fleet
