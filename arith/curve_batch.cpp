#include <proofline/arith/curve_batch.hpp>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <string>

#include <proofline/util/error.hpp>

namespace proofline {

namespace {

// One inversion (~570 field multiplications for Fp) per block costs under one multiplication per point from
// about 1024 points on, while the blocks stay many enough to keep every core busy.
constexpr std::size_t block_points = 1024;

/// The element whose inverse the affine form needs: Z for Jacobian, ZZZ for XYZZ.
template <class Curve>
const typename Curve::Field& denominator(const JacobianPoint<Curve>& point) {
  return point.z;
}
template <class Curve>
const typename Curve::Field& denominator(const XyzzPoint<Curve>& point) {
  return point.zzz;
}

/// Affine form given the inverse of the denominator.
template <class Curve>
AffinePoint<Curve> affine_from_inverse(const JacobianPoint<Curve>& point,
                                       const typename Curve::Field& z_inv) {
  const auto z_inv2 = z_inv.squared();
  return {point.x * z_inv2, point.y * z_inv2 * z_inv};
}
template <class Curve>
AffinePoint<Curve> affine_from_inverse(const XyzzPoint<Curve>& point, const typename Curve::Field& zzz_inv) {
  const auto z_inv = point.zz * zzz_inv;  // ZZ / ZZZ = 1 / Z
  return {point.x * z_inv.squared(), point.y * zzz_inv};
}

/// Montgomery's trick over one block. The prefix products are kept in out[i].x until the backward pass
/// overwrites them, so the block needs no scratch memory. Points at infinity contribute a factor of one.
template <class Point, class Affine>
void convert_block(const Point* points, Affine* out, std::size_t count) {
  using Field = typename Affine::Field;
  Field acc = Field::one();
  for (std::size_t i = 0; i < count; ++i) {
    out[i].x = acc;
    const Field& d = denominator(points[i]);
    if (!d.is_zero()) acc *= d;
  }
  Field inv = acc.inverse();  // inverse of the product of all nonzero denominators in the block
  for (std::size_t i = count; i-- > 0;) {
    const Field& d = denominator(points[i]);
    if (d.is_zero()) {
      out[i] = Affine::infinity();
      continue;
    }
    const Field d_inv = inv * out[i].x;
    inv *= d;
    out[i] = affine_from_inverse(points[i], d_inv);
  }
}

template <class Point, class Affine>
void batch_to_affine_impl(std::span<const Point> points, std::span<Affine> out) {
  if (points.size() != out.size()) {
    throw Error(Errc::invalid_argument, "batch_to_affine: " + std::to_string(points.size()) + " points but " +
                                            std::to_string(out.size()) + " output slots");
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), block_points),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      convert_block(points.data() + range.begin(), out.data() + range.begin(), range.size());
                    });
}

}  // namespace

void batch_to_affine(std::span<const G1Jacobian> points, std::span<G1Affine> out) {
  batch_to_affine_impl(points, out);
}
void batch_to_affine(std::span<const G1Xyzz> points, std::span<G1Affine> out) {
  batch_to_affine_impl(points, out);
}
void batch_to_affine(std::span<const G2Jacobian> points, std::span<G2Affine> out) {
  batch_to_affine_impl(points, out);
}
void batch_to_affine(std::span<const G2Xyzz> points, std::span<G2Affine> out) {
  batch_to_affine_impl(points, out);
}
void batch_to_affine(std::span<const bn254::G1Jacobian> points, std::span<bn254::G1Affine> out) {
  batch_to_affine_impl(points, out);
}
void batch_to_affine(std::span<const bn254::G1Xyzz> points, std::span<bn254::G1Affine> out) {
  batch_to_affine_impl(points, out);
}
void batch_to_affine(std::span<const bn254::G2Jacobian> points, std::span<bn254::G2Affine> out) {
  batch_to_affine_impl(points, out);
}
void batch_to_affine(std::span<const bn254::G2Xyzz> points, std::span<bn254::G2Affine> out) {
  batch_to_affine_impl(points, out);
}

}  // namespace proofline
