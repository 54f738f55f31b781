// The boundary between C callers and the C++ library: every entry point runs its body through guarded(),
// which turns every exception into a pl_status and the calling thread's message, so nothing thrown ever
// crosses into C. Also the thread-local "inside a callback" mark that lets calls which wait for the pipeline
// refuse instead of deadlocking.
#pragma once

#include <exception>
#include <new>
#include <string>
#include <string_view>

#include <proofline.h>
#include <proofline/util/error.hpp>

namespace proofline::capi {

/// The status a C caller sees for a library error code.
pl_status status_of(Errc code) noexcept;
/// The code of a job whose witness callback returned `status` (not PL_OK): the caller's failure, never
/// proofline's. A code that names a job failure is kept, except PL_ERR_INTERNAL ("a bug in proofline"), which
/// is bad input, as anything a C++ callback throws is (graph's synthesis); the ABI's own codes (a refusal of
/// a pl_ call passed on) are invalid arguments; a value that is no pl_status is bad input.
Errc callback_errc(pl_status status) noexcept;

/// This thread's last error message (pl_last_error_message).
const char* last_error_message() noexcept;

/// Records `message` as this thread's last error and returns `code`.
pl_status fail(pl_status code, std::string message);
/// Records "function: what" as this thread's last error and returns `code`; never throws (a message that does
/// not fit in memory is cut short).
pl_status fail(pl_status code, const char* function, const char* what) noexcept;

/// An error with a pl_status of its own (the codes the C ABI adds to Errc: handles, struct sizes, ...).
class StatusError : public std::runtime_error {
 public:
  StatusError(pl_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  pl_status status() const noexcept { return status_; }

 private:
  pl_status status_;
};

[[noreturn]] void throw_status(pl_status status, const std::string& message);

/// Throws PL_ERR_NULL_POINTER naming the argument when `pointer` is null.
template <class T>
void require(const T* pointer, const char* argument) {
  if (pointer == nullptr) throw_status(PL_ERR_NULL_POINTER, std::string(argument) + " is NULL");
}

/// Whether this thread is inside one of the library's callbacks (completion or witness), and the scope
/// that marks it.
bool in_callback() noexcept;
class CallbackScope {
 public:
  CallbackScope() noexcept;
  ~CallbackScope();
  CallbackScope(const CallbackScope&) = delete;
  CallbackScope& operator=(const CallbackScope&) = delete;
};

/// Throws PL_ERR_IN_CALLBACK when called from a callback: `what` would wait for the pipeline.
void refuse_in_callback(const char* what);

/// Marks this process as one that created a pipeline (its oneTBB scheduler and pipeline threads exist).
void note_pipeline_created() noexcept;
/// Throws PL_ERR_INVALID_ARGUMENT in a child process forked after a pipeline was created: the child has none
/// of the pipeline's threads, so its jobs would never run and its destroy would wait for ever.
void refuse_after_fork();

/// Runs `body` (returning pl_status) and converts whatever it throws; `function` prefixes the message.
template <class Body>
pl_status guarded(const char* function, Body&& body) noexcept {
  try {
    refuse_after_fork();
    return body();
  } catch (const StatusError& e) {
    return fail(e.status(), function, e.what());
  } catch (const Error& e) {
    return fail(status_of(e.code()), function, e.what());
  } catch (const std::bad_alloc&) {
    return fail(PL_ERR_IO, function, "out of memory");
  } catch (const std::exception& e) {
    return fail(PL_ERR_INTERNAL, function, e.what());
  } catch (...) {
    return fail(PL_ERR_INTERNAL, function, "an unknown exception");
  }
}

}  // namespace proofline::capi
