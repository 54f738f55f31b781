#include <proofline/nodes/job.hpp>

#include <mutex>
#include <string>

namespace proofline::nodes {

void WitnessRefusals::note(const char* message) noexcept {
  std::lock_guard lock(mutex_);
  if (count_++ != 0) return;
  try {
    first_ = message;
  } catch (...) {
    // Out of memory: the count still fails the job, without this message.
  }
}

std::size_t WitnessRefusals::count() const {
  std::lock_guard lock(mutex_);
  return count_;
}

std::string WitnessRefusals::first() const {
  std::lock_guard lock(mutex_);
  return first_;
}

std::string WitnessRefusals::summary() const {
  std::lock_guard lock(mutex_);
  if (count_ == 0) return {};
  const std::string first = first_.empty() ? "its message did not fit in memory" : first_;
  if (count_ == 1) return "a refused write: " + first;
  return std::to_string(count_) + " refused writes, the first: " + first;
}

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
