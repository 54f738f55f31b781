#include <doctest/doctest.h>

#include <thread>

#include <proofline/trace/nvtx.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/trace/scoped_span.hpp>

using namespace proofline::trace;

TEST_CASE("trace/nvtx/ranges reach NVTX exactly in CUDA builds") {
  // tests/CMakeLists.txt passes whether this build has the CUDA toolkit.
  CHECK(nvtx_compiled_in() == (PROOFLINE_NVTX_EXPECTED != 0));
  // Without Nsight attached these return at once; they must be callable from any thread in any order of
  // ranges.
  {
    NvtxRange outer("outer");
    NvtxRange inner("inner");
  }
  const std::uint64_t id = nvtx_start("crosses threads");
  std::thread([id] { nvtx_end(id); }).join();
  nvtx_name_current_thread("proofline test thread");
}

TEST_CASE("trace/nvtx/scoped spans with NVTX on record the same spans") {
  Recorder recorder;
  const StageId stage = recorder.add_stage("ntt");
  recorder.set_nvtx(true);
  CHECK(recorder.nvtx());
  { ScopedSpan span(recorder, stage, 3); }
  recorder.set_nvtx(false);
  { ScopedSpan span(recorder, stage, 4); }
  const Snapshot s = recorder.snapshot();
  CHECK(s.spans.size() == (compiled_in ? 2u : 0u));
  for (const Span& span : s.spans) CHECK(span.stage == stage);
}
