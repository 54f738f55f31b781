// Short Weierstrass curves y^2 = x^3 + b (a = 0) in affine, Jacobian and XYZZ coordinates, one source for
// host and device. G1 and G2 (g1.hpp, g2.hpp) instantiate these templates; the GPU MSM uses these exact
// formulas.
//
// Curve supplies: `using Field` (Fp or Fp2), `using Scalar` (Fr), and constexpr Field members `b`,
// `generator_x`, `generator_y`. Device code cannot read a constexpr static member of class type directly, so
// every function copies such constants into a local constexpr first.
//
// Infinity: all-zero bytes is the point at infinity in every coordinate system. For affine points this is
// snarkjs's encoding (x = y = 0 is not on the curve because b != 0), so zkey points load as memory images;
// Jacobian and XYZZ points are at infinity exactly when Z (resp. ZZ) is zero, so zero-filled buckets are
// empty buckets.
//
// Formulas (https://hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html and ...-xyzz.html), with the costs
// for a = 0: Jacobian dbl-2009-l (2M+5S), add-2007-bl (11M+5S), madd-2007-bl (7M+4S); XYZZ add-2008-s
// (12M+2S), madd-2008-s (8M+2S), dbl-2008-s-1 (6M+3S), mdbl-2008-s-1 (4M+3S). The generic formulas break down
// for equal inputs (they would return infinity) and for infinity inputs; the equal case is a rare branch to
// the doubling, infinity inputs are resolved with branch-free selects so a warp does not diverge on them.
#pragma once

#include <cstddef>
#include <cstdint>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/config.hpp>

namespace proofline {

namespace detail {

/// condition ? if_true : if_false for a prime-field element or an extension (c0, c1) of one, by masking
/// limbs: no branch.
template <class F>
PL_HD_INLINE constexpr F field_select(bool condition, const F& if_true, const F& if_false) {
  if constexpr (requires { if_true.c1; }) {
    return F{field_select(condition, if_true.c0, if_false.c0),
             field_select(condition, if_true.c1, if_false.c1)};
  } else {
    const std::uint64_t mask = std::uint64_t{0} - static_cast<std::uint64_t>(condition);
    F out{};
    PL_UNROLL for (std::size_t i = 0; i < F::N; ++i) out.limb[i] =
        (if_true.limb[i] & mask) | (if_false.limb[i] & ~mask);
    return out;
  }
}

/// negate ? -value : value without a branch (signed MSM digits negate the affine y).
template <class F>
PL_HD_INLINE constexpr F conditional_negate(const F& value, bool negate) {
  return field_select(negate, -value, value);
}

/// a·b − c·d: the field's own product_difference where it has one (MontField, which on the device reduces
/// the base fields' difference once), else the two products.
template <class F>
PL_HD_INLINE constexpr F product_difference(const F& a, const F& b, const F& c, const F& d) {
  if constexpr (requires { F::product_difference(a, b, c, d); }) {
    return F::product_difference(a, b, c, d);
  } else {
    return a * b - c * d;
  }
}

/// zero or one as a field element, without a branch.
template <class F>
PL_HD_INLINE constexpr F zero_or_one(bool one) {
  return field_select(one, F::one(), F::zero());
}

}  // namespace detail

template <class Curve>
struct AffinePoint;
template <class Curve>
struct JacobianPoint;
template <class Curve>
struct XyzzPoint;

// ---- affine -------------------------------------------------------------------------------------------

/// (x, y); (0, 0) is the point at infinity. No flag field: the layout is exactly two field elements.
template <class Curve>
struct AffinePoint {
  using Field = typename Curve::Field;
  using Scalar = typename Curve::Scalar;

  Field x;
  Field y;

  PL_HD_INLINE static constexpr AffinePoint infinity() { return {Field::zero(), Field::zero()}; }
  PL_HD_INLINE static constexpr AffinePoint generator() {
    constexpr Field gx = Curve::generator_x;
    constexpr Field gy = Curve::generator_y;
    return {gx, gy};
  }

  PL_HD_INLINE constexpr bool is_infinity() const { return x.is_zero() && y.is_zero(); }

  /// y^2 == x^3 + b; the point at infinity counts as on the curve.
  PL_HD constexpr bool is_on_curve() const {
    constexpr Field b = Curve::b;
    return is_infinity() || y.squared() == x.squared() * x + b;
  }

  PL_HD_INLINE constexpr AffinePoint operator-() const { return {x, -y}; }  // -0 = 0 keeps infinity

