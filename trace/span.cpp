#include <proofline/trace/span.hpp>

namespace proofline::trace {

const char* to_string(TrackKind kind) noexcept {
  switch (kind) {
    case TrackKind::cpu_worker:
      return "cpu_worker";
    case TrackKind::cuda_stream:
      return "cuda_stream";
    case TrackKind::counter:
      return "counter";
  }
  return "unknown";
}

}  // namespace proofline::trace
