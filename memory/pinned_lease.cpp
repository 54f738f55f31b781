#include <proofline/memory/pinned_lease.hpp>

#include <algorithm>
#include <exception>
#include <utility>

#include <proofline/memory/detail/pool_buffer.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/util/logging.hpp>

namespace proofline::memory {

PinnedLease::PinnedLease(PinnedPool* pool, detail::PoolBuffer* buffer, std::uint64_t size) noexcept
    : pool_(pool),
      buffer_(buffer),
      data_(static_cast<std::byte*>(buffer->block.data)),
      size_(size),
      capacity_(buffer->block.bytes),
      page_locked_(buffer->block.page_locked) {}

PinnedLease::PinnedLease(PinnedLease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      buffer_(std::exchange(other.buffer_, nullptr)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      page_locked_(std::exchange(other.page_locked_, false)) {}

PinnedLease& PinnedLease::operator=(PinnedLease&& other) noexcept {
  if (this != &other) {
    reset();
    pool_ = std::exchange(other.pool_, nullptr);
    buffer_ = std::exchange(other.buffer_, nullptr);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    page_locked_ = std::exchange(other.page_locked_, false);
  }
  return *this;
}

PinnedLease::~PinnedLease() {
  reset();
}

void PinnedLease::reset() noexcept {
  if (buffer_ != nullptr) {
    detail::PoolBuffer* const buffers[] = {buffer_};
    pool_->give_back(buffers);
  }
  pool_ = nullptr;
  buffer_ = nullptr;
  data_ = nullptr;
  size_ = capacity_ = 0;
  page_locked_ = false;
}

bool PinnedSlot::page_locked() const noexcept {
  return std::all_of(parts_.begin(), parts_.end(), [](const Part& part) { return part.page_locked; });
}

SlotLease::SlotLease(SlotLease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)), slot_(std::exchange(other.slot_, nullptr)) {}

SlotLease& SlotLease::operator=(SlotLease&& other) noexcept {
  if (this != &other) {
    reset();
    pool_ = std::exchange(other.pool_, nullptr);
    slot_ = std::exchange(other.slot_, nullptr);
  }
  return *this;
}

SlotLease::~SlotLease() {
  reset();
}

PinnedSlot* SlotLease::release() noexcept {
  pool_ = nullptr;
  return std::exchange(slot_, nullptr);
}

void SlotLease::reset() noexcept {
  if (slot_ != nullptr) {
    try {
      pool_->release_slot(slot_);
    } catch (const std::exception& e) {
      // Only a slot already released by pointer gets here: a bug in the caller, not worth a terminate.
      PL_LOG_ERROR("SlotLease: {}", e.what());
    }
  }
  pool_ = nullptr;
  slot_ = nullptr;
}

}  // namespace proofline::memory