  PL_HD_INLINE constexpr JacobianPoint<Curve> to_jacobian() const {
    return {x, y, detail::zero_or_one<Field>(!is_infinity())};
  }
  PL_HD_INLINE constexpr XyzzPoint<Curve> to_xyzz() const {
    const Field z = detail::zero_or_one<Field>(!is_infinity());
    return {x, y, z, z};
  }

  /// [k]P by double-and-add with mixed additions; variable time (scalars here are public).
  template <std::size_t M>
  PL_HD constexpr JacobianPoint<Curve> mul(const BigInt<M>& k) const {
    JacobianPoint<Curve> acc = JacobianPoint<Curve>::infinity();
    for (std::size_t i = k.bit_length(); i-- > 0;) {
      acc = acc.dbl();
      if (k.bit(i)) acc = acc.add_mixed(*this);
    }
    return acc;
  }
  PL_HD constexpr JacobianPoint<Curve> mul(const Scalar& k) const { return mul(k.canonical()); }

  PL_HD_INLINE friend constexpr bool operator==(const AffinePoint& a, const AffinePoint& b) {
    return a.x == b.x && a.y == b.y;
  }
};

// ---- Jacobian -----------------------------------------------------------------------------------------

/// (X, Y, Z) for (X / Z^2, Y / Z^3); infinity when Z = 0.
template <class Curve>
struct JacobianPoint {
  using Field = typename Curve::Field;
  using Scalar = typename Curve::Scalar;
  using Affine = AffinePoint<Curve>;

  Field x;
  Field y;
  Field z;

  PL_HD_INLINE static constexpr JacobianPoint infinity() {
    return {Field::zero(), Field::zero(), Field::zero()};
  }
  PL_HD_INLINE static constexpr JacobianPoint generator() { return Affine::generator().to_jacobian(); }

  PL_HD_INLINE constexpr bool is_infinity() const { return z.is_zero(); }

  /// Y^2 == X^3 + b Z^6; infinity counts as on the curve.
  PL_HD constexpr bool is_on_curve() const {
    constexpr Field b = Curve::b;
    const Field z2 = z.squared();
    const Field z6 = z2.squared() * z2;
    return is_infinity() || y.squared() == x.squared() * x + b * z6;
  }

  PL_HD_INLINE static constexpr JacobianPoint select(bool condition, const JacobianPoint& if_true,
                                                     const JacobianPoint& if_false) {
    return {detail::field_select(condition, if_true.x, if_false.x),
            detail::field_select(condition, if_true.y, if_false.y),
            detail::field_select(condition, if_true.z, if_false.z)};
  }

  PL_HD_INLINE constexpr JacobianPoint operator-() const { return {x, -y, z}; }

  /// dbl-2009-l. Infinity (Z = 0) and 2-torsion (Y = 0) give Z3 = 0 on their own.
  PL_HD constexpr JacobianPoint dbl() const {
    const Field a = x.squared();
    const Field b = y.squared();
    const Field c = b.squared();
    const Field d = ((x + b).squared() - a - c).doubled();
    const Field e = a.doubled() + a;
    JacobianPoint out;
    out.x = e.squared() - d.doubled();
    out.y = e * (d - out.x) - c.doubled().doubled().doubled();
    out.z = (y * z).doubled();
    return out;
  }

  /// add-2007-bl.
  PL_HD constexpr JacobianPoint add(const JacobianPoint& q) const {
    const bool p_inf = is_infinity();
    const bool q_inf = q.is_infinity();
    const Field z1z1 = z.squared();
    const Field z2z2 = q.z.squared();
    const Field u1 = x * z2z2;
    const Field u2 = q.x * z1z1;
    const Field s1 = y * q.z * z2z2;
    const Field s2 = q.y * z * z1z1;
    const Field h = u2 - u1;
    const Field r = (s2 - s1).doubled();
    if (h.is_zero() && r.is_zero() && !p_inf && !q_inf) return dbl();  // P == Q
    const Field i = h.doubled().squared();
    const Field j = h * i;
    const Field v = u1 * i;
    JacobianPoint out;
    out.x = r.squared() - j - v.doubled();
    out.y = r * (v - out.x) - (s1 * j).doubled();
    out.z = ((z + q.z).squared() - z1z1 - z2z2) * h;  // h = 0 (P == -Q) gives infinity
    out = select(p_inf, q, out);
    return select(q_inf, *this, out);
  }

