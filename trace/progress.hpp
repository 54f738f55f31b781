// Progress of a long batch, for people watching it.
//   - On a terminal: one line redrawn in place,
//       [##########..........]  512/1024 proofs  3.41 proofs/s  GPU 97%  ETA 2m30s
//   - Elsewhere (a log file, CI): a plain line every `line_interval`,
//       progress: 512/1024 proofs (50%), 3.41 proofs/s, GPU busy 97%, ETA 2m30s
// update() may be called from any thread, as often as jobs finish: it draws at most once per interval.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace proofline::trace {

struct ProgressOptions {
  enum class Mode { automatic, terminal, lines };

  std::uint64_t total = 0;  ///< 0: unknown; shows the count and rate without bar or ETA
  std::string unit = "proofs";
  Mode mode = Mode::automatic;  ///< automatic: terminal when the FILE* is a TTY; an ostream is never one
  std::chrono::milliseconds terminal_interval{200};
  std::chrono::milliseconds line_interval{10'000};
  int bar_width = 20;
  /// The clock to read; empty means std::chrono::steady_clock::now (tests pass a fake).
  std::function<std::chrono::steady_clock::time_point()> clock;
};

class ProgressReporter {
 public:
  ProgressReporter(std::FILE* out, ProgressOptions options);
  ProgressReporter(std::ostream& out, ProgressOptions options);
  /// Calls finish() if it was not called.
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  /// `done` jobs so far, `failed` of them without a proof (smaller values than ones already seen are
  /// ignored, so threads may race), and the GPU busy fraction if known. Draws when the interval has passed,
  /// and always when done reaches total.
  void update(std::uint64_t done, std::optional<double> gpu_busy = std::nullopt, std::uint64_t failed = 0);
  /// Draws the final state and ends the terminal line. Later updates are ignored.
  void finish();

  bool terminal() const noexcept { return terminal_; }

 private:
  using time_point = std::chrono::steady_clock::time_point;
  time_point now() const;
  void draw(time_point t, bool final);  // mutex_ held
  std::string status(time_point t, bool final) const;

  std::function<void(std::string_view)> write_;
  ProgressOptions options_;
  bool terminal_ = false;

  std::mutex mutex_;
  time_point start_;
  std::optional<time_point> last_draw_;
  std::uint64_t done_ = 0;
  std::uint64_t failed_ = 0;
  std::optional<double> gpu_busy_;
  bool finished_ = false;
  bool drew_total_ = false;
};

}  // namespace proofline::trace
