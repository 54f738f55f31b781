#include <proofline/groth16/point_json.hpp>

#include <string>

#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/detail/point_checks.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline::groth16 {

namespace {

[[noreturn]] void fail(std::string_view context, const std::string& what) {
  throw Error(Errc::bad_input, std::string(context) + ": " + what);
}

template <class Field>
Field field_from_json(const json::Value& value, std::string_view context, const char* field_name) {
  if (!value.is_string())
    fail(context, std::string("expected a decimal string for an element of ") + field_name);
  const auto element = field_from_decimal<Field>(value.as_string());
  if (!element)
    fail(context, quote_for_message(value.as_string(), 100) + " is not a decimal number below the " +
                      field_name + " modulus");
  return *element;
}

const json::Value& pair_item(const json::Value& value, std::size_t index, std::string_view context) {
  if (!value.is_array() || value.size() != 2) fail(context, "expected an array of two coordinates");
  return value.at(index);
}

template <class Affine>
Affine checked(const Affine& point, std::string_view context) {
  if (point.is_infinity()) return point;
  if (!point.is_on_curve()) fail(context, "the point is not on the curve");
  if (!is_in_subgroup(point)) fail(context, "the point is not in the prime-order subgroup");
  return point;
}

}  // namespace

json::Value to_json(const Fp& value) {
  return json::Value(field_to_decimal(value));
}
json::Value to_json(const Fr& value) {
  return json::Value(field_to_decimal(value));
}

json::Value to_json(const G1Affine& point) {
  return json::Value::array({to_json(point.x), to_json(point.y)});
}

json::Value to_json(const G2Affine& point) {
  return json::Value::array({json::Value::array({to_json(point.x.c0), to_json(point.x.c1)}),
                             json::Value::array({to_json(point.y.c0), to_json(point.y.c1)})});
}

Fp fp_from_json(const json::Value& value, std::string_view context) {
  return field_from_json<Fp>(value, context, "Fp");
}

Fr fr_from_json(const json::Value& value, std::string_view context) {
  return field_from_json<Fr>(value, context, "Fr");
}

G1Affine g1_from_json(const json::Value& value, std::string_view context) {
  const G1Affine point{fp_from_json(pair_item(value, 0, context), context),
                       fp_from_json(pair_item(value, 1, context), context)};
  return checked(point, context);
}

G2Affine g2_from_json(const json::Value& value, std::string_view context) {
  const json::Value& x = pair_item(value, 0, context);
  const json::Value& y = pair_item(value, 1, context);
  const G2Affine point{
      {fp_from_json(pair_item(x, 0, context), context), fp_from_json(pair_item(x, 1, context), context)},
      {fp_from_json(pair_item(y, 0, context), context), fp_from_json(pair_item(y, 1, context), context)}};
  return checked(point, context);
}

}  // namespace proofline::groth16
