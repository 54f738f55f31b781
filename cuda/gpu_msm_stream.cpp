#include <proofline/cuda/gpu_msm_stream.hpp>

#include <algorithm>
#include <atomic>
#include <string>
#include <type_traits>

#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

#if PROOFLINE_HAVE_CUDA
#include <cuda_runtime.h>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/kernels/detail/msm_launch.hpp>
#include <proofline/cuda/stream.hpp>
#endif

namespace proofline::cuda {

namespace {

/// Points a batch holds: what one staging buffer takes, at most what the engine was planned for.
template <class C>
std::size_t batch_for(std::size_t buffer_bytes, const BasicMsmEngine<C>& engine) {
  const std::size_t point_bytes =
      engine.group() == MsmGroup::g1 ? sizeof(typename C::G1Affine) : sizeof(typename C::G2Affine);
  return std::min(buffer_bytes / point_bytes, engine.max_points());
}

}  // namespace

#if PROOFLINE_HAVE_CUDA

struct MsmPointStream::State {
  int device = 0;
  std::size_t buffer_bytes = 0;
  Stream upload;
  DeviceBuffer<std::byte> staging[2];
  DeviceBuffer<G2Jacobian> sums;  ///< [0] the running total, [1] the batch result (G1 uses the front bytes)
  /// uploaded[b]: buffer b holds its batch; consumed[b]: the compute stream is done reading it.
  Event uploaded[2]{Event(Event::Timing::disabled), Event(Event::Timing::disabled)};
  Event consumed[2]{Event(Event::Timing::disabled), Event(Event::Timing::disabled)};
  bool in_use[2] = {false, false};
  int next = 0;
  /// The end of the last call's work on its compute stream: a call on another stream waits for it.
  Event last_call{Event(Event::Timing::disabled)};
  cudaStream_t last_stream = nullptr;
  bool called = false;
  std::atomic<std::uint64_t> calls{0}, batches{0}, bytes_uploaded{0};  ///< read by stats() from any thread

