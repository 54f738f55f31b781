#include <proofline/groth16/point_json.hpp>

#include <string>

#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/detail/json_fields.hpp>

namespace proofline::groth16 {

namespace {

using detail::field_from_json;

const json::Value& pair_item(const json::Value& value, std::size_t index, std::string_view context) {
  if (!value.is_array() || value.size() != 2)
    detail::json_fail(context, "expected an array of two coordinates");
  return value.at(index);
}

template <class Affine>
Affine checked(const Affine& point, std::string_view context) {
  detail::check_group_element(point, context);
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
