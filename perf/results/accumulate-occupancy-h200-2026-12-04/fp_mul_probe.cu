// Probe: Montgomery product variants on 32-bit limbs, throughput on the GPU and bitwise agreement.
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include <proofline/arith/bn254/fp.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/detail/limbs32.hpp>
#include <proofline/arith/detail/mont_mul_limbs32.hpp>
#include <proofline/arith/detail/mont_sqr_limbs32.hpp>
#include <proofline/arith/detail/mont_reduce_limbs32.hpp>
#include <proofline/arith/detail/mul_wide_limbs32.hpp>
#include <proofline/arith/detail/ptx_carry_ops.cuh>


namespace proofline::detail::limbs32 {
template <int N>
struct NLimbs { static constexpr int kLimbs = N; };
template <int N, class Ops>
__device__ __forceinline__ void mul_wide_limbs_probe(Ops& ops, std::uint32_t* t, const std::uint32_t* a,
                                                     const std::uint32_t* b) {
  mul_wide<NLimbs<N>>(ops, t, a, b);
}
}  // namespace proofline::detail::limbs32

using namespace proofline;
using namespace proofline::detail;

// One level of subtractive Karatsuba on the wide product (tried here, not kept: see README.md). With a = a1 B +
// a0, b = b1 B + b0 (B = 2^(32h)): a·b = a1 b1 B^2 + (a0 b0 + a1 b1 + (a0 − a1)(b1 − b0)) B + a0 b0.
template <int N, class Ops>
__device__ __forceinline__ std::uint32_t abs_difference(Ops& ops, std::uint32_t* d, const std::uint32_t* x,
                                                        const std::uint32_t* y) {
  ops.sub_cc(d[0], x[0], y[0]);
  for (int k = 1; k < N; ++k) ops.subc_cc(d[k], x[k], y[k]);
  std::uint32_t negative, unused;
  ops.subc(negative, 0u, 0u);
  ops.add_cc(unused, negative, negative);  // carry in = negative & 1
  for (int k = 0; k < N - 1; ++k) ops.addc_cc(d[k], d[k] ^ negative, 0u);
  ops.addc(d[N - 1], d[N - 1] ^ negative, 0u);
  return negative;
}

template <class L, class Ops>
__device__ __forceinline__ void mul_wide_karatsuba(Ops& ops, std::uint32_t* t, const std::uint32_t* a,
                                                   const std::uint32_t* b) {
  constexpr int n = L::kLimbs, h = n / 2;
  limbs32::mul_wide_limbs_probe<h>(ops, t, a, b);
  limbs32::mul_wide_limbs_probe<h>(ops, t + n, a + h, b + h);
  std::uint32_t da[h], db[h], dm[n];
  const std::uint32_t sign = abs_difference<h>(ops, da, a, a + h) ^ abs_difference<h>(ops, db, b + h, b);
  limbs32::mul_wide_limbs_probe<h>(ops, dm, da, db);
  std::uint32_t m[n], top, carry, unused;
  ops.add_cc(m[0], t[0], t[n]);
  for (int k = 1; k < n; ++k) ops.addc_cc(m[k], t[k], t[n + k]);
  ops.addc(top, 0u, 0u);
  ops.add_cc(unused, sign, sign);
  for (int k = 0; k < n; ++k) ops.addc_cc(m[k], m[k], dm[k] ^ sign);
  ops.addc(carry, 0u, 0u);
  top += carry + sign;
  ops.add_cc(t[h], t[h], m[0]);
  for (int k = 1; k < n; ++k) ops.addc_cc(t[h + k], t[h + k], m[k]);
  ops.addc_cc(t[h + n], t[h + n], top);
  for (int k = h + n + 1; k < 2 * n - 1; ++k) ops.addc_cc(t[k], t[k], 0u);
  ops.addc(t[2 * n - 1], t[2 * n - 1], 0u);
}

/// BLS12-381's Fr without the reduction rows' low-limb shortcut (the plain rows BN254's fields use).
struct FrLimbsPlainRows : Limbs32<FrParams> {
  static constexpr bool kLowLimbsShortcut = false;
};

template <class L, int V>
__device__ __forceinline__ void mulv(std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  PtxCarryOps ops;
  constexpr int n = L::kLimbs;
  if constexpr (V == 0) {
    limbs32::mont_mul<L>(ops, out, a, b);
  } else if constexpr (V == 3) {
    limbs32::mont_sqr<L>(ops, out, a);
  } else {
    std::uint32_t t[2 * n];
    if constexpr (V == 1) limbs32::mul_wide<L>(ops, t, a, b);
    else mul_wide_karatsuba<L>(ops, t, a, b);
    limbs32::redc_wide<L>(ops, out, t);
  }
}

