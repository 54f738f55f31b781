#include <proofline/groth16/json.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <unordered_set>

#include <proofline/groth16/detail/input_file.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline::groth16::json {

namespace {

constexpr int max_depth = 128;

bool is_digit(char ch) {
  return ch >= '0' && ch <= '9';
}

/// Length of the JSON number at the start of text, 0 if there is none.
std::size_t number_length(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') ++i;
  if (i >= text.size() || !is_digit(text[i])) return 0;
  if (text[i] == '0') {
    ++i;
  } else {
    while (i < text.size() && is_digit(text[i])) ++i;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (i >= text.size() || !is_digit(text[i])) return 0;
    while (i < text.size() && is_digit(text[i])) ++i;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (i >= text.size() || !is_digit(text[i])) return 0;
    while (i < text.size() && is_digit(text[i])) ++i;
  }
  return i;
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xc0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xe0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  }
}

/// The members of an object being parsed, with a hash set of their keys, so that refusing a duplicate key
/// costs O(1) per key instead of a scan of the members before it. The set holds indices into the members;
/// hashing goes through the vector, so it stays valid when the vector grows.
class ObjectBuilder {
 public:
  ObjectBuilder() : keys_(0, KeyHash{&members_}, KeyEqual{&members_}) {}
  ObjectBuilder(const ObjectBuilder&) = delete;
  ObjectBuilder& operator=(const ObjectBuilder&) = delete;

  /// Adds a member with a null value; false (and nothing added) when the key is already there.
  bool add(std::string key) {
    members_.emplace_back(std::move(key), Value());
    if (keys_.insert(members_.size() - 1).second) return true;
    members_.pop_back();
    return false;
  }
  Value& last_value() { return members_.back().second; }
  Value take() { return Value::object(std::move(members_)); }

 private:
  using Members = std::vector<Value::Member>;
  struct KeyHash {
    const Members* members;
    std::size_t operator()(std::size_t i) const noexcept {
      return std::hash<std::string_view>{}((*members)[i].first);
    }
  };
  struct KeyEqual {
    const Members* members;
    bool operator()(std::size_t a, std::size_t b) const noexcept {
      return (*members)[a].first == (*members)[b].first;
    }
  };

