// Input JSON as snarkjs and circom read it, for proofline's circom witness shims (witness_shim.cpp for circom
// --c output, wasm_shim.cpp for --wasm output): parsed, checked for nesting, and flattened to circom's
// qualified signal names ("a.b[2]"), each value's digits read as JavaScript's BigInt reads them. Each shim
// reduces the digits modulo its circuit's prime its own way. Header-only, included by the shims only.
#pragma once

#include <cctype>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace proofline_shim {

using json = nlohmann::json;

/// An input value's digits ('-' first for a negative decimal) and their base (2, 8, 10 or 16).
struct Number {
  std::string digits;
  unsigned base = 10;
};

/// The bytes of qualified names allowed per byte of input JSON, and max_names_slack more. Each name repeats
/// the names of the objects and arrays around it, so a long key over many fields ({"<1 MB>": {"a": 0, ...}})
/// would otherwise make names quadratic in the input's size: gigabytes from a request body of a megabyte.
/// Every name qualify makes counts, the prefixes on the way to a value included.
constexpr std::size_t max_names_per_input_byte = 32;
constexpr std::size_t max_names_slack = std::size_t{64} << 10;

/// `name`, its bytes taken from `room`.
inline std::string charged(std::string name, std::size_t& room) {
  if (name.size() > room)
    throw std::runtime_error("the input's qualified signal names (\"a.b[2]\") would take more than " +
                             std::to_string(max_names_per_input_byte) +
                             " bytes per byte of input (a long key over many fields?)");
  room -= name.size();
  return name;
}

/// "a.b[2]" style names for every leaf of the input object, as circom's own main.cpp qualifies them, within
/// `room` bytes of names.
inline void qualify(const std::string& prefix, const json& in, json& out, std::size_t& room);

/// What an array holds at its leaves: signal values (numbers, strings, booleans, whatever element_of then
/// judges), objects (a list of buses, qualified element by element), or nothing (empty arrays, which add no
/// value, as snarkjs flattens them).
enum class Leaves { none, values, objects };

inline Leaves leaves_of(const std::string& prefix, const json& in) {
  if (!in.is_array()) return in.is_object() ? Leaves::objects : Leaves::values;
  Leaves kind = Leaves::none;
  for (const json& item : in) {
    const Leaves k = leaves_of(prefix, item);
    if (k == Leaves::none || k == kind) continue;
    if (kind != Leaves::none)
      throw std::runtime_error("signal \"" + prefix + "\": the array mixes objects and values");
    kind = k;
  }
  return kind;
}

inline void qualify_list(const std::string& prefix, const json& in, json& out, std::size_t& room) {
  if (!in.is_array()) return qualify(prefix, in, out, room);
  for (std::size_t i = 0; i < in.size(); ++i)
    qualify_list(charged(prefix + "[" + std::to_string(i) + "]", room), in[i], out, room);
}

inline void qualify(const std::string& prefix, const json& in, json& out, std::size_t& room) {
  if (in.is_array() && leaves_of(prefix, in) == Leaves::objects) return qualify_list(prefix, in, out, room);
  // An empty object names no field: snarkjs reads it as a value (and refuses it), so it is kept as one.
  if (!in.is_object() || (in.empty() && !prefix.empty())) {
    out[prefix] = in;
    return;
  }
  for (auto it = in.begin(); it != in.end(); ++it)
    qualify(charged(prefix.empty() ? it.key() : prefix + "." + it.key(), room), it.value(), out, room);
}

inline bool valid_digits(const std::string& s, unsigned base) {
  if (s.empty()) return false;
  for (const char c : s) {
    const bool ok =
        base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : c >= '0' && c < char('0' + base);
    if (!ok) return false;
  }
  return true;
}

/// `text` without the white space JavaScript trims from a string it converts to a number: ASCII blanks and
/// line ends, no-break space, the byte-order mark, the line and paragraph separators and Unicode's other
/// space separators (UTF-8).
inline std::string without_js_white_space(const std::string& text) {
  static const char* const wide[] = {"\xC2\xA0",     "\xEF\xBB\xBF", "\xE1\x9A\x80", "\xE2\x80\xA8",
                                     "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80"};
  const auto blank_at = [&](std::size_t i, bool from_end) -> std::size_t {  // its length, 0 if none
    const unsigned char c = static_cast<unsigned char>(from_end ? text[i - 1] : text[i]);
    if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
    const std::size_t room = from_end ? i : text.size() - i;
    for (const char* w : wide) {
      const std::size_t n = std::strlen(w);
      if (n <= room && text.compare(from_end ? i - n : i, n, w) == 0) return n;
    }
    // U+2000..U+200A: E2 80 80..8A
    if (room >= 3) {
      const std::size_t at = from_end ? i - 3 : i;
      if (text.compare(at, 2, "\xE2\x80") == 0 && static_cast<unsigned char>(text[at + 2]) >= 0x80 &&
          static_cast<unsigned char>(text[at + 2]) <= 0x8A)
        return 3;
    }
    return 0;
  };
  std::size_t begin = 0, end = text.size(), n = 0;
  while (begin < end && (n = blank_at(begin, false)) != 0) begin += n;
  while (end > begin && (n = blank_at(end, true)) != 0) end -= n;
  return text.substr(begin, end - begin);
}

