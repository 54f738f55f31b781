// Internal: the group-dependent kernels of the GPU MSM (the point additions), templated on the group and
// instantiated once per group by cuda/kernels/msm_g1.cu, msm_g2.cu (BLS12-381), msm_g1_bn254.cu and
// msm_g2_bn254.cu. See msm_body.hpp for the algorithm.
#pragma once

#include <algorithm>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/kernels/detail/fixed_base_kernels.cuh>
#include <proofline/cuda/kernels/detail/msm_body.hpp>
#include <proofline/cuda/kernels/detail/msm_launch.hpp>
#include <proofline/cuda/kernels/detail/msm_table_body.hpp>

namespace proofline::cuda::detail {

template <class Curve>
__global__ void __launch_bounds__(AccumulateShape<Curve>::threads, AccumulateShape<Curve>::min_blocks)
    msm_accumulate_kernel(MsmArgs<Curve> a, std::uint32_t threads) {
  const std::uint32_t t = blockIdx.x * AccumulateShape<Curve>::threads + threadIdx.x;
  if constexpr (AccumulateShape<Curve>::sums_in_shared) {
    __shared__ XyzzPoint<Curve> sums[AccumulateShape<Curve>::threads];
    if (t < threads) accumulate_body(a, t, sums[threadIdx.x]);
  } else {
    if (t < threads) accumulate_body(a, t);
  }
}

template <class Curve>
__global__ void __launch_bounds__(128) msm_fixup_kernel(MsmArgs<Curve> a, std::uint32_t threads) {
  const std::uint32_t t = blockIdx.x * 128 + threadIdx.x;
  if (t < threads) fixup_body(a, t);
}

/// Sums buffer[0, kBlockSumThreads), one point per thread of the block written there, into every thread's
/// return value (a tree in the buffer).
template <class Curve>
__device__ XyzzPoint<Curve> block_sum_in_place(XyzzPoint<Curve>* buffer) {
  constexpr unsigned threads = kBlockSumThreads<Curve>;
  __syncthreads();
  for (unsigned half = threads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) buffer[threadIdx.x] = point_add(buffer[threadIdx.x], buffer[threadIdx.x + half]);
    __syncthreads();
  }
  const XyzzPoint<Curve> sum = buffer[0];
  __syncthreads();  // the buffer may be written again by the caller's next round
  return sum;
}

/// Sums one point per thread of the block into every thread's return value.
template <class Curve>
__device__ XyzzPoint<Curve> block_sum(XyzzPoint<Curve> value) {
  __shared__ XyzzPoint<Curve> buffer[kBlockSumThreads<Curve>];
  buffer[threadIdx.x] = value;
  return block_sum_in_place<Curve>(buffer);
}

template <class Curve>
__global__ void __launch_bounds__(kBlockSumThreads<Curve>) msm_hot_kernel(MsmArgs<Curve> a) {
  const std::uint32_t hot = a.counters->hot;
  for (std::uint32_t h = blockIdx.x; h < hot; h += gridDim.x) {
    const XyzzPoint<Curve> sum = block_sum<Curve>(hot_lane_sum(a, h, threadIdx.x, kBlockSumThreads<Curve>));
    if (threadIdx.x == 0) store_hot(a, h, sum);
  }
}

