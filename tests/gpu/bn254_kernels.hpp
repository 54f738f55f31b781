// Host entry points of the BN254 device arithmetic checks (kernels in bn254_kernels.cu), so the doctest
// cases stay in plain C++.
#pragma once

#include <vector>

#include <proofline/arith/curves.hpp>

namespace proofline::gpu_test {

/// For each i: out[5i..5i+4] = {a*b, a+b, a-b, a^-1 * b, a^2} computed on the device.
std::vector<bn254::Fr> field_ops_on_device(const std::vector<bn254::Fr>& a, const std::vector<bn254::Fr>& b);
std::vector<bn254::Fp> field_ops_on_device(const std::vector<bn254::Fp>& a, const std::vector<bn254::Fp>& b);
std::vector<bn254::Fp2> field_ops_on_device(const std::vector<bn254::Fp2>& a,
                                            const std::vector<bn254::Fp2>& b);

/// What the device computes from one pair of affine points P, Q: every coordinate system's additions and
/// doublings (the MSM's and the fixed-base multiplication's building blocks).
template <class Curve>
struct CurveOpsOut {
  XyzzPoint<Curve> add_mixed;       ///< P + Q, madd-2008-s
  XyzzPoint<Curve> sub_mixed;       ///< P - Q, madd-2008-s with the negated y
  XyzzPoint<Curve> add;             ///< P + Q, add-2008-s
  XyzzPoint<Curve> dbl;             ///< 2P, dbl-2008-s-1
  XyzzPoint<Curve> dbl_affine;      ///< 2Q, mdbl-2008-s-1
  JacobianPoint<Curve> jadd;        ///< P + Q, add-2007-bl
  JacobianPoint<Curve> jadd_mixed;  ///< P + Q, madd-2007-bl
  JacobianPoint<Curve> jdbl;        ///< 2P, dbl-2009-l
  AffinePoint<Curve> affine;        ///< P + Q through XYZZ, back to affine with one inversion
};

std::vector<CurveOpsOut<bn254::G1Params>> curve_ops_on_device(const std::vector<bn254::G1Affine>& p,
                                                              const std::vector<bn254::G1Affine>& q);
std::vector<CurveOpsOut<bn254::G2Params>> curve_ops_on_device(const std::vector<bn254::G2Affine>& p,
                                                              const std::vector<bn254::G2Affine>& q);

}  // namespace proofline::gpu_test
