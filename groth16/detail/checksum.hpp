// Internal: the checksums of the native file format. XXH64 (Yann Collet's xxHash, 64-bit variant, written
// out here from its specification) detects corruption at memory speed; it is not a cryptographic hash.
#pragma once

#include <cstddef>
#include <cstdint>

namespace proofline::groth16::detail {

/// XXH64 of `size` bytes with `seed`.
std::uint64_t xxh64(const void* data, std::size_t size, std::uint64_t seed = 0) noexcept;

/// Bytes per chunk of a section checksum.
inline constexpr std::size_t checksum_chunk_bytes = std::size_t{16} << 20;

/// The checksum of a section: XXH64 (seed 0) of each 16 MiB chunk (the last one shorter), computed in
/// parallel, then XXH64 of those little-endian digests with the section's byte count as seed. Equal to
/// XXH64 of nothing seeded with 0 for an empty section.
std::uint64_t section_checksum(const void* data, std::size_t size);

}  // namespace proofline::groth16::detail
