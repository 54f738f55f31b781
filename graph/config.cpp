#include <proofline/graph/config.hpp>

#include <string>

#include <proofline/util/error.hpp>

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
  return mode == Mode::pinned ? "pinned" : "baseline";
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
              "unknown backend '" + std::string(text) + "' (expected auto, cpu or cuda)");
}

Mode parse_mode(std::string_view text) {
  if (text == "pinned") return Mode::pinned;
  if (text == "baseline") return Mode::baseline;
  throw Error(Errc::invalid_argument,
              "unknown mode '" + std::string(text) + "' (expected pinned or baseline)");
}

SrsPlacement parse_srs_placement(std::string_view text) {
  if (text == "auto" || text == "automatic") return SrsPlacement::automatic;
  if (text == "vram" || text == "device") return SrsPlacement::device;
  if (text == "host") return SrsPlacement::host;
  throw Error(Errc::invalid_argument,
              "unknown SRS placement '" + std::string(text) + "' (expected auto, vram or host)");
}

}  // namespace proofline::graph
