// A claim on part of a Budget. Move-only RAII: whatever it still holds goes back to its budget when it is
// destroyed, so no error path can leak budget bytes.
#pragma once

#include <cstdint>

namespace proofline::memory {

class Budget;
struct ReserveOptions;

class Reservation {
 public:
  /// Holds nothing and belongs to no budget (merge() adopts the budget of what is merged in).
  Reservation() = default;
  Reservation(Reservation&& other) noexcept;
  Reservation& operator=(Reservation&& other) noexcept;
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation();

  std::uint64_t bytes() const noexcept { return bytes_; }
  bool empty() const noexcept { return bytes_ == 0; }
  Budget* budget() const noexcept { return budget_; }

  /// Gives `bytes` back now and keeps the rest (two-phase use: reserve a whole job, release its input
  /// buffers as soon as the device has them). Throws Error(invalid_argument) if it holds fewer.
  void release(std::uint64_t bytes);
  /// Gives everything back.
  void reset() noexcept;

  /// Adds `bytes` if the budget has them now and nobody is queued ahead (FIFO); never blocks.
  bool try_grow(std::uint64_t bytes);
  /// Adds `bytes`, waiting as Budget::reserve does (evictors first, then FIFO). Throws what reserve throws.
  void grow(std::uint64_t bytes);
  void grow(std::uint64_t bytes, const ReserveOptions& options);

  /// Moves `bytes` of this reservation into a new one of the same budget (e.g. one reservation for a whole
  /// slot, split per buffer). Throws Error(invalid_argument) if it holds fewer.
  Reservation split(std::uint64_t bytes);
  /// Takes over everything `other` holds. Both must belong to the same budget (or one be empty).
  void merge(Reservation&& other);

 private:
  friend class Budget;
  Reservation(Budget* budget, std::uint64_t bytes) noexcept : budget_(budget), bytes_(bytes) {}

  Budget* budget_ = nullptr;
  std::uint64_t bytes_ = 0;
};

}  // namespace proofline::memory
