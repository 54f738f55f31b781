// What the recorder stores: spans (one stage of one job on one track) and counter samples, with their ids.
// All times are nanoseconds on one host clock, the recorder's steady_clock epoch (see clock.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace proofline::trace {

/// A pipeline stage ("synthesis", "h2d", "ntt", ...). Index into Snapshot::stages.
enum class StageId : std::uint16_t {};
/// A lane on the timeline: a CPU worker thread, a CUDA stream or a counter. Index into Snapshot::tracks.
enum class TrackId : std::uint32_t {};

constexpr std::size_t index(StageId id) noexcept {
  return static_cast<std::size_t>(id);
}
constexpr std::size_t index(TrackId id) noexcept {
  return static_cast<std::size_t>(id);
}

enum class TrackKind : std::uint8_t {
  cpu_worker,   ///< one OS thread; spans on it nest or follow each other
  cuda_stream,  ///< one CUDA stream of one GPU; spans are device work converted to the host clock
  counter,      ///< a sampled value (pool bytes, jobs waiting for a token); holds samples, not spans
};

const char* to_string(TrackKind kind) noexcept;

/// Job id of a span that belongs to no job (a warm-up copy, a pool trim).
inline constexpr std::uint64_t no_job = ~std::uint64_t{0};
/// GPU index of host-only tracks and spans.
inline constexpr int no_gpu = -1;

struct TrackInfo {
  std::string name;
  TrackKind kind = TrackKind::cpu_worker;
  int gpu = no_gpu;  ///< the GPU a stream (or a per-GPU counter) belongs to; no_gpu for host tracks
};

/// One stage of one job on one track, [begin_ns, end_ns).
struct Span {
  std::int64_t begin_ns = 0;
  std::int64_t end_ns = 0;
  std::uint64_t job = no_job;
  std::uint64_t bytes = 0;  ///< payload moved or produced (H2D bytes for a copy span); 0 when not applicable
  StageId stage{};
  std::int16_t gpu = static_cast<std::int16_t>(no_gpu);  ///< the GPU this work is for; no_gpu for host work
  TrackId track{};

  std::int64_t duration_ns() const noexcept { return end_ns - begin_ns; }
};
static_assert(sizeof(Span) == 40, "a span's size is the recorder's memory cost per span; keep it small");

/// How a job ended.
enum class JobOutcome : std::uint8_t { proved, failed, cancelled, timed_out };

const char* to_string(JobOutcome outcome) noexcept;

/// One job's life: queued from submitted_ns until it was admitted (held a token, so its slot could be
/// leased), then in flight until its result was delivered at finished_ns. Spans say what ran; this says what
/// waited.
struct JobRecord {
  std::uint64_t job = no_job;
  std::int64_t submitted_ns = 0;
  std::optional<std::int64_t> admitted_ns;  ///< none when it ended in the queue (cancelled, timed out)
  std::int64_t finished_ns = 0;
  JobOutcome outcome = JobOutcome::proved;
  std::string label;  ///< the job's label, as submitted (the recorder keeps its first 160 bytes)
  std::string key;    ///< its key's name (likewise)
};

/// The value of a counter track from t_ns until its next sample.
struct CounterSample {
  std::int64_t t_ns = 0;
  double value = 0;
  TrackId track{};
};

}  // namespace proofline::trace
