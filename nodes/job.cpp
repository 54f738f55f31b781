#include <proofline/nodes/job.hpp>

namespace proofline::nodes {

const char* to_string(Stage stage) noexcept {
  switch (stage) {
    case Stage::queue:
      return "queue";
    case Stage::admission:
      return "admission";
    case Stage::synthesis:
      return "synthesis";
    case Stage::h2d:
      return "h2d";
    case Stage::ntt:
      return "ntt";
    case Stage::msm:
      return "msm";
    case Stage::release:
      return "release";
    case Stage::baseline:
      return "baseline";
  }
  return "unknown";
}

}  // namespace proofline::nodes
