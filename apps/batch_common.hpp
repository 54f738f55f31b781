// What both of batch_prove's workloads (synthetic circuits, snarkjs keys and witnesses) share: the rule that
// setup errors are unusable input (exit 2), collecting results from pipeline threads, the progress line,
// writing files and the exit status of a batch.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <proofline/graph/pipeline.hpp>
#include <proofline/graph/report.hpp>
#include <proofline/trace/progress.hpp>
#include <proofline/util/error.hpp>

namespace proofline::apps {

/// Input or options the batch cannot use, found during setup: one line on stderr and exit code 2.
class UnusableInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs a setup step: a proofline::Error from it means unusable input (exit 2), not a failed job (exit 1).
template <class Step>
decltype(auto) setup_step(Step&& step) {
  try {
    return std::forward<Step>(step)();
  } catch (const Error& e) {
    throw UnusableInput(e.what());
  }
}

/// Results as the pipeline delivers them (on its threads), counted on the progress line. Declare it before
/// the pipeline that reports into it, so that it outlives the pipeline's last callback.
class ResultCollector {
 public:
  /// Makes `config` deliver every result here.
  void attach(graph::Config& config);
  /// Shows a progress line on stderr from now on (when `enabled`).
  void start_progress(bool enabled, std::uint64_t total);
  void finish_progress();
  /// The results so far, in submission order.
  std::vector<graph::JobResult> sorted();

 private:
  std::mutex mutex_;
  std::vector<graph::JobResult> results_;
  std::optional<trace::ProgressReporter> progress_;
};

/// Writes `text` to `path`, replacing it; Error(io) when that fails.
void write_file(const std::filesystem::path& path, const std::string& text);

/// 0 when every one of `expected` jobs made a proof (and it verified, with `verify`), else 1.
int batch_status(const graph::RunReport& report, std::uint64_t expected, bool verify);

}  // namespace proofline::apps
