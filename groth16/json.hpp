// A small JSON document model, reader and writer for the proof and key formats (ours and snarkjs's). Numbers
// keep their source text, so big integers and exact decimals survive a round trip; snarkjs writes field
// elements as decimal strings anyway. Objects keep their members in insertion order and reject duplicate keys
// when parsed. Parsing untrusted text is safe: linear time (duplicate keys are found through a hash set, so
// an object of 100k keys takes milliseconds), bounded nesting depth, every error a clear Error(bad_input,
// "<context>: line L, column C: <what>") that quotes input only through quote_for_message (util/text.hpp:
// bounded, control characters escaped).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proofline::groth16::json {

class Value {
 public:
  enum class Type { null, boolean, number, string, array, object };
  using Member = std::pair<std::string, Value>;

  Value() = default;  ///< null
  Value(bool value) : type_(Type::boolean), bool_(value) {}
  Value(const char* text) : type_(Type::string), text_(text) {}
  Value(std::string text) : type_(Type::string), text_(std::move(text)) {}
  Value(std::string_view text) : type_(Type::string), text_(text) {}
  Value(std::uint64_t number) : type_(Type::number), text_(std::to_string(number)) {}
  Value(std::int64_t number) : type_(Type::number), text_(std::to_string(number)) {}
  Value(int number) : Value(static_cast<std::int64_t>(number)) {}
  Value(unsigned number) : Value(static_cast<std::uint64_t>(number)) {}

  /// A number from its JSON text (Error(invalid_argument) unless it is valid JSON number syntax).
  static Value number(std::string_view text);
  static Value array(std::vector<Value> items = {});
  static Value object(std::vector<Member> members = {});

  Type type() const noexcept { return type_; }
  bool is_null() const noexcept { return type_ == Type::null; }
  bool is_bool() const noexcept { return type_ == Type::boolean; }
  bool is_number() const noexcept { return type_ == Type::number; }
  bool is_string() const noexcept { return type_ == Type::string; }
  bool is_array() const noexcept { return type_ == Type::array; }
  bool is_object() const noexcept { return type_ == Type::object; }

  // Accessors throw Error(bad_input, "json: expected <type>, found <type>") on a type mismatch, so readers of
  // documents can use them directly and still fail cleanly.
  bool as_bool() const;
  const std::string& as_string() const;
  /// The number's source text.
  const std::string& number_text() const;
  /// A non-negative integer number (no fraction or exponent) that fits 64 bits.
  std::uint64_t as_u64() const;
  const std::vector<Value>& as_array() const;
  const std::vector<Member>& as_object() const;

  /// Array element (Error(bad_input) when out of range) and size of an array or object.
  const Value& at(std::size_t index) const;
  std::size_t size() const;
  /// Object member: nullptr / Error(bad_input, "json: missing member \"key\"") when absent.
  const Value* find(std::string_view key) const;
  const Value& at(std::string_view key) const;

  /// Appends to an array; sets (replaces or appends) an object member. Error(invalid_argument) on other
  /// types. set and find scan the members: meant for building and reading documents of a few known keys,
  /// not for inserting many keys one by one (parse does not use set).
  Value& push_back(Value item);
  Value& set(std::string key, Value item);

  friend bool operator==(const Value&, const Value&) = default;

 private:
  static const char* type_name(Type type) noexcept;
  [[noreturn]] void type_error(Type expected) const;

  Type type_ = Type::null;
  bool bool_ = false;
  std::string text_;  // string contents or number text
  std::vector<Value> items_;
  std::vector<Member> members_;
};

/// Serializes; indent < 0 writes everything on one line, otherwise nested values are indented by `indent`
/// spaces. Strings are written by append_quoted.
std::string dump(const Value& value, int indent = 2);

/// Appends `text` as a JSON string literal (append_json_string of util/text.hpp): escaped as JavaScript's
/// JSON.stringify does (\b \f \n \r \t, other control characters as \u00xx) and DEL as \u007f; valid UTF-8
/// passes through, other bytes >= 0x80 become U+FFFD, so the output is valid JSON whatever the input.
void append_quoted(std::string& out, std::string_view text);

/// Parses one JSON text (RFC 8259; surrounding whitespace allowed). `context` prefixes error messages (a file
/// name). Nesting deeper than 128 levels is rejected.
Value parse(std::string_view text, std::string_view context = "json");

/// The contents of a file (a JSON file's text, or any other bytes), read only when `path` names a regular
/// file (a FIFO, folder or device is Error(bad_input, "<path>: not a regular file (a FIFO)") at once, never
/// waited on) of at most `max_bytes` (else Error(bad_input, "<path>: N bytes is too large for <kind>")).
std::string read_text_file(const std::filesystem::path& path, std::uint64_t max_bytes, std::string_view kind);

}  // namespace proofline::groth16::json
