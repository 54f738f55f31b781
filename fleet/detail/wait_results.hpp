// submit --wait: collects the results of submitted jobs as they end, across lost connections (a server
// restart while waiting), and writes them as snarkjs files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include <proofline/fleet/detail/pg.hpp>

namespace proofline::fleet::detail {

struct WaitOptions {
  std::string conninfo;  ///< to reconnect with
  std::optional<std::filesystem::path> out, check_vk;
  std::optional<double> timeout_s;
};

/// `db` must already LISTEN on proofline_done. Returns 0 when every job is done (and its proof verifies
/// against --check-vk), else 1; prints each failure on stderr and a summary on stdout.
int wait_for_results(Connection db, std::span<const std::int64_t> ids, std::span<const std::string> names,
                     const WaitOptions& options);

}  // namespace proofline::fleet::detail
