// Text helpers shared by the writers of JSON and SVG (trace exports, snarkjs files): whatever bytes a name or
// string holds, the output stays valid UTF-8 and valid JSON.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace proofline {

/// Length (2 to 4) of the valid multi-byte UTF-8 sequence starting at text[i], or 0 if there is none there
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). Call it for bytes >= 0x80.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept;

/// Appends `text` as a JSON string literal, quotes included: ", \ and control characters (and DEL) escaped;
/// bytes that are not valid UTF-8 become U+FFFD.
void append_json_string(std::string& out, std::string_view text);

}  // namespace proofline
