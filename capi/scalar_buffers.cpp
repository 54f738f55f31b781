#include <proofline/capi/detail/scalar_buffers.hpp>

#include <algorithm>
#include <cstring>

namespace proofline::capi {

std::shared_ptr<ScalarBuffers> ScalarBuffers::make(Limits limits) {
  return std::shared_ptr<ScalarBuffers>(new ScalarBuffers(limits));
}

std::shared_ptr<ScalarBuffers> ScalarBuffers::make() {
  return make(Limits{});
}

std::shared_ptr<const std::vector<std::uint8_t>> ScalarBuffers::copy(const std::uint8_t* data,
                                                                     std::size_t bytes) {
  std::unique_ptr<std::vector<std::uint8_t>> buffer;
  {
    std::lock_guard lock(mutex_);
    const auto same =
        std::find_if(idle_.begin(), idle_.end(), [&](const auto& b) { return b->size() == bytes; });
    if (same != idle_.end()) {
      buffer = std::move(*same);
      idle_.erase(same);
      idle_bytes_ -= bytes;
      ++reused_;
    }
  }
  if (buffer)
    std::memcpy(buffer->data(), data, bytes);
  else
    buffer = std::make_unique<std::vector<std::uint8_t>>(data, data + bytes);
  std::weak_ptr<ScalarBuffers> home = weak_from_this();
  return std::shared_ptr<const std::vector<std::uint8_t>>(
      buffer.release(), [home](const std::vector<std::uint8_t>* b) {
        auto* owned = const_cast<std::vector<std::uint8_t>*>(b);
        if (const auto buffers = home.lock())
          buffers->give_back(owned);
        else
          delete owned;
      });
}

void ScalarBuffers::give_back(std::vector<std::uint8_t>* buffer) noexcept {
  std::unique_ptr<std::vector<std::uint8_t>> owned(buffer);
  const std::size_t bytes = owned->size();
  std::lock_guard lock(mutex_);
  if (idle_.size() >= limits_.idle_buffers || idle_bytes_ + bytes > limits_.idle_bytes) return;
  try {
    idle_.push_back(std::move(owned));
    idle_bytes_ += bytes;
  } catch (...) {
    // No memory for the list's entry: the buffer is freed instead.
  }
}

std::size_t ScalarBuffers::idle_buffers() const {
  std::lock_guard lock(mutex_);
  return idle_.size();
}

std::size_t ScalarBuffers::reused() const {
  std::lock_guard lock(mutex_);
  return reused_;
}

}  // namespace proofline::capi
