// proofline devices: the GPUs this build of proofline sees, and for each whether it can prove there or why
// not (compute capability before 8.0, or no code for it in this build). Exit 0 when a GPU is usable, 1 when
// the CPU backend would be used, 2 for unusable options.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <proofline/cuda/device.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/size.hpp>
#include <proofline/util/text.hpp>

#include "proofline_commands.hpp"

namespace proofline::apps {
namespace {

constexpr const char* devices_exit_codes =
    "exit codes: 0 a GPU is usable, 1 none is (proofline would prove on the CPU backend), 2 unusable options";

std::string capability(const cuda::DeviceInfo& d) {
  return std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor);
}

void print_text(const std::vector<cuda::DeviceInfo>& devices) {
  if (!cuda::built_with_cuda()) {
    std::printf("built without CUDA: proofs run on the CPU backend\n");
    return;
  }
  std::printf("GPU code in this build: %s (CUDA architectures), CUDA runtime %s\n",
              cuda::built_architectures(), cuda::runtime_cuda_version().c_str());
  const std::string driver = cuda::driver_cuda_version();
  std::printf("NVIDIA driver: %s\n", driver.empty() ? "none loaded" : ("supports CUDA " + driver).c_str());
  for (const auto& d : devices) {
    if (d.unsupported.empty())
      std::printf("GPU %d: %s, compute capability %s, %d SMs, %s (%s free): usable%s\n", d.index,
                  d.name.c_str(), capability(d).c_str(), d.multiprocessors,
                  format_size(d.total_memory).c_str(), format_size(d.free_memory).c_str(),
                  d.compiles_ptx ? ", from PTX the driver compiles at first use (then cached)" : "");
    else
      std::printf("GPU %d: %s, compute capability %s: not usable: %s\n", d.index, d.name.c_str(),
                  capability(d).c_str(), d.unsupported.c_str());
  }
  if (devices.empty()) {
    const std::string problem = cuda::driver_problem();
    std::printf("%s\n",
                problem.empty() ? "no CUDA device (or no driver)" : ("no GPU usable: " + problem).c_str());
  }
}

void append_device(std::string& out, const cuda::DeviceInfo& d) {
  out += "{\"index\":" + std::to_string(d.index) + ",\"name\":";
  append_json_string(out, d.name);
  out += ",\"compute_capability\":\"" + capability(d) +
         "\",\"multiprocessors\":" + std::to_string(d.multiprocessors) +
         ",\"total_bytes\":" + std::to_string(d.total_memory) +
         ",\"free_bytes\":" + std::to_string(d.free_memory) +
         ",\"usable\":" + (d.unsupported.empty() ? "true" : "false") +
         ",\"compiles_ptx\":" + (d.compiles_ptx ? "true" : "false") + ",\"reason\":";
  append_json_string(out, d.unsupported);
  out += "}";
}

void print_json(const std::vector<cuda::DeviceInfo>& devices) {
  std::string out =
      std::string("{\"cuda\":") + (cuda::built_with_cuda() ? "true" : "false") + ",\"gpu_code\":";
  append_json_string(out, cuda::built_architectures());
  out += ",\"runtime_cuda\":";
  append_json_string(out, cuda::runtime_cuda_version());
  out += ",\"driver_cuda\":";
  append_json_string(out, cuda::driver_cuda_version());
  out += ",\"driver_problem\":";
  append_json_string(out, cuda::driver_problem());
  out += ",\"devices\":[";
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (i > 0) out += ",";
    append_device(out, devices[i]);
  }
  out += "]}\n";
  std::fputs(out.c_str(), stdout);
}

}  // namespace

int run_devices_command(int argc, char** argv) {
  bool json = false;
  OptionParser cli(
      "proofline devices", "usage: proofline devices [--json]",
      "Lists the GPUs the driver shows and whether proofline can prove on each: the kernels need "
      "compute capability 8.0 or newer, and code for it in this build (native, or PTX the driver "
      "compiles at first use). --backend auto proves on the usable ones, or on the CPU when there "
      "are none.");
  cli.flag("--json", "one JSON object instead of lines of text", json);
  cli.epilog(devices_exit_codes);
  if (!cli.parse(argc, argv)) return 0;
  const auto devices = cuda::all_devices({.free_memory = true});
  if (json)
    print_json(devices);
  else
    print_text(devices);
  const bool usable =
      std::any_of(devices.begin(), devices.end(), [](const auto& d) { return d.unsupported.empty(); });
  return usable ? 0 : 1;
}

}  // namespace proofline::apps
