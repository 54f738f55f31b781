// Runs a callable when the scope ends: pairs every acquire with its release on every path, errors included.
#pragma once

#include <utility>

namespace proofline {

template <class F>
class ScopeGuard {
 public:
  explicit ScopeGuard(F f) : f_(std::move(f)) {}
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
  ~ScopeGuard() {
    if (armed_) f_();
  }
  /// The guarded action will not run (the resource was handed on).
  void dismiss() noexcept { armed_ = false; }

 private:
  F f_;
  bool armed_ = true;
};

}  // namespace proofline
