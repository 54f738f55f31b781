#include <proofline/cuda/detail/device_support.hpp>

#include <cctype>

namespace proofline::cuda::detail {

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string unsupported_reason(int major, int minor, CodeLookup code, std::string_view built_for,
                               CudaVersions versions) {
  const std::string capability = std::to_string(major) + "." + std::to_string(minor);
  const std::string native_build =
      "-DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(major) + std::to_string(minor);
  if (major < kMinComputeMajor)
    return "compute capability " + capability + ": proofline's kernels need " +
           std::to_string(kMinComputeMajor) + ".0 or newer (Ampere, Ada, Hopper, Blackwell)";
  switch (code) {
    case CodeLookup::found:
      return {};
    case CodeLookup::ptx_too_new:
      return "compute capability " + capability + ": the driver (CUDA " + cuda_version_text(versions.driver) +
             ") cannot compile this build's PTX (CUDA " + cuda_version_text(versions.runtime) +
             "); update the NVIDIA driver, or rebuild with native code for it: " + native_build;
    case CodeLookup::missing:
      break;
  }
  return "compute capability " + capability + ": this build carries no code for it (CUDA architectures '" +
         std::string(built_for) + "'); rebuild with " + native_build +
         ", or leave it unset for native Ampere and Hopper code plus PTX that later GPUs run";
}

std::string driver_problem(CudaVersions versions, bool listing_failed, bool no_device,
                           std::string_view error) {
  if (versions.driver == 0 || !listing_failed || no_device) return {};
  if (versions.driver / 1000 < versions.runtime / 1000)
    return "the NVIDIA driver supports CUDA " + cuda_version_text(versions.driver) +
           ", older than the CUDA " + cuda_version_text(versions.runtime) +
           " runtime of this build: install a driver for CUDA " + std::to_string(versions.runtime / 1000) +
           " or newer, or build proofline with a CUDA " + std::to_string(versions.driver / 1000) + " toolkit";
  return "the CUDA runtime " + cuda_version_text(versions.runtime) + " cannot use the NVIDIA driver (CUDA " +
         cuda_version_text(versions.driver) + "): " + std::string(error);
}

std::optional<bool> has_native_code(int major, int minor, std::string_view built_for) {
  bool native = false;
  while (!built_for.empty()) {
    const std::size_t end = built_for.find_first_of(";,");
    const std::string_view entry = built_for.substr(0, end);
    built_for = end == std::string_view::npos ? std::string_view{} : built_for.substr(end + 1);
    if (entry == "native" || entry.starts_with("all")) return std::nullopt;
    std::size_t digits = 0;
    int number = 0;
    for (; digits < entry.size() && std::isdigit(static_cast<unsigned char>(entry[digits])); ++digits)
      number = number * 10 + (entry[digits] - '0');
    const std::string_view suffix = entry.substr(digits);
    if (digits == 0 || suffix.ends_with("-virtual")) continue;
    // "90a" code runs on that architecture alone; plain and family ("100f") code on later minors too.
    const bool specific = suffix.starts_with('a');
    const int code_major = number / 10, code_minor = number % 10;
    if (code_major == major && (specific ? code_minor == minor : code_minor <= minor)) native = true;
  }
  return native;
}

}  // namespace proofline::cuda::detail
