// The R1CS evaluation kernel (cuda/gpu_r1cs.hpp), instantiated for both scalar fields: it is a few lines of
// field arithmetic, so one file serves both.
#include <proofline/cuda/check.hpp>
#include <proofline/cuda/gpu_r1cs.hpp>

#include <string>

#include <proofline/util/error.hpp>

namespace proofline::cuda {

namespace {

constexpr unsigned kThreads = 256;

template <class F>
__device__ F row_dot(const DeviceCsr<F>& m, const F* z, std::uint64_t row) {
  F sum = F::zero();
  const std::uint64_t end = m.row_offsets[row + 1];
  for (std::uint64_t k = m.row_offsets[row]; k < end; ++k) sum += m.values[k] * z[m.columns[k]];
  return sum;
}

template <class F>
__global__ void __launch_bounds__(kThreads)
    evaluate_r1cs_kernel(DeviceCsr<F> a_matrix, DeviceCsr<F> b_matrix, DeviceCsr<F> c_matrix, bool has_c,
                         std::uint64_t rows, std::uint64_t n, const F* z, F* a, F* b, F* c,
                         unsigned long long* first_bad_row) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{kThreads} + threadIdx.x;
  if (i >= n) return;
  if (i >= rows) {
    a[i] = b[i] = c[i] = F::zero();
    return;
  }
  const F ai = row_dot(a_matrix, z, i);
  const F bi = row_dot(b_matrix, z, i);
  const F product = ai * bi;
  const F ci = has_c ? row_dot(c_matrix, z, i) : product;
  a[i] = ai;
  b[i] = bi;
  c[i] = ci;
  if (first_bad_row != nullptr && product != ci) atomicMin(first_bad_row, static_cast<unsigned long long>(i));
}

}  // namespace

template <class F>
void enqueue_evaluate_r1cs(const DeviceCsr<F>& a_matrix, const DeviceCsr<F>& b_matrix,
                           const DeviceCsr<F>* c_matrix, std::uint64_t rows, std::uint64_t n, const F* z,
                           F* a, F* b, F* c, std::uint64_t* first_bad_row, CUstream_st* stream) {
  if (rows > n)
    throw Error(Errc::invalid_argument, "R1CS evaluation: " + std::to_string(rows) + " rows do not fit in " +
                                            std::to_string(n) + " values");
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  auto* bad = c_matrix != nullptr ? reinterpret_cast<unsigned long long*>(first_bad_row) : nullptr;
  if (bad != nullptr) PL_CUDA_CHECK(cudaMemsetAsync(bad, 0xff, sizeof *bad, stream));
  if (n == 0) return;
  const std::uint64_t blocks = (n + kThreads - 1) / kThreads;
  evaluate_r1cs_kernel<F><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      a_matrix, b_matrix, c_matrix != nullptr ? *c_matrix : DeviceCsr<F>{}, c_matrix != nullptr, rows, n, z,
      a, b, c, bad);
  PL_CUDA_CHECK(cudaGetLastError());
}

template void enqueue_evaluate_r1cs(const DeviceCsr<Fr>&, const DeviceCsr<Fr>&, const DeviceCsr<Fr>*,
                                    std::uint64_t, std::uint64_t, const Fr*, Fr*, Fr*, Fr*, std::uint64_t*,
                                    CUstream_st*);
template void enqueue_evaluate_r1cs(const DeviceCsr<bn254::Fr>&, const DeviceCsr<bn254::Fr>&,
                                    const DeviceCsr<bn254::Fr>*, std::uint64_t, std::uint64_t,
                                    const bn254::Fr*, bn254::Fr*, bn254::Fr*, bn254::Fr*, std::uint64_t*,
                                    CUstream_st*);

}  // namespace proofline::cuda
