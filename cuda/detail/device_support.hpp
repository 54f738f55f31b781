// Internal: whether a GPU can run proofline's kernels, and if not, a message that says why and what to do.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace proofline::cuda::detail {

/// The oldest compute capability the kernels run on: the NTT's tile loads use cp.async, new in 8.0 (Ampere).
inline constexpr int kMinComputeMajor = 8;

/// Why a device of compute capability `major`.`minor` cannot run this build's kernels, or "" when it can.
/// `has_code`: whether the driver found code for it in this build (native, or PTX it compiled); `built_for`:
/// the build's CUDA architectures, as CMake names them.
std::string unsupported_reason(int major, int minor, bool has_code, std::string_view built_for);

/// Whether `built_for` (CMake's CUDA architectures, separated by ';' or ',') holds native code a device of
/// compute capability `major`.`minor` runs: an architecture of the same major version and a minor not above
/// its own ("86" runs on 8.9, not on 8.0; "100f" on 10.3; "90a" on 9.0 alone). False where only PTX fits, which the driver
/// then compiles at first use; nullopt for lists CMake resolves itself ("native", "all", "all-major").
std::optional<bool> has_native_code(int major, int minor, std::string_view built_for);

}  // namespace proofline::cuda::detail
