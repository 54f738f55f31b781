// Byte sizes as people write them: "64G", "512M", "1.5GiB", "4096".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace proofline {

inline constexpr std::uint64_t KiB = 1ull << 10;
inline constexpr std::uint64_t MiB = 1ull << 20;
inline constexpr std::uint64_t GiB = 1ull << 30;
inline constexpr std::uint64_t TiB = 1ull << 40;
inline constexpr std::uint64_t PiB = 1ull << 50;

/// Parses a size. Suffixes K, M, G, T, P (with optional "i" and "B", any case) are binary multiples; a bare
/// number is bytes. Throws proofline::Error(Errc::invalid_argument, "'TEXT' is not a size...") on anything
/// else, malformed numbers included.
std::uint64_t parse_size(std::string_view text);

/// Formats bytes for people: "1.50 GiB", "512 MiB", "17 B".
std::string format_size(std::uint64_t bytes);

}  // namespace proofline
