// An immutable array that is either owned (moved in from a std::vector) or a zero-copy view over memory that
// someone else owns: a memory-mapped key file, a pinned residency region, a buffer of a loaded PCE. The owner
// is a type-erased shared_ptr, so copies are cheap and keep the memory alive; the elements never move.
//
// Proving-key queries and the CSR arrays of a constraint system are SharedArrays, which is what lets the
// native loader hand out views straight into an mmap (or a pinned copy of the file) without a second copy.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace proofline::groth16 {

template <class T>
class SharedArray {
 public:
  using value_type = T;

  SharedArray() = default;

  /// Takes ownership of the vector's elements (no copy).
  explicit SharedArray(std::vector<T> owned) {
    auto holder = std::make_shared<const std::vector<T>>(std::move(owned));
    view_ = std::span<const T>(holder->data(), holder->size());
    owner_ = std::move(holder);
  }

  /// A view that keeps `owner` alive while any copy of this array exists. `owner` may be empty when the
  /// memory outlives every user by construction (static data).
  SharedArray(std::span<const T> view, std::shared_ptr<const void> owner)
      : view_(view), owner_(std::move(owner)) {}

  std::span<const T> span() const noexcept { return view_; }
  operator std::span<const T>() const noexcept { return view_; }
  const T* data() const noexcept { return view_.data(); }
  std::size_t size() const noexcept { return view_.size(); }
  std::size_t size_bytes() const noexcept { return view_.size_bytes(); }
  bool empty() const noexcept { return view_.empty(); }
  const T& operator[](std::size_t index) const noexcept { return view_[index]; }
  auto begin() const noexcept { return view_.begin(); }
  auto end() const noexcept { return view_.end(); }

  /// Elements [offset, offset + count) sharing this array's owner.
  SharedArray subarray(std::size_t offset, std::size_t count) const {
    return SharedArray(view_.subspan(offset, count), owner_);
  }

  const std::shared_ptr<const void>& owner() const noexcept { return owner_; }

 private:
  std::span<const T> view_;
  std::shared_ptr<const void> owner_;
};

}  // namespace proofline::groth16
