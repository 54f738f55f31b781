// Internal: reading field elements and curve points out of JSON values, shared by proofline's own JSON
// formats (point_json.cpp) and snarkjs's (snarkjs_json.cpp): one wording for every bad value.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/detail/point_checks.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline::groth16::detail {

/// Error(bad_input, "<context>: <what>").
[[noreturn]] inline void json_fail(std::string_view context, const std::string& what) {
  throw Error(Errc::bad_input, std::string(context) + ": " + what);
}

/// A number as JavaScript's BigInt reads snarkjs's strings: decimal, or hexadecimal after "0x". Empty when
/// the text is neither or the value is not below the field's modulus.
template <class Field>
std::optional<Field> field_from_number_text(std::string_view text) {
  if (!text.starts_with("0x") && !text.starts_with("0X")) return field_from_decimal<Field>(text);
  const auto number = text.size() > 2 ? parse_hex<Field::N>(text) : std::nullopt;
  if (!number || !Field::is_canonical(*number)) return std::nullopt;
  return Field::from_canonical(*number);
}

/// Why `text`, which field_from_number_text refused, is no element of the field named `field_name`: its
/// spelling ("7.5", "+7", "1e3") or its size.
inline std::string number_text_problem(std::string_view text, const char* field_name) {
  const bool hex = text.starts_with("0x") || text.starts_with("0X");
  const std::string_view digits = hex ? text.substr(2) : text;
  const bool spelled = !digits.empty() && std::ranges::all_of(digits, [hex](char c) {
    return (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
  });
  return quote_for_message(text, 100) +
         (spelled
              ? std::string(" is not below the ") + field_name + " modulus"
              : std::string(" is not an integer in decimal digits, or hexadecimal after 0x (an element of ") +
                    field_name + ")");
}

/// A decimal or 0x string below the field's modulus (`field_name` names the field in the message).
template <class Field>
Field field_from_json(const json::Value& value, std::string_view context, const char* field_name) {
  if (!value.is_string())
    json_fail(context, std::string("expected a decimal string (an element of ") + field_name + ")");
  const auto element = field_from_number_text<Field>(value.as_string());
  if (!element) json_fail(context, number_text_problem(value.as_string(), field_name));
  return *element;
}

/// Refuses a point (not infinity) off the curve or outside the prime-order subgroup.
template <class Affine>
void check_group_element(const Affine& point, std::string_view context) {
  if (point.is_infinity()) return;
  if (!on_curve(point)) json_fail(context, "the point is not on the curve");
  if (!in_subgroup(point)) json_fail(context, "the point is not in the prime-order subgroup");
}

}  // namespace proofline::groth16::detail
