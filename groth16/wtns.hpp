// circom/snarkjs witness files (.wtns, version 2): the reader the pipeline's witness sources use, and a
// writer for tests and tools. Layout (the container is binfile.hpp's), all integers little-endian:
//
//   "wtns" | version u32 (2) | nSections u32 | { type u32 | size u64 | payload } ...  (sections in any order)
//   section 1, header: n8 u32 (32) | prime (n8 bytes: the scalar field r) | nWitness u32
//   section 2, values: nWitness × n8 bytes, each a canonical (non-Montgomery) integer below r
//
// r is bn128's (BN254, circom's default) or BLS12-381's; the header says which (WtnsHeader::curve), and a
// reader into one curve's Fr refuses a witness of the other, naming both.
//
// Every failure is Error(bad_input, "<file>: <what is wrong>"): truncated files, a wrong magic or version, a
// field other than the two curves' Fr (naming the field), a value not below r, w[0] != 1, a length
// that is not the caller's (the key's variable count). The file is read into memory (binfile.hpp: never
// mapped, so a witness file truncated while it is read is an error, not a SIGBUS), and the values are
// converted to Montgomery form in parallel straight into the caller's memory (a pinned slot in the pipeline).
//
// A witness is secret (it holds the prover's private inputs): write_wtns creates its file readable by its
// owner only (0600).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <proofline/arith/curves.hpp>

namespace proofline::groth16 {

struct WtnsHeader {
  std::uint32_t version = 0;
  std::uint64_t num_witness = 0;       ///< witness length, z[0] = 1 included
  std::uint64_t values_offset = 0;     ///< file offset of the first value
  CurveId curve = CurveId::bls12_381;  ///< the curve whose scalar field the prime is
};

/// Reads and checks the container and the header section (magic, version 2, n8 = 32, prime = r, a values
/// section of exactly nWitness × 32 bytes).
WtnsHeader read_wtns_header(const std::filesystem::path& path);

/// read_wtns_header, plus every value checked as read_wtns checks it (below r, z[0] = 1) without converting
/// or keeping any: what a batch tool runs on each witness file before it proves anything, so that a broken
/// witness is refused up front instead of failing its job. With `curve`, a witness over the other curve's
/// field is refused first, naming both curves.
WtnsHeader check_wtns(const std::filesystem::path& path, std::optional<CurveId> curve = std::nullopt);

/// Reads the whole witness into `out`, which must have exactly header.num_witness elements (the caller knows
/// the circuit's variable count; a mismatch names both numbers), converting every value to Montgomery form.
/// Checks that every value is below r and that z[0] = 1.
void read_wtns_into(const std::filesystem::path& path, std::span<Fr> out);
void read_wtns_into(const std::filesystem::path& path, std::span<bn254::Fr> out);

/// read_wtns_header and read_wtns_into for a file's image in memory (what a witness calculator library
/// returns); `name` stands for the path in messages.
WtnsHeader read_wtns_header(std::span<const std::byte> image, std::string_view name);
void read_wtns_into(std::span<const std::byte> image, std::string_view name, std::span<Fr> out);
void read_wtns_into(std::span<const std::byte> image, std::string_view name, std::span<bn254::Fr> out);

/// read_wtns_header for an image that a key of `curve` with `num_variables` variables is to prove: what a
/// server checks before it queues a request, so that a witness over the other curve's field or of another
/// circuit is refused at once (Error(bad_input), naming the problem and `key_name`) while its values are
/// left for read_wtns_into to check where they are converted.
WtnsHeader read_wtns_header_for(std::span<const std::byte> image, std::string_view name, CurveId curve,
                                std::uint64_t num_variables, std::string_view key_name);

/// The whole witness in a new vector.
template <class F = Fr>
std::vector<F> read_wtns(const std::filesystem::path& path);

/// The same from a file image in memory (fuzzers, tests); `name` stands for the path in messages.
template <class F = Fr>
std::vector<F> parse_wtns(std::span<const std::byte> image, std::string_view name);

/// Throws Error(bad_input, "<path>: the witness has N values, <key> expects M variables") unless the
/// witness fits a circuit of `num_variables` variables (the check batch tools make before proving).
void check_wtns_length(const std::filesystem::path& path, const WtnsHeader& header,
                       std::uint64_t num_variables, std::string_view key_name);

/// Writes `z` as a version-2 .wtns file (what circom's witness calculator writes), atomically and with
/// permissions 0600 (write_file_atomically: a symbolic link at `path` is replaced, not followed). Throws
/// Error(io).
void write_wtns(const std::filesystem::path& path, std::span<const Fr> z);
void write_wtns(const std::filesystem::path& path, std::span<const bn254::Fr> z);

/// The bytes write_wtns writes.
std::vector<std::byte> wtns_bytes(std::span<const Fr> z);
std::vector<std::byte> wtns_bytes(std::span<const bn254::Fr> z);

/// write_wtns for a witness already in the file's form: `values` holds its values as the values section does
/// (32 bytes each, canonical, little-endian; not checked here) in the scalar field of `curve`. What a circom
/// generator computes, written without a round trip through Montgomery form.
void write_wtns_canonical(const std::filesystem::path& path, CurveId curve,
                          std::span<const std::byte> values);
/// The bytes write_wtns_canonical writes.
std::vector<std::byte> wtns_bytes_canonical(CurveId curve, std::span<const std::byte> values);

}  // namespace proofline::groth16