  /// madd-2007-bl: this + q for affine q.
  PL_HD constexpr JacobianPoint add_mixed(const Affine& q) const {
    const bool p_inf = is_infinity();
    const bool q_inf = q.is_infinity();
    const Field z1z1 = z.squared();
    const Field u2 = q.x * z1z1;
    const Field s2 = q.y * z * z1z1;
    const Field h = u2 - x;
    const Field r = (s2 - y).doubled();
    if (h.is_zero() && r.is_zero() && !p_inf && !q_inf) return dbl();  // P == Q
    const Field hh = h.squared();
    const Field i = hh.doubled().doubled();
    const Field j = h * i;
    const Field v = x * i;
    JacobianPoint out;
    out.x = r.squared() - j - v.doubled();
    out.y = r * (v - out.x) - (y * j).doubled();
    out.z = (z + h).squared() - z1z1 - hh;
    out = select(p_inf, q.to_jacobian(), out);
    return select(q_inf, *this, out);
  }

  PL_HD_INLINE friend constexpr JacobianPoint operator+(const JacobianPoint& p, const JacobianPoint& q) {
    return p.add(q);
  }
  PL_HD_INLINE friend constexpr JacobianPoint operator-(const JacobianPoint& p, const JacobianPoint& q) {
    return p.add(-q);
  }
  PL_HD_INLINE friend constexpr JacobianPoint operator+(const JacobianPoint& p, const Affine& q) {
    return p.add_mixed(q);
  }
  PL_HD_INLINE friend constexpr JacobianPoint operator-(const JacobianPoint& p, const Affine& q) {
    return p.add_mixed(-q);
  }
  PL_HD_INLINE constexpr JacobianPoint& operator+=(const JacobianPoint& q) { return *this = add(q); }
  PL_HD_INLINE constexpr JacobianPoint& operator+=(const Affine& q) { return *this = add_mixed(q); }
  PL_HD_INLINE constexpr JacobianPoint& operator-=(const JacobianPoint& q) { return *this = add(-q); }
  PL_HD_INLINE constexpr JacobianPoint& operator-=(const Affine& q) { return *this = add_mixed(-q); }

  /// One inversion; infinity maps to (0, 0) because the inverse of zero is zero.
  PL_HD constexpr Affine to_affine() const {
    const Field z_inv = z.inverse();
    const Field z_inv2 = z_inv.squared();
    return {x * z_inv2, y * z_inv2 * z_inv};
  }
  /// (X, Y, Z^2, Z^3).
  PL_HD_INLINE constexpr XyzzPoint<Curve> to_xyzz() const {
    const Field zz = z.squared();
    return {x, y, zz, zz * z};
  }

  /// [k]P by double-and-add; variable time.
  template <std::size_t M>
  PL_HD constexpr JacobianPoint mul(const BigInt<M>& k) const {
    JacobianPoint acc = infinity();
    for (std::size_t i = k.bit_length(); i-- > 0;) {
      acc = acc.dbl();
      if (k.bit(i)) acc = acc.add(*this);
    }
    return acc;
  }
  PL_HD constexpr JacobianPoint mul(const Scalar& k) const { return mul(k.canonical()); }

  /// X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3: no inversion.
  PL_HD friend constexpr bool operator==(const JacobianPoint& a, const JacobianPoint& b) {
    const bool a_inf = a.is_infinity();
    const bool b_inf = b.is_infinity();
    if (a_inf || b_inf) return a_inf && b_inf;
    const Field az2 = a.z.squared();
    const Field bz2 = b.z.squared();
    return a.x * bz2 == b.x * az2 && a.y * bz2 * b.z == b.y * az2 * a.z;
  }
  PL_HD friend constexpr bool operator==(const JacobianPoint& a, const Affine& b) {
    const bool a_inf = a.is_infinity();
    const bool b_inf = b.is_infinity();
    if (a_inf || b_inf) return a_inf && b_inf;
    const Field az2 = a.z.squared();
    return a.x == b.x * az2 && a.y == b.y * az2 * a.z;
  }
};

// ---- XYZZ ---------------------------------------------------------------------------------------------

/// (X, Y, ZZ, ZZZ) for (X / ZZ, Y / ZZZ) with ZZ^3 = ZZZ^2; infinity when ZZ = 0 (ZZZ is then 0 too).
template <class Curve>
struct XyzzPoint {
  using Field = typename Curve::Field;
  using Scalar = typename Curve::Scalar;
  using Affine = AffinePoint<Curve>;

  Field x;
  Field y;
  Field zz;
  Field zzz;

