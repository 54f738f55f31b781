// ScopedSpan: records the enclosing scope as a span on the calling thread's CPU worker track.
//
//   trace::ScopedSpan span(recorder, synth_stage, job.id);
//   ... synthesize ...
//   span.set_bytes(witness_bytes);
//
// When the recorder's NVTX switch is on it also pushes an NVTX range named after the stage. With
// PROOFLINE_TRACE=OFF, ScopedSpan is BasicScopedSpan<false>: an empty object whose functions do nothing.
#pragma once

#include <cstdint>

#include <proofline/trace/config.hpp>
#include <proofline/trace/nvtx.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/trace/span.hpp>

namespace proofline::trace {

template <bool Enabled>
class BasicScopedSpan;

template <>
class BasicScopedSpan<true> {
 public:
  BasicScopedSpan(Recorder& recorder, StageId stage, std::uint64_t job = no_job, int gpu = no_gpu) noexcept
      : recorder_(&recorder), stage_(stage), gpu_(gpu), job_(job), nvtx_(recorder.nvtx()) {
    if (nvtx_) nvtx_push(recorder.stage_name(stage));
    begin_ns_ = recorder.now_ns();
  }
  ~BasicScopedSpan() {
    recorder_->record_worker_span(stage_, job_, begin_ns_, recorder_->now_ns(), bytes_, gpu_);
    if (nvtx_) nvtx_pop();
  }
  BasicScopedSpan(const BasicScopedSpan&) = delete;
  BasicScopedSpan& operator=(const BasicScopedSpan&) = delete;

  void set_bytes(std::uint64_t bytes) noexcept { bytes_ = bytes; }
  void set_job(std::uint64_t job) noexcept { job_ = job; }
  std::int64_t begin_ns() const noexcept { return begin_ns_; }

 private:
  Recorder* recorder_;
  StageId stage_;
  int gpu_;
  std::uint64_t job_;
  std::uint64_t bytes_ = 0;
  std::int64_t begin_ns_ = 0;
  bool nvtx_;
};

template <>
class BasicScopedSpan<false> {
 public:
  BasicScopedSpan(Recorder&, StageId, std::uint64_t = no_job, int = no_gpu) noexcept {}
  BasicScopedSpan(const BasicScopedSpan&) = delete;
  BasicScopedSpan& operator=(const BasicScopedSpan&) = delete;

  void set_bytes(std::uint64_t) noexcept {}
  void set_job(std::uint64_t) noexcept {}
  std::int64_t begin_ns() const noexcept { return 0; }
};

using ScopedSpan = BasicScopedSpan<compiled_in>;

}  // namespace proofline::trace
