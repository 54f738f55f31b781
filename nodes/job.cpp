#include <proofline/nodes/job.hpp>

#include <mutex>
#include <string>
#include <string_view>

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

JobError allocation_free_error(Stage stage, Errc code, std::string_view what) noexcept {
  JobError error{stage, code, {}};
  // An empty string's capacity is its inline buffer: text up to that length is stored without allocating.
  const std::size_t inline_chars = error.message.capacity();
  const std::string_view name = to_string(stage);
  if (name.size() + 2 + what.size() <= inline_chars) {
    error.message.append(name).append(": ").append(what);
  } else if (what.size() <= inline_chars) {
    error.message.assign(what);
  }
  return error;
}

}  // namespace proofline::nodes
