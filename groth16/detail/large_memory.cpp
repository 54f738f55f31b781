#include <proofline/groth16/detail/large_memory.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>

namespace proofline::groth16::detail {

namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;

}  // namespace

void* allocate_large_memory(std::size_t bytes, std::size_t alignment) noexcept {
  const bool large = bytes >= large_memory_threshold;
  const std::size_t align = large ? huge_page : alignment;
  const std::size_t size = std::max<std::size_t>(bytes, 1);
  if (size > std::numeric_limits<std::size_t>::max() - align) return nullptr;
  const std::size_t rounded = (size + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
#if defined(MADV_HUGEPAGE)
  if (p != nullptr && large) (void)::madvise(p, rounded, MADV_HUGEPAGE);  // a hint
#endif
  return p;
}

void free_large_memory(void* p) noexcept {
  std::free(p);
}

}  // namespace proofline::groth16::detail
