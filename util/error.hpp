// proofline's exception type. Setup-time failures (bad options, unreadable files, a budget too small to
// run) throw proofline::Error; per-job failures inside the pipeline travel as values instead.
#pragma once

#include <stdexcept>
#include <string>

namespace proofline {

/// What went wrong, coarsely, so that callers (the C ABI's status codes, the fleet's retry decisions) can
/// react without string matching.
enum class Errc {
  invalid_argument,  ///< an option or argument that makes no sense
  bad_input,         ///< a file or buffer that is truncated, corrupt, or of the wrong curve/kind
  out_of_budget,     ///< a request larger than a whole memory budget, or a budget too small to run at all
  io,                ///< the operating system refused a read, write, map or allocation
  cuda,              ///< a CUDA runtime call failed
  cancelled,         ///< the caller gave up (stop token, cancel())
  timeout,           ///< a deadline passed
  internal,          ///< a broken invariant: a bug in proofline
};

const char* to_string(Errc code) noexcept;

class Error : public std::runtime_error {
 public:
  Error(Errc code, const std::string& message) : std::runtime_error(message), code_(code) {}
  Errc code() const noexcept { return code_; }

 private:
  Errc code_;
};

}  // namespace proofline
