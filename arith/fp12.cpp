// The out-of-line parts of the Fp6/Fp12 tower: Frobenius maps, whose coefficients are computed once from
// their definition (not copied from another library), and the cyclotomic squaring.
#include <proofline/arith/fp12.hpp>

#include <cstdint>

#include <proofline/arith/bn254/fp12.hpp>

namespace proofline {

namespace {

// p^11 has 4181 bits; 72 limbs hold it with room to spare.
using WideInt = BigInt<72>;

/// value * Base::modulus (the product must fit, which holds for p^k with k <= 11 and p below 2^384).
template <class Base>
WideInt mul_by_modulus(const WideInt& value) {
  constexpr typename Base::Int p = Base::modulus;
  WideInt out;
  for (std::size_t i = 0; i < WideInt::limb_count; ++i) {
    if (value.limb[i] == 0) continue;
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < Base::N && i + j < WideInt::limb_count; ++j) {
      out.limb[i + j] = detail::mac(out.limb[i + j], value.limb[i], p.limb[j], carry);
    }
    for (std::size_t k = i + Base::N; carry != 0 && k < WideInt::limb_count; ++k) {
      out.limb[k] = detail::add_carry(out.limb[k], 0, carry);
    }
  }
  return out;
}

/// value / divisor, rounded down.
WideInt div_small(const WideInt& value, std::uint64_t divisor) {
  WideInt out;
  detail::uint128 remainder = 0;
  for (std::size_t i = WideInt::limb_count; i-- > 0;) {
    const detail::uint128 current = (remainder << 64) | value.limb[i];
    out.limb[i] = static_cast<std::uint64_t>(current / divisor);
    remainder = current % divisor;
  }
  return out;
}

/// For k = 0..11: gamma[k] = xi^((p^k - 1) / 6), the factor w^(p^k) / w, and its square and fourth power,
/// v^(p^k) / v = xi^((p^k - 1) / 3) and v^(2 p^k) / v^2. p = 1 (mod 6) for both curves, so every division
/// is exact.
template <class Fp2>
struct FrobeniusCoefficients {
  Fp2 w[12];
  Fp2 v[12];
  Fp2 v_squared[12];

  FrobeniusCoefficients() {
    const Fp2 xi = Fp2::one().mul_by_nonresidue();
    WideInt p_power = WideInt::from_u64(1);
    for (unsigned k = 0; k < 12; ++k) {
      WideInt exponent = p_power;
      exponent.sub_in_place(WideInt::from_u64(1));
      w[k] = xi.pow(div_small(exponent, 6));
      v[k] = w[k].squared();
      v_squared[k] = v[k].squared();
      p_power = mul_by_modulus<typename Fp2::Base>(p_power);
    }
  }
};

template <class Fp2>
const FrobeniusCoefficients<Fp2>& frobenius_coefficients() {
  static const FrobeniusCoefficients<Fp2> coefficients;
  return coefficients;
}

/// (a + b s)^2 in Fp4 = Fp2[s] / (s^2 - xi), returned as (c0, c1).
template <class Fp2>
void fp4_square(const Fp2& a, const Fp2& b, Fp2& c0, Fp2& c1) {
  const Fp2 a2 = a.squared();
  const Fp2 b2 = b.squared();
  c0 = b2.mul_by_nonresidue() + a2;
  c1 = (a + b).squared() - a2 - b2;
}

}  // namespace

template <class Fp2>
Fp6T<Fp2> Fp6T<Fp2>::frobenius_map(unsigned power) const {
  power %= 12;
  const FrobeniusCoefficients<Fp2>& table = frobenius_coefficients<Fp2>();
  // Fp2 coefficients map by conjugation for odd powers; v^(p^k) = v * xi^((p^k - 1) / 3).
  const bool odd = power % 2 == 1;
  const Fp2 a0 = odd ? c0.conjugate() : c0;
  const Fp2 a1 = odd ? c1.conjugate() : c1;
  const Fp2 a2 = odd ? c2.conjugate() : c2;
  return {a0, a1 * table.v[power], a2 * table.v_squared[power]};
}

template <class Fp2>
Fp12T<Fp2> Fp12T<Fp2>::frobenius_map(unsigned power) const {
  power %= 12;
  return {c0.frobenius_map(power), c1.frobenius_map(power) * frobenius_coefficients<Fp2>().w[power]};
}

template <class Fp2>
Fp12T<Fp2> Fp12T<Fp2>::cyclotomic_squared() const {
  // Granger and Scott, "Faster squaring in the cyclotomic subgroup of sixth degree extensions" (PKC 2010):
  // with f = (z0 + z1 s) + (z2 + z3 s) w + (z4 + z5 s) w^2 over Fp4 = Fp2[s], s = w^3, unitarity gives
  // the square from three Fp4 squarings. zi below are the Fp2 slots in that order.
  const Fp2 &z0 = c0.c0, &z4 = c0.c1, &z3 = c0.c2, &z2 = c1.c0, &z1 = c1.c1, &z5 = c1.c2;
  Fp2 t0, t1, t2, t3, t4, t5;
  fp4_square(z0, z1, t0, t1);
  fp4_square(z2, z3, t2, t3);
  fp4_square(z4, z5, t4, t5);
  const Fp2 xi_t5 = t5.mul_by_nonresidue();
  // 3 t - 2 z and 3 t + 2 z, computed as 2 (t -/+ z) + t.
  const Fp2 r0 = (t0 - z0).doubled() + t0;
  const Fp2 r1 = (t1 + z1).doubled() + t1;
  const Fp2 r2 = (xi_t5 + z2).doubled() + xi_t5;
  const Fp2 r3 = (t4 - z3).doubled() + t4;
  const Fp2 r4 = (t2 - z4).doubled() + t2;
  const Fp2 r5 = (t3 + z5).doubled() + t3;
  return {{r0, r4, r3}, {r2, r1, r5}};
}

// The two towers the library builds: BLS12-381's and BN254's.
template struct Fp6T<Fp2>;
template struct Fp12T<Fp2>;
template struct Fp6T<bn254::Fp2>;
template struct Fp12T<bn254::Fp2>;

}  // namespace proofline
