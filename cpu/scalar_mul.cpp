#include <proofline/cpu/scalar_mul.hpp>

#include <proofline/cpu/detail/mulx_field.hpp>
#include <proofline/cpu/msm.hpp>

namespace proofline::cpu {

namespace {

using detail::MulxCurve;
using detail::twin_cast;

template <class Curve>
JacobianPoint<Curve> windowed(const JacobianPoint<Curve>& point, const typename Curve::Scalar& k) {
  using Point = JacobianPoint<Curve>;
  Point table[16];  // table[d] = d point
  table[0] = Point::infinity();
  table[1] = point;
  for (int d = 2; d < 16; ++d) table[d] = table[d - 1].add(point);
  const auto bits = k.canonical();
  Point acc = Point::infinity();
  for (std::size_t window = (bits.bit_length() + 3) / 4; window-- > 0;) {
    for (int s = 0; s < 4; ++s) acc = acc.dbl();
    unsigned digit = 0;
    for (std::size_t b = 4; b-- > 0;) digit = 2 * digit + (bits.bit(4 * window + b) ? 1u : 0u);
    if (digit != 0) acc = acc.add(table[digit]);
  }
  return acc;
}

template <class Curve>
JacobianPoint<Curve> dispatch(const JacobianPoint<Curve>& point, const typename Curve::Scalar& k) {
  if constexpr (detail::has_mulx_twin<typename Curve::Field>()) {
    if (msm_uses_carry_instructions())
      return twin_cast<JacobianPoint<Curve>>(
          windowed<MulxCurve<Curve>>(twin_cast<JacobianPoint<MulxCurve<Curve>>>(point), k));
  }
  return windowed<Curve>(point, k);
}

}  // namespace

G1Jacobian scalar_mul(const G1Jacobian& point, const Fr& k) {
  return dispatch<G1Params>(point, k);
}
G2Jacobian scalar_mul(const G2Jacobian& point, const Fr& k) {
  return dispatch<G2Params>(point, k);
}
bn254::G1Jacobian scalar_mul(const bn254::G1Jacobian& point, const bn254::Fr& k) {
  return dispatch<bn254::G1Params>(point, k);
}
bn254::G2Jacobian scalar_mul(const bn254::G2Jacobian& point, const bn254::Fr& k) {
  return dispatch<bn254::G2Params>(point, k);
}

}  // namespace proofline::cpu
