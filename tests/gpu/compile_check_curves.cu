// Compile-only check that the curve headers build as device code for sm_90; not linked into any target:
//   nvcc -std=c++20 -arch=sm_90 -I<build>/include -c tests/gpu/compile_check_curves.cu -o /dev/null
// Every device entry point of curve.hpp, g1.hpp and g2.hpp is instantiated once per group, each in its own
// non-inlined function: the portable 64-bit field code inlines into very long straight-line functions, and
// keeping each operation separate keeps ptxas time reasonable.
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

namespace proofline::cuda {

template <class Curve>
struct Ops {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;

  // The MSM hot path: a signed digit adds or subtracts an affine base into an XYZZ bucket.
  static __device__ __noinline__ Xyzz add_mixed(const Xyzz& bucket, const Affine& base, bool subtract) {
    return bucket.add_mixed(base, subtract);
  }
  static __device__ __noinline__ Xyzz add(const Xyzz& a, const Xyzz& b) { return a + b; }
  static __device__ __noinline__ Xyzz dbl(const Xyzz& a) { return a.dbl(); }
  static __device__ __noinline__ Xyzz dbl_affine(const Affine& a) { return Xyzz::dbl_affine(a); }
  static __device__ __noinline__ Jacobian add(const Jacobian& a, const Jacobian& b) { return a + b; }
  static __device__ __noinline__ Jacobian add_mixed(const Jacobian& a, const Affine& b) { return a - b; }
  static __device__ __noinline__ Jacobian dbl(const Jacobian& a) { return -a.dbl(); }
  static __device__ __noinline__ Affine to_affine(const Xyzz& a) { return a.to_affine(); }
  static __device__ __noinline__ Affine to_affine(const Jacobian& a) { return a.to_affine(); }
  static __device__ __noinline__ Jacobian convert(const Xyzz& a, const Affine& b) {
    return a.to_jacobian() + b.to_xyzz().to_jacobian().to_xyzz().to_jacobian();
  }
  static __device__ __noinline__ bool compare(const Affine& a, const Jacobian& b, const Xyzz& c) {
    return a == b && b == c && c == a && a == -a && b == -b && c == -c && a.is_on_curve() &&
           b.is_on_curve() && c.is_on_curve() && a.is_infinity() && b.is_infinity() && c.is_infinity();
  }
  static __device__ __noinline__ Jacobian mul(const Affine& a, const Fr& k) { return a.mul(k); }
  static __device__ __noinline__ Jacobian mul(const Jacobian& a, const Fr& k) { return a.mul(k); }
  static __device__ __noinline__ Xyzz mul(const Xyzz& a, const Fr& k) { return a.mul(k); }
  static __device__ __noinline__ bool subgroup(const Affine& a, const Jacobian& b) {
    return is_in_subgroup(a) && is_in_subgroup(b);
  }
  static __device__ __noinline__ bool subgroup_slow(const Affine& a) { return is_in_subgroup_slow(a); }

  static __device__ void run(const Affine* bases, const int* digits, int count, const Fr* scalars,
                             Affine* out, bool* flags) {
    const unsigned t = threadIdx.x;
    Xyzz bucket = Xyzz::infinity();
    for (int i = 0; i < count; ++i) bucket = add_mixed(bucket, bases[i], digits[i] < 0);
    bucket = dbl(add(bucket, dbl_affine(bases[t])));
    Jacobian acc = dbl(add_mixed(add(convert(bucket, bases[t]), Jacobian::generator()), bases[t + 1]));
    out[4 * t] = to_affine(bucket);
    out[4 * t + 1] = to_affine(acc);
    out[4 * t + 2] = to_affine(mul(bases[t], scalars[t]) + mul(acc, scalars[t]));
    out[4 * t + 3] = to_affine(mul(bucket, scalars[t]));
    flags[t] = compare(bases[t], acc, bucket) && subgroup(bases[t], acc) && subgroup_slow(bases[t]);
  }
};

__global__ void g1_curve_ops(const G1Affine* bases, const int* digits, int count, const Fr* scalars,
                             G1Affine* out, bool* flags) {
  Ops<G1Params>::run(bases, digits, count, scalars, out, flags);
}

__global__ void g2_curve_ops(const G2Affine* bases, const int* digits, int count, const Fr* scalars,
                             G2Affine* out, bool* flags) {
  Ops<G2Params>::run(bases, digits, count, scalars, out, flags);
}

}  // namespace proofline::cuda
