// Giving the heap's free memory back to the system: after a large release (a key removed), and in
// long-running processes whose requests bring buffers of megabytes (a server's bodies and witnesses).
#pragma once

namespace proofline::memory {

/// Returns the free pages of the C heap to the system (glibc's malloc_trim; nothing elsewhere). A key's
/// material is many blocks of megabytes, and once one such block is freed glibc serves the next ones from
/// its heap instead of mmap, keeping what they leave free when they go: a process that keeps adding and
/// removing keys would otherwise grow by that much with each cycle, though it uses no more. Not for hot
/// paths: it walks every arena under its lock.
void return_free_heap() noexcept;

/// Makes every block of `large_block_bytes` or more a mapping of its own, unmapped when freed (glibc's
/// M_MMAP_THRESHOLD; nothing elsewhere). For the whole process: call it once, at the start of a long-running
/// command. glibc otherwise raises that threshold to the size of each large block freed (up to 32 MiB), after
/// which such blocks come from the arenas of the threads that allocate them; the memory they leave free sits
/// at the top of a thread's arena, which neither free nor malloc_trim hands back. A server whose connection
/// threads read bodies of megabytes then stays at the resident size of its largest burst.
void unmap_large_blocks_when_freed(unsigned long large_block_bytes = 1UL << 20) noexcept;

}  // namespace proofline::memory
