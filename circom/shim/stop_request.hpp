// The caller's request to stop a computation: a flag proofline sets once the job's result is decided while
// its witness is still being computed (its timeout came). The circuit's code polls it where it can run for as
// long as the input says: circom's C++ at every branch and loop condition (Fr_isTrue, shim/prelude.hpp), its
// WebAssembly translated to C at every jump back to a loop's start; each poll costs a counter, and one in
// 1024 reads the flag. A computation that is asked to stop ends as a failure, whose message nobody reads: the
// job's result was decided before.
#pragma once

#include <atomic>
#include <utility>

namespace proofline_shim {

/// The flag of the computation this thread runs (null: none can stop it).
inline thread_local const std::atomic<bool>* stop_request = nullptr;

inline constexpr const char* stopped_message = "stopped: the job ended while its witness was being computed";

/// True once the flag is found set (reading it on one poll in 1024).
inline bool stop_requested() noexcept {
  thread_local unsigned polls = 0;
  return (++polls & 1023u) == 0 && stop_request != nullptr && stop_request->load(std::memory_order_relaxed);
}

/// Sets this thread's flag for one computation.
class StopScope {
 public:
  explicit StopScope(const void* flag)
      : outer_(std::exchange(stop_request, static_cast<const std::atomic<bool>*>(flag))) {}
  ~StopScope() { stop_request = outer_; }
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  const std::atomic<bool>* outer_;
};

}  // namespace proofline_shim
