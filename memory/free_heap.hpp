// Giving the heap's free memory back to the system after a large release (a key removed).
#pragma once

namespace proofline::memory {

/// Returns the free pages of the C heap to the system (glibc's malloc_trim; nothing elsewhere). A key's
/// material is many blocks of megabytes, and once one such block is freed glibc serves the next ones from
/// its heap instead of mmap, keeping what they leave free when they go: a process that keeps adding and
/// removing keys would otherwise grow by that much with each cycle, though it uses no more. Not for hot
/// paths: it walks every arena under its lock.
void return_free_heap() noexcept;

}  // namespace proofline::memory
