// Internal: the concrete pinning backends behind make_backend(). The CUDA ones are compiled only when the
// build has CUDA (detail/cuda_*.cpp); otherwise detail/no_cuda.cpp answers for them.
#pragma once

#include <memory>
#include <string>

#include <proofline/memory/pinning.hpp>

namespace proofline::memory::detail {

std::unique_ptr<PinningBackend> make_host_backend(const BackendOptions& options);
std::unique_ptr<PinningBackend> make_cuda_host_alloc_backend(const BackendOptions& options);
std::unique_ptr<PinningBackend> make_cuda_register_backend(const BackendOptions& options);

/// Number of usable CUDA devices; 0 with the reason in `why` when there are none (or no CUDA in the build).
int cuda_device_count(std::string* why) noexcept;

/// Whether the driver knows `address` as page-locked host memory (false without CUDA).
bool is_page_locked(const void* address) noexcept;

/// Throws Error(cuda) naming `what` (the backend asked for) and the reason when no device is usable.
void require_cuda_device(const char* what);

}  // namespace proofline::memory::detail
