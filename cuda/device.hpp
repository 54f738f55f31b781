// Which CUDA devices this process can use. Always available: without the CUDA backend, or on a machine
// without a GPU, the list is empty and the CPU backend is used.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace proofline::cuda {

struct DeviceInfo {
  int index = 0;
  std::string name;
  std::size_t total_memory = 0;  ///< bytes of device memory
  std::size_t free_memory = 0;   ///< bytes free when queried
  int multiprocessors = 0;
  int compute_major = 0;
  int compute_minor = 0;
};

/// True when proofline was built with the CUDA backend.
bool built_with_cuda() noexcept;

/// The usable devices (empty without CUDA, without a driver, or without a GPU). Never throws.
std::vector<DeviceInfo> list_devices() noexcept;

/// Number of usable devices; 0 when there are none.
int device_count() noexcept;

}  // namespace proofline::cuda