  PL_HD_INLINE static constexpr XyzzPoint infinity() {
    return {Field::zero(), Field::zero(), Field::zero(), Field::zero()};
  }
  PL_HD_INLINE static constexpr XyzzPoint generator() { return Affine::generator().to_xyzz(); }

  PL_HD_INLINE constexpr bool is_infinity() const { return zz.is_zero(); }

  /// ZZ^3 == ZZZ^2 and Y^2 == X^3 + b ZZ^3; infinity counts as on the curve.
  PL_HD constexpr bool is_on_curve() const {
    if (is_infinity()) return zzz.is_zero();
    constexpr Field b = Curve::b;
    const Field zz3 = zz.squared() * zz;
    return zz3 == zzz.squared() && y.squared() == x.squared() * x + b * zz3;
  }

  PL_HD_INLINE static constexpr XyzzPoint select(bool condition, const XyzzPoint& if_true,
                                                 const XyzzPoint& if_false) {
    return {detail::field_select(condition, if_true.x, if_false.x),
            detail::field_select(condition, if_true.y, if_false.y),
            detail::field_select(condition, if_true.zz, if_false.zz),
            detail::field_select(condition, if_true.zzz, if_false.zzz)};
  }

  PL_HD_INLINE constexpr XyzzPoint operator-() const { return {x, -y, zz, zzz}; }

  /// dbl-2008-s-1. Infinity and 2-torsion give ZZ3 = ZZZ3 = 0 on their own.
  PL_HD constexpr XyzzPoint dbl() const {
    const Field u = y.doubled();
    const Field v = u.squared();
    const Field w = u * v;
    const Field s = x * v;
    const Field x2 = x.squared();
    const Field m = x2.doubled() + x2;
    XyzzPoint out;
    out.x = m.squared() - s.doubled();
    out.y = detail::product_difference(m, s - out.x, w, y);
    out.zz = v * zz;
    out.zzz = w * zzz;
    return out;
  }

  /// mdbl-2008-s-1: [2]p for affine p; the all-zero affine infinity gives infinity on its own.
  PL_HD static constexpr XyzzPoint dbl_affine(const Affine& p) {
    const Field u = p.y.doubled();
    const Field v = u.squared();
    const Field w = u * v;
    const Field s = p.x * v;
    const Field x2 = p.x.squared();
    const Field m = x2.doubled() + x2;
    XyzzPoint out;
    out.x = m.squared() - s.doubled();
    out.y = detail::product_difference(m, s - out.x, w, p.y);
    out.zz = v;
    out.zzz = w;
    return out;
  }

  /// add-2008-s.
  PL_HD constexpr XyzzPoint add(const XyzzPoint& q) const {
    const bool p_inf = is_infinity();
    const bool q_inf = q.is_infinity();
    const Field u1 = x * q.zz;
    const Field u2 = q.x * zz;
    const Field s1 = y * q.zzz;
    const Field s2 = q.y * zzz;
    const Field p = u2 - u1;
    const Field r = s2 - s1;
    if (p.is_zero() && r.is_zero() && !p_inf && !q_inf) return dbl();  // P == Q
    const Field pp = p.squared();
    const Field ppp = p * pp;
    const Field q_term = u1 * pp;
    XyzzPoint out;
    out.x = r.squared() - ppp - q_term.doubled();
    out.y = detail::product_difference(r, q_term - out.x, s1, ppp);
    out.zz = zz * q.zz * pp;  // p = 0 (P == -Q) gives infinity
    out.zzz = zzz * q.zzz * ppp;
    out = select(p_inf, q, out);
    return select(q_inf, *this, out);
  }

  /// madd-2008-s: this + q, or this - q when subtract is set (negating q.y is what makes signed bucket digits
  /// free). The MSM hot path: 8M + 2S, the rest are selects; only P == +-Q takes a branch.
  PL_HD constexpr XyzzPoint add_mixed(const Affine& q, bool subtract = false) const {
    const bool p_inf = is_infinity();
    const bool q_inf = q.is_infinity();
    const Field qy = detail::conditional_negate(q.y, subtract);
    const Field u2 = q.x * zz;
    const Field s2 = qy * zzz;
    const Field p = u2 - x;
    const Field r = s2 - y;
    XyzzPoint out;
    if (p.is_zero() && r.is_zero() && !p_inf && !q_inf) {  // P == Q: rare
      out = dbl_affine(Affine{q.x, qy});
    } else {
      const Field pp = p.squared();
      const Field ppp = p * pp;
      const Field q_term = x * pp;
      out.x = r.squared() - ppp - q_term.doubled();
      out.y = detail::product_difference(r, q_term - out.x, y, ppp);
      out.zz = zz * pp;  // p = 0 (P == -Q) gives infinity
      out.zzz = zzz * ppp;
    }
    constexpr Field one = Field::one();
    out = select(p_inf, XyzzPoint{q.x, qy, one, one}, out);
    return select(q_inf, *this, out);
  }