template <class Curve>
__global__ void __launch_bounds__(kBlockSumThreads<Curve>, kOnesBlocksPerSm<Curve>)
    msm_ones_kernel(MsmArgs<Curve> a, XyzzPoint<Curve>* partial) {
  const std::uint32_t threads = gridDim.x * kBlockSumThreads<Curve>;
  const std::uint32_t t = blockIdx.x * kBlockSumThreads<Curve> + threadIdx.x;
  XyzzPoint<Curve> sum;
  if constexpr (AccumulateShape<Curve>::sums_in_shared) {
    // As in the accumulate kernel; the thread's sum lives in the block tree's own buffer.
    __shared__ XyzzPoint<Curve> sums[kBlockSumThreads<Curve>];
    ones_thread_sum(a, t, threads, sums[threadIdx.x]);
    sum = block_sum_in_place<Curve>(sums);
  } else {
    sum = block_sum<Curve>(ones_thread_sum(a, t, threads));
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

/// One block: the sum of `count` points.
template <class Curve>
__global__ void __launch_bounds__(kBlockSumThreads<Curve>)
    msm_sum_kernel(const XyzzPoint<Curve>* points, std::uint32_t count, XyzzPoint<Curve>* out) {
  XyzzPoint<Curve> acc = XyzzPoint<Curve>::infinity();
  for (std::uint32_t j = threadIdx.x; j < count; j += kBlockSumThreads<Curve>)
    acc = point_add(acc, points[j]);
  const XyzzPoint<Curve> sum = block_sum<Curve>(acc);
  if (threadIdx.x == 0) *out = sum;
}

template <class Curve, bool with_plain>
__global__ void __launch_bounds__(128)
    msm_reduce_kernel(ReduceLevel level, std::uint32_t windows, const XyzzPoint<Curve>* x,
                      const std::uint32_t* x_present, const XyzzPoint<Curve>* s, XyzzPoint<Curve>* a_out,
                      XyzzPoint<Curve>* s_out) {
  const std::uint32_t t = blockIdx.x * 128 + threadIdx.x;
  if (t >= level.out_per_window * windows) return;
  reduce_body<Curve, with_plain>(level, x, x_present, s, a_out, s_out, t / level.out_per_window,
                                 t % level.out_per_window);
}

/// Block (row, w): row `row` of window w's tail (see tail_lane_sum) into rows[w * tail.rows() + row].
template <class Curve>
__global__ void __launch_bounds__(kBlockSumThreads<Curve>)
    msm_tail_rows_kernel(ReduceTail tail, const XyzzPoint<Curve>* x, const std::uint32_t* x_present,
                         const XyzzPoint<Curve>* s, XyzzPoint<Curve>* rows) {
  const XyzzPoint<Curve> sum = block_sum<Curve>(
      tail_lane_sum(tail, x, x_present, s, blockIdx.y, blockIdx.x, threadIdx.x, kBlockSumThreads<Curve>));
  if (threadIdx.x == 0) rows[std::size_t{blockIdx.y} * tail.rows() + blockIdx.x] = sum;
}

template <class Curve>
__global__ void __launch_bounds__(128)
    msm_tail_finish_kernel(ReduceTail tail, std::uint32_t windows, const XyzzPoint<Curve>* rows,
                           XyzzPoint<Curve>* values) {
  const std::uint32_t w = blockIdx.x * 128 + threadIdx.x;
  if (w < windows) values[w] = tail_finish(tail, rows + std::size_t{w} * tail.rows());
}

template <class Curve>
__global__ void msm_combine_kernel(const XyzzPoint<Curve>* window_values, int windows, int window_bits,
                                   const XyzzPoint<Curve>* ones, JacobianPoint<Curve>* result) {
  *result = combine_windows(window_values, windows, window_bits, ones);
}

/// Streamed MSM: total = first ? partial : total + partial (one thread; a batch's result joins the sum).
template <class Curve>
__global__ void msm_add_result_kernel(JacobianPoint<Curve>* total, const JacobianPoint<Curve>* partial,
                                      bool first) {
  *total = first ? *partial : *total + *partial;
}

template <class Curve>
void launch_msm_add_result_impl(JacobianPoint<Curve>* total, const JacobianPoint<Curve>* partial, bool first,
                                cudaStream_t stream) {
  msm_add_result_kernel<Curve><<<1, 1, 0, stream>>>(total, partial, first);
  PL_CUDA_CHECK(cudaGetLastError());
}

inline unsigned msm_blocks(std::size_t threads, unsigned block) {
  return static_cast<unsigned>((threads + block - 1) / block);
}

template <class Curve>
void launch_msm_tail_impl(const MsmTail<Curve>& tail, cudaStream_t stream) {
  const MsmArgs<Curve>& a = tail.args;
  const MsmLayout& layout = *tail.layout;
  int device = 0, sms = 0;
  PL_CUDA_CHECK(cudaGetDevice(&device));
  PL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  constexpr unsigned sum_threads = kBlockSumThreads<Curve>;

  if (a.split) {
    msm_ones_kernel<Curve><<<layout.ones_blocks, sum_threads, 0, stream>>>(a, tail.ones_partial);
    PL_CUDA_CHECK(cudaGetLastError());
    msm_sum_kernel<Curve>
        <<<1, sum_threads, 0, stream>>>(tail.ones_partial, layout.ones_blocks, tail.ones_total);
    PL_CUDA_CHECK(cudaGetLastError());
  }

  const std::uint64_t entries = static_cast<std::uint64_t>(a.n) * static_cast<std::uint64_t>(a.windows);
  const std::uint32_t threads = static_cast<std::uint32_t>((entries + a.chunk - 1) / a.chunk);
  constexpr unsigned acc_threads = AccumulateShape<Curve>::threads;
  msm_accumulate_kernel<Curve><<<msm_blocks(threads, acc_threads), acc_threads, 0, stream>>>(a, threads);
  PL_CUDA_CHECK(cudaGetLastError());
  msm_fixup_kernel<Curve><<<msm_blocks(threads, 128), 128, 0, stream>>>(a, threads);
  PL_CUDA_CHECK(cudaGetLastError());
  msm_hot_kernel<Curve><<<static_cast<unsigned>(sms) * 2u, sum_threads, 0, stream>>>(a);
  PL_CUDA_CHECK(cudaGetLastError());

  const XyzzPoint<Curve>* x = a.buckets;
  const std::uint32_t* present = a.counts;
  const XyzzPoint<Curve>* s = nullptr;
  const std::uint32_t windows = a.bucket_windows();
  const ReducePlan& plan = layout.reduce_plan;
  for (std::size_t l = 0; l < plan.levels.size(); ++l) {
    const ReduceLevel& level = plan.levels[l];
    XyzzPoint<Curve>* a_out = tail.reduce[2 * (l % 2)];
    XyzzPoint<Curve>* s_out = tail.reduce[2 * (l % 2) + 1];
    const unsigned blocks = msm_blocks(std::size_t{level.out_per_window} * windows, 128);
    if (s == nullptr) {
      msm_reduce_kernel<Curve, false>
          <<<blocks, 128, 0, stream>>>(level, windows, x, present, s, a_out, s_out);
    } else {
      msm_reduce_kernel<Curve, true><<<blocks, 128, 0, stream>>>(level, windows, x, present, s, a_out, s_out);
    }
    PL_CUDA_CHECK(cudaGetLastError());
    x = a_out;
    s = s_out;
    present = nullptr;
  }
  // The tail writes into the pair of regions the last level read from (either pair when no level ran).
  const std::size_t spare = 2 * (plan.levels.size() % 2);
  XyzzPoint<Curve>* rows = tail.reduce[spare];
  XyzzPoint<Curve>* values = tail.reduce[spare + 1];
  msm_tail_rows_kernel<Curve>
      <<<dim3(plan.tail.rows(), windows), sum_threads, 0, stream>>>(plan.tail, x, present, s, rows);
  PL_CUDA_CHECK(cudaGetLastError());
  msm_tail_finish_kernel<Curve>
      <<<msm_blocks(windows, 128), 128, 0, stream>>>(plan.tail, windows, rows, values);
  PL_CUDA_CHECK(cudaGetLastError());
  s = values;
  msm_combine_kernel<Curve><<<1, 1, 0, stream>>>(s, static_cast<int>(windows), a.window_bits,
                                                 a.split ? tail.ones_total : nullptr, tail.result);
  PL_CUDA_CHECK(cudaGetLastError());
}

// ---- precomputed-window tables ---------------------------------------------------------------------------

template <class Curve>
__global__ void __launch_bounds__(128)
    msm_table_step_kernel(const AffinePoint<Curve>* previous, XyzzPoint<Curve>* out, int window_bits,
                          std::uint32_t count) {
  const std::uint32_t i = blockIdx.x * 128 + threadIdx.x;
  if (i < count) table_step_body(previous, out, window_bits, i);
}

template <class Curve>
void launch_msm_table_impl(const MsmTable<Curve>& t, cudaStream_t stream) {
  using Affine = AffinePoint<Curve>;
  if (t.table != t.points)
    PL_CUDA_CHECK(cudaMemcpyAsync(t.table, t.points, t.n * sizeof(Affine), cudaMemcpyDeviceToDevice, stream));
  // All points at once when the work space holds them, else whole affine groups per chunk.
  const std::size_t chunk = t.n <= t.temp_points ? t.n : t.temp_points / kAffineGroup * kAffineGroup;
  for (int w = 1; w < t.windows; ++w) {
    const Affine* previous = t.table + static_cast<std::size_t>(w - 1) * t.n;
    Affine* block = t.table + static_cast<std::size_t>(w) * t.n;
    for (std::size_t lo = 0; lo < t.n; lo += chunk) {
      const std::size_t count = std::min(chunk, t.n - lo);
      msm_table_step_kernel<Curve><<<msm_blocks(count, 128), 128, 0, stream>>>(
          previous + lo, t.temp, t.window_bits, static_cast<std::uint32_t>(count));
      PL_CUDA_CHECK(cudaGetLastError());
      launch_to_affine(t.temp, block + lo, count, stream);
    }
  }
}

}  // namespace proofline::cuda::detail
