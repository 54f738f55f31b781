// The copies pl_submit_scalars makes of a caller's witness, in buffers used again. A fresh allocation of a
// job's scalars (32 MiB at 2^20 variables) costs its page faults on the caller's thread at every submit,
// as much as the copy itself; a buffer of a retired job is warm. Few are kept idle, and only up to a byte
// cap: they are not charged to the pipeline's host budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace proofline::capi {

class ScalarBuffers : public std::enable_shared_from_this<ScalarBuffers> {
 public:
  struct Limits {
    std::size_t idle_buffers = 4;
    std::size_t idle_bytes = std::size_t{1} << 30;
  };
  /// Made shared (the buffers handed out find their way back through a weak reference).
  static std::shared_ptr<ScalarBuffers> make(Limits limits);
  static std::shared_ptr<ScalarBuffers> make();

  /// A copy of `bytes` bytes at `data`, in an idle buffer of that size when there is one; it comes back here
  /// when the last reference goes (freed instead once the limits are reached or this object is gone).
  std::shared_ptr<const std::vector<std::uint8_t>> copy(const std::uint8_t* data, std::size_t bytes);

  std::size_t idle_buffers() const;
  std::size_t reused() const;  ///< copies made into an idle buffer

 private:
  explicit ScalarBuffers(Limits limits) : limits_(limits) {}
  void give_back(std::vector<std::uint8_t>* buffer) noexcept;

  const Limits limits_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<std::vector<std::uint8_t>>> idle_;
  std::size_t idle_bytes_ = 0;
  std::size_t reused_ = 0;
};

}  // namespace proofline::capi