  PL_HD_INLINE friend constexpr XyzzPoint operator+(const XyzzPoint& p, const XyzzPoint& q) {
    return p.add(q);
  }
  PL_HD_INLINE friend constexpr XyzzPoint operator-(const XyzzPoint& p, const XyzzPoint& q) {
    return p.add(-q);
  }
  PL_HD_INLINE friend constexpr XyzzPoint operator+(const XyzzPoint& p, const Affine& q) {
    return p.add_mixed(q, false);
  }
  PL_HD_INLINE friend constexpr XyzzPoint operator-(const XyzzPoint& p, const Affine& q) {
    return p.add_mixed(q, true);
  }
  PL_HD_INLINE constexpr XyzzPoint& operator+=(const XyzzPoint& q) { return *this = add(q); }
  PL_HD_INLINE constexpr XyzzPoint& operator+=(const Affine& q) { return *this = add_mixed(q, false); }
  PL_HD_INLINE constexpr XyzzPoint& operator-=(const XyzzPoint& q) { return *this = add(-q); }
  PL_HD_INLINE constexpr XyzzPoint& operator-=(const Affine& q) { return *this = add_mixed(q, true); }

  /// One inversion: with t = 1/ZZZ, ZZ t = 1/Z and (ZZ t)^2 = 1/ZZ. Infinity maps to (0, 0) because the
  /// inverse of zero is zero.
  PL_HD constexpr Affine to_affine() const {
    const Field zzz_inv = zzz.inverse();
    const Field z_inv = zz * zzz_inv;
    return {x * z_inv.squared(), y * zzz_inv};
  }
  /// Jacobian with Z = ZZ: (X ZZ, Y ZZZ, ZZ), since (X ZZ) / ZZ^2 = X / ZZ and (Y ZZZ) / ZZ^3 = Y / ZZZ.
  PL_HD_INLINE constexpr JacobianPoint<Curve> to_jacobian() const { return {x * zz, y * zzz, zz}; }

  /// [k]P by double-and-add; variable time.
  template <std::size_t M>
  PL_HD constexpr XyzzPoint mul(const BigInt<M>& k) const {
    XyzzPoint acc = infinity();
    for (std::size_t i = k.bit_length(); i-- > 0;) {
      acc = acc.dbl();
      if (k.bit(i)) acc = acc.add(*this);
    }
    return acc;
  }
  PL_HD constexpr XyzzPoint mul(const Scalar& k) const { return mul(k.canonical()); }

  /// X1 ZZ2 == X2 ZZ1 and Y1 ZZZ2 == Y2 ZZZ1: no inversion.
  PL_HD friend constexpr bool operator==(const XyzzPoint& a, const XyzzPoint& b) {
    const bool a_inf = a.is_infinity();
    const bool b_inf = b.is_infinity();
    if (a_inf || b_inf) return a_inf && b_inf;
    return a.x * b.zz == b.x * a.zz && a.y * b.zzz == b.y * a.zzz;
  }
  PL_HD friend constexpr bool operator==(const XyzzPoint& a, const Affine& b) {
    const bool a_inf = a.is_infinity();
    const bool b_inf = b.is_infinity();
    if (a_inf || b_inf) return a_inf && b_inf;
    return a.x == b.x * a.zz && a.y == b.y * a.zzz;
  }
  PL_HD friend constexpr bool operator==(const XyzzPoint& a, const JacobianPoint<Curve>& b) {
    return a == b.to_xyzz();
  }
};

// ---- subgroup membership by definition ----------------------------------------------------------------

/// [r]P == O. Slow (a full-length scalar multiplication): the reference that the endomorphism-based checks
/// in g1.hpp and g2.hpp are tested against. Assumes P is on the curve.
template <class Curve>
PL_HD constexpr bool is_in_subgroup_slow(const AffinePoint<Curve>& p) {
  constexpr auto order = Curve::Scalar::modulus;
  return p.mul(order).is_infinity();
}
template <class Curve>
PL_HD constexpr bool is_in_subgroup_slow(const JacobianPoint<Curve>& p) {
  constexpr auto order = Curve::Scalar::modulus;
  return p.mul(order).is_infinity();
}

}  // namespace proofline
