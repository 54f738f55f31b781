#include <proofline/trace/json_text.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>

#include <proofline/util/text.hpp>

namespace proofline::trace {

std::string json_quote(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

std::string ns_as_us(std::int64_t ns) {
  // Magnitude in unsigned arithmetic so that INT64_MIN does not overflow.
  const bool negative = ns < 0;
  const std::uint64_t magnitude =
      negative ? ~static_cast<std::uint64_t>(ns) + 1 : static_cast<std::uint64_t>(ns);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%s%llu.%03llu", negative ? "-" : "",
                static_cast<unsigned long long>(magnitude / 1000),
                static_cast<unsigned long long>(magnitude % 1000));
  return buffer;
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

}  // namespace proofline::trace
