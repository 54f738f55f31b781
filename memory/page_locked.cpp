#include <proofline/memory/page_locked.hpp>

#include <proofline/memory/detail/backends.hpp>

namespace proofline::memory {

bool page_locked(std::span<const std::byte> range) noexcept {
  return !range.empty() && detail::is_page_locked(range.data()) &&
         detail::is_page_locked(range.data() + (range.size() - 1));
}

}  // namespace proofline::memory
