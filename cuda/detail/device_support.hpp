// Internal: whether a GPU can run proofline's kernels, and if not, a message that says why and what to do.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace proofline::cuda::detail {

/// The oldest compute capability the kernels run on: the NTT's tile loads use cp.async, new in 8.0 (Ampere).
inline constexpr int kMinComputeMajor = 8;

/// CUDA versions as the runtime reports them, 1000 x major + 10 x minor (13000 for 13.0); driver 0: no
/// driver.
struct CudaVersions {
  int driver = 0;   ///< the newest CUDA the installed driver supports
  int runtime = 0;  ///< the CUDA runtime this build links
};

/// "13.0" for 13000.
std::string cuda_version_text(int version);

/// What the driver answered when asked for the build's code on a device.
enum class CodeLookup {
  found,        ///< native code, or PTX it compiled
  missing,      ///< nothing in the build it can run there
  ptx_too_new,  ///< only PTX fits, of a newer CUDA than the driver compiles
};

/// Why a device of compute capability `major`.`minor` cannot run this build's kernels, or "" when it can.
/// `code`: the driver's answer; `built_for`: the build's CUDA architectures, as CMake names them.
std::string unsupported_reason(int major, int minor, CodeLookup code, std::string_view built_for,
                               CudaVersions versions = {});

/// Why the runtime cannot use the driver when listing devices fails with `error` (the runtime's text), or ""
/// where the machine has no driver or no GPU (a CPU machine, nothing to report): a driver older than this
/// build's CUDA major version, or the runtime's own words.
std::string driver_problem(CudaVersions versions, bool listing_failed, bool no_device,
                           std::string_view error);

/// Whether `built_for` (CMake's CUDA architectures, separated by ';' or ',') holds native code a device of
/// compute capability `major`.`minor` runs: an architecture of the same major version and a minor not above
/// its own ("86" runs on 8.9, not on 8.0; "100f" on 10.3; "90a" on 9.0 alone). False where only PTX fits,
/// which the driver then compiles at first use; nullopt for lists CMake resolves itself ("native", "all",
/// "all-major").
std::optional<bool> has_native_code(int major, int minor, std::string_view built_for);

}  // namespace proofline::cuda::detail
