// cudaHostAlloc(portable): the simplest pinned memory, and the most expensive to get (about ten times the
// register backend's cost per GiB, docs/design.md). Kept for comparison and for drivers where
// cudaHostRegister is unavailable.
#include <cuda_runtime.h>

#include <proofline/memory/detail/backends.hpp>
#include <proofline/memory/detail/cuda_check.hpp>
#include <proofline/memory/detail/page_memory.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory::detail {

namespace {

class CudaHostAllocBackend final : public PinningBackend {
 public:
  explicit CudaHostAllocBackend(const BackendOptions& options) : options_(options) {}

  PinningKind kind() const noexcept override { return PinningKind::cuda_host_alloc; }
  std::string_view name() const noexcept override { return "cuda-alloc"; }
  bool pins() const noexcept override { return true; }
  std::uint64_t round_size(std::uint64_t bytes) const noexcept override {
    return round_mapping(bytes, false);
  }

 protected:
  PinnedBuffer do_allocate(std::uint64_t bytes) override {
    const std::uint64_t size = round_size(bytes);
    void* data = nullptr;
    check_cuda(cudaHostAlloc(&data, size, cudaHostAllocPortable), "cudaHostAlloc of " + format_size(size));
    return PinnedBuffer{data, size, true};
  }

  void do_deallocate(const PinnedBuffer& buffer) noexcept override {
    const cudaError_t status = cudaFreeHost(buffer.data);
    if (status != cudaSuccess) {
      (void)cudaGetLastError();
      PL_LOG_ERROR("cudaFreeHost of {} failed: {}", format_size(buffer.bytes), cudaGetErrorString(status));
    }
  }

  void zero(const PinnedBuffer& buffer) noexcept override {
    zero_pages(buffer.data, buffer.bytes, options_.touch_threads);
  }

 private:
  const BackendOptions options_;
};

}  // namespace

std::unique_ptr<PinningBackend> make_cuda_host_alloc_backend(const BackendOptions& options) {
  require_cuda_device("pinning backend 'cuda-alloc'");
  return std::make_unique<CudaHostAllocBackend>(options);
}

}  // namespace proofline::memory::detail
