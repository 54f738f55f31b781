#include "arith_kernels.hpp"

#include <proofline/arith/curve.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/stream.hpp>

namespace proofline::gpu_test {

namespace {

template <class F>
__global__ void field_ops_kernel(const F* a, const F* b, F* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const F x = a[i], y = b[i];
  const int j = (i + 1) % n;
  out[kFieldOps * i + 0] = x * y;
  out[kFieldOps * i + 1] = x + y;
  out[kFieldOps * i + 2] = x - y;
  out[kFieldOps * i + 3] = x.inverse() * y;
  out[kFieldOps * i + 4] = proofline::detail::product_difference(x, y, b[j], a[j]);
}

template <class F>
std::vector<F> run_field_ops(const std::vector<F>& a, const std::vector<F>& b) {
  const int n = static_cast<int>(a.size());
  cuda::Stream stream;
  cuda::DeviceBuffer<F> da(a.size()), db(b.size()), dout(kFieldOps * a.size());
  da.upload(a.data(), a.size(), stream);
  db.upload(b.data(), b.size(), stream);
  field_ops_kernel<F><<<(n + 127) / 128, 128, 0, stream>>>(da.data(), db.data(), dout.data(), n);
  PL_CUDA_CHECK(cudaGetLastError());
  std::vector<F> out(kFieldOps * a.size());
  dout.download(out.data(), out.size(), stream);
  stream.synchronize();
  return out;
}

}  // namespace

std::vector<Fr> fr_ops_on_device(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  return run_field_ops(a, b);
}
std::vector<Fp> fp_ops_on_device(const std::vector<Fp>& a, const std::vector<Fp>& b) {
  return run_field_ops(a, b);
}
std::vector<Fp2> fp2_ops_on_device(const std::vector<Fp2>& a, const std::vector<Fp2>& b) {
  return run_field_ops(a, b);
}

}  // namespace proofline::gpu_test
