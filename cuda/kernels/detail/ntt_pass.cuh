// Internal: the NTT kernels, templated on the scalar field F: one pass of the four-step transform
// (Gentleman-Sande and Cooley-Tukey, one compile each) and the tiled in-place bit reversal, instantiated once
// per curve by cuda/kernels/ntt_pass.cu and ntt_pass_bn254.cu. The work of each phase is in
// ntt_pass_body.hpp, shared with the host emulation the CPU tests run; this file adds the block-level
// sequencing, asynchronous copies and barriers.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/kernels/detail/ntt_launch.hpp>
#include <proofline/cuda/kernels/detail/ntt_pass_body.hpp>
#include <proofline/cuda/kernels/detail/ntt_small_h.hpp>

namespace proofline::cuda::detail {

__device__ __forceinline__ void copy_async_16(Chunk* shared, const void* global) {
  const auto address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(address), "l"(global) : "memory");
}

__device__ __forceinline__ void wait_async_copies() {
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// 4 elements a thread (radix-4 rounds): at most 80 registers (76 used, no spills), so that six 128-thread
// blocks (2^9-element tiles, the engine's default, 16 KiB of shared memory each) or three 256-thread blocks
// (2^10) share an SM: 24 warps, against 16 with 8 elements a thread and ~120 registers. perf/NOTES-gpu-ntt.md
// has the measurements.

template <class F, bool Dif>
__global__ void __maxnreg__(80) ntt_pass_kernel(const __grid_constant__ PassArgs<F> args) {
  extern __shared__ Chunk smem[];
  const int v = static_cast<int>(blockIdx.y);
  const std::uint32_t t = threadIdx.x, threads = blockDim.x;
  const std::uint32_t plane1 = plane1_offset(args.tile_bits);
  const Tile tile = tile_of(args, blockIdx.x);
  F* data = args.data[v];

  // Tile in: the input phase reads and scales it, or 16-byte chunks with consecutive threads on consecutive
  // chunks of each run.
  if (has_input_phase(args)) {
    elementwise_phase<Dif>(args, tile, v, true, smem, t);
  } else {
#pragma unroll
    for (unsigned i = 0; i < 2 * kRegs; ++i) {
      const std::uint32_t chunk = t + threads * i, e = chunk >> 1, half = chunk & 1u;
      copy_async_16(smem + (half ? plane1 : 0u) + swizzle(e),
                    reinterpret_cast<const char*>(data + position(args, tile, e)) + 16 * half);
    }
    wait_async_copies();
  }
  __syncthreads();

  for (int r = 0; r < args.rounds; ++r) {
    round_phase<Dif>(args, args.round[r], smem, t);
    __syncthreads();
  }

  // Tile out: the output phase scales and writes it, or the same chunks back.
  if (has_output_phase(args)) {
    elementwise_phase<Dif>(args, tile, v, false, smem, t);
    return;
  }
#pragma unroll
  for (unsigned i = 0; i < 2 * kRegs; ++i) {
    const std::uint32_t chunk = t + threads * i, e = chunk >> 1, half = chunk & 1u;
    *reinterpret_cast<Chunk*>(reinterpret_cast<char*>(data + position(args, tile, e)) + 16 * half) =
        smem[(half ? plane1 : 0u) + swizzle(e)];
  }
}

template <class F>
__global__ void __launch_bounds__(kBitrevThreads)
    bit_reverse_kernel(const __grid_constant__ BitrevArgs<F> args) {
  extern __shared__ Chunk smem[];
  const std::uint32_t m = blockIdx.x;
  if (!bitrev_block_active(args.log_n, m)) return;
  F* data = args.data[blockIdx.y];
  bitrev_load_phase(data, args.log_n, m, smem, threadIdx.x);
  __syncthreads();
  bitrev_store_phase(data, args.log_n, m, smem, threadIdx.x);
}

template <class F>
__global__ void __launch_bounds__(kSmallHThreads) small_h_kernel(const __grid_constant__ SmallHArgs<F> args) {
  extern __shared__ Chunk smem[];
  F* sm = reinterpret_cast<F*>(smem);
  const unsigned phases = small_h_phases(args);
  for (unsigned p = 0; p < phases; ++p) {
    small_h_phase(args, sm, p, threadIdx.x, blockDim.x);
    __syncthreads();
  }
}

template <class F>
__global__ void diagonal_table_kernel(F* out, const F* root_hi, const F* root_lo, unsigned lo_bits,
                                      unsigned k) {
  const std::uint32_t size = 1u << (lo_bits + k);
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += gridDim.x * blockDim.x)
    store_global(out + i, diagonal_entry(root_hi, root_lo, lo_bits, k, i));
}

template <class F>
__global__ void power_table_kernel(F* out, const F* hi, const F* lo, unsigned log_n) {
  const std::uint32_t size = 1u << log_n;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += gridDim.x * blockDim.x)
    store_global(out + i, reversed_power_entry(hi, lo, log_n, i));
}

template <class F>
void configure_ntt_kernels() {
  const int pass_bytes = static_cast<int>(pass_smem_bytes(kMaxTileBits));
  PL_CUDA_CHECK(cudaFuncSetAttribute(ntt_pass_kernel<F, true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     pass_bytes));
  PL_CUDA_CHECK(cudaFuncSetAttribute(ntt_pass_kernel<F, false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     pass_bytes));
  PL_CUDA_CHECK(cudaFuncSetAttribute(bit_reverse_kernel<F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(bitrev_smem_bytes())));
}

template <class F>
void launch_ntt_pass(const PassArgs<F>& args, CUstream_st* stream) {
  const dim3 grid(static_cast<unsigned>(pass_blocks(args)), static_cast<unsigned>(args.batch));
  const dim3 block(1u << (args.tile_bits - kRegBits));
  const std::size_t bytes = pass_smem_bytes(args.tile_bits);
  if (args.dif)
    ntt_pass_kernel<F, true><<<grid, block, bytes, stream>>>(args);
  else
    ntt_pass_kernel<F, false><<<grid, block, bytes, stream>>>(args);
  PL_CUDA_CHECK(cudaGetLastError());
}

template <class F>
void launch_small_h(const SmallHArgs<F>& args, CUstream_st* stream) {
  small_h_kernel<F><<<1, kSmallHThreads, small_h_smem_bytes(args.log_n), stream>>>(args);
  PL_CUDA_CHECK(cudaGetLastError());
}

template <class F>
void launch_diagonal_table(F* out, const F* root_hi, const F* root_lo, unsigned lo_bits, unsigned k,
                           CUstream_st* stream) {
  const std::uint32_t size = 1u << (lo_bits + k), threads = 256;
  diagonal_table_kernel<F>
      <<<std::min(size / threads, 4096u), threads, 0, stream>>>(out, root_hi, root_lo, lo_bits, k);
  PL_CUDA_CHECK(cudaGetLastError());
}

template <class F>
void launch_power_table(F* out, const F* hi, const F* lo, unsigned log_n, CUstream_st* stream) {
  const std::uint32_t size = 1u << log_n, threads = 256;
  power_table_kernel<F><<<std::min(size / threads, 4096u), threads, 0, stream>>>(out, hi, lo, log_n);
  PL_CUDA_CHECK(cudaGetLastError());
}

template <class F>
void launch_bit_reverse(const BitrevArgs<F>& args, CUstream_st* stream) {
  const dim3 grid(1u << (args.log_n - 2 * kBitrevTileLog), static_cast<unsigned>(args.batch));
  bit_reverse_kernel<F><<<grid, kBitrevThreads, bitrev_smem_bytes(), stream>>>(args);
  PL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proofline::cuda::detail