  Members members_;
  std::unordered_set<std::size_t, KeyHash, KeyEqual> keys_;
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view context) : text_(text), context_(context) {}

  Value parse_document() {
    skip_space();
    Value value = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw Error(Errc::bad_input, std::string(context_) + ": line " + std::to_string(line) + ", column " +
                                     std::to_string(column) + ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool consume(char ch) {
    if (pos_ < text_.size() && text_[pos_] == ch) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail("invalid literal");
    pos_ += word.size();
  }

  Value parse_value(int depth) {
    if (depth > max_depth) fail("nesting deeper than " + std::to_string(max_depth) + " levels");
    if (pos_ >= text_.size()) fail("unexpected end of input");
    const char ch = text_[pos_];
    switch (ch) {
      case '{':
        return parse_object(depth);
      case '[':
        return parse_array(depth);
      case '"':
        return Value(parse_string());
      case 't':
        expect_word("true");
        return Value(true);
      case 'f':
        expect_word("false");
        return Value(false);
      case 'n':
        expect_word("null");
        return Value();
      default: {
        const std::size_t length = number_length(text_.substr(pos_));
        if (length == 0) fail("unexpected character " + quoted_character(pos_));
        Value value = Value::number(text_.substr(pos_, length));
        pos_ += length;
        return value;
      }
    }
  }

  Value parse_array(int depth) {
    ++pos_;  // '['
    Value out = Value::array();
    skip_space();
    if (consume(']')) return out;
    for (;;) {
      skip_space();
      out.push_back(parse_value(depth + 1));
      skip_space();
      if (consume(']')) return out;
      if (!consume(',')) fail("expected ',' or ']' in an array");
    }
  }

  Value parse_object(int depth) {
    ++pos_;  // '{'
    ObjectBuilder out;
    skip_space();
    if (consume('}')) return out.take();
    for (;;) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string key in an object");
      const std::size_t key_pos = pos_;
      std::string key = parse_string();
      if (!out.add(key)) {
        pos_ = key_pos;
        fail("duplicate key " + quote_for_message(key));
      }
      skip_space();
      if (!consume(':')) fail("expected ':' after an object key");
      skip_space();
      out.last_value() = parse_value(depth + 1);
      skip_space();
      if (consume('}')) return out.take();
      if (!consume(',')) fail("expected ',' or '}' in an object");
    }
  }

  /// The character at `at` (a whole UTF-8 sequence when there is one), quoted for a message.
  std::string quoted_character(std::size_t at) const {
    const auto c = static_cast<unsigned char>(text_[at]);
    const std::size_t length = c < 0x80 ? 1 : std::max<std::size_t>(1, utf8_sequence_length(text_, at));
    return quote_for_message(text_.substr(at, length));
  }

  std::uint32_t parse_hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    std::uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const char ch = text_[pos_++];
      code <<= 4;
      if (ch >= '0' && ch <= '9') {
        code |= static_cast<std::uint32_t>(ch - '0');
      } else if (ch >= 'a' && ch <= 'f') {
        code |= static_cast<std::uint32_t>(ch - 'a' + 10);
      } else if (ch >= 'A' && ch <= 'F') {
        code |= static_cast<std::uint32_t>(ch - 'A' + 10);
      } else {
        fail("bad hex digit in a \\u escape");
      }
    }
    return code;
  }

  std::string parse_string() {
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char ch = text_[pos_++];
      if (ch == '"') return out;
      if (static_cast<unsigned char>(ch) < 0x20) fail("control character in a string");
      if (ch != '\\') {
        out += ch;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char esc = text_[pos_++];
      switch (esc) {
        case '"':
        case '\\':
        case '/':
          out += esc;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t code = parse_hex4();
          if (code >= 0xd800 && code < 0xdc00) {
            if (!(consume('\\') && consume('u'))) fail("unpaired surrogate in a \\u escape");
            const std::uint32_t low = parse_hex4();
            if (low < 0xdc00 || low >= 0xe000) fail("unpaired surrogate in a \\u escape");
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          } else if (code >= 0xdc00 && code < 0xe000) {
            fail("unpaired surrogate in a \\u escape");
          }
          append_utf8(out, code);
          break;
        }
        default:
          --pos_;
          fail("unknown escape: a backslash before " + quoted_character(pos_));
      }
    }
  }

  std::string_view text_;
  std::string_view context_;
  std::size_t pos_ = 0;
};

void newline(std::string& out, int indent, int level) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(indent) * static_cast<std::size_t>(level), ' ');
}

void dump_value(std::string& out, const Value& value, int indent, int level) {
  switch (value.type()) {
    case Value::Type::null:
      out += "null";
      return;
    case Value::Type::boolean:
      out += value.as_bool() ? "true" : "false";
      return;
    case Value::Type::number:
      out += value.number_text();
      return;
    case Value::Type::string:
      append_quoted(out, value.as_string());
      return;
    case Value::Type::array: {
      const auto& items = value.as_array();
      if (items.empty()) {
        out += "[]";
        return;
      }
      // Arrays of scalars (coordinates, public inputs) stay on one line: that is how snarkjs's files look.
      bool flat = true;
      for (const auto& item : items) flat = flat && !item.is_array() && !item.is_object();
      out += '[';
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += ',';
        if (flat) {
          if (i && indent >= 0) out += ' ';
        } else {
          newline(out, indent, level + 1);
        }
        dump_value(out, items[i], indent, level + 1);
      }
      if (!flat) newline(out, indent, level);
      out += ']';
      return;
    }
    case Value::Type::object: {
      const auto& members = value.as_object();
      if (members.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (i) out += ',';
        newline(out, indent, level + 1);
        append_quoted(out, members[i].first);
        out += indent < 0 ? ":" : ": ";
        dump_value(out, members[i].second, indent, level + 1);
      }
      newline(out, indent, level);
      out += '}';
      return;
    }
  }
}

}  // namespace

Value Value::number(std::string_view text) {
  if (text.empty() || number_length(text) != text.size())
    throw Error(Errc::invalid_argument, "json: " + quote_for_message(text) + " is not a JSON number");
  Value out;
  out.type_ = Type::number;
  out.text_ = std::string(text);
  return out;
}

Value Value::array(std::vector<Value> items) {
  Value out;
  out.type_ = Type::array;
  out.items_ = std::move(items);
  return out;
}

