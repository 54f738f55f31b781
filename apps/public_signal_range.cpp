#include "public_signal_range.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/util/error.hpp>

namespace proofline::apps {

namespace {

namespace json = groth16::json;

bool all_digits(std::string_view text, bool hex) {
  return !text.empty() && std::ranges::all_of(text, [hex](char c) {
    const auto ch = static_cast<unsigned char>(c);
    return (hex ? std::isxdigit(ch) : std::isdigit(ch)) != 0;
  });
}

/// How JavaScript's BigInt reads the text snarkjs is given, as far as the range check goes: an integer
/// (negative or not), or none (then snarkjs throws, and so does proofline's reader).
enum class Shape { none, non_negative, negative };

Shape shape_of(const json::Value& value) {
  if (!value.is_string() && !value.is_number()) return Shape::none;
  std::string_view text = value.is_string() ? value.as_string() : value.number_text();
  if (value.is_string() && (text.starts_with("0x") || text.starts_with("0X")))
    return all_digits(text.substr(2), true) ? Shape::non_negative : Shape::none;
  const bool minus = text.starts_with('-');
  if (minus) text.remove_prefix(1);
  if (!all_digits(text, false)) return Shape::none;
  if (!minus) return Shape::non_negative;
  // "-0" passes snarkjs's range check (BigInt reads 0) and proofline's reader refuses it: left to the reader.
  return text.find_first_not_of('0') != std::string_view::npos ? Shape::negative : Shape::none;
}

/// Whether proofline's reader (which refuses values not below r) takes the value.
template <class Fr>
bool readable(const json::Value& value) {
  try {
    groth16::snarkjs_public_from_json<Fr>(json::Value::array({value}), "");
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

json::Value numbers_as_javascript_reads(const json::Value& document) {
  if (!document.is_array()) return document;
  std::vector<json::Value> items;
  items.reserve(document.size());
  for (std::size_t i = 0; i < document.size(); ++i) {
    const json::Value& value = document.at(i);
    // strtod rounds as JavaScript does (to nearest); beyond a double's range it gives infinity, and 0 below.
    const double number = value.is_number() ? std::strtod(value.number_text().c_str(), nullptr) : 0.0;
    if (!value.is_number() || !std::isfinite(number) || number != std::floor(number)) {
      items.push_back(value);
      continue;
    }
    char digits[400];  // a double's integer in decimal, exactly: at most 309 digits and a sign
    std::snprintf(digits, sizeof digits, "%.0f", number == 0 ? 0.0 : number);  // -0 is 0
    items.emplace_back(std::string(digits));
  }
  return json::Value::array(std::move(items));
}

template <class Fr>
json::Value without_out_of_field(const json::Value& document, std::optional<OutOfFieldSignal>& first) {
  if (!document.is_array()) return document;
  std::vector<json::Value> items;
  items.reserve(document.size());
  for (std::size_t i = 0; i < document.size(); ++i) {
    const json::Value& value = document.at(i);
    const Shape shape = shape_of(value);
    if (shape == Shape::none || (shape == Shape::non_negative && readable<Fr>(value))) {
      items.push_back(value);
      continue;
    }
    if (!first)
      first = OutOfFieldSignal{i, value.is_string() ? value.as_string() : value.number_text(),
                               shape == Shape::negative};
    items.emplace_back("0");
  }
  return json::Value::array(std::move(items));
}

template json::Value without_out_of_field<Fr>(const json::Value&, std::optional<OutOfFieldSignal>&);
template json::Value without_out_of_field<bn254::Fr>(const json::Value&, std::optional<OutOfFieldSignal>&);

}  // namespace proofline::apps
