// Internal: UTF-8 validation shared by the JSON and SVG writers, which must emit valid text whatever a track
// or stage was named.
#pragma once

#include <cstddef>
#include <string_view>

namespace proofline::trace::detail {

/// Length (2 to 4) of the valid multi-byte UTF-8 sequence starting at text[i], or 0 if there is none there
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). Call it for bytes >= 0x80.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept;

}  // namespace proofline::trace::detail