constexpr int kSteps = 256;

template <class L, int V, int Chains, int MinBlocks>
__global__ void __launch_bounds__(128, MinBlocks) probe(std::uint32_t* out, const std::uint32_t* in) {
  constexpr int n = L::kLimbs;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t x[Chains][n], c[n];
  for (int k = 0; k < n; ++k) c[k] = in[(t % 4096) * n + k];
  for (int j = 0; j < Chains; ++j)
    for (int k = 0; k < n; ++k) x[j][k] = in[((t + 17 * j + 1) % 4096) * n + k];
#pragma unroll 1
  for (int s = 0; s < kSteps; ++s) {
#pragma unroll
    for (int j = 0; j < Chains; ++j) mulv<L, V>(x[j], x[j], c);
  }
  for (int j = 0; j < Chains; ++j)
    for (int k = 0; k < n; ++k) out[(static_cast<std::size_t>(t) * Chains + j) * n + k] = x[j][k];
}

template <class F, int Chains, int MinBlocks, class L = typename Limbs32OfField<F>::type>
void run(const char* name) {
  constexpr int n = L::kLimbs;
  const int blocks = 132 * 32, threads = 128;
  const std::size_t outs = std::size_t(blocks) * threads * Chains * n;
  std::vector<std::uint32_t> host_in(4096 * n);
  std::uint64_t s = 0x1234567;
  for (int i = 0; i < 4096; ++i) {
    F x = F::from_u64(s = s * 6364136223846793005ULL + 1442695040888963407ULL);
    for (int k = 0; k < 5; ++k) x = x * x + F::from_u64(s >> 7);
    L::split_limbs(&host_in[i * n], x.limb);
  }
  std::uint32_t *in, *out;
  cudaMalloc(&in, host_in.size() * 4);
  cudaMalloc(&out, outs * 4);
  cudaMemcpy(in, host_in.data(), host_in.size() * 4, cudaMemcpyHostToDevice);
  std::vector<std::uint32_t> ref(outs), got(outs);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  auto time_variant = [&](auto kernel, const char* label, bool compare) {
    kernel<<<blocks, threads>>>(out, in);
    cudaDeviceSynchronize();
    std::vector<float> ms;
    for (int r = 0; r < 7; ++r) {
      cudaEventRecord(e0);
      kernel<<<blocks, threads>>>(out, in);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float m;
      cudaEventElapsedTime(&m, e0, e1);
      ms.push_back(m);
    }
    std::sort(ms.begin(), ms.end());
    cudaMemcpy(got.data(), out, outs * 4, cudaMemcpyDeviceToHost);
    bool same = true;
    if (compare) same = got == ref; else ref = got;
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, kernel);
    const double muls = double(blocks) * threads * Chains * kSteps;
    std::printf("%-8s chains %d minblk %d %-22s %8.3f ms  %7.2f G/s  regs %3d local %4zu  %s\n", name, Chains,
                MinBlocks, label, ms[3], muls / (ms[3] * 1e-3) * 1e-9, attr.numRegs, attr.localSizeBytes,
                compare ? (same ? "same" : "MISMATCH") : "ref");
  };
  time_variant(probe<L, 0, Chains, MinBlocks>, "CIOS mont_mul", false);
  time_variant(probe<L, 1, Chains, MinBlocks>, "schoolbook + redc_wide", true);
  time_variant(probe<L, 2, Chains, MinBlocks>, "karatsuba + redc_wide", true);
  time_variant(probe<L, 3, Chains, MinBlocks>, "mont_sqr (x*x)", false);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) std::printf("CUDA error %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
}

int main() {
  run<Fp, 2, 3>("bls-fp");
  run<Fp, 2, 4>("bls-fp");
  run<Fp, 4, 2>("bls-fp");
  run<Fr, 2, 4>("bls-fr");
  run<Fr, 4, 4>("bls-fr");
  run<Fr, 2, 4, FrLimbsPlainRows>("fr-plain");
  run<Fr, 4, 4, FrLimbsPlainRows>("fr-plain");
  run<bn254::Fp, 2, 4>("bn-fp");
  run<bn254::Fp, 4, 4>("bn-fp");
  return 0;
}
