// Test support: a strict JSON parser (RFC 8259), written independently of the library's writer, so that the
// trace tests can check both that the output is valid JSON and what it contains.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proofline::test {

struct JsonValue {
  enum class Type { null, boolean, number, string, array, object };
  Type type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string text;  ///< a string's decoded value, or a number's literal text
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  /// The member named `key` of an object, or nullptr.
  const JsonValue* find(std::string_view key) const;
  /// The member named `key`; throws std::runtime_error if it is missing.
  const JsonValue& at(std::string_view key) const;
};

/// Throws std::runtime_error naming the offset of the first error: bad syntax, an invalid escape or
/// surrogate, a raw control character or invalid UTF-8 in a string, a duplicate key, or trailing text.
JsonValue parse_json(std::string_view text);

}  // namespace proofline::test