Value Value::object(std::vector<Member> members) {
  Value out;
  out.type_ = Type::object;
  out.members_ = std::move(members);
  return out;
}

const char* Value::type_name(Type type) noexcept {
  switch (type) {
    case Type::null:
      return "null";
    case Type::boolean:
      return "a boolean";
    case Type::number:
      return "a number";
    case Type::string:
      return "a string";
    case Type::array:
      return "an array";
    case Type::object:
      return "an object";
  }
  return "?";
}

void Value::type_error(Type expected) const {
  throw Error(Errc::bad_input,
              std::string("json: expected ") + type_name(expected) + ", found " + type_name(type_));
}

bool Value::as_bool() const {
  if (type_ != Type::boolean) type_error(Type::boolean);
  return bool_;
}
const std::string& Value::as_string() const {
  if (type_ != Type::string) type_error(Type::string);
  return text_;
}
const std::string& Value::number_text() const {
  if (type_ != Type::number) type_error(Type::number);
  return text_;
}
std::uint64_t Value::as_u64() const {
  if (type_ != Type::number) type_error(Type::number);
  std::uint64_t value = 0;
  for (const char ch : text_) {
    if (!is_digit(ch))
      throw Error(Errc::bad_input, "json: " + quote_for_message(text_) + " is not a non-negative integer");
    const std::uint64_t digit = static_cast<std::uint64_t>(ch - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
      throw Error(Errc::bad_input, "json: " + quote_for_message(text_) + " does not fit 64 bits");
    value = value * 10 + digit;
  }
  return value;
}
const std::vector<Value>& Value::as_array() const {
  if (type_ != Type::array) type_error(Type::array);
  return items_;
}
const std::vector<Value::Member>& Value::as_object() const {
  if (type_ != Type::object) type_error(Type::object);
  return members_;
}

const Value& Value::at(std::size_t index) const {
  const auto& items = as_array();
  if (index >= items.size())
    throw Error(Errc::bad_input, "json: index " + std::to_string(index) + " is past the end of an array of " +
                                     std::to_string(items.size()));
  return items[index];
}

std::size_t Value::size() const {
  if (type_ == Type::array) return items_.size();
  if (type_ == Type::object) return members_.size();
  type_error(Type::array);
}

const Value* Value::find(std::string_view key) const {
  for (const auto& [name, item] : as_object())
    if (name == key) return &item;
  return nullptr;
}

const Value& Value::at(std::string_view key) const {
  const Value* item = find(key);
  if (item == nullptr) throw Error(Errc::bad_input, "json: missing member " + quote_for_message(key));
  return *item;
}

Value& Value::push_back(Value item) {
  if (type_ != Type::array)
    throw Error(Errc::invalid_argument, "json: push_back on a value that is not an array");
  items_.push_back(std::move(item));
  return items_.back();
}

Value& Value::set(std::string key, Value item) {
  if (type_ != Type::object)
    throw Error(Errc::invalid_argument, "json: set on a value that is not an object");
  for (auto& [name, existing] : members_) {
    if (name == key) {
      existing = std::move(item);
      return existing;
    }
  }
  members_.emplace_back(std::move(key), std::move(item));
  return members_.back().second;
}

void append_quoted(std::string& out, std::string_view text) {
  append_json_string(out, text);
}

std::string dump(const Value& value, int indent) {
  std::string out;
  dump_value(out, value, indent, 0);
  return out;
}

Value parse(std::string_view text, std::string_view context) {
  return Parser(text, context).parse_document();
}

std::string read_text_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                           std::string_view kind) {
  const std::string name = path.string();
  // Opened before anything else is asked of the path: a FIFO, directory or device is refused at once, and
  // the size checked is the size of the file that is read.
  const detail::InputFile file = detail::open_input_file(path, "");
  if (file.size > max_bytes)
    throw Error(Errc::bad_input,
                name + ": " + std::to_string(file.size) + " bytes is too large for " + std::string(kind));
  std::string text(static_cast<std::size_t>(file.size), '\0');
  detail::read_exactly(file.fd.get(), reinterpret_cast<std::byte*>(text.data()), file.size, 0, name);
  return text;
}

}  // namespace proofline::groth16::json
