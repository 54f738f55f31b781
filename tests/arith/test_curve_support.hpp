// Shared pieces of the curve tests: an affine chord-and-tangent reference written with GMP (mpz for G1, mpz
// pairs as Fp2 for G2), conversions of proofline points into it that go through GMP alone (Montgomery limbs
// decoded by gmp_oracle.hpp, projective coordinates divided out with mpz_invert), and random points.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <proofline/arith/curve.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

#include "arith/gmp_oracle.hpp"

namespace proofline::test {

// ---- reference fields: one interface over mpz (Fp) and mpz pairs (Fp2) --------------------------------

struct RefFp {
  using Value = mpz_class;
  static const mpz_class& p() { return FpOracle::p(); }
  static Value value(const Fp& element) { return FpOracle::value(element); }
  static Fp element(const Value& v) { return FpOracle::element(v); }
  static Value from_int(long v) { return mod(mpz_class(v), p()); }
  static Value add(const Value& a, const Value& b) { return mod(a + b, p()); }
  static Value sub(const Value& a, const Value& b) { return mod(a - b, p()); }
  static Value mul(const Value& a, const Value& b) { return mod(a * b, p()); }
  static Value neg(const Value& a) { return mod(-a, p()); }
  static Value inverse(const Value& a) { return invert(a, p()); }
  static bool equal(const Value& a, const Value& b) { return a == b; }
  static bool is_zero(const Value& a) { return a == 0; }
  static std::string text(const Value& a) { return hex_text(a); }
};

struct RefFp2 {
  using Value = MpzFp2;
  using O = Fp2Oracle;
  static Value value(const Fp2& element) { return O::value(element); }
  static Fp2 element(const Value& v) { return O::element(v); }
  static Value from_int(long v) { return O::reduce({mpz_class(v), 0}); }
  static Value add(const Value& a, const Value& b) { return O::add(a, b); }
  static Value sub(const Value& a, const Value& b) { return O::sub(a, b); }
  static Value mul(const Value& a, const Value& b) { return O::mul(a, b); }
  static Value neg(const Value& a) { return O::neg(a); }
  static Value inverse(const Value& a) { return O::inverse(a); }
  static bool equal(const Value& a, const Value& b) { return O::equal(a, b); }
  static bool is_zero(const Value& a) { return a.c0 == 0 && a.c1 == 0; }
  static std::string text(const Value& a) {
    std::string out = "(";
    out += hex_text(a.c0);
    out += ", ";
    out += hex_text(a.c1);
    out += ")";
    return out;
  }
};

template <class Curve>
struct RefFieldOf;
template <>
struct RefFieldOf<G1Params> {
  using type = RefFp;
  static RefFp::Value b() { return 4; }
};
template <>
struct RefFieldOf<G2Params> {
  using type = RefFp2;
  static RefFp2::Value b() { return {4, 4}; }
};

// ---- reference points ---------------------------------------------------------------------------------

/// An affine point or infinity, as plain GMP values.
template <class Curve>
struct RefPoint {
  using F = typename RefFieldOf<Curve>::type;
  bool infinity = true;
  typename F::Value x{}, y{};

