#include <proofline/cuda/gpu_fixed_base.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <proofline/util/error.hpp>

#if PROOFLINE_HAVE_CUDA
#include <cuda_runtime.h>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/kernels/detail/fixed_base_launch.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/memory/pinning.hpp>
#endif

namespace proofline::cuda {

#if PROOFLINE_HAVE_CUDA

template <class Curve>
struct FixedBaseMul<Curve>::Impl {
  int device = 0;
  DeviceBuffer<Affine> table;
};

namespace {

/// Scalars per chunk of run(): 2^20 (32 MiB in, 96 or 192 MiB out).
constexpr std::size_t kChunk = std::size_t{1} << 20;

/// Pinned staging buffers from the memory layer's default backend, given back on scope exit.
class Staging {
 public:
  Staging() : backend_(memory::default_backend()) {}
  ~Staging() {
    for (const auto& buffer : buffers_) backend_->deallocate(buffer);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  void* take(std::size_t bytes) {
    buffers_.push_back(backend_->allocate(bytes));
    return buffers_.back().data;
  }

 private:
  std::unique_ptr<memory::PinningBackend> backend_;
  std::vector<memory::PinnedBuffer> buffers_;
};

}  // namespace

template <class Curve>
FixedBaseMul<Curve>::FixedBaseMul(const Affine& base, int device) : impl_(std::make_unique<Impl>()) {
  if (device < 0) PL_CUDA_CHECK(cudaGetDevice(&device));
  impl_->device = device;
  DeviceGuard guard(device);
  impl_->table = DeviceBuffer<Affine>(detail::kFixedBaseTableSize);
  DeviceBuffer<XyzzPoint<Curve>> temp(detail::kFixedBaseTableSize);
  Stream stream;
  detail::launch_fixed_base_table(base, impl_->table.data(), temp.data(), stream.get());
  stream.synchronize();
}

template <class Curve>
std::size_t FixedBaseMul<Curve>::scratch_bytes(std::size_t n) {
  return std::max<std::size_t>(n, 1) * sizeof(XyzzPoint<Curve>);
}

template <class Curve>
void FixedBaseMul<Curve>::enqueue(const Scalar* scalars, std::size_t n, Affine* out, void* scratch,
                                  CUstream_st* stream) const {
  if (n > (std::size_t{1} << 31)) {
    throw Error(Errc::invalid_argument, "fixed-base batch of " + std::to_string(n) + " scalars exceeds 2^31");
  }
  if (scratch == nullptr || reinterpret_cast<std::uintptr_t>(scratch) % 256 != 0) {
    throw Error(Errc::invalid_argument, "fixed-base scratch must be a 256-byte aligned device buffer");
  }
  DeviceGuard guard(impl_->device);
  detail::launch_fixed_base(impl_->table.data(), scalars, n, out, static_cast<XyzzPoint<Curve>*>(scratch),
                            stream);
}

template <class Curve>
void FixedBaseMul<Curve>::run(std::span<const Scalar> scalars, std::span<Affine> out) const {
  if (scalars.size() != out.size()) {
    throw Error(Errc::invalid_argument, "fixed_base_mul: " + std::to_string(scalars.size()) +
                                            " scalars for " + std::to_string(out.size()) + " outputs");
  }
  if (scalars.empty()) return;
  DeviceGuard guard(impl_->device);
  const std::size_t chunk = std::min(kChunk, scalars.size());
  DeviceBuffer<Scalar> device_scalars(chunk);
  DeviceBuffer<Affine> device_out(chunk);
  DeviceBuffer<XyzzPoint<Curve>> scratch(chunk);
  Staging staging;
  Scalar* in_stage[2];
  Affine* out_stage[2];
  for (int k = 0; k < 2; ++k) {
    in_stage[k] = static_cast<Scalar*>(staging.take(chunk * sizeof(Scalar)));
    out_stage[k] = static_cast<Affine*>(staging.take(chunk * sizeof(Affine)));
  }
  Stream stream;
  Event done[2] = {Event(Event::Timing::disabled), Event(Event::Timing::disabled)};
  const std::size_t chunks = (scalars.size() + chunk - 1) / chunk;
  auto chunk_size = [&](std::size_t k) { return std::min(chunk, scalars.size() - k * chunk); };
  auto collect = [&](std::size_t k) {
    done[k % 2].synchronize();
    std::memcpy(out.data() + k * chunk, out_stage[k % 2], chunk_size(k) * sizeof(Affine));
  };
  // Chunk k's host copies run while the GPU works on chunk k - 1 (one stream: the device work is serial).
  for (std::size_t k = 0; k < chunks; ++k) {
    const std::size_t slot = k % 2, m = chunk_size(k);
    if (k >= 2) collect(k - 2);
    std::memcpy(in_stage[slot], scalars.data() + k * chunk, m * sizeof(Scalar));
    PL_CUDA_CHECK(cudaMemcpyAsync(device_scalars.data(), in_stage[slot], m * sizeof(Scalar),
                                  cudaMemcpyHostToDevice, stream.get()));
    detail::launch_fixed_base(impl_->table.data(), device_scalars.data(), m, device_out.data(),
                              scratch.data(), stream.get());
    PL_CUDA_CHECK(cudaMemcpyAsync(out_stage[slot], device_out.data(), m * sizeof(Affine),
                                  cudaMemcpyDeviceToHost, stream.get()));
    done[slot].record(stream.get());
  }
  for (std::size_t k = chunks >= 2 ? chunks - 2 : 0; k < chunks; ++k) collect(k);
}

#else

template <class Curve>
struct FixedBaseMul<Curve>::Impl {};

namespace {
[[noreturn]] void no_cuda() {
  throw Error(Errc::cuda, "GPU fixed-base multiplication: built without CUDA");
}
}  // namespace

template <class Curve>
FixedBaseMul<Curve>::FixedBaseMul(const Affine&, int) {
  no_cuda();
}
template <class Curve>
std::size_t FixedBaseMul<Curve>::scratch_bytes(std::size_t n) {
  return std::max<std::size_t>(n, 1) * sizeof(XyzzPoint<Curve>);
}
template <class Curve>
void FixedBaseMul<Curve>::enqueue(const Scalar*, std::size_t, Affine*, void*, CUstream_st*) const {
  no_cuda();
}
template <class Curve>
void FixedBaseMul<Curve>::run(std::span<const Scalar>, std::span<Affine>) const {
  no_cuda();
}

#endif

template <class Curve>
FixedBaseMul<Curve>::~FixedBaseMul() = default;
template <class Curve>
FixedBaseMul<Curve>::FixedBaseMul(FixedBaseMul&&) noexcept = default;
template <class Curve>
FixedBaseMul<Curve>& FixedBaseMul<Curve>::operator=(FixedBaseMul&&) noexcept = default;

template class FixedBaseMul<G1Params>;
template class FixedBaseMul<G2Params>;
template class FixedBaseMul<bn254::G1Params>;
template class FixedBaseMul<bn254::G2Params>;

void fixed_base_mul_g1(const G1Affine& base, std::span<const Fr> scalars, std::span<G1Affine> out,
                       int device) {
  FixedBaseMul<G1Params>(base, device).run(scalars, out);
}
void fixed_base_mul_g2(const G2Affine& base, std::span<const Fr> scalars, std::span<G2Affine> out,
                       int device) {
  FixedBaseMul<G2Params>(base, device).run(scalars, out);
}
void fixed_base_mul_g1(const bn254::G1Affine& base, std::span<const bn254::Fr> scalars,
                       std::span<bn254::G1Affine> out, int device) {
  FixedBaseMul<bn254::G1Params>(base, device).run(scalars, out);
}
void fixed_base_mul_g2(const bn254::G2Affine& base, std::span<const bn254::Fr> scalars,
                       std::span<bn254::G2Affine> out, int device) {
  FixedBaseMul<bn254::G2Params>(base, device).run(scalars, out);
}

}  // namespace proofline::cuda
