// The zcash / IETF serialization of BLS12-381 points (also used by blst, arkworks, Ethereum and Filecoin):
// big-endian coordinates, G2 coordinates as c1 || c0, and three flags in the top bits of the first byte:
//   bit 7 (0x80) compressed: the encoding holds x only,
//   bit 6 (0x40) infinity: the point at infinity, all other bits zero,
//   bit 5 (0x20) sign: compressed only, set when y is the lexicographically largest of y and -y.
// Host only. Decoding validates everything and reports why it rejected the bytes; it does not throw.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

namespace proofline {

inline constexpr std::size_t g1_compressed_size = 48;
inline constexpr std::size_t g1_uncompressed_size = 96;
inline constexpr std::size_t g2_compressed_size = 96;
inline constexpr std::size_t g2_uncompressed_size = 192;

/// Why decode_point rejected its input (ok when it did not).
enum class DecodeStatus : std::uint8_t {
  ok,
  wrong_length,               ///< neither the compressed nor the uncompressed size of the group
  compression_flag_mismatch,  ///< the compression flag disagrees with the length
  bad_infinity_encoding,      ///< infinity flag with the sign flag or any coordinate bit set
  bad_sign_flag,              ///< sign flag set in an uncompressed encoding
  non_canonical_coordinate,   ///< a coordinate (or one of its Fp2 components) is not below p
  not_on_curve,               ///< the equation fails, or no y exists for the compressed x
  not_in_subgroup,            ///< on the curve but not of order r
};

const char* to_string(DecodeStatus status) noexcept;

/// Whether decode_point runs the subgroup check; skip only for input that is trusted (e.g. produced here).
enum class SubgroupCheck : bool { skip = false, check = true };

/// Encodings of a point, which must be on the curve (the all-zero affine point encodes as infinity).
std::array<std::uint8_t, g1_compressed_size> encode_compressed(const G1Affine& point);
std::array<std::uint8_t, g1_uncompressed_size> encode_uncompressed(const G1Affine& point);
std::array<std::uint8_t, g2_compressed_size> encode_compressed(const G2Affine& point);
std::array<std::uint8_t, g2_uncompressed_size> encode_uncompressed(const G2Affine& point);

/// Decodes either form (the length selects which; the compression flag must agree). On ok, out holds the
/// point (infinity as (0, 0)); on any other status out is unchanged.
DecodeStatus decode_point(std::span<const std::uint8_t> bytes, G1Affine& out,
                          SubgroupCheck subgroup = SubgroupCheck::check);
DecodeStatus decode_point(std::span<const std::uint8_t> bytes, G2Affine& out,
                          SubgroupCheck subgroup = SubgroupCheck::check);

}  // namespace proofline
