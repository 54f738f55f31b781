// Internal: an append-only list of fixed-size chunks with one writer and any number of readers, within a
// memory limit that the lists of one recorder share. The writer publishes each element with a release store
// of the chunk's size, so a reader that loads the size with acquire sees every element below it fully
// written. Readers hold the limit's mutex while they walk a list. When the limit is reached the writer takes
// that mutex to unlink its own oldest chunk and fills it again: a recorder that runs for days keeps its most
// recent records and drops the oldest, a chunk at a time, instead of growing without end. Appends allocate
// nothing in the steady state (one chunk per N elements until the limit, none after).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

namespace proofline::trace::detail {

/// What the lists of one recorder share: the bytes they may still allocate, the mutex readers hold, and the
/// count of elements dropped with reused chunks.
struct ChunkLimit {
  explicit ChunkLimit(std::uint64_t bytes) : left(static_cast<std::int64_t>(bytes)) {}

  /// Takes `bytes` of the limit; false (taking nothing) when fewer are left.
  bool take(std::int64_t bytes) noexcept {
    std::int64_t have = left.load(std::memory_order_relaxed);
    while (have >= bytes)
      if (left.compare_exchange_weak(have, have - bytes, std::memory_order_relaxed)) return true;
    return false;
  }
  void give(std::int64_t bytes) noexcept { left.fetch_add(bytes, std::memory_order_relaxed); }

  std::atomic<std::int64_t> left;
  std::atomic<std::uint64_t> dropped{0};
  std::mutex readers;
};

template <class T, std::size_t N>
class ChunkList {
 public:
  /// The first chunk is allocated whatever the limit says: every list can hold N elements.
  explicit ChunkList(ChunkLimit& limit) : limit_(limit), head_(new Chunk), tail_(head_) {
    limit_.give(-chunk_bytes);
  }
  ChunkList(const ChunkList&) = delete;
  ChunkList& operator=(const ChunkList&) = delete;
  ~ChunkList() {
    for (Chunk* c = head_; c != nullptr;) {
      Chunk* next = c->next.load(std::memory_order_relaxed);
      delete c;
      limit_.give(chunk_bytes);
      c = next;
    }
  }

  /// Writer thread only. False when no chunk could be had (the element is dropped).
  bool push(const T& value) noexcept {
    Chunk* c = tail_;
    std::uint32_t n = c->size.load(std::memory_order_relaxed);
    if (n == N) {
      Chunk* fresh = next_chunk();
      if (fresh == nullptr) return false;
      c->next.store(fresh, std::memory_order_release);
      tail_ = c = fresh;
      n = 0;
    }
    c->items[n] = value;
    c->size.store(n + 1, std::memory_order_release);
    return true;
  }

  /// Any thread holding the limit's mutex, concurrently with push: appends every element published so far.
  void append_to(std::vector<T>& out) const {
    for (const Chunk* c = head_; c != nullptr; c = c->next.load(std::memory_order_acquire)) {
      const std::uint32_t n = c->size.load(std::memory_order_acquire);
      out.insert(out.end(), c->items, c->items + n);
    }
  }

 private:
  struct Chunk {
    std::atomic<std::uint32_t> size{0};
    std::atomic<Chunk*> next{nullptr};
    T items[N];
  };
  static constexpr std::int64_t chunk_bytes = static_cast<std::int64_t>(sizeof(Chunk));

  /// A new chunk within the limit (a list's second chunk even past it), else this list's oldest one, emptied.
  Chunk* next_chunk() noexcept {
    const bool within = limit_.take(chunk_bytes);
    if (within || head_ == tail_) {
      Chunk* fresh = new (std::nothrow) Chunk;
      if (fresh == nullptr) {
        if (within) limit_.give(chunk_bytes);
        return nullptr;
      }
      if (!within) limit_.give(-chunk_bytes);  // counted all the same: the destructor gives every chunk back
      return fresh;
    }
    Chunk* oldest = head_;
    try {
      std::lock_guard lock(limit_.readers);  // no reader is walking this list while its head moves
      head_ = oldest->next.load(std::memory_order_relaxed);
    } catch (...) {
      return nullptr;
    }
    limit_.dropped.fetch_add(oldest->size.load(std::memory_order_relaxed), std::memory_order_relaxed);
    oldest->size.store(0, std::memory_order_relaxed);
    oldest->next.store(nullptr, std::memory_order_relaxed);
    return oldest;
  }

  ChunkLimit& limit_;
  Chunk* head_;  // changed by the writer only under limit_.readers
  Chunk* tail_;  // writer only
};

}  // namespace proofline::trace::detail
