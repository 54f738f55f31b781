// Internal: anonymous page mappings, parallel first touch and zeroing, shared by the host and
// cudaHostRegister backends.
#pragma once

#include <cstdint>

namespace proofline::memory::detail {

inline constexpr std::uint64_t huge_page_bytes = 2ull << 20;

std::uint64_t page_bytes() noexcept;

/// `bytes` rounded up to whole pages, or to whole huge pages when `huge_pages` and the block is big enough
/// to hold one (smaller blocks would waste most of a huge page).
std::uint64_t round_mapping(std::uint64_t bytes, bool huge_pages) noexcept;

/// An anonymous private read-write mapping of exactly `bytes` (already rounded), aligned to 2 MiB and
/// advised MADV_HUGEPAGE when `huge_pages`, so transparent huge pages back it. Throws Error(io).
void* map_pages(std::uint64_t bytes, bool huge_pages);
void unmap_pages(void* data, std::uint64_t bytes) noexcept;

/// Faults every page in by writing to it, split over `threads` threads (0: all hardware threads). First
/// touch is most of the cost of pinning fresh memory, and page faults scale with cores.
void touch_pages(void* data, std::uint64_t bytes, unsigned threads);

/// Overwrites with zeros in a way the compiler cannot drop, over `threads` threads.
void zero_pages(void* data, std::uint64_t bytes, unsigned threads) noexcept;

}  // namespace proofline::memory::detail
