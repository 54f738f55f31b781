// libFuzzer target: the readers of option values (util/options.hpp, util/size.hpp, the listen address of
// util/http_server.hpp) and the quoting of input into messages (util/text.hpp) on arbitrary text. Each value
// must parse to something within its bounds or throw OptionError (or Error for parse_size), whose message is
// one printable line; quoted text must come out printable, single-line, valid UTF-8 and cut to its bound.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <proofline/util/error.hpp>
#include <proofline/util/http_server.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/size.hpp>
#include <proofline/util/text.hpp>

namespace {

/// One printable line of valid UTF-8: no C0 or C1 control, no DEL.
bool printable(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = proofline::utf8_sequence_length(text, i);
    if (length == 0) return false;
    if (c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) return false;  // C1 controls
    i += length;
  }
  return true;
}

void check_message(const proofline::Error& e) {
  if (!printable(e.what())) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proofline;
  if (size == 0) return 0;
  // The first byte picks the bounds (and the quoting's cut); the rest is the value.
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::uint64_t max = data[0] < 128 ? ~std::uint64_t{0} : std::uint64_t{1} << (data[0] & 63);
  const std::uint64_t min = (data[0] & 64) != 0 ? 1 : 0;

  const std::string quoted = quote_for_message(text, data[0], (data[0] & 1) != 0 ? '\'' : '"');
  if (!printable(quoted) || quoted.size() > 6 * std::size_t{data[0]} + 64) __builtin_trap();
  if (!printable(printable_line(text))) __builtin_trap();

  try {
    const std::uint64_t bytes = parse_size(text);
    // A bare byte count that a double holds exactly is that count.
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos &&
        text.size() <= 15 && bytes != std::stoull(std::string(text)))
      __builtin_trap();
    if (bytes >= 10 * KiB && format_size(bytes).empty()) __builtin_trap();
  } catch (const Error& e) {
    check_message(e);
  }
  try {
    const std::uint64_t bytes = parse_size_option("--size", text, {min, max});
    if (bytes < min || bytes > max) __builtin_trap();
  } catch (const OptionError& e) {
    check_message(e);
  }
  try {
    const std::uint64_t n = parse_unsigned_option("--count", text, {min, max});
    // The digits given, leading zeros aside ("096" is 96).
    const std::size_t first = std::min(text.find_first_not_of('0'), text.size() - 1);
    if (n < min || n > max || std::to_string(n) != text.substr(first)) __builtin_trap();
  } catch (const OptionError& e) {
    check_message(e);
  }
  try {
    const std::int64_t n = parse_signed_option("--offset", text, {-static_cast<std::int64_t>(data[0]), 1000});
    if (n < -static_cast<std::int64_t>(data[0]) || n > 1000) __builtin_trap();
  } catch (const OptionError& e) {
    check_message(e);
  }
  try {
    const double x = parse_real_option("--fraction", text, {0.0, static_cast<double>(data[0])});
    if (!std::isfinite(x) || x < 0 || x > data[0]) __builtin_trap();
  } catch (const OptionError& e) {
    check_message(e);
  }
  try {
    const auto items = split_option_list("--list", text);
    std::size_t total = items.size() - 1;  // the commas
    for (const std::string_view item : items) {
      if (item.empty() || item.find(',') != std::string_view::npos) __builtin_trap();
      total += item.size();
    }
    if (total != text.size()) __builtin_trap();
  } catch (const OptionError& e) {
    check_message(e);
  }
  try {
    const auto [host, port] = split_listen_address("--listen", text);
    if (port.empty() || port.find(':') != std::string::npos || host.size() + port.size() + 1 > text.size())
      __builtin_trap();
  } catch (const OptionError& e) {
    check_message(e);
  }
  return 0;
}
