// Internal: an append-only list of fixed-size chunks with one writer and any number of concurrent readers.
// The writer publishes each element with a release store of the chunk's size, so a reader that loads the size
// with acquire sees every element below it fully written. Chunks are freed only when the list is destroyed,
// so readers never race with a free. Steady-state appends allocate nothing; one chunk per N elements.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace proofline::trace::detail {

template <class T, std::size_t N>
class ChunkList {
 public:
  ChunkList() : head_(new Chunk), tail_(head_) {}
  ChunkList(const ChunkList&) = delete;
  ChunkList& operator=(const ChunkList&) = delete;
  ~ChunkList() {
    for (Chunk* c = head_; c != nullptr;) {
      Chunk* next = c->next.load(std::memory_order_relaxed);
      delete c;
      c = next;
    }
  }

  /// Writer thread only. False when a new chunk could not be allocated (the element is dropped).
  bool push(const T& value) noexcept {
    Chunk* c = tail_;
    std::uint32_t n = c->size.load(std::memory_order_relaxed);
    if (n == N) {
      Chunk* fresh = new (std::nothrow) Chunk;
      if (fresh == nullptr) return false;
      c->next.store(fresh, std::memory_order_release);
      tail_ = c = fresh;
      n = 0;
    }
    c->items[n] = value;
    c->size.store(n + 1, std::memory_order_release);
    return true;
  }

  /// Any thread, concurrently with push: appends every element published so far.
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

  Chunk* const head_;
  Chunk* tail_;  // writer only
};

}  // namespace proofline::trace::detail
