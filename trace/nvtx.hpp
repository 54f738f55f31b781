// NVTX ranges for Nsight Systems, usable from any .cpp without CUDA headers. In a build with the CUDA toolkit
// they go to NVTX3's "proofline" domain (colour derived from the name, so a stage keeps its colour); without
// it every function here does nothing. With no Nsight tool attached, NVTX3 calls return after one branch.
#pragma once

#include <cstdint>

namespace proofline::trace {

/// True when this build calls NVTX (PROOFLINE_HAVE_CUDA); false when these functions are no-ops.
bool nvtx_compiled_in() noexcept;

/// A range on the calling thread's stack: nvtx_pop() on the same thread ends it.
void nvtx_push(const char* name) noexcept;
void nvtx_pop() noexcept;

/// A range that may end on another thread (submitted on a worker, finished in a completion callback).
std::uint64_t nvtx_start(const char* name) noexcept;
void nvtx_end(std::uint64_t range_id) noexcept;

/// Names the calling OS thread in Nsight Systems ("proofline cpu worker 3").
void nvtx_name_current_thread(const char* name) noexcept;

/// Pushes a range for the lifetime of the object, on the constructing thread.
class NvtxRange {
 public:
  explicit NvtxRange(const char* name) noexcept { nvtx_push(name); }
  ~NvtxRange() { nvtx_pop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace proofline::trace
