// The native binary format for proving keys, verifying keys and constraint systems (PCE), made to be used in
// place from a copy of the file in memory (heap or pinned): the queries and CSR arrays of a loaded object are
// zero-copy views into that image. The image is read with read(2) into memory the object owns, never mapped:
// a running prover keeps the key it loaded whatever happens to the file (replaced, truncated, deleted),
// where a mapping would kill the process with SIGBUS on the first access past a truncation.
//
// Layout (all integers little-endian):
//   header, 256 bytes:
//     0  magic "PROOFLIN"          8  u32 format version (1)   12 u32 kind (1 proving key, 2 verifying key,
//     16 u32 curve (1 = BLS12-381) 20 u32 H convention (0 none, 1 generator7, 2 snarkjs)   24 u32 sections
//     28 u32 section alignment (4096)   32 u64 file size   40 u64 params[16] (kind-specific sizes)
//     168 reserved (zero)   248 u64 header checksum: XXH64 of the header (this field zero) and section table
//   section table, 48 bytes per section: u32 id, u32 element size, u64 offset, u64 element count, u64 bytes,
//     u64 checksum (detail/checksum.hpp: XXH64 over 16 MiB chunks, combined), u64 reserved
//   sections at 4096-byte aligned offsets, in table order, zero padding between them. Points are affine in
//   our in-memory layout (Montgomery-form Fp limbs, all-zero infinity), field elements Montgomery-form Fr.
//
//   proving key: params num_variables, num_public, log_domain_size, h points, l points, has a verifying key,
//     IC points, circuit digest; sections fixed points (alpha1, beta1, delta1, beta2, delta2), A, B1, B2, H,
//     L, and optionally the verifying key's fixed points (alpha1, beta2, gamma2, delta2) and IC.
//   verifying key: params num_public, IC points; sections fixed points, IC.
//   constraint system: params rows, num_variables, num_public, has C, nonzeros of A, B, C; sections row
//     offsets (u64), columns (u32) and values (Fr) of A, B and (if present) C.
//
// Loading validates everything before any view is handed out: magic, version, kind, curve, header checksum,
// the file length against the header, every section's bounds, alignment, size and element count against the
// params, the section checksums (unless skipped for a trusted fast load), the fixed points (on the curve and
// in the subgroup), the query points as LoadOptions asks, and the CSR structure (so evaluation never reads
// out of bounds). Any failure throws Error(Errc::bad_input, "<path>: <what is wrong>"), a path that is not a
// regular file (a FIFO, a device) included, refused before anything is read; an unreadable file
// Error(Errc::io, ...). Writers write a temporary file beside the target and rename it into place (a symbolic
// link there is replaced, not followed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/key_check.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifying_key.hpp>

namespace proofline::groth16 {

enum class NativeKind : std::uint32_t { proving_key = 1, verifying_key = 2, constraint_system = 3 };

struct LoadOptions {
  enum class Mode {
    read,  ///< read the whole file into memory from `allocate`, or page-aligned heap memory without one
    /// Another name for `read`, kept for existing callers: files are no longer mapped, since a mapping of a
    /// file truncated while in use faults (SIGBUS) on the next access.
    map = read,
  };
  Mode mode = Mode::read;
  /// false: skip the section checksums (a trusted file, loaded fast). The structure is checked regardless.
  bool verify_checksums = true;
  /// Check that every query point is on its curve (proving keys of unknown origin; O(size)).
  bool check_query_points = false;
  /// The full check: check_query_points, then every query point in its prime-order subgroup, batched per
  /// query and skipped for keys checked before (key_check.hpp).
  bool check_query_subgroups = false;
  /// The cache of keys already checked, for check_query_subgroups.
  KeyCheckOptions key_check;
  /// Returns at least `bytes` bytes, 64-byte aligned, kept alive by the returned pointer (e.g. pinned memory
  /// of a residency entry). Empty: page-aligned heap memory.
  std::function<std::shared_ptr<void>(std::size_t bytes)> allocate;
};

/// A loaded object and the host bytes its file image occupies (what a memory::Residency loader reports).
template <class T>
struct Loaded {
  T value;
  std::uint64_t bytes = 0;
};

struct ProvingKeyFile {
  ProvingKey pk;
  std::optional<VerifyingKey> vk;    ///< when the file carries one
  std::uint64_t circuit_digest = 0;  ///< digest(cs) of the circuit the key was made for; 0 unknown
  KeyCheckReport key_check;          ///< what LoadOptions::check_query_subgroups did (nothing otherwise)
};

/// A fingerprint of a constraint system's shape and CSR arrays (XXH64-based, not cryptographic), recorded in
/// key files so that a cached key is not reused for a different circuit.
/// (Either curve's: the key cache names BN254 keys by it.)
template <class Curve>
std::uint64_t digest(const BasicConstraintSystem<Curve>& cs);

void write_proving_key(const std::filesystem::path& path, const ProvingKey& pk,
                       const VerifyingKey* vk = nullptr, std::uint64_t circuit_digest = 0);
void write_verifying_key(const std::filesystem::path& path, const VerifyingKey& vk);
void write_constraint_system(const std::filesystem::path& path, const ConstraintSystem& cs);

Loaded<ProvingKeyFile> load_proving_key(const std::filesystem::path& path, const LoadOptions& options = {});
/// From a verifying-key file, or from a proving-key file that carries a verifying key.
VerifyingKey load_verifying_key(const std::filesystem::path& path, const LoadOptions& options = {});
Loaded<ConstraintSystem> load_constraint_system(const std::filesystem::path& path,
                                                const LoadOptions& options = {});

/// The same from a file image already in memory (64-byte aligned; `owner` keeps it alive and is shared by
/// the views). `name` stands for the path in error messages. mode and allocate are ignored.
Loaded<ProvingKeyFile> parse_proving_key(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                                         std::string_view name, const LoadOptions& options = {});
Loaded<ConstraintSystem> parse_constraint_system(std::shared_ptr<const void> owner,
                                                 std::span<const std::byte> image, std::string_view name,
                                                 const LoadOptions& options = {});

/// The kind recorded in a native file's header (after checking magic, version and header checksum).
NativeKind native_file_kind(const std::filesystem::path& path);

}  // namespace proofline::groth16
