// mmap + MADV_HUGEPAGE + parallel first touch + cudaHostRegister(portable). This pins about ten times faster
// than cudaHostAlloc, but only over touched pages: registering untouched memory costs as much as
// cudaHostAlloc, so the touch is part of the path (and of the time counted for it; docs/design.md).
#include <cuda_runtime.h>

#include <proofline/memory/detail/backends.hpp>
#include <proofline/memory/detail/cuda_check.hpp>
#include <proofline/memory/detail/page_memory.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory::detail {

namespace {

class CudaRegisterBackend final : public PinningBackend {
 public:
  explicit CudaRegisterBackend(const BackendOptions& options) : options_(options) {}

  PinningKind kind() const noexcept override { return PinningKind::cuda_host_register; }
  std::string_view name() const noexcept override { return "cuda-register"; }
  bool pins() const noexcept override { return true; }
  std::uint64_t round_size(std::uint64_t bytes) const noexcept override {
    return round_mapping(bytes, options_.huge_pages);
  }

 protected:
  PinnedBuffer do_allocate(std::uint64_t bytes) override {
    const std::uint64_t size = round_size(bytes);
    void* data = map_pages(size, options_.huge_pages);
    try {
      touch_pages(data, size, options_.touch_threads);
      check_cuda(cudaHostRegister(data, size, cudaHostRegisterPortable),
                 "cudaHostRegister of " + format_size(size));
    } catch (const Error&) {
      unmap_pages(data, size);
      throw;
    } catch (const std::exception& e) {
      unmap_pages(data, size);
      throw Error(Errc::io,
                  "cuda-register backend: first touch of " + format_size(size) + " failed: " + e.what());
    }
    return PinnedBuffer{data, size, true};
  }

  void do_deallocate(const PinnedBuffer& buffer) noexcept override {
    const cudaError_t status = cudaHostUnregister(buffer.data);
    if (status != cudaSuccess) {
      (void)cudaGetLastError();
      PL_LOG_ERROR("cudaHostUnregister of {} failed: {}", format_size(buffer.bytes),
                   cudaGetErrorString(status));
    }
    unmap_pages(buffer.data, buffer.bytes);
  }

  void zero(const PinnedBuffer& buffer) noexcept override {
    zero_pages(buffer.data, buffer.bytes, options_.touch_threads);
  }

 private:
  const BackendOptions options_;
};

}  // namespace

std::unique_ptr<PinningBackend> make_cuda_register_backend(const BackendOptions& options) {
  require_cuda_device("pinning backend 'cuda-register'");
  return std::make_unique<CudaRegisterBackend>(options);
}

}  // namespace proofline::memory::detail
