// MSM over points that stay in page-locked host memory: a proving key too large for a GPU's VRAM budget is
// streamed instead of refused. The points go up in batches through two device staging buffers on the
// object's own upload stream while the caller's compute stream runs the previous batch's Pippenger (the
// engine's enqueue); each batch's result joins a running sum on the device. Upload and compute overlap, and
// the upload stream is not the caller's copy stream, so witness copies of the next job are not queued behind
// the points.
//
// Either curve: the buffers hold bytes, each call says its curve through its engine.
//
// Enqueue-only like MsmEngine: a call enqueues its copies and kernels and returns; the result is written
// when the compute stream reaches the end of the call. One call at a time per object (its staging buffers
// and events are reused); calls may follow each other on the same compute stream without waiting, the
// buffers alternating across calls. A call on another compute stream than the last one first waits (on the
// GPU) for the last call's work, since both use the object's buffers and running sum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <proofline/cuda/gpu_msm.hpp>

struct CUstream_st;

namespace proofline::cuda {

class MsmPointStream {
 public:
  /// 256 MiB a buffer: 2.8 M G1 or 1.4 M G2 points a batch, several milliseconds of upload at PCIe speed
  /// against tens of milliseconds of Pippenger, so the per-batch bucket reduction stays a small share.
  static constexpr std::size_t default_buffer_bytes = std::size_t{256} << 20;

  /// Allocates two staging buffers of `buffer_bytes` (at least one BLS12-381 G2 point, the largest) and the
  /// running sums on `device` (-1: the current one). Throws Error(invalid_argument) for a buffer too small,
  /// Error(cuda) on a CUDA failure; without the CUDA backend, Error(cuda).
  explicit MsmPointStream(std::size_t buffer_bytes = default_buffer_bytes, int device = -1);
  ~MsmPointStream();  // waits for its own uploads (never for the caller's stream)
  MsmPointStream(MsmPointStream&&) noexcept;
  MsmPointStream& operator=(MsmPointStream&&) noexcept;
  MsmPointStream(const MsmPointStream&) = delete;
  MsmPointStream& operator=(const MsmPointStream&) = delete;

  int device() const noexcept;
  std::size_t buffer_bytes() const noexcept;
  /// Device bytes an object with buffers of `buffer_bytes` holds (both buffers and the sums): what to charge
  /// to a VRAM budget before making one.
  static std::size_t device_bytes(std::size_t buffer_bytes) noexcept;
  /// Points of the engine's group per batch: what a buffer holds, at most engine.max_points().
  template <class C>
  std::size_t batch_points(const BasicMsmEngine<C>& engine) const noexcept;

  /// Enqueues *result = sum_{i < n} scalars[i]·host_points[i] with the engine's curve (C: Bls12_381 or
  /// Bn254). host_points: page-locked host memory (cudaHostAlloc, cudaHostRegister: checked at both ends,
  /// Error(invalid_argument) otherwise) that must stay unchanged until the compute stream has passed this
  /// call; scalars and scratch (engine.scratch_bytes()): device memory; result: device or pinned host memory.
  /// n is not bounded by the engine (batches are).
  template <class C>
  void enqueue_msm_g1(const BasicMsmEngine<C>& engine, const typename C::G1Affine* host_points,
                      const typename C::Fr* scalars, std::size_t n, typename C::G1Jacobian* result,
                      void* scratch, CUstream_st* compute);
  template <class C>
  void enqueue_msm_g2(const BasicMsmEngine<C>& engine, const typename C::G2Affine* host_points,
                      const typename C::Fr* scalars, std::size_t n, typename C::G2Jacobian* result,
                      void* scratch, CUstream_st* compute);

  /// Counted when enqueued.
  struct Stats {
    std::uint64_t calls = 0;
    std::uint64_t batches = 0;
    std::uint64_t bytes_uploaded = 0;
  };
  Stats stats() const noexcept;

  struct State;  ///< opaque: defined by the implementation

 private:
  std::unique_ptr<State> state_;
};

}  // namespace proofline::cuda
