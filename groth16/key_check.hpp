// The full check of a proving key's query points, done once per key: every point's coordinates below p, on
// the curve (per point, cheap) and in the prime-order subgroup (batched: detail/batch_subgroup.hpp gives the
// soundness argument; a failure falls back to the per-point test to name the first bad point), remembered in
// a small cache of keys already checked.
//
// The cache holds one record per key, named by the SHA-256 digest of the query points that were checked
// (their counts and bytes, in memory, exactly as they will be used: no window between hashing and checking).
// A record is written, atomically, only after the subgroup check of every query passed; a later load of the
// same points finds it and skips the subgroup work (said at debug log level). A changed key has another
// digest; a record that is unreadable, corrupt or made for another digest is ignored. The per-point
// coordinate and curve checks always run. Directory: KeyCheckOptions::cache_directory, else
// $XDG_CACHE_HOME/proofline/checked-keys, else $HOME/.cache/proofline/checked-keys; with none of them (or
// use_cache false) nothing is remembered.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <proofline/groth16/proving_key.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

/// A faster judge of subgroup membership than the batched CPU check, for whole queries at once: a GPU, which
/// tests every point exactly (the programs pass cuda::first_outside_subgroup's when a GPU is usable). Each
/// returns the index of the first point outside the prime-order subgroup, or nullopt; the points are on their
/// curve already.
class SubgroupTester {
 public:
  virtual ~SubgroupTester() = default;
  virtual std::optional<std::size_t> first_outside(std::span<const G1Affine> points) const = 0;
  virtual std::optional<std::size_t> first_outside(std::span<const G2Affine> points) const = 0;
  virtual std::optional<std::size_t> first_outside(std::span<const bn254::G1Affine> points) const = 0;
  virtual std::optional<std::size_t> first_outside(std::span<const bn254::G2Affine> points) const = 0;
};

struct KeyCheckOptions {
  /// Remember keys that passed, and skip the subgroup check of keys remembered.
  bool use_cache = true;
  /// Where the records live; empty: default_checked_keys_directory().
  std::filesystem::path cache_directory{};
  /// Test the subgroups there instead of with the batched CPU check (null: on the CPU).
  std::shared_ptr<const SubgroupTester> tester{};
};

/// What a full check did (the readers return it; tests and logs read it).
struct KeyCheckReport {
  bool subgroups_checked = false;  ///< the subgroup check ran and passed
  bool on_tester = false;          ///< it ran on KeyCheckOptions::tester (a GPU), not the CPU
  bool from_cache = false;         ///< skipped: a record says these points passed before
  bool record_written = false;     ///< a record was written after the check passed
  std::string digest;              ///< hex SHA-256 of the queries (empty when no cache was used)
  double hash_seconds = 0;
  double check_seconds = 0;  ///< the subgroup check alone
};

/// $XDG_CACHE_HOME/proofline/checked-keys, else $HOME/.cache/proofline/checked-keys, else empty.
std::filesystem::path default_checked_keys_directory();

/// The names the queries take in messages: "<context>: <name>: point <i> is not in the prime-order subgroup".
struct QueryNames {
  std::string_view a = "the A query", b1 = "the B1 query", b2 = "the B2 query", h = "the H query",
                   l = "the L query";
};

/// The digest the cache records: SHA-256 over a version tag and, per query in the order A, B1, B2, H, L, its
/// point count and the SHA-256 digests of its 16 MiB chunks (hashed in parallel). 64 hex digits.
template <class Curve>
std::string query_digest(const BasicProvingKey<Curve>& pk);

/// Subgroup membership of every query point of pk, which the caller has already checked per point for
/// reduced coordinates and the curve. Uses and fills the cache as above. Throws Error(code, "<context>:
/// <name>: point <i> is not in the prime-order subgroup").
template <class Curve>
KeyCheckReport check_query_subgroups(const BasicProvingKey<Curve>& pk, Errc code, std::string_view context,
                                     const KeyCheckOptions& options = {}, const QueryNames& names = {});

}  // namespace proofline::groth16
