#include <proofline/memory/detail/page_memory.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory::detail {

namespace {

// Below this a thread costs more to start than the page faults it would take over.
constexpr std::uint64_t bytes_per_thread_min = 64ull << 20;

unsigned thread_count(std::uint64_t bytes, unsigned requested) {
  unsigned threads = requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t useful = std::max<std::uint64_t>(1, bytes / bytes_per_thread_min);
  return static_cast<unsigned>(std::min<std::uint64_t>(threads, useful));
}

// Runs body(begin, end) over page-aligned chunks of [data, data + bytes) on `threads` threads, the calling
// thread taking the first chunk.
template <class Body>
void for_chunks(void* data, std::uint64_t bytes, unsigned threads, Body body) {
  auto* base = static_cast<std::byte*>(data);
  const unsigned n = thread_count(bytes, threads);
  if (n <= 1) {
    body(base, base + bytes);
    return;
  }
  const std::uint64_t page = page_bytes();
  const std::uint64_t chunk = (bytes / n + page - 1) / page * page;
  std::vector<std::jthread> workers;
  workers.reserve(n - 1);
  for (unsigned i = 1; i < n; ++i) {
    const std::uint64_t begin = std::min<std::uint64_t>(bytes, chunk * i);
    const std::uint64_t end = std::min<std::uint64_t>(bytes, begin + chunk);
    if (begin < end) workers.emplace_back([=] { body(base + begin, base + end); });
  }
  body(base, base + std::min(bytes, chunk));
}

}  // namespace

std::uint64_t page_bytes() noexcept {
  static const std::uint64_t size = [] {
    const long value = ::sysconf(_SC_PAGESIZE);
    return value > 0 ? static_cast<std::uint64_t>(value) : 4096ull;
  }();
  return size;
}

std::uint64_t round_mapping(std::uint64_t bytes, bool huge_pages) noexcept {
  const std::uint64_t unit = huge_pages && bytes >= huge_page_bytes ? huge_page_bytes : page_bytes();
  return (std::max<std::uint64_t>(bytes, 1) + unit - 1) / unit * unit;
}

void* map_pages(std::uint64_t bytes, bool huge_pages) {
  const bool huge = huge_pages && bytes >= huge_page_bytes;
  // Over-map by one huge page and cut the ends off, so the block starts on a 2 MiB boundary and the
  // kernel can back all of it with huge pages.
  const std::uint64_t slack = huge ? huge_page_bytes : 0;
  void* raw = ::mmap(nullptr, bytes + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    const int err = errno;
    throw Error(Errc::io, "mmap of " + format_size(bytes) + " failed: " + std::strerror(err));
  }
  auto* begin = static_cast<std::byte*>(raw);
  if (huge) {
    const auto address = reinterpret_cast<std::uintptr_t>(raw);
    const std::uint64_t head = (huge_page_bytes - address % huge_page_bytes) % huge_page_bytes;
    if (head > 0) ::munmap(raw, head);
    const std::uint64_t tail = slack - head;
    if (tail > 0) ::munmap(begin + head + bytes, tail);
    begin += head;
    // Advisory: where THP is off the block simply uses small pages.
    ::madvise(begin, bytes, MADV_HUGEPAGE);
  }
  // Slots hold witnesses (secrets) and keys: left out of core dumps. Advisory as well.
  ::madvise(begin, bytes, MADV_DONTDUMP);
  return begin;
}

void unmap_pages(void* data, std::uint64_t bytes) noexcept {
  if (data != nullptr) ::munmap(data, bytes);
}

void touch_pages(void* data, std::uint64_t bytes, unsigned threads) {
  const std::uint64_t page = page_bytes();
  for_chunks(data, bytes, threads, [page](std::byte* begin, std::byte* end) {
    // A write (not a read) is needed: a read maps the shared zero page and the real fault comes later.
    for (std::byte* p = begin; p < end; p += page) *reinterpret_cast<volatile unsigned char*>(p) = 0;
  });
}

void zero_pages(void* data, std::uint64_t bytes, unsigned threads) noexcept {
  try {
    for_chunks(data, bytes, threads, [](std::byte* begin, std::byte* end) {
      ::explicit_bzero(begin, static_cast<std::size_t>(end - begin));
    });
  } catch (...) {
    // No thread could be started: do it on this one rather than leave secrets behind.
    ::explicit_bzero(data, static_cast<std::size_t>(bytes));
  }
}

}  // namespace proofline::memory::detail
