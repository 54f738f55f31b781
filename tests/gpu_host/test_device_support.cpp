// Which GPUs the kernels run on, and what a user with one they do not run on is told (no GPU needed: the
// verdict is a function of the compute capability and of whether the driver found code for it), and
// `proofline devices`, which lists them. The GPU suite checks the probe itself on the device.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include <proofline/cuda/detail/device_support.hpp>
#include <proofline/cuda/device.hpp>

#include "support/run_program.hpp"

namespace {

using proofline::cuda::detail::CodeLookup;
using proofline::cuda::detail::CudaVersions;
using proofline::cuda::detail::unsupported_reason;
using proofline::test_support::run_program;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("cuda/devices/GPUs from compute capability 8.0 with code in the build are usable") {
  for (const auto& [major, minor] : {std::pair{8, 0}, {8, 6}, {8, 9}, {9, 0}, {10, 0}, {12, 0}})
    CHECK(unsupported_reason(major, minor, CodeLookup::found, "90-real,80-real,80-virtual").empty());
}

TEST_CASE("cuda/devices/GPUs before Ampere are refused by name, whatever the build carries") {
  for (const CodeLookup code : {CodeLookup::missing, CodeLookup::found}) {
    const std::string why = unsupported_reason(7, 5, code, "75");
    CHECK(why.find("compute capability 7.5") != std::string::npos);
    CHECK(why.find("need 8.0 or newer") != std::string::npos);
  }
  CHECK_FALSE(unsupported_reason(6, 1, CodeLookup::missing, "90").empty());
}

TEST_CASE("cuda/devices/a GPU the build has no code for is told the build's architectures and the fix") {
  const std::string why = unsupported_reason(8, 6, CodeLookup::missing, "90-real");
  CHECK(why.find("compute capability 8.6") != std::string::npos);
  CHECK(why.find("'90-real'") != std::string::npos);
  CHECK(why.find("-DCMAKE_CUDA_ARCHITECTURES=86") != std::string::npos);
  CHECK(unsupported_reason(12, 0, CodeLookup::missing, "90-real").find("=120") != std::string::npos);
}

TEST_CASE("cuda/devices/PTX newer than the driver compiles is told apart from a build without code") {
  const std::string why =
      unsupported_reason(8, 9, CodeLookup::ptx_too_new, "90-real,80-virtual", CudaVersions{13000, 13020});
  CHECK(why.find("compute capability 8.9") != std::string::npos);
  CHECK(why.find("driver (CUDA 13.0) cannot compile this build's PTX (CUDA 13.2)") != std::string::npos);
  CHECK(why.find("-DCMAKE_CUDA_ARCHITECTURES=89") != std::string::npos);
  CHECK(why.find("carries no code") == std::string::npos);
}

TEST_CASE(
    "cuda/devices/a driver older than the build's CUDA is named with both versions, a CPU machine is not") {
  using proofline::cuda::detail::driver_problem;
  const std::string old = driver_problem(CudaVersions{12040, 13000}, true, false, "insufficient driver");
  CHECK(old.find("driver supports CUDA 12.4, older than the CUDA 13.0 runtime") != std::string::npos);
  CHECK(old.find("driver for CUDA 13 or newer") != std::string::npos);
  CHECK(old.find("CUDA 12 toolkit") != std::string::npos);
  // Same major version, other failure: the runtime's words.
  CHECK(driver_problem(CudaVersions{13000, 13020}, true, false, "some error").ends_with(": some error"));
  // Nothing to report: no driver, no GPU, or the listing worked.
  CHECK(driver_problem(CudaVersions{0, 13000}, true, false, "insufficient driver").empty());
  CHECK(driver_problem(CudaVersions{13000, 13000}, true, true, "no CUDA-capable device").empty());
  CHECK(driver_problem(CudaVersions{12040, 13000}, false, false, "no error").empty());
  CHECK(proofline::cuda::detail::cuda_version_text(12080) == "12.8");
}

TEST_CASE("cuda/devices/the build names its GPU code exactly when it has the CUDA backend") {
  const std::string architectures = proofline::cuda::built_architectures();
  CHECK(architectures.empty() == !proofline::cuda::built_with_cuda());
  // The usable devices are those of all without a reason.
  std::size_t usable = 0;
  for (const auto& device : proofline::cuda::all_devices()) usable += device.unsupported.empty() ? 1 : 0;
  CHECK(proofline::cuda::list_devices().size() == usable);
  for (const auto& device : proofline::cuda::list_devices()) CHECK(device.unsupported.empty());
}

TEST_CASE(
    "cuda/devices/proofline devices lists every GPU with its verdict, and exits 0 only where one is usable") {
  const auto all = proofline::cuda::all_devices();
  const bool usable = !proofline::cuda::list_devices().empty();
  const auto text = run_program(PROOFLINE_CLI, "devices");
  CHECK(text.code == (usable ? 0 : 1));
  CHECK(text.err.empty());
  if (proofline::cuda::built_with_cuda())
    CHECK(
        contains(text.out, std::string("GPU code in this build: ") + proofline::cuda::built_architectures()));
  else
    CHECK(contains(text.out, "built without CUDA"));
  for (const auto& device : all) {
    CAPTURE(device.name);
    CHECK(contains(text.out, "GPU " + std::to_string(device.index) + ": " + device.name));
    CHECK(contains(text.out, device.unsupported.empty() ? ": usable" : "not usable: " + device.unsupported));
  }
  if (proofline::cuda::built_with_cuda()) {
    const std::string driver = proofline::cuda::driver_cuda_version();
    CHECK(contains(text.out, driver.empty() ? "NVIDIA driver: none loaded" : "supports CUDA " + driver));
    const std::string problem = proofline::cuda::driver_problem();
    if (all.empty())
      CHECK(contains(text.out, problem.empty() ? "no CUDA device" : "no GPU usable: " + problem));
  }

  const auto json = run_program(PROOFLINE_CLI, "devices --json");
  CHECK(json.code == text.code);
  CHECK(json.out.starts_with(std::string("{\"cuda\":") +
                             (proofline::cuda::built_with_cuda() ? "true" : "false")));
  std::size_t listed = 0;
  for (std::size_t at = json.out.find("\"index\":"); at != std::string::npos;
       at = json.out.find("\"index\":", at + 1))
    ++listed;
  CHECK(listed == all.size());

  const auto bad = run_program(PROOFLINE_CLI, "devices --frobnicate");
  CHECK(bad.code == 2);
  CHECK(contains(bad.err, "--frobnicate"));
}

TEST_CASE("cuda/devices/native code is told from PTX the driver compiles, by the build's architectures") {
  using proofline::cuda::detail::has_native_code;
  CHECK(has_native_code(9, 0, "90-real,80-virtual") == true);
  CHECK(has_native_code(8, 0, "90-real,80-virtual") == false);   // A100: PTX
  CHECK(has_native_code(12, 0, "90-real;80-virtual") == false);  // RTX 50: PTX
  // The default build: native on every 8.x GPU and on Hopper, PTX beyond.
  for (const auto& [major, minor] : {std::pair{8, 0}, {8, 6}, {8, 7}, {8, 9}, {9, 0}})
    CHECK(has_native_code(major, minor, "90-real,80-real,80-virtual") == true);
  CHECK(has_native_code(10, 0, "90-real,80-real,80-virtual") == false);
  CHECK(has_native_code(12, 0, "90-real,80-real,80-virtual") == false);
  CHECK(has_native_code(8, 9, "80;89;90") == true);
  CHECK(has_native_code(8, 9, "86") == true);   // sm_86 code runs on 8.9
  CHECK(has_native_code(8, 0, "86") == false);  // not on 8.0
  CHECK(has_native_code(9, 0, "90a-real") == true);
  CHECK(has_native_code(10, 3, "100a") == false);      // arch-specific code: that architecture alone
  CHECK(has_native_code(10, 3, "100f-real") == true);  // family code: its later members too
  CHECK(has_native_code(10, 0, "100-real") == true);
  CHECK(has_native_code(10, 0, "100-virtual") == false);
  CHECK(has_native_code(9, 0, "").value_or(true) == false);
  CHECK_FALSE(has_native_code(8, 6, "native").has_value());
  CHECK_FALSE(has_native_code(8, 6, "all-major").has_value());
}
