#include <proofline/graph/config.hpp>

#include <algorithm>
#include <string>

#include <oneapi/tbb/info.h>

#include <proofline/devices/subgroup_tester.hpp>
#include <proofline/graph/job.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline::graph {

std::string_view to_string(Backend backend) noexcept {
  switch (backend) {
    case Backend::automatic:
      return "auto";
    case Backend::cpu:
      return "cpu";
    case Backend::cuda:
      return "cuda";
  }
  return "unknown";
}

std::string_view to_string(Mode mode) noexcept {
  switch (mode) {
    case Mode::pinned:
      return "pinned";
    case Mode::baseline:
      return "baseline";
  }
  return "unknown";
}

std::string_view to_string(SrsPlacement placement) noexcept {
  switch (placement) {
    case SrsPlacement::automatic:
      return "auto";
    case SrsPlacement::device:
      return "vram";
    case SrsPlacement::host:
      return "host";
  }
  return "unknown";
}

Backend parse_backend(std::string_view text) {
  if (text == "auto" || text == "automatic") return Backend::automatic;
  if (text == "cpu") return Backend::cpu;
  if (text == "cuda" || text == "gpu") return Backend::cuda;
  throw Error(Errc::invalid_argument,
              "unknown backend " + quote_for_message(text, 80, '\'') + " (expected auto, cpu or cuda)");
}

Mode parse_mode(std::string_view text) {
  if (text == "pinned") return Mode::pinned;
  if (text == "baseline") return Mode::baseline;
  throw Error(Errc::invalid_argument,
              "unknown mode " + quote_for_message(text, 80, '\'') + " (expected pinned or baseline)");
}

SrsPlacement parse_srs_placement(std::string_view text) {
  if (text == "auto" || text == "automatic") return SrsPlacement::automatic;
  if (text == "vram" || text == "device") return SrsPlacement::device;
  if (text == "host") return SrsPlacement::host;
  throw Error(Errc::invalid_argument, "unknown SRS placement " + quote_for_message(text, 80, '\'') +
                                          " (expected auto, vram or host)");
}

ThreadPlan thread_plan(const Config& config) {
  ThreadPlan plan;
  plan.threads = config.max_threads != 0
                     ? config.max_threads
                     : static_cast<std::size_t>(std::max(1, oneapi::tbb::info::default_concurrency()));
  plan.synthesis = config.synthesis_concurrency != 0 ? config.synthesis_concurrency
                                                     : std::max<std::size_t>(1, plan.threads / 2);
  return plan;
}

std::shared_ptr<const groth16::SubgroupTester> subgroup_tester_for(const Config& config) {
  if (config.backend == Backend::cpu) return nullptr;
  return devices::gpu_subgroup_tester(config.gpus.empty() ? 0 : config.gpus.front());
}

}  // namespace proofline::graph
