// Stand-ins for builds without CUDA: no device, and the CUDA backends refuse with a clear reason.
#include <string>

#include <proofline/memory/detail/backends.hpp>

namespace proofline::memory::detail {

int cuda_device_count(std::string* why) noexcept {
  if (why != nullptr)
    *why = "this build has no CUDA support (PROOFLINE_ENABLE_CUDA=OFF, or no nvcc >= 12 was found)";
  return 0;
}

std::unique_ptr<PinningBackend> make_cuda_host_alloc_backend(const BackendOptions&) {
  require_cuda_device("pinning backend 'cuda-alloc'");
  return nullptr;  // not reached: require_cuda_device throws
}

std::unique_ptr<PinningBackend> make_cuda_register_backend(const BackendOptions&) {
  require_cuda_device("pinning backend 'cuda-register'");
  return nullptr;
}

bool is_page_locked(const void*) noexcept {
  return false;
}

}  // namespace proofline::memory::detail
