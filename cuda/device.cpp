#include <proofline/cuda/device.hpp>

#include <cstdlib>
#include <optional>
#include <string_view>

#include <proofline/cuda/detail/device_support.hpp>

#if PROOFLINE_HAVE_CUDA
#include <cuda_runtime.h>

namespace proofline::cuda::detail {
CodeLookup find_code(int device) noexcept;  // kernels/arch_probe.cu
}  // namespace proofline::cuda::detail
#endif

namespace proofline::cuda {
namespace {

detail::CudaVersions cuda_versions() noexcept {
  detail::CudaVersions versions;
#if PROOFLINE_HAVE_CUDA
  if (cudaDriverGetVersion(&versions.driver) != cudaSuccess) versions.driver = 0;
  if (cudaRuntimeGetVersion(&versions.runtime) != cudaSuccess) versions.runtime = 0;
#endif
  return versions;
}

}  // namespace

std::vector<DeviceInfo> all_devices(DeviceQuery query) noexcept {
  std::vector<DeviceInfo> devices;
#if PROOFLINE_HAVE_CUDA
  int count = 0;
  // No driver or no device is not an error for us: it selects the CPU backend.
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  const char* forced = std::getenv("CUDA_FORCE_PTX_JIT");
  const bool forced_jit = forced != nullptr && std::string_view(forced) == "1";
  const detail::CudaVersions versions = cuda_versions();
  for (int index = 0; index < count; ++index) {
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, index) != cudaSuccess) continue;
    DeviceInfo info;
    info.index = index;
    info.name = properties.name;
    info.total_memory = properties.totalGlobalMem;
    info.multiprocessors = properties.multiProcessorCount;
    info.compute_major = properties.major;
    info.compute_minor = properties.minor;
    const std::optional<bool> native_code =
        detail::has_native_code(properties.major, properties.minor, built_architectures());
    // Native code for the device's architecture runs there; anything else is the driver's call, which the
    // probe asks for (creating the device's context).
    const detail::CodeLookup code = properties.major < detail::kMinComputeMajor  ? detail::CodeLookup::missing
                                    : !forced_jit && native_code.value_or(false) ? detail::CodeLookup::found
                                                                                 : detail::find_code(index);
    info.unsupported =
        detail::unsupported_reason(properties.major, properties.minor, code, built_architectures(), versions);
    info.compiles_ptx = info.unsupported.empty() && (forced_jit || !native_code.value_or(true));
    int previous = 0;
    if (query.free_memory && info.unsupported.empty() && cudaGetDevice(&previous) == cudaSuccess &&
        cudaSetDevice(index) == cudaSuccess) {
      std::size_t free = 0, total = 0;
      if (cudaMemGetInfo(&free, &total) == cudaSuccess) info.free_memory = free;
      (void)cudaSetDevice(previous);
    }
    devices.push_back(std::move(info));
  }
  (void)cudaGetLastError();
#else
  (void)query;
#endif
  return devices;
}

bool built_with_cuda() noexcept {
  return PROOFLINE_HAVE_CUDA != 0;
}

const char* built_architectures() noexcept {
#if PROOFLINE_HAVE_CUDA
  return PROOFLINE_CUDA_CODE_TEXT;
#else
  return "";
#endif
}

std::vector<DeviceInfo> list_devices(DeviceQuery query) noexcept {
  auto devices = all_devices(query);
  std::erase_if(devices, [](const DeviceInfo& d) { return !d.unsupported.empty(); });
  return devices;
}

int device_count() noexcept {
  return static_cast<int>(list_devices().size());
}

std::string driver_cuda_version() {
  const int version = cuda_versions().driver;
  return version == 0 ? std::string{} : detail::cuda_version_text(version);
}

std::string runtime_cuda_version() {
  const int version = cuda_versions().runtime;
  return version == 0 ? std::string{} : detail::cuda_version_text(version);
}

std::string driver_problem() {
#if PROOFLINE_HAVE_CUDA
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  (void)cudaGetLastError();
  return detail::driver_problem(cuda_versions(), status != cudaSuccess, status == cudaErrorNoDevice,
                                cudaGetErrorString(status));
#else
  return {};
#endif
}

std::string unusable_devices_summary() {
  return unusable_devices_summary(all_devices());
}

std::string unusable_devices_summary(std::span<const DeviceInfo> devices) {
  if (devices.empty()) return driver_problem();
  std::string summary;
  for (const auto& device : devices) {
    if (device.unsupported.empty()) continue;
    if (!summary.empty()) summary += "; ";
    summary += "GPU " + std::to_string(device.index) + " (" + device.name + "): " + device.unsupported;
  }
  return summary;
}

}  // namespace proofline::cuda
