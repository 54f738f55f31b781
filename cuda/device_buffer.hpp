// Internal: an owning, move-only device allocation of `count` elements of T.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include <proofline/cuda/check.hpp>

namespace proofline::cuda {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) PL_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count_ * sizeof(T)));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

  void upload(const T* host, std::size_t count, cudaStream_t stream, std::size_t offset = 0) {
    PL_CUDA_CHECK(cudaMemcpyAsync(data_ + offset, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  void download(T* host, std::size_t count, cudaStream_t stream, std::size_t offset = 0) const {
    PL_CUDA_CHECK(cudaMemcpyAsync(host, data_ + offset, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }

  void reset() noexcept {
    if (data_) (void)cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace proofline::cuda