  friend bool operator==(const RefPoint& a, const RefPoint& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return F::equal(a.x, b.x) && F::equal(a.y, b.y);
  }
  std::string text() const {
    if (infinity) return "infinity";
    std::string out = "(";
    out += F::text(x);
    out += ", ";
    out += F::text(y);
    out += ")";
    return out;
  }
};

template <class Curve>
bool ref_on_curve(const RefPoint<Curve>& p) {
  using F = typename RefPoint<Curve>::F;
  if (p.infinity) return true;
  return F::equal(F::mul(p.y, p.y), F::add(F::mul(F::mul(p.x, p.x), p.x), RefFieldOf<Curve>::b()));
}

template <class Curve>
RefPoint<Curve> ref_neg(const RefPoint<Curve>& p) {
  using F = typename RefPoint<Curve>::F;
  RefPoint<Curve> out = p;
  if (!p.infinity) out.y = F::neg(p.y);
  return out;
}

/// The textbook affine group law: chord through P and Q, tangent when P == Q.
template <class Curve>
RefPoint<Curve> ref_add(const RefPoint<Curve>& p, const RefPoint<Curve>& q) {
  using F = typename RefPoint<Curve>::F;
  if (p.infinity) return q;
  if (q.infinity) return p;
  typename F::Value slope;
  if (F::equal(p.x, q.x)) {
    if (F::is_zero(F::add(p.y, q.y))) return {};  // Q = -P (including y = 0)
    const auto x2 = F::mul(p.x, p.x);
    slope = F::mul(F::mul(F::from_int(3), x2), F::inverse(F::mul(F::from_int(2), p.y)));
  } else {
    slope = F::mul(F::sub(q.y, p.y), F::inverse(F::sub(q.x, p.x)));
  }
  RefPoint<Curve> out;
  out.infinity = false;
  out.x = F::sub(F::sub(F::mul(slope, slope), p.x), q.x);
  out.y = F::sub(F::mul(slope, F::sub(p.x, out.x)), p.y);
  return out;
}

/// [k]P right to left (the code under test goes left to right).
template <class Curve>
RefPoint<Curve> ref_mul(RefPoint<Curve> base, mpz_class k) {
  RefPoint<Curve> acc;
  while (k > 0) {
    if (mpz_odd_p(k.get_mpz_t())) acc = ref_add(acc, base);
    base = ref_add(base, base);
    k >>= 1;
  }
  return acc;
}

// ---- proofline points into the reference, through GMP only --------------------------------------------

template <class Curve>
RefPoint<Curve> to_ref(const AffinePoint<Curve>& p) {
  using F = typename RefPoint<Curve>::F;
  RefPoint<Curve> out;
  out.x = F::value(p.x);
  out.y = F::value(p.y);
  out.infinity = F::is_zero(out.x) && F::is_zero(out.y);
  return out;
}

template <class Curve>
RefPoint<Curve> to_ref(const JacobianPoint<Curve>& p) {
  using F = typename RefPoint<Curve>::F;
  const auto z = F::value(p.z);
  if (F::is_zero(z)) return {};
  const auto z_inv = F::inverse(z);
  const auto z_inv2 = F::mul(z_inv, z_inv);
  RefPoint<Curve> out;
  out.infinity = false;
  out.x = F::mul(F::value(p.x), z_inv2);
  out.y = F::mul(F::value(p.y), F::mul(z_inv2, z_inv));
  return out;
}

/// Also checks the XYZZ invariant: ZZ^3 == ZZZ^2, and ZZZ = 0 together with ZZ = 0.
template <class Curve>
RefPoint<Curve> to_ref(const XyzzPoint<Curve>& p) {
  using F = typename RefPoint<Curve>::F;
  const auto zz = F::value(p.zz);
  const auto zzz = F::value(p.zzz);
  CHECK(F::equal(F::mul(F::mul(zz, zz), zz), F::mul(zzz, zzz)));
  if (F::is_zero(zz)) return {};
  RefPoint<Curve> out;
  out.infinity = false;
  out.x = F::mul(F::value(p.x), F::inverse(zz));
  out.y = F::mul(F::value(p.y), F::inverse(zzz));
  return out;
}

template <class Curve>
AffinePoint<Curve> from_ref(const RefPoint<Curve>& p) {
  using F = typename RefPoint<Curve>::F;
  if (p.infinity) return AffinePoint<Curve>::infinity();
  return {F::element(p.x), F::element(p.y)};
}

/// CHECKs that a proofline point (any coordinates) stands for the reference point, and is on the curve.
#define CHECK_POINT(point, expected)                           \
  do {                                                         \
    const auto actual_ref_ = ::proofline::test::to_ref(point); \
    const auto& expected_ref_ = (expected);                    \
    INFO("actual   ", actual_ref_.text());                     \
    INFO("expected ", expected_ref_.text());                   \
    CHECK(actual_ref_ == expected_ref_);                       \
    CHECK((point).is_on_curve());                              \
  } while (false)

// ---- random points ------------------------------------------------------------------------------------

template <class Field>
Field random_element(Rng& rng) {
  if constexpr (requires { Field::N; }) {
    return FpOracle::random_element(rng);
  } else {
    return Field{FpOracle::random_element(rng), FpOracle::random_element(rng)};
  }
}

inline Fr random_scalar(Rng& rng) {
  return FrOracle::random_element(rng);
}

/// A uniform point of E (or of the twist), not multiplied by the cofactor: almost never in the subgroup.
template <class Curve>
AffinePoint<Curve> random_curve_point(Rng& rng) {
  using Field = typename Curve::Field;
  constexpr Field b = Curve::b;
  for (;;) {
    const Field x = random_element<Field>(rng);
    Field y;
    if (!(x.squared() * x + b).sqrt(y)) continue;
    const AffinePoint<Curve> point{x, (rng() & 1) ? -y : y};
    REQUIRE(ref_on_curve(to_ref(point)));
    return point;
  }
}

/// [k]G for a random nonzero k: a point of the order-r subgroup other than infinity (random_scalar's
/// patterned values include 0 often enough to matter).
template <class Curve>
AffinePoint<Curve> random_subgroup_point(Rng& rng) {
  for (;;) {
    const Fr k = random_scalar(rng);
    if (k.is_zero()) continue;
    return from_ref(ref_mul(to_ref(AffinePoint<Curve>::generator()), FrOracle::value(k)));
  }
}

/// Nonzero field element for rescaling projective coordinates.
template <class Field>
Field random_nonzero(Rng& rng) {
  for (;;) {
    const Field v = random_element<Field>(rng);
    if (!v.is_zero()) return v;
  }
}

/// The same point with a random Z (X lambda^2, Y lambda^3, lambda); infinity gets random X and Y, since only
/// Z = 0 marks it.
template <class Curve>
JacobianPoint<Curve> random_jacobian(const AffinePoint<Curve>& p, Rng& rng) {
  using Field = typename Curve::Field;
  if (p.is_infinity()) return {random_element<Field>(rng), random_element<Field>(rng), Field::zero()};
  const Field lambda = random_nonzero<Field>(rng);
  const Field lambda2 = lambda.squared();
  return {p.x * lambda2, p.y * lambda2 * lambda, lambda};
}

/// The same point with random ZZ = lambda^2, ZZZ = lambda^3; infinity gets random X and Y.
template <class Curve>
XyzzPoint<Curve> random_xyzz(const AffinePoint<Curve>& p, Rng& rng) {
  using Field = typename Curve::Field;
  if (p.is_infinity()) {
    return {random_element<Field>(rng), random_element<Field>(rng), Field::zero(), Field::zero()};
  }
  const Field lambda = random_nonzero<Field>(rng);
  const Field lambda2 = lambda.squared();
  const Field lambda3 = lambda2 * lambda;
  return {p.x * lambda2, p.y * lambda3, lambda2, lambda3};
}

/// A point of prime order q on a curve of order `order` (q | order): project a random point onto the
/// q-primary part, then multiply by q while that stays nonzero (the q-part may be cyclic or not).
template <class Curve>
RefPoint<Curve> point_of_order(unsigned long q, const mpz_class& order, Rng& rng) {
  mpz_class rest = order;
  REQUIRE(rest % q == 0);
  while (rest % q == 0) rest /= q;
  for (;;) {
    RefPoint<Curve> point = ref_mul(to_ref(random_curve_point<Curve>(rng)), rest);
    if (point.infinity) continue;
    for (RefPoint<Curve> next = ref_mul(point, q); !next.infinity; next = ref_mul(point, q)) point = next;
    return point;
  }
}

template <std::size_t N>
BigInt<N> bigint_of(const mpz_class& value) {
  return to_bigint<N>(value);
}

/// The BLS parameter z as a signed GMP integer.
inline mpz_class bls_z() {
  return -mpz_class(static_cast<unsigned long>(bls_z_abs));
}

}  // namespace proofline::test
