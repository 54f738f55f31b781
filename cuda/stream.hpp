// Internal RAII handles for the CUDA runtime: device selection, streams and events. Move-only; destructors
// never throw (a failure while tearing down has nowhere useful to go).
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include <proofline/cuda/check.hpp>

namespace proofline::cuda {

/// Makes `device` current for the scope and restores the previous device afterwards. TBB workers migrate
/// between graph nodes, so every body that touches CUDA sets its device first.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    PL_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device) PL_CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceGuard() { (void)cudaSetDevice(previous_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

/// A non-blocking stream (it does not synchronise with the legacy default stream).
class Stream {
 public:
  Stream() { PL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  explicit Stream(int priority) {
    PL_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, priority));
  }
  ~Stream() {
    if (stream_) (void)cudaStreamDestroy(stream_);
  }
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      if (stream_) (void)cudaStreamDestroy(stream_);
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  operator cudaStream_t() const noexcept { return stream_; }

  void synchronize() const { PL_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

/// An event; timing-enabled by default (for spans and benchmarks), or a cheap ordering-only event.
class Event {
 public:
  enum class Timing { enabled, disabled };

  explicit Event(Timing timing = Timing::enabled) {
    PL_CUDA_CHECK(cudaEventCreateWithFlags(
        &event_, timing == Timing::enabled ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() {
    if (event_) (void)cudaEventDestroy(event_);
  }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      if (event_) (void)cudaEventDestroy(event_);
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const noexcept { return event_; }
  operator cudaEvent_t() const noexcept { return event_; }

  void record(cudaStream_t stream) { PL_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  void synchronize() const { PL_CUDA_CHECK(cudaEventSynchronize(event_)); }
  /// Makes `stream` wait for this event without blocking the host.
  void make_wait(cudaStream_t stream) const { PL_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0)); }

  /// Milliseconds from `start` to this event (both recorded and complete).
  float elapsed_ms_since(const Event& start) const {
    float ms = 0;
    PL_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace proofline::cuda
