#include <proofline/util/text.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace proofline {

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return length;
}

namespace {

/// The code point of the valid UTF-8 sequence of `length` bytes at text[i].
std::uint32_t decode_utf8(std::string_view text, std::size_t i, std::size_t length) noexcept {
  const auto byte = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(text[k]));
  };
  std::uint32_t code = byte(i) & (0x7Fu >> length);
  for (std::size_t k = 1; k < length; ++k) code = (code << 6) | (byte(i + k) & 0x3F);
  return code;
}

/// Code points a terminal acts on or shows as nothing: C1 controls (U+009B is CSI on some terminals), the
/// zero-width spaces, joiners and direction marks, the bidirectional embeddings, overrides and isolates, the
/// line and paragraph separators, and the byte-order mark (U+FEFF), which a message would otherwise quote as
/// an empty-looking string.
bool is_invisible_control(std::uint32_t code) noexcept {
  return (code >= 0x80 && code <= 0x9F) || (code >= 0x200B && code <= 0x200F) ||
         (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069) || code == 0x2028 ||
         code == 0x2029 || code == 0xFEFF;
}

/// One ASCII byte as JSON.stringify writes it: ", \ and control characters (and DEL) escaped.
void append_escaped_ascii(std::string& out, unsigned char c) {
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      if (c < 0x20 || c == 0x7F) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
        out += buffer;
      } else {
        out.push_back(static_cast<char>(c));
      }
  }
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out.push_back('"');
  for_each_utf8(
      text, [&](unsigned char c) { append_escaped_ascii(out, c); },
      [&](std::string_view sequence) { out.append(sequence); }, [&](unsigned char) { out += "\\ufffd"; });
  out.push_back('"');
}

namespace {

/// Appends at most `max_bytes` of `text` (cut at a character boundary) with every control character, the
/// invisible reordering ones and bytes that are not UTF-8 escaped; with a `quote` character, that character
/// and the backslash are escaped too. Returns how many bytes of `text` it took.
std::size_t append_printable(std::string& out, std::string_view text, std::size_t max_bytes, char quote) {
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const std::size_t length = c < 0x80 ? 1 : utf8_sequence_length(text, i);
    if (i + std::max<std::size_t>(length, 1) > max_bytes) break;
    char buffer[16];
    if (length == 0) {
      std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned>(c));
      out += buffer;
      ++i;
    } else if (length == 1) {
      if (quote != 0 && (c == static_cast<unsigned char>(quote) || c == '\\')) {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20 || c == 0x7F) {
        append_escaped_ascii(out, c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
    } else if (const std::uint32_t code = decode_utf8(text, i, length); is_invisible_control(code)) {
      std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(code));
      out += buffer;
      i += length;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return i;
}

}  // namespace

std::string quote_for_message(std::string_view text, std::size_t max_bytes, char quote) {
  std::string out(1, quote);
  const std::size_t taken = append_printable(out, text, max_bytes, quote);
  out += quote;
  if (taken < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string printable_line(std::string_view text) {
  std::string out;
  append_printable(out, text, text.size(), 0);
  return out;
}

}  // namespace proofline
