// Which CUDA devices this process can use. Always available: without the CUDA backend, or on a machine
// without a GPU, the list is empty and the CPU backend is used.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace proofline::cuda {

struct DeviceInfo {
  int index = 0;
  std::string name;
  std::size_t total_memory = 0;  ///< bytes of device memory
  std::size_t free_memory = 0;   ///< bytes free, when asked for (DeviceQuery::free_memory); else 0
  int multiprocessors = 0;
  int compute_major = 0;
  int compute_minor = 0;
  /// Empty for a device proofline's kernels run on; else why they cannot (its compute capability is too old
  /// or this build carries no code for it), with what to do about it.
  std::string unsupported;
  /// Usable through the build's PTX, which the driver compiles at first use (about a minute once, then cached
  /// in CUDA_CACHE_PATH or ~/.nv/ComputeCache): the build has no native code for it, or CUDA_FORCE_PTX_JIT=1.
  bool compiles_ptx = false;
};

/// What a listing asks of each GPU beyond its properties. The answers that need the GPU's context (its free
/// memory; the driver's verdict on PTX) create it, which costs VRAM on GPUs the process may not prove on.
struct DeviceQuery {
  bool free_memory = false;  ///< read each usable GPU's free memory (creates its context)
};

/// True when proofline was built with the CUDA backend.
bool built_with_cuda() noexcept;

/// The GPU code this build carries, as CMake's CUDA architectures (e.g. "90-real;80-real;80-virtual"); empty
/// without CUDA.
const char* built_architectures() noexcept;

/// The usable devices: those proofline's kernels run on (empty without CUDA, without a driver, or without a
/// GPU). Never throws.
std::vector<DeviceInfo> list_devices(DeviceQuery query = {}) noexcept;

/// Every device the driver shows, usable or not (`unsupported` says why not). A GPU's context is created only
/// where the answer needs it: to read its free memory when asked, or where the build has no native code for
/// it (or CUDA_FORCE_PTX_JIT=1), so that the driver says whether it can compile the build's PTX there.
/// Never throws.
std::vector<DeviceInfo> all_devices(DeviceQuery query = {}) noexcept;

/// The newest CUDA the installed driver supports and the CUDA runtime this build links, as "13.0"; empty
/// where there is none (no driver; a build without CUDA).
std::string driver_cuda_version();
std::string runtime_cuda_version();

/// Why the runtime lists no GPU although a driver is installed (a driver too old for this build's CUDA, or
/// the runtime's own error), or "": GPUs are listed, or the machine has no driver or no GPU.
std::string driver_problem();

/// Number of usable devices; 0 when there are none.
int device_count() noexcept;

/// One line naming each unusable device and why ("GPU 0 (name): reason; GPU 1 ..."), or the driver's problem
/// where it lists none; empty when there is nothing to report. For messages that explain why the CPU backend
/// was chosen or the CUDA one refused.
std::string unusable_devices_summary();

/// The same line for a listing already made by all_devices(), so that a caller holding one asks the driver
/// (and probes GPUs that run PTX) once.
std::string unusable_devices_summary(std::span<const DeviceInfo> devices);

}  // namespace proofline::cuda
