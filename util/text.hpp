// Text helpers shared by the writers of JSON and SVG (trace exports, snarkjs files): whatever bytes a name or
// string holds, the output stays valid UTF-8 and valid JSON. quote_for_message does the same for error and
// log messages that show a piece of their input.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace proofline {

/// Length (2 to 4) of the valid multi-byte UTF-8 sequence starting at text[i], or 0 if there is none there
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). Call it for bytes >= 0x80.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept;

/// Walks `text` one character at a time: `ascii(c)` for each byte below 0x80, `sequence(s)` for each valid
/// multi-byte UTF-8 sequence, `invalid(byte)` for each byte that starts none (the escapers of JSON, XML and
/// messages differ only in what they do with each).
template <class Ascii, class Sequence, class Invalid>
void for_each_utf8(std::string_view text, Ascii&& ascii, Sequence&& sequence, Invalid&& invalid) {
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ascii(c);
      ++i;
    } else if (const std::size_t length = utf8_sequence_length(text, i); length != 0) {
      sequence(text.substr(i, length));
      i += length;
    } else {
      invalid(c);
      ++i;
    }
  }
}

/// Appends `text` as a JSON string literal, quotes included: ", \ and control characters (and DEL) escaped;
/// bytes that are not valid UTF-8 become U+FFFD.
void append_json_string(std::string& out, std::string_view text);

/// `text` in double quotes for an error or log message, whatever it holds: at most `max_bytes` bytes of it,
/// cut at a character boundary and followed by `... (N bytes)` when longer, so a huge input cannot make a
/// huge message; ", \ and every control character (C0, DEL, C1, and the bidirectional overrides, which can
/// reorder or hide what a terminal shows) escaped as \n, \t, \u001b, \u202e...; bytes that are not valid
/// UTF-8 as \xNN. The result is printable, single-line and valid UTF-8. With `quote` = '\'' the text goes in
/// single quotes instead, and ' is what is escaped.
std::string quote_for_message(std::string_view text, std::size_t max_bytes = 80, char quote = '"');

/// A whole message made safe for one line of a terminal or log: control characters (C0, DEL, C1, the
/// bidirectional overrides) escaped as in quote_for_message, bytes that are not UTF-8 as \xNN; nothing cut,
/// quotes and backslashes left as they are (the quoted parts inside were escaped where they were made).
std::string printable_line(std::string_view text);

}  // namespace proofline
