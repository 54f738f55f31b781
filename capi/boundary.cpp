#include <proofline/capi/detail/boundary.hpp>

#include <unistd.h>

#include <atomic>
#include <utility>

#include <proofline/capi/detail/registry.hpp>
#include <proofline/util/log.hpp>

namespace proofline::capi {

namespace {

thread_local std::string last_message;
thread_local int callback_depth = 0;
std::atomic<pid_t> pipelines_process{0};  ///< the process that created the first pipeline, 0 before

}  // namespace

pl_status status_of(Errc code) noexcept {
  switch (code) {
    case Errc::invalid_argument:
      return PL_ERR_INVALID_ARGUMENT;
    case Errc::bad_input:
      return PL_ERR_BAD_INPUT;
    case Errc::out_of_budget:
      return PL_ERR_OUT_OF_BUDGET;
    case Errc::io:
      return PL_ERR_IO;
    case Errc::cuda:
      return PL_ERR_CUDA;
    case Errc::cancelled:
      return PL_ERR_CANCELLED;
    case Errc::timeout:
      return PL_ERR_TIMEOUT;
    case Errc::internal:
      break;
  }
  return PL_ERR_INTERNAL;
}

Errc callback_errc(pl_status status) noexcept {
  switch (status) {
    case PL_ERR_BAD_INPUT:
    case PL_ERR_INTERNAL:
      return Errc::bad_input;
    case PL_ERR_OUT_OF_BUDGET:
      return Errc::out_of_budget;
    case PL_ERR_IO:
      return Errc::io;
    case PL_ERR_CUDA:
      return Errc::cuda;
    case PL_ERR_CANCELLED:
      return Errc::cancelled;
    case PL_ERR_TIMEOUT:
      return Errc::timeout;
    case PL_OK:
    case PL_ERR_INVALID_ARGUMENT:
    case PL_ERR_NULL_POINTER:
    case PL_ERR_INVALID_HANDLE:
    case PL_ERR_STRUCT_SIZE:
    case PL_ERR_BUFFER_TOO_SMALL:
    case PL_ERR_NOT_READY:
    case PL_ERR_QUEUE_FULL:
    case PL_ERR_IN_CALLBACK:
    case PL_ERR_SHUT_DOWN:
    case PL_ERR_PROOF_INVALID:
    case PL_ERR_NOT_CANCELLABLE:
      return Errc::invalid_argument;
  }
  return Errc::bad_input;
}

pl_status fail(pl_status code, std::string message) {
  try {
    last_message = std::move(message);
  } catch (...) {
    // Out of memory while recording the message: the code still says what happened.
  }
  return code;
}

pl_status fail(pl_status code, const char* function, const char* what) noexcept {
  try {
    last_message.assign(function);
    last_message += ": ";
    last_message += what;
  } catch (...) {
    // Out of memory: what fitted stays; the code still says what happened.
  }
  return code;
}

void throw_status(pl_status status, const std::string& message) {
  throw StatusError(status, message);
}

bool in_callback() noexcept {
  return callback_depth > 0;
}

CallbackScope::CallbackScope() noexcept {
  ++callback_depth;
}
CallbackScope::~CallbackScope() {
  --callback_depth;
}

void note_pipeline_created() noexcept {
  pid_t none = 0;
  pipelines_process.compare_exchange_strong(none, ::getpid());
}

void refuse_after_fork() {
  const pid_t owner = pipelines_process.load(std::memory_order_relaxed);
  if (owner != 0 && owner != ::getpid())
    throw_status(PL_ERR_INVALID_ARGUMENT,
                 "this process was forked from one that had created a pipeline (process " +
                     std::to_string(owner) +
                     "): a child has none of its threads, so libproofline is unusable here; exec first");
}

void refuse_in_callback(const char* what) {
  if (in_callback())
    throw_status(
        PL_ERR_IN_CALLBACK,
        std::string(what) +
            " waits for a pipeline and cannot be called from a callback of any pipeline (this "
            "thread may be one the pipeline needs: it could deadlock); call it from a thread of your "
            "own");
}

std::uint64_t next_handle_id() noexcept {
  // In the kernel's half of the address space on 64-bit targets: no user pointer (and no garbage-collected
  // heap of a Go or Java caller that keeps handles in pointer-typed variables) can ever hold such a value.
  static std::atomic<std::uint64_t> next{sizeof(std::uintptr_t) >= 8 ? 0xF1A0'0000'0000'0001 : 0x9100'0001};
  return next.fetch_add(1, std::memory_order_relaxed);
}

const char* last_error_message() noexcept {
  return last_message.c_str();
}

}  // namespace proofline::capi

extern "C" {

PL_API const char* pl_last_error_message(void) {
  return proofline::capi::last_error_message();
}

PL_API const char* pl_status_name(pl_status status) {
  switch (status) {
#define PL_NAME(code) \
  case code:          \
    return #code;
    PL_NAME(PL_OK)
    PL_NAME(PL_ERR_INVALID_ARGUMENT)
    PL_NAME(PL_ERR_BAD_INPUT)
    PL_NAME(PL_ERR_OUT_OF_BUDGET)
    PL_NAME(PL_ERR_IO)
    PL_NAME(PL_ERR_CUDA)
    PL_NAME(PL_ERR_CANCELLED)
    PL_NAME(PL_ERR_TIMEOUT)
    PL_NAME(PL_ERR_INTERNAL)
    PL_NAME(PL_ERR_NULL_POINTER)
    PL_NAME(PL_ERR_INVALID_HANDLE)
    PL_NAME(PL_ERR_STRUCT_SIZE)
    PL_NAME(PL_ERR_BUFFER_TOO_SMALL)
    PL_NAME(PL_ERR_NOT_READY)
    PL_NAME(PL_ERR_QUEUE_FULL)
    PL_NAME(PL_ERR_IN_CALLBACK)
    PL_NAME(PL_ERR_SHUT_DOWN)
    PL_NAME(PL_ERR_PROOF_INVALID)
    PL_NAME(PL_ERR_NOT_CANCELLABLE)
#undef PL_NAME
  }
  return "PL_UNKNOWN";
}

PL_API const char* pl_version(void) {
  return PROOFLINE_CAPI_VERSION;
}

PL_API int pl_abi_version(void) {
  return PL_ABI_VERSION;
}

}  // extern "C"
