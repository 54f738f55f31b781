// What PinnedPool hands out. PinnedLease: one buffer, move-only, returned to the pool (never freed) when
// destroyed. PinnedSlot: the buffers of one job (a, b, c, MSM scalars, ...), leased together, owned by the
// pool and identified by its address, so the flow graph can pass it around as a plain Slot* token.
// SlotLease: the RAII owner of a PinnedSlot for code outside the graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <boost/container/small_vector.hpp>

namespace proofline::memory {

class PinnedPool;
namespace detail {
struct PoolBuffer;
}

class PinnedLease {
 public:
  PinnedLease() = default;
  PinnedLease(PinnedLease&& other) noexcept;
  PinnedLease& operator=(PinnedLease&& other) noexcept;
  PinnedLease(const PinnedLease&) = delete;
  PinnedLease& operator=(const PinnedLease&) = delete;
  ~PinnedLease();

  std::byte* data() const noexcept { return data_; }
  std::uint64_t size() const noexcept { return size_; }          ///< what was asked for
  std::uint64_t capacity() const noexcept { return capacity_; }  ///< what the buffer holds (>= size)
  bool page_locked() const noexcept { return page_locked_; }
  std::span<std::byte> bytes() const noexcept { return {data_, static_cast<std::size_t>(size_)}; }
  template <class T>
  std::span<T> as() const noexcept {
    return {reinterpret_cast<T*>(data_), static_cast<std::size_t>(size_ / sizeof(T))};
  }
  explicit operator bool() const noexcept { return buffer_ != nullptr; }

  /// Returns the buffer to the pool now.
  void reset() noexcept;

 private:
  friend class PinnedPool;
  PinnedLease(PinnedPool* pool, detail::PoolBuffer* buffer, std::uint64_t size) noexcept;

  PinnedPool* pool_ = nullptr;
  detail::PoolBuffer* buffer_ = nullptr;
  std::byte* data_ = nullptr;
  std::uint64_t size_ = 0;
  std::uint64_t capacity_ = 0;
  bool page_locked_ = false;
};

/// One job's buffers. Lives inside the pool from acquire_slot() to release_slot(); its buffers stay valid
/// and untouched by anyone else in between.
class PinnedSlot {
 public:
  PinnedSlot(const PinnedSlot&) = delete;
  PinnedSlot& operator=(const PinnedSlot&) = delete;

  std::size_t count() const noexcept { return parts_.size(); }
  std::span<std::byte> buffer(std::size_t i) const noexcept {
    return {parts_[i].data, static_cast<std::size_t>(parts_[i].size)};
  }
  template <class T>
  std::span<T> as(std::size_t i) const noexcept {
    return {reinterpret_cast<T*>(parts_[i].data), static_cast<std::size_t>(parts_[i].size / sizeof(T))};
  }
  std::byte* data(std::size_t i) const noexcept { return parts_[i].data; }
  std::uint64_t size(std::size_t i) const noexcept { return parts_[i].size; }
  std::uint64_t capacity(std::size_t i) const noexcept { return parts_[i].capacity; }
  /// True when every buffer is page-locked (DMA-able).
  bool page_locked() const noexcept;
  /// Different for every acquisition (for traces and logs).
  std::uint64_t id() const noexcept { return id_; }

 private:
  friend class PinnedPool;
  PinnedSlot() = default;

  struct Part {
    detail::PoolBuffer* buffer = nullptr;
    std::byte* data = nullptr;
    std::uint64_t size = 0;
    std::uint64_t capacity = 0;
    bool page_locked = false;
  };
  boost::container::small_vector<Part, 4> parts_;
  std::uint64_t id_ = 0;
};

/// Owns an acquired slot and releases it when destroyed.
class SlotLease {
 public:
  SlotLease() = default;
  SlotLease(SlotLease&& other) noexcept;
  SlotLease& operator=(SlotLease&& other) noexcept;
  SlotLease(const SlotLease&) = delete;
  SlotLease& operator=(const SlotLease&) = delete;
  ~SlotLease();

  PinnedSlot* get() const noexcept { return slot_; }
  PinnedSlot* operator->() const noexcept { return slot_; }
  PinnedSlot& operator*() const noexcept { return *slot_; }
  explicit operator bool() const noexcept { return slot_ != nullptr; }

  /// Hands the slot on without releasing it (e.g. into the flow graph as a token); whoever takes it must
  /// call PinnedPool::release_slot() on it.
  [[nodiscard]] PinnedSlot* release() noexcept;
  /// Releases the slot to the pool now.
  void reset() noexcept;

 private:
  friend class PinnedPool;
  SlotLease(PinnedPool* pool, PinnedSlot* slot) noexcept : pool_(pool), slot_(slot) {}

  PinnedPool* pool_ = nullptr;
  PinnedSlot* slot_ = nullptr;
};

}  // namespace proofline::memory
