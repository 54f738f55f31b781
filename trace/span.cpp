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

const char* to_string(JobOutcome outcome) noexcept {
  switch (outcome) {
    case JobOutcome::proved:
      return "proved";
    case JobOutcome::failed:
      return "failed";
    case JobOutcome::cancelled:
      return "cancelled";
    case JobOutcome::timed_out:
      return "timed_out";
  }
  return "unknown";
}

}  // namespace proofline::trace
