// submit --wait and wait: collect the results of submitted jobs as they end, across lost connections (a
// server restart while waiting), and write them as snarkjs files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include <proofline/fleet/detail/pg.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/zkey.hpp>

namespace proofline::fleet::detail {

/// A snarkjs verification key of either curve, prepared for checking proofs.
struct CheckKey {
  std::filesystem::path file;
  std::variant<groth16::BasicPreparedVerifyingKey<Bls12_381>, groth16::BasicPreparedVerifyingKey<Bn254>> vk;
};

/// The verifying key of the jobs' key, read from that key's header where this host sees the file.
struct JobsKey {
  std::string file;
  groth16::AnyVerifyingKey vk;
};

/// Reads `--check-vk`'s file; OptionError naming it when it is not a snarkjs verification key, or not the
/// verifying key of `jobs_key` when that is known (read before any job is submitted, so that a wrong file
/// queues nothing rather than failing every proof's check once proven).
CheckKey load_check_key(const std::filesystem::path& file, const std::optional<JobsKey>& jobs_key = {});

/// Makes `--out`'s directory; OptionError naming it when it cannot be made.
void make_out_directory(const std::filesystem::path& out);

struct WaitOptions {
  std::string conninfo;  ///< to reconnect with
  std::optional<std::filesystem::path> out;
  std::optional<CheckKey> check;
  std::optional<double> timeout_s;
};

/// `db` must already LISTEN on proofline_done. Returns 0 when every job is done (and its proof verifies
/// against --check-vk), else 1; prints each failure on stderr and a summary on stdout.
int wait_for_results(Connection db, std::span<const std::int64_t> ids, std::span<const std::string> names,
                     const WaitOptions& options);

}  // namespace proofline::fleet::detail