  ~State() { (void)cudaStreamSynchronize(upload); }
};

namespace {

bool page_locked(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

/// Curve: the group's parameters (G1Params, bn254::G2Params, ...); C: the curve of the engine.
template <class Curve, class C>
void enqueue_streamed(MsmPointStream::State& s, const BasicMsmEngine<C>& engine,
                      const AffinePoint<Curve>* host_points, const typename C::Fr* scalars, std::size_t n,
                      JacobianPoint<Curve>* result, void* scratch, cudaStream_t compute) {
  static_assert(sizeof(JacobianPoint<Curve>) <= sizeof(G2Jacobian), "the running sums hold any point");
  using Point = AffinePoint<Curve>;
  DeviceGuard guard(s.device);
  auto* total = reinterpret_cast<JacobianPoint<Curve>*>(s.sums.data());
  auto* partial = reinterpret_cast<JacobianPoint<Curve>*>(s.sums.data() + 1);
  if (s.called && s.last_stream != compute) s.last_call.make_wait(compute);
  if (n == 0) {
    PL_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(JacobianPoint<Curve>), compute));
  } else {
    if (!page_locked(host_points) || !page_locked(host_points + (n - 1)))
      throw Error(
          Errc::invalid_argument,
          "streamed MSM: the " + std::to_string(n) +
              " points are not all in page-locked host memory (pin them: cudaHostRegister or a pinned "
              "buffer)");
    const std::size_t batch = batch_for(s.buffer_bytes, engine);
    for (std::size_t offset = 0, k = 0; offset < n; offset += batch, ++k) {
      const std::size_t count = std::min(batch, n - offset);
      const int b = s.next;
      s.next ^= 1;
      // Overwrite buffer b only after the compute stream has finished the batch that used it last.
      if (s.in_use[b]) s.consumed[b].make_wait(s.upload);
      PL_CUDA_CHECK(cudaMemcpyAsync(s.staging[b].data(), host_points + offset, count * sizeof(Point),
                                    cudaMemcpyHostToDevice, s.upload));
      s.uploaded[b].record(s.upload);
      s.uploaded[b].make_wait(compute);
      const auto* points = reinterpret_cast<const Point*>(s.staging[b].data());
      if constexpr (std::is_same_v<Curve, typename C::G1Params>)
        engine.enqueue_msm_g1(points, scalars + offset, count, partial, scratch, compute);
      else
        engine.enqueue_msm_g2(points, scalars + offset, count, partial, scratch, compute);
      s.consumed[b].record(compute);
      s.in_use[b] = true;
      detail::launch_msm_add_result(total, partial, k == 0, compute);
      s.batches.fetch_add(1, std::memory_order_relaxed);
      s.bytes_uploaded.fetch_add(count * sizeof(Point), std::memory_order_relaxed);
    }
  }
  PL_CUDA_CHECK(cudaMemcpyAsync(result, total, sizeof(JacobianPoint<Curve>), cudaMemcpyDefault, compute));
  s.last_call.record(compute);
  s.last_stream = compute;
  s.called = true;
  s.calls.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

MsmPointStream::MsmPointStream(std::size_t buffer_bytes, int device) {
  if (buffer_bytes < sizeof(G2Affine))
    throw Error(Errc::invalid_argument,
                "streamed MSM: a staging buffer of " + format_size(buffer_bytes) + " holds no point");
  if (device < 0) PL_CUDA_CHECK(cudaGetDevice(&device));
  DeviceGuard guard(device);  // the stream, events and buffers belong to `device`
  state_ = std::make_unique<State>();
  state_->device = device;
  state_->buffer_bytes = buffer_bytes;
  for (auto& buffer : state_->staging) buffer = DeviceBuffer<std::byte>(buffer_bytes);
  state_->sums = DeviceBuffer<G2Jacobian>(2);
}

template <class C>
void MsmPointStream::enqueue_msm_g1(const BasicMsmEngine<C>& engine, const typename C::G1Affine* host_points,
                                    const typename C::Fr* scalars, std::size_t n,
                                    typename C::G1Jacobian* result, void* scratch, CUstream_st* compute) {
  if (engine.group() != MsmGroup::g1)
    throw Error(Errc::invalid_argument, "streamed MSM: enqueue_msm_g1 with a G2 engine");
  enqueue_streamed(*state_, engine, host_points, scalars, n, result, scratch, compute);
}

template <class C>
void MsmPointStream::enqueue_msm_g2(const BasicMsmEngine<C>& engine, const typename C::G2Affine* host_points,
                                    const typename C::Fr* scalars, std::size_t n,
                                    typename C::G2Jacobian* result, void* scratch, CUstream_st* compute) {
  if (engine.group() != MsmGroup::g2)
    throw Error(Errc::invalid_argument, "streamed MSM: enqueue_msm_g2 with a G1 engine");
  enqueue_streamed(*state_, engine, host_points, scalars, n, result, scratch, compute);
}

#else

struct MsmPointStream::State {
  int device = 0;
  std::size_t buffer_bytes = 0;
  std::atomic<std::uint64_t> calls{0}, batches{0}, bytes_uploaded{0};
};

MsmPointStream::MsmPointStream(std::size_t, int) {
  throw Error(Errc::cuda, "streamed MSM: proofline was built without CUDA");
}

template <class C>
void MsmPointStream::enqueue_msm_g1(const BasicMsmEngine<C>&, const typename C::G1Affine*,
                                    const typename C::Fr*, std::size_t, typename C::G1Jacobian*, void*,
                                    CUstream_st*) {
  throw Error(Errc::cuda, "streamed MSM: proofline was built without CUDA");
}

template <class C>
void MsmPointStream::enqueue_msm_g2(const BasicMsmEngine<C>&, const typename C::G2Affine*,
                                    const typename C::Fr*, std::size_t, typename C::G2Jacobian*, void*,
                                    CUstream_st*) {
  throw Error(Errc::cuda, "streamed MSM: proofline was built without CUDA");
}

#endif

MsmPointStream::~MsmPointStream() = default;
MsmPointStream::MsmPointStream(MsmPointStream&&) noexcept = default;
MsmPointStream& MsmPointStream::operator=(MsmPointStream&&) noexcept = default;

int MsmPointStream::device() const noexcept {
  return state_->device;
}
std::size_t MsmPointStream::buffer_bytes() const noexcept {
  return state_->buffer_bytes;
}
std::size_t MsmPointStream::device_bytes(std::size_t buffer_bytes) noexcept {
  return 2 * buffer_bytes + 2 * sizeof(G2Jacobian);
}
template <class C>
std::size_t MsmPointStream::batch_points(const BasicMsmEngine<C>& engine) const noexcept {
  return batch_for(state_->buffer_bytes, engine);
}
MsmPointStream::Stats MsmPointStream::stats() const noexcept {
  return {state_->calls.load(std::memory_order_relaxed), state_->batches.load(std::memory_order_relaxed),
          state_->bytes_uploaded.load(std::memory_order_relaxed)};
}

#define PL_STREAM_INSTANTIATE(C)                                                                    \
  template std::size_t MsmPointStream::batch_points<C>(const BasicMsmEngine<C>&) const noexcept;    \
  template void MsmPointStream::enqueue_msm_g1<C>(const BasicMsmEngine<C>&, const C::G1Affine*,     \
                                                  const C::Fr*, std::size_t, C::G1Jacobian*, void*, \
                                                  CUstream_st*);                                    \
  template void MsmPointStream::enqueue_msm_g2<C>(const BasicMsmEngine<C>&, const C::G2Affine*,     \
                                                  const C::Fr*, std::size_t, C::G2Jacobian*, void*, \
                                                  CUstream_st*);
PL_STREAM_INSTANTIATE(Bls12_381)
PL_STREAM_INSTANTIATE(Bn254)
#undef PL_STREAM_INSTANTIATE

}  // namespace proofline::cuda
