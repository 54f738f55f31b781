#include <proofline/util/size.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include <proofline/util/error.hpp>

namespace proofline {

namespace {

[[noreturn]] void bad_size(std::string_view text, const char* why) {
  throw Error(Errc::invalid_argument, "invalid size '" + std::string(text) + "': " + why);
}

}  // namespace

std::uint64_t parse_size(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.'))
    ++pos;
  if (pos == 0) bad_size(text, "expected a number such as 64G, 512M or 4096");
  const std::string number(text.substr(0, pos));
  if (number.find('.') != number.rfind('.')) bad_size(text, "more than one decimal point");
  const double value = std::stod(number);

  std::string unit;
  for (char ch : text.substr(pos))
    unit.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  std::uint64_t multiplier = 0;
  if (unit.empty() || unit == "B")
    multiplier = 1;
  else if (unit == "K" || unit == "KB" || unit == "KIB")
    multiplier = KiB;
  else if (unit == "M" || unit == "MB" || unit == "MIB")
    multiplier = MiB;
  else if (unit == "G" || unit == "GB" || unit == "GIB")
    multiplier = GiB;
  else if (unit == "T" || unit == "TB" || unit == "TIB")
    multiplier = GiB * 1024;
  else
    bad_size(text, "unknown unit (use K, M, G or T)");

  const double bytes = std::round(value * static_cast<double>(multiplier));
  if (!(bytes < 18446744073709551615.0)) bad_size(text, "too large");
  if (multiplier == 1 && number.find('.') != std::string::npos) bad_size(text, "a byte count must be whole");
  return static_cast<std::uint64_t>(bytes);
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < KiB) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f %s", value, units[unit]);
  return buffer;
}

}  // namespace proofline
