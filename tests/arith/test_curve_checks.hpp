// Checks that G1 and G2 share (test_curve_g1.cpp and test_curve_g2.cpp call them from their own test cases):
// every addition and doubling formula against the GMP affine reference, group laws across coordinate
// systems, infinity in every operation, scalar multiplication, and batch conversion to affine.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include <proofline/arith/curve_batch.hpp>
#include <proofline/util/error.hpp>

#include "arith/test_curve_support.hpp"

namespace proofline::test {

template <class T>
bool all_zero_bytes(const T& value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  for (unsigned char byte : bytes) {
    if (byte != 0) return false;
  }
  return true;
}

/// Every addition, subtraction and doubling formula, in every coordinate system and with random projective
/// representations, on one pair of affine inputs (which may be equal, opposite or infinity).
template <class Curve>
void check_pair(const AffinePoint<Curve>& p, const AffinePoint<Curve>& q, Rng& rng) {
  using Xyzz = XyzzPoint<Curve>;
  const RefPoint<Curve> rp = to_ref(p), rq = to_ref(q);
  const RefPoint<Curve> sum = ref_add(rp, rq);
  const RefPoint<Curve> difference = ref_add(rp, ref_neg(rq));
  const RefPoint<Curve> twice_p = ref_add(rp, rp);
  INFO("p ", rp.text());
  INFO("q ", rq.text());

  const auto jp = random_jacobian(p, rng), jq = random_jacobian(q, rng);
  CHECK_POINT(jp.add(jq), sum);
  CHECK_POINT(jp + jq, sum);
  CHECK_POINT(jp - jq, difference);
  CHECK_POINT(jp.add_mixed(q), sum);
  CHECK_POINT(jp + q, sum);
  CHECK_POINT(jp - q, difference);
  CHECK_POINT(jp.dbl(), twice_p);
  auto accumulated = jp;
  accumulated += jq;
  accumulated -= q;
  accumulated += q;
  CHECK_POINT(accumulated, sum);

  const auto xp = random_xyzz(p, rng), xq = random_xyzz(q, rng);
  CHECK_POINT(xp.add(xq), sum);
  CHECK_POINT(xp + xq, sum);
  CHECK_POINT(xp - xq, difference);
  CHECK_POINT(xp.add_mixed(q), sum);
  CHECK_POINT(xp.add_mixed(q, false), sum);
  CHECK_POINT(xp.add_mixed(q, true), difference);
  CHECK_POINT(xp + q, sum);
  CHECK_POINT(xp - q, difference);
  CHECK_POINT(xp.dbl(), twice_p);
  CHECK_POINT(Xyzz::dbl_affine(p), twice_p);
  auto bucket = xp;
  bucket += xq;
  bucket -= q;
  bucket += q;
  CHECK_POINT(bucket, sum);

  // Conversions and negation.
  CHECK_POINT(p, rp);
  CHECK_POINT(-p, ref_neg(rp));
  CHECK_POINT(-jp, ref_neg(rp));
  CHECK_POINT(-xp, ref_neg(rp));
  CHECK_POINT(p.to_jacobian(), rp);
  CHECK_POINT(p.to_xyzz(), rp);
  CHECK_POINT(jp.to_xyzz(), rp);
  CHECK_POINT(xp.to_jacobian(), rp);
  CHECK(to_ref(jp.to_affine()) == rp);
  CHECK(to_ref(xp.to_affine()) == rp);
  CHECK(jp.to_affine() == p);
  CHECK(xp.to_affine() == p);
}

template <class Curve>
void check_against_reference(Rng& rng, int rounds) {
  using Affine = AffinePoint<Curve>;
  for (int round = 0; round < rounds; ++round) {
    // Subgroup points and general curve points: the formulas hold on the whole curve.
    const Affine p = round % 2 ? random_subgroup_point<Curve>(rng) : random_curve_point<Curve>(rng);
    const Affine q = round % 3 ? random_subgroup_point<Curve>(rng) : random_curve_point<Curve>(rng);
    CAPTURE(round);
    check_pair(p, q, rng);
    check_pair(p, p, rng);   // doubling through the addition formulas, from different representations
    check_pair(p, -p, rng);  // opposite points
    check_pair(p, Affine::infinity(), rng);
    check_pair(Affine::infinity(), q, rng);
    check_pair(Affine::infinity(), Affine::infinity(), rng);
  }
}

/// Commutativity, associativity, identity and inverses, evaluated in different coordinate systems and
/// compared with the inversion-free cross-system equality.
template <class Curve>
void check_group_laws(Rng& rng, int rounds) {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;
  for (int round = 0; round < rounds; ++round) {
    CAPTURE(round);
    const Affine a = random_subgroup_point<Curve>(rng);
    const Affine b = random_curve_point<Curve>(rng);
    const Affine c = random_subgroup_point<Curve>(rng);
    const Jacobian ja = random_jacobian(a, rng), jb = random_jacobian(b, rng), jc = random_jacobian(c, rng);
    const Xyzz xa = random_xyzz(a, rng), xb = random_xyzz(b, rng), xc = random_xyzz(c, rng);

    CHECK(ja + jb == jb + ja);
    CHECK(xa + xb == xb + xa);
    CHECK((ja + jb) + jc == ja + (jb + jc));
    CHECK((xa + xb) + xc == xa + (xb + xc));
    CHECK((ja + b) + c == (xa + xb) + c);
    CHECK((xa - b) + b == a);
    CHECK((ja - b) + b == a);
    CHECK(ja - ja == Jacobian::infinity());
    CHECK(xa - xa == Xyzz::infinity());
    CHECK((ja + Jacobian::infinity()) == ja);
    CHECK((xa + Xyzz::infinity()) == xa);
    CHECK(ja.dbl() == ja + ja);
    CHECK(xa.dbl() == xa + xa);
    CHECK(Xyzz::dbl_affine(a) == ja.dbl());
    CHECK(xa.dbl().dbl() + xa == ja.mul(BigInt<1>::from_u64(5)));

    // Equality across systems, including different representations of one point.
    const Jacobian ja2 = random_jacobian(a, rng);
    const Xyzz xa2 = random_xyzz(a, rng);
    CHECK(ja == ja2);
    CHECK(xa == xa2);
    CHECK(ja == xa2);
    CHECK(xa == ja2);
    CHECK(ja == a);
    CHECK(a == ja);
    CHECK(xa == a);
    CHECK(a == xa);
    CHECK(a == ja.to_affine());
    // Inequality: another point, the opposite point (same x), infinity.
    CHECK(ja != jb);
    CHECK(xa != xb);
    CHECK(ja != xb);
    CHECK(a != b);
    CHECK(ja != b);
    CHECK(xa != b);
    CHECK(ja != -ja);
    CHECK(xa != -xa);
    CHECK(ja != -xa);
    CHECK(a != -a);
    CHECK(ja != -a);
    CHECK(xa != -a);
    CHECK(ja != Jacobian::infinity());
    CHECK(xa != Xyzz::infinity());
    CHECK(a != Affine::infinity());
    CHECK(Jacobian::infinity() != xa);
    CHECK(Affine::infinity() != ja);

    // Points that break the equations are rejected by is_on_curve in every system.
    const Affine off{a.x, a.y + Curve::Field::one()};
    CHECK_FALSE(off.is_on_curve());
    CHECK_FALSE(random_jacobian(off, rng).is_on_curve());
    CHECK_FALSE(random_xyzz(off, rng).is_on_curve());
    Xyzz broken = xa;  // ZZ^3 != ZZZ^2
    broken.zzz = broken.zzz + broken.zzz;
    CHECK_FALSE(broken.is_on_curve());
  }
}

/// The point at infinity as input and output of every operation; infinity with random X and Y (only Z, ZZ
/// mark it) as well as the all-zero one.
template <class Curve>
void check_infinity(Rng& rng) {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;
  using Field = typename Curve::Field;
  const RefPoint<Curve> o;

  // All-zero bytes is infinity in every system, and infinity() is all-zero bytes.
  Affine zero_affine;
  Jacobian zero_jacobian;
  Xyzz zero_xyzz;
  std::memset(static_cast<void*>(&zero_affine), 0, sizeof zero_affine);
  std::memset(static_cast<void*>(&zero_jacobian), 0, sizeof zero_jacobian);
  std::memset(static_cast<void*>(&zero_xyzz), 0, sizeof zero_xyzz);
  CHECK(zero_affine.is_infinity());
  CHECK(zero_jacobian.is_infinity());
  CHECK(zero_xyzz.is_infinity());
  CHECK(all_zero_bytes(Affine::infinity()));
  CHECK(all_zero_bytes(Jacobian::infinity()));
  CHECK(all_zero_bytes(Xyzz::infinity()));
  CHECK(zero_affine.is_on_curve());
  CHECK(zero_jacobian.is_on_curve());
  CHECK(zero_xyzz.is_on_curve());
  CHECK(is_in_subgroup(zero_affine));
  CHECK(is_in_subgroup(zero_jacobian));
  CHECK(is_in_subgroup_slow(zero_affine));
  // A point with x = 0 is not infinity: (0, +-sqrt(b)) is on the curve wherever b is a square.
  CHECK_FALSE((Affine{Field::zero(), Field::one()}).is_infinity());
  CHECK_FALSE((Affine{Field::one(), Field::zero()}).is_infinity());

  const Affine p = random_subgroup_point<Curve>(rng);
  const RefPoint<Curve> rp = to_ref(p);
  for (int variant = 0; variant < 4; ++variant) {
    CAPTURE(variant);
    // variant 0: all-zero; otherwise random X, Y with Z = 0 / ZZ = ZZZ = 0.
    const Jacobian jo = variant == 0 ? zero_jacobian : random_jacobian(Affine::infinity(), rng);
    const Xyzz xo = variant == 0 ? zero_xyzz : random_xyzz(Affine::infinity(), rng);
    const Jacobian jp = random_jacobian(p, rng);
    const Xyzz xp = random_xyzz(p, rng);
    CHECK(jo.is_infinity());
    CHECK(xo.is_infinity());

    CHECK_POINT(jo.dbl(), o);
    CHECK_POINT(jo + jo, o);
    CHECK_POINT(jo + jp, rp);
    CHECK_POINT(jp + jo, rp);
    CHECK_POINT(jo + p, rp);
    CHECK_POINT(jo - p, ref_neg(rp));
    CHECK_POINT(jp + zero_affine, rp);
    CHECK_POINT(jo + zero_affine, o);
    CHECK_POINT(-jo, o);

    CHECK_POINT(xo.dbl(), o);
    CHECK_POINT(xo + xo, o);
    CHECK_POINT(xo + xp, rp);
    CHECK_POINT(xp + xo, rp);
    CHECK_POINT(xo.add_mixed(p, false), rp);
    CHECK_POINT(xo.add_mixed(p, true), ref_neg(rp));
    CHECK_POINT(xp.add_mixed(zero_affine, false), rp);
    CHECK_POINT(xp.add_mixed(zero_affine, true), rp);
    CHECK_POINT(xo.add_mixed(zero_affine, false), o);
    CHECK_POINT(xo.add_mixed(zero_affine, true), o);
    CHECK_POINT(Xyzz::dbl_affine(zero_affine), o);
    CHECK_POINT(-xo, o);

    CHECK(all_zero_bytes(jo.to_affine()));
    CHECK(all_zero_bytes(xo.to_affine()));
    CHECK(jo.to_xyzz().is_infinity());
    CHECK(xo.to_jacobian().is_infinity());
    CHECK(zero_affine.to_jacobian().is_infinity());
    CHECK(zero_affine.to_xyzz().is_infinity());
    CHECK(all_zero_bytes(-zero_affine));

    CHECK(jo == zero_jacobian);
    CHECK(xo == zero_xyzz);
    CHECK(jo == xo);
    CHECK(xo == jo);
    CHECK(jo == zero_affine);
    CHECK(xo == zero_affine);
    CHECK(jo != jp);
    CHECK(xo != xp);
    CHECK(jo != p);
    CHECK(xo != p);

    CHECK(jo.mul(random_scalar(rng)).is_infinity());
    CHECK(xo.mul(random_scalar(rng)).is_infinity());
    CHECK(is_in_subgroup(jo));
  }
  CHECK(zero_affine.mul(random_scalar(rng)).is_infinity());
  CHECK(p.mul(Fr::zero()).is_infinity());
  CHECK(p.mul(BigInt<4>{}).is_infinity());
}

/// Against repeated addition for small scalars, against the reference for random ones, and the identities at
/// 0, 1, r - 1, r, r + 1 and for sums and products of scalars.
template <class Curve>
void check_scalar_mul(Rng& rng) {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;
  const Affine g = Affine::generator();
  const Affine p = random_curve_point<Curve>(rng);  // outside the subgroup: mul must not assume order r
  for (const Affine& base : {g, p}) {
    const RefPoint<Curve> ref_base = to_ref(base);
    const Jacobian jbase = random_jacobian(base, rng);
    const Xyzz xbase = random_xyzz(base, rng);
    Jacobian repeated = Jacobian::infinity();
    for (std::uint64_t k = 0; k <= 40; ++k) {
      CAPTURE(k);
      const auto scalar = BigInt<1>::from_u64(k);
      CHECK(base.mul(scalar) == repeated);
      CHECK(jbase.mul(scalar) == repeated);
      CHECK(xbase.mul(scalar) == repeated);
      CHECK(base.mul(Fr::from_u64(k)) == repeated);
      CHECK_POINT(base.mul(scalar), ref_mul(ref_base, mpz_class(static_cast<unsigned long>(k))));
      repeated += base;
    }
    for (int round = 0; round < 4; ++round) {
      const mpz_class k = random_mpz_bits(rng, 64 * (1 + round));
      CAPTURE(k);
      const RefPoint<Curve> expected = ref_mul(ref_base, k);
      CHECK_POINT(base.mul(bigint_of<4>(k)), expected);
      CHECK_POINT(jbase.mul(bigint_of<4>(k)), expected);
      CHECK_POINT(xbase.mul(bigint_of<4>(k)), expected);
    }
  }

  // Identities on the subgroup.
  const mpz_class r = FrOracle::p();
  CHECK(g.mul(bigint_of<4>(r)).is_infinity());
  CHECK(g.mul(bigint_of<4>(r - 1)) == -g);
  CHECK(g.mul(bigint_of<4>(r + 1)) == g);
  CHECK(g.mul(Fr::zero()).is_infinity());
  CHECK(g.mul(Fr::one()) == g);
  CHECK(g.mul(-Fr::one()) == -g);
  const Jacobian jg = random_jacobian(g, rng);
  const Xyzz xg = random_xyzz(g, rng);
  CHECK(jg.mul(bigint_of<4>(r)).is_infinity());
  CHECK(xg.mul(bigint_of<4>(r)).is_infinity());
  CHECK(jg.mul(-Fr::one()) == -g);
  CHECK(xg.mul(-Fr::one()) == -g);
  for (int round = 0; round < 8; ++round) {
    const Fr a = random_scalar(rng), b = random_scalar(rng);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(g.mul(a) + g.mul(b) == g.mul(a + b));
    CHECK(g.mul(a).mul(b) == g.mul(a * b));
    CHECK(xg.mul(a) - g.mul(b).to_affine() == jg.mul(a - b));
    CHECK(g.mul(a) == g.mul(a.canonical()));
  }
}

template <class Curve>
void check_batch_to_affine(Rng& rng, const std::vector<std::size_t>& sizes) {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;
  // A pool of distinct points to draw from; every point gets its own random Z.
  std::vector<Affine> pool;
  for (int i = 0; i < 32; ++i) pool.push_back(random_curve_point<Curve>(rng));
  for (const std::size_t n : sizes) {
    CAPTURE(n);
    std::vector<Jacobian> jacobian(n);
    std::vector<Xyzz> xyzz(n);
    std::vector<Affine> expected(n);
    for (std::size_t i = 0; i < n; ++i) {
      // About one point in eight at infinity, including runs of them and the first and last entries.
      const bool infinity = rng() % 8 == 0 || (n > 2 && (i == 0 || i == n - 1));
      expected[i] = infinity ? Affine::infinity() : pool[rng() % pool.size()];
      jacobian[i] = random_jacobian(expected[i], rng);
      xyzz[i] = random_xyzz(expected[i], rng);
    }
    std::vector<Affine> from_jacobian(n, Affine::generator()), from_xyzz(n, Affine::generator());
    batch_to_affine(std::span<const Jacobian>(jacobian), std::span<Affine>(from_jacobian));
    batch_to_affine(std::span<const Xyzz>(xyzz), std::span<Affine>(from_xyzz));
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i) {
      mismatches += !(from_jacobian[i] == expected[i]) || !(from_xyzz[i] == expected[i]);
      // Infinity comes back as all-zero bytes.
      if (expected[i].is_infinity())
        mismatches += !all_zero_bytes(from_jacobian[i]) || !all_zero_bytes(from_xyzz[i]);
    }
    CHECK(mismatches == 0);
    if (n > 0) {  // one entry through the GMP reference, independent of the field inversion
      const std::size_t i = rng() % n;
      CHECK(to_ref(from_jacobian[i]) == to_ref(jacobian[i]));
      CHECK(to_ref(from_xyzz[i]) == to_ref(xyzz[i]));
    }
  }
  std::vector<Jacobian> three(3);
  std::vector<Affine> two(2);
  CHECK_THROWS_AS(batch_to_affine(std::span<const Jacobian>(three), std::span<Affine>(two)),
                  proofline::Error);
}

}  // namespace proofline::test
