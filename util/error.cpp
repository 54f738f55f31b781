#include <proofline/util/error.hpp>

namespace proofline {

const char* to_string(Errc code) noexcept {
  switch (code) {
    case Errc::invalid_argument:
      return "invalid argument";
    case Errc::bad_input:
      return "bad input";
    case Errc::out_of_budget:
      return "out of budget";
    case Errc::io:
      return "i/o error";
    case Errc::cuda:
      return "CUDA error";
    case Errc::cancelled:
      return "cancelled";
    case Errc::timeout:
      return "timeout";
    case Errc::internal:
      return "internal error";
  }
  return "unknown error";
}

}  // namespace proofline
