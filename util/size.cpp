#include <proofline/util/size.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline {

namespace {

[[noreturn]] void not_a_size(std::string_view text, const std::string& why) {
  throw Error(Errc::invalid_argument, quote_for_message(text, 80, '\'') + " is not a size" + why);
}

/// K, M, G, T, P with optional "i" and "B", any case; "" and "B" are bytes. 0 for anything else.
std::uint64_t unit_multiplier(std::string_view suffix) {
  std::string unit;
  for (const char ch : suffix)
    unit.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  if (unit.empty() || unit == "B") return 1;
  if (unit.size() == 3 && unit[1] == 'I' && unit[2] == 'B') unit.resize(1);
  if (unit.size() == 2 && unit[1] == 'B') unit.resize(1);
  if (unit.size() != 1) return 0;
  switch (unit[0]) {
    case 'K':
      return KiB;
    case 'M':
      return MiB;
    case 'G':
      return GiB;
    case 'T':
      return TiB;
    case 'P':
      return PiB;
    default:
      return 0;
  }
}

}  // namespace

std::uint64_t parse_size(std::string_view text) {
  std::size_t digits = 0;
  std::size_t pos = 0;
  for (; pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.');
       ++pos)
    digits += text[pos] != '.';
  const std::string_view number = text.substr(0, pos);
  if (digits == 0) not_a_size(text, " (examples: 512M, 64G)");
  if (number.find('.') != number.rfind('.')) not_a_size(text, ": more than one decimal point");
  double value = 0;
  // Only digits and one point are left, so from_chars reads all of it; "1." and ".5" are fine.
  const auto [end, status] =
      std::from_chars(number.data(), number.data() + number.size(), value, std::chars_format::fixed);
  if (status == std::errc::result_out_of_range) not_a_size(text, ": too large");
  if (status != std::errc() || end != number.data() + number.size())
    not_a_size(text, " (examples: 512M, 64G)");

  const std::uint64_t multiplier = unit_multiplier(text.substr(pos));
  if (multiplier == 0)
    // The unit is the user's text too: escaped and cut, so that the message stays one printable line.
    not_a_size(text,
               ": unknown unit " + quote_for_message(text.substr(pos), 20, '\'') + " (use K, M, G, T or P)");
  const double bytes = std::round(value * static_cast<double>(multiplier));
  if (!(bytes < 18446744073709551615.0)) not_a_size(text, ": too large");
  if (multiplier == 1 && number.find('.') != std::string_view::npos)
    not_a_size(text, ": a byte count must be whole");
  return static_cast<std::uint64_t>(bytes);
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < KiB) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f %s", value, units[unit]);
  return buffer;
}

}  // namespace proofline
