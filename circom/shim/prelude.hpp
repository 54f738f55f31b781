// Force-included (g++ -include) into every file of circom's generated code that proofline compiles: what the
// build's copy of the circuit's .cpp calls instead of circom's own, declared before the code uses it.
#pragma once
#include <atomic>
#include <ostream>
#include <thread>

/// The sink the circuit's std::cout is redirected to (see witness_shim.cpp).
std::ostream& proofline_circom_messages();

/// Throws: the caller asked the computation to stop (witness_shim.cpp).
[[noreturn]] void proofline_circom_stopped();

/// circom's Fr_isTrue, which decides every branch and loop condition of the circuit's code, after a look at
/// the caller's stop flag (const std::atomic<bool>*, or null), which the build's copy of calcwit.hpp keeps in
/// the calculator (Circom_CalcWit::proofline_stop): a loop, or a recursion, that runs as long as the input
/// says ends when the job does. The calculator is `ctx` wherever circom's code decides, so the look costs a
/// load, not a thread-local lookup.
template <class Calculator, class Element>
int proofline_circom_is_true(const Calculator* ctx, Element* element) {
  const auto* stop = static_cast<const std::atomic<bool>*>(ctx->proofline_stop);
  if (stop != nullptr && stop->load(std::memory_order_relaxed)) proofline_circom_stopped();
  return Fr_isTrue(element);  // found where it is called, by the element's type (declared in fr.hpp)
}

/// Starts a `parallel` component as circom's code starts it (`std::thread(run, component, ctx)`), but runs it
/// here, in the thread computing the witness, and returns a thread that is not joinable (circom's join skips
/// it). On a thread of its own, a failing assert or a fault in the component could not be reported as the
/// input's error (it would end the process), and the component's parent, waiting for its outputs, would never
/// wake; here the error unwinds through the parent like any other. A component starts once all its inputs are
/// set and waits for nothing of its parent's, so running it at once cannot deadlock; circom's count of
/// running threads goes one below zero for that moment, which its waits (numThread < maxThread) allow.
/// Witnesses are computed in parallel with each other instead.
template <class Run, class... Arguments>
std::thread proofline_circom_run_here(Run run, Arguments... arguments) {
  run(arguments...);
  return std::thread();
}
