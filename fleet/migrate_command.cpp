// `migrate`: creates or upgrades the proofline schema.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include <proofline/fleet/commands.hpp>
#include <proofline/fleet/detail/argv.hpp>
#include <proofline/fleet/detail/conninfo.hpp>
#include <proofline/fleet/detail/schema.hpp>
#include <proofline/util/options.hpp>

namespace proofline::fleet {

int migrate_main(std::string_view program, std::span<const std::string_view> args) {
  const std::string name = std::string(program) + " migrate";
  const detail::Argv argv(name, args);
  return run_with_options(
      name,
      [&]() -> std::optional<std::optional<std::filesystem::path>> {
        std::optional<std::filesystem::path> file;
        OptionParser cli(name, "usage: " + name + " [--db-url-file FILE]",
                         "Creates or upgrades the proofline schema (safe to run while workers run).");
        cli.path("--db-url-file", "FILE", "read the database URL from FILE's first non-blank line", file);
        if (!cli.parse(argv.argc(), argv.argv())) return std::nullopt;
        return file;
      },
      [](std::optional<std::filesystem::path> file) {
        detail::Connection db(detail::resolve_conninfo(file));
        const detail::MigrationOutcome m = detail::migrate(db);
        std::printf("%s: proofline schema at version %d (was %d)\n", db.describe().c_str(), m.to, m.from);
        return 0;
      });
}

}  // namespace proofline::fleet
