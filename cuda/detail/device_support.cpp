#include <proofline/cuda/detail/device_support.hpp>

#include <cctype>

namespace proofline::cuda::detail {

std::string unsupported_reason(int major, int minor, bool has_code, std::string_view built_for) {
  const std::string capability = std::to_string(major) + "." + std::to_string(minor);
  if (major < kMinComputeMajor)
    return "compute capability " + capability + ": proofline's kernels need " +
           std::to_string(kMinComputeMajor) + ".0 or newer (Ampere, Ada, Hopper, Blackwell)";
  if (has_code) return {};
  return "compute capability " + capability + ": this build carries no code for it (CUDA architectures '" +
         std::string(built_for) + "'); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(major) +
         std::to_string(minor) +
         ", or leave it unset for native Hopper code plus PTX that any GPU from 8.0 on runs";
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