/// One input value as snarkjs reads it (JavaScript's BigInt(value), then reduced modulo the prime, a negative
/// number to p - |v|): a string of decimal digits with an optional sign, or of 0x, 0o, 0b digits without
/// one, white space around it ignored and an empty string 0; a JSON number taken through a double (integers
/// beyond 2^53 are rounded alike: write those as strings) and refused when it has a fraction; true and false
/// as 1 and 0. circom's own main.cpp reads the same numbers and prefixed strings. The digits (with a leading
/// '-' for a negative decimal) in `base`, for the caller to reduce modulo its prime.
inline Number number_of(const std::string& name, const json& value) {
  std::string digits;
  unsigned base = 10;
  if (value.is_string()) {
    const std::string text = without_js_white_space(value.get<std::string>());
    const std::string prefix = text.substr(0, 2);
    base = prefix == "0x" || prefix == "0X"   ? 16
           : prefix == "0o" || prefix == "0O" ? 8
           : prefix == "0b" || prefix == "0B" ? 2
                                              : 10;
    digits = base == 10 ? text : text.substr(2);
    const bool negative = base == 10 && !digits.empty() && digits[0] == '-';
    if (base == 10 && !digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.erase(0, 1);
    if (text.empty()) digits = "0";
    if (!valid_digits(digits, base))
      throw std::runtime_error("signal \"" + name + "\": invalid number " + value.dump());
    if (negative) digits.insert(0, "-");  // the caller's reduction makes it p - |v|
  } else if (value.is_boolean()) {
    digits = value.get<bool>() ? "1" : "0";
  } else if (value.is_number()) {
    const double number = value.get<double>();
    if (!std::isfinite(number) || number != std::floor(number))
      throw std::runtime_error("signal \"" + name + "\": " + value.dump() +
                               " is not an integer (circom's inputs are field elements)");
    std::ostringstream text;
    text << std::fixed << std::setprecision(0) << number;
    digits = text.str();
  } else {
    throw std::runtime_error("signal \"" + name +
                             "\": expected a number, a string of digits or a boolean, got " + value.dump());
  }
  return {digits, base};
}

/// Input nested deeper than any circuit's signals (as proofline's other JSON readers allow) is refused before
/// it is parsed: the recursive walks over it (and nlohmann's copies) would run out of stack first.
constexpr int max_input_depth = 128;

inline void check_nesting(const char* text, std::size_t size) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == '{') && ++depth > max_input_depth) {
      throw std::runtime_error("the input nests arrays or objects deeper than " +
                               std::to_string(max_input_depth) + " levels");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

/// The input JSON: its object of signal names, and that object flattened to circom's qualified names
/// ("a.b[2]").
struct InputJson {
  json object;
  json flat;
};

/// Values an input may hold beyond what main takes: enough that a wrong count is named signal by signal
/// (input_problems), few enough that their parse takes megabytes, not the ~100 bytes a value that a body of
/// zeros would otherwise cost for each of its two bytes.
constexpr std::size_t max_extra_values = std::size_t{1} << 16;

/// The input JSON of a circuit whose main takes `main_values` values, parsed and flattened.
inline InputJson parse_input(const char* text, std::size_t size, std::size_t main_values) {
  // The parser takes a NUL for the end of its input, so what follows one would be ignored.
  if (const void* nul = std::memchr(text, 0, size))
    throw std::runtime_error("not JSON: a NUL byte at offset " +
                             std::to_string(static_cast<const char*>(nul) - text) +
                             " (a binary file, or text in UTF-16?)");
  check_nesting(text, size);
  InputJson parsed;
  json& input = parsed.object;
  try {
    const std::size_t max_values = main_values + max_extra_values;
    std::size_t values = 0;
    input = json::parse(text, text + size, [&](int, json::parse_event_t event, json&) {
      if (event == json::parse_event_t::value && ++values > max_values)
        throw std::runtime_error("the input has more than " + std::to_string(max_values) +
                                 " values; main takes " + std::to_string(main_values));
      return true;
    });
  } catch (const json::parse_error& e) {
    throw std::runtime_error(std::string("not JSON: ") + e.what());
  } catch (const json::out_of_range& e) {
    // A number beyond a double's range (1e400): JSON.parse reads it as Infinity, which BigInt refuses.
    throw std::runtime_error(std::string("a JSON number beyond a double's range (JavaScript reads it as "
                                         "Infinity, which is no field element; write the value as a "
                                         "string of digits): ") +
                             e.what());
  }
  if (!input.is_object()) throw std::runtime_error("the input must be a JSON object of signal names");
  parsed.flat = json::object();
  std::size_t room = max_names_per_input_byte * size + max_names_slack;
  qualify("", input, parsed.flat, room);
  return parsed;
}

/// Every value of `value` (a number, or arrays of them, flattened in order) as number_of reads it.
inline void flatten_numbers(const std::string& name, const json& value, std::vector<Number>& out) {
  if (!value.is_array()) return out.push_back(number_of(name, value));
  for (const json& item : value) flatten_numbers(name, item, out);
}

}  // namespace proofline_shim
