// The few pieces of JSON text the trace exports and the run report need.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace proofline::trace {

/// `text` as a JSON string literal, quotes included: ", \ and control characters escaped; bytes that are not
/// valid UTF-8 become U+FFFD, so the output is valid JSON whatever the input.
std::string json_quote(std::string_view text);

/// Nanoseconds as microseconds with exactly three decimals ("-12.345"), computed in integers: no rounding.
std::string ns_as_us(std::int64_t ns);

/// A finite double in the shortest form that reads back exactly; "null" for NaN and infinities.
std::string json_number(double value);

}  // namespace proofline::trace
