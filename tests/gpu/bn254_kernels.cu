#include "bn254_kernels.hpp"

#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/stream.hpp>

namespace proofline::gpu_test {

namespace {

template <class F>
__global__ void field_ops_kernel(const F* a, const F* b, F* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const F x = a[i], y = b[i];
  out[5 * i + 0] = x * y;
  out[5 * i + 1] = x + y;
  out[5 * i + 2] = x - y;
  out[5 * i + 3] = x.inverse() * y;
  out[5 * i + 4] = x.squared();
}

// One out-of-line function per operation, as in compile_check_curves.cu: G2's field code inlined into one
// kernel would make ptxas slow, and the MSM kernels call these formulas through the same templates.
template <class Curve>
struct Ops {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;

  static __device__ __noinline__ Xyzz add_mixed(const Xyzz& p, const Affine& q, bool subtract) {
    return p.add_mixed(q, subtract);
  }
  static __device__ __noinline__ Xyzz add(const Xyzz& p, const Xyzz& q) { return p + q; }
  static __device__ __noinline__ Xyzz dbl(const Xyzz& p) { return p.dbl(); }
  static __device__ __noinline__ Xyzz dbl_affine(const Affine& p) { return Xyzz::dbl_affine(p); }
  static __device__ __noinline__ Jacobian jadd(const Jacobian& p, const Jacobian& q) { return p + q; }
  static __device__ __noinline__ Jacobian jadd_mixed(const Jacobian& p, const Affine& q) { return p + q; }
  static __device__ __noinline__ Jacobian jdbl(const Jacobian& p) { return p.dbl(); }
  static __device__ __noinline__ Affine to_affine(const Xyzz& p) { return p.to_affine(); }
};

template <class Curve>
__global__ void curve_ops_kernel(const AffinePoint<Curve>* p, const AffinePoint<Curve>* q,
                                 CurveOpsOut<Curve>* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using O = Ops<Curve>;
  const AffinePoint<Curve> a = p[i], b = q[i];
  CurveOpsOut<Curve> r;
  r.add_mixed = O::add_mixed(a.to_xyzz(), b, false);
  r.sub_mixed = O::add_mixed(a.to_xyzz(), b, true);
  r.add = O::add(a.to_xyzz(), b.to_xyzz());
  r.dbl = O::dbl(a.to_xyzz());
  r.dbl_affine = O::dbl_affine(b);
  r.jadd = O::jadd(a.to_jacobian(), b.to_jacobian());
  r.jadd_mixed = O::jadd_mixed(a.to_jacobian(), b);
  r.jdbl = O::jdbl(a.to_jacobian());
  r.affine = O::to_affine(r.add_mixed);
  out[i] = r;
}

template <class T>
cuda::DeviceBuffer<T> upload(const std::vector<T>& host, cuda::Stream& stream) {
  cuda::DeviceBuffer<T> out(host.size());
  out.upload(host.data(), host.size(), stream);
  return out;
}

template <class F>
std::vector<F> run_field_ops(const std::vector<F>& a, const std::vector<F>& b) {
  const int n = static_cast<int>(a.size());
  cuda::Stream stream;
  const auto da = upload(a, stream), db = upload(b, stream);
  cuda::DeviceBuffer<F> dout(5 * a.size());
  field_ops_kernel<F><<<(n + 127) / 128, 128, 0, stream>>>(da.data(), db.data(), dout.data(), n);
  PL_CUDA_CHECK(cudaGetLastError());
  std::vector<F> out(5 * a.size());
  dout.download(out.data(), out.size(), stream);
  stream.synchronize();
  return out;
}

template <class Curve>
std::vector<CurveOpsOut<Curve>> run_curve_ops(const std::vector<AffinePoint<Curve>>& p,
                                              const std::vector<AffinePoint<Curve>>& q) {
  const int n = static_cast<int>(p.size());
  cuda::Stream stream;
  const auto dp = upload(p, stream), dq = upload(q, stream);
  cuda::DeviceBuffer<CurveOpsOut<Curve>> dout(p.size());
  curve_ops_kernel<Curve><<<(n + 63) / 64, 64, 0, stream>>>(dp.data(), dq.data(), dout.data(), n);
  PL_CUDA_CHECK(cudaGetLastError());
  std::vector<CurveOpsOut<Curve>> out(p.size());
  dout.download(out.data(), out.size(), stream);
  stream.synchronize();
  return out;
}

}  // namespace

std::vector<bn254::Fr> field_ops_on_device(const std::vector<bn254::Fr>& a, const std::vector<bn254::Fr>& b) {
  return run_field_ops(a, b);
}
std::vector<bn254::Fp> field_ops_on_device(const std::vector<bn254::Fp>& a, const std::vector<bn254::Fp>& b) {
  return run_field_ops(a, b);
}
std::vector<bn254::Fp2> field_ops_on_device(const std::vector<bn254::Fp2>& a,
                                            const std::vector<bn254::Fp2>& b) {
  return run_field_ops(a, b);
}

std::vector<CurveOpsOut<bn254::G1Params>> curve_ops_on_device(const std::vector<bn254::G1Affine>& p,
                                                              const std::vector<bn254::G1Affine>& q) {
  return run_curve_ops(p, q);
}
std::vector<CurveOpsOut<bn254::G2Params>> curve_ops_on_device(const std::vector<bn254::G2Affine>& p,
                                                              const std::vector<bn254::G2Affine>& q) {
  return run_curve_ops(p, q);
}

}  // namespace proofline::gpu_test
