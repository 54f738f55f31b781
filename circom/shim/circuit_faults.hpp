// What circom's C++ output leaves unchecked, turned into an error of the one input that reached it instead of
// the end of the process. Its generated code takes array indices, divisors and recursion depths from the
// input without a check, as circom's own witness binary does:
// - a field element too large to be an index goes to Fr_fail, from fr.asm, which has no unwind tables, so no
//   exception can pass through it;
// - an index that fits an int but not the array reads or writes wherever it points (SIGSEGV far outside);
// - an integer division (\ or %) by zero makes GMP raise SIGFPE;
// - a recursion as deep as the input says overflows the thread's stack (SIGSEGV on its guard page).
// run_guarded runs the circuit's code so that each of these returns to it (siglongjmp, from Fr_fail or from
// a signal handler on an alternate stack) and is thrown from there as an error naming what happened. The
// frames left that way are left without their destructors: what circom's functions held then is leaked, once
// per such input. An out-of-bounds write that lands in mapped memory faults nowhere and cannot be caught
// here: for inputs that are not trusted, circom's --wasm output checks every memory access.
//
// Faults on threads not inside run_guarded go to whatever handler was installed before (a language runtime's,
// or the default action), so a process embedding proofline keeps its own handling of them.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

namespace proofline_shim {

/// Where a fault of the circuit's code returns to: the innermost run_guarded of this thread.
inline thread_local sigjmp_buf* fault_target = nullptr;
/// What returned there: a signal's number, or kFieldFailure.
inline thread_local int fault_code = 0;
/// How many threads are in run_guarded: the handler reads fault_target (thread-local storage of a loaded
/// library, which another thread may not have yet) only while some are.
inline std::atomic<int> guarded_threads{0};

inline constexpr int kFieldFailure = -1;  ///< fault_code for Fr_fail
inline constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE};
inline struct sigaction previous_fault_actions[std::size(kFaultSignals)];

/// Hands a fault that is not the circuit's to the handler installed before this one.
inline void chain_fault(int number, siginfo_t* info, void* context) {
  const auto* found = std::find(std::begin(kFaultSignals), std::end(kFaultSignals), number);
  const struct sigaction& previous = previous_fault_actions[found - std::begin(kFaultSignals)];
  if ((previous.sa_flags & SA_SIGINFO) != 0) return previous.sa_sigaction(number, info, context);
  // Ignored: a sent signal is; one raised by an instruction would only fault again, so it ends the process as
  // the kernel would.
  if (previous.sa_handler == SIG_IGN && info->si_code <= 0) return;
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) return previous.sa_handler(number);
  // The default action: restored, it ends the process when the faulting instruction runs again (or now, for
  // a signal that was sent rather than raised by an instruction).
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(number, &default_action, nullptr);
  if (info->si_code <= 0) ::raise(number);
}

inline void on_fault(int number, siginfo_t* info, void* context) {
  if (guarded_threads.load(std::memory_order_acquire) > 0 && fault_target != nullptr) {
    fault_code = number;
    siglongjmp(*fault_target, 1);
  }
  chain_fault(number, info, context);
}

/// Installs on_fault once per loaded generator: a second generator's chains to the first's, which stays
/// loaded (proofline loads generators with RTLD_NODELETE).
inline void install_fault_handlers() {
  static const bool installed = [] {
    for (std::size_t i = 0; i < std::size(kFaultSignals); ++i) {
      struct sigaction action = {};
      action.sa_sigaction = on_fault;
      action.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&action.sa_mask);
      if (::sigaction(kFaultSignals[i], &action, &previous_fault_actions[i]) != 0)
        throw std::runtime_error("cannot install the circuit's fault handler");
    }
    return true;
  }();
  (void)installed;
}

/// An alternate signal stack for this thread where it has none, so that the handler can run after the
/// thread's own stack overflowed; removed when the thread ends.
class AlternateStack {
 public:
  AlternateStack() {
    stack_t current = {};
    if (::sigaltstack(nullptr, &current) != 0 || (current.ss_flags & SS_DISABLE) == 0) return;
    const long minimum = ::sysconf(_SC_SIGSTKSZ);
    size_ = std::max<std::size_t>(64 * 1024, minimum > 0 ? static_cast<std::size_t>(minimum) : 0);
    memory_ = std::make_unique<char[]>(size_);
    stack_t stack = {};
    stack.ss_sp = memory_.get();
    stack.ss_size = size_;
    if (::sigaltstack(&stack, nullptr) != 0) memory_.reset();
  }
  ~AlternateStack() {
    if (!memory_) return;
    stack_t off = {};
    off.ss_flags = SS_DISABLE;
    ::sigaltstack(&off, nullptr);
  }
  AlternateStack(const AlternateStack&) = delete;
  AlternateStack& operator=(const AlternateStack&) = delete;

 private:
  std::unique_ptr<char[]> memory_;
  std::size_t size_ = 0;
};

inline std::string fault_message(int code) {
  switch (code) {
    case kFieldFailure:
      return "a field element too large to convert to an integer (circom's Fr_toInt)";
    case SIGFPE:
      return "the circuit's code raised an arithmetic exception (SIGFPE): an integer division (\\ or %) by "
             "zero with this input";
    default:
      return std::string("the circuit's code accessed memory outside its own (") +
             (code == SIGBUS ? "SIGBUS" : "SIGSEGV") +
             "): circom's C++ output checks neither array indices nor recursion depth taken from the input, "
             "and "
             "this input drives one of them out of bounds";
  }
}

/// Runs the circuit's code, `body`, so that Fr_fail and the faults above come back as a std::runtime_error.
template <class Body>
void run_guarded(Body&& body) {
  install_fault_handlers();
  thread_local AlternateStack alternate_stack;
  sigjmp_buf target;
  sigjmp_buf* const outer = fault_target;
  // Saves the signal mask: the handler's signal is blocked while it runs, and siglongjmp unblocks it here.
  if (sigsetjmp(target, 1) != 0) {
    fault_target = outer;
    guarded_threads.fetch_sub(1, std::memory_order_release);
    throw std::runtime_error(fault_message(fault_code));
  }
  fault_target = &target;
  guarded_threads.fetch_add(1, std::memory_order_acq_rel);
  try {
    body();
  } catch (...) {
    fault_target = outer;
    guarded_threads.fetch_sub(1, std::memory_order_release);
    throw;
  }
  fault_target = outer;
  guarded_threads.fetch_sub(1, std::memory_order_release);
}

/// Fr_fail's way back to run_guarded.
[[noreturn]] inline void return_field_failure() {
  if (fault_target == nullptr)
    std::abort();  // only reachable outside run_guarded, which runs all circuit code
  fault_code = kFieldFailure;
  siglongjmp(*fault_target, 1);
}

}  // namespace proofline_shim
