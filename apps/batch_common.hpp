// What both of batch_prove's workloads (synthetic circuits, snarkjs keys and witnesses) share: the rule that
// setup errors are unusable input (exit 2), checking outputs before proving, stopping on SIGINT/SIGTERM,
// handling results as they arrive on pipeline threads, the progress line, writing files and the exit status.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <proofline/circom/generator_build.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/graph/report.hpp>
#include <proofline/trace/progress.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/stop_signals.hpp>

#include "batch_options.hpp"

namespace proofline::apps {

/// Input or options the batch cannot use, found during setup: one line on stderr and exit code 2.
class UnusableInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Makes `dir` and the folders above it that are missing, as create_directories does, remembering those it
/// made: a command refused before proving (exit 2) takes them back, so that a refusal leaves nothing behind.
void create_output_folder(const std::filesystem::path& dir, std::error_code& error);
/// Removes the folders create_output_folder made, deepest first, where they are still empty.
void remove_created_output_folders() noexcept;

/// A command's main: body()'s exit status, or one line on stderr and exit code 2 for options or input it
/// could not use, found before anything was proven (OptionError, UnusableInput; the output folders it made
/// removed again), 1 for anything else that escaped.
template <class Body>
int run_command(std::string_view program, Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (const OptionError& e) {
    remove_created_output_folders();
    return report_bad_options(program, e);
  } catch (const UnusableInput& e) {
    remove_created_output_folders();
    return report_bad_options(program, e);
  } catch (const std::exception& e) {
    return report_failure(program, e);
  }
}

/// A path for a message: in single quotes, escaped and cut (util/text.hpp quote_for_message).
std::string quoted(const std::filesystem::path& path);

/// Creates and removes a file in `dir`: the only check that holds for root, read-only mounts and ACLs alike.
/// UnusableInput "WHO: cannot write NAMED" when it cannot.
void check_directory_takes_files(const std::string& who, const std::filesystem::path& dir,
                                 const std::filesystem::path& named);

/// Every output is written to a temporary file renamed over it: over a FIFO, a device or a socket (or a link
/// to one, as /dev/stdout is) that would put a regular file in its place, as root in /dev too, and write
/// nothing to it. UnusableInput "WHO: its output 'PATH' is a FIFO, not a regular file ..." for such an
/// output.
void check_output_replaceable(const std::string& who, const std::filesystem::path& output);

/// Runs a setup step: a proofline::Error from it means unusable input (exit 2), not a failed job (exit 1).
template <class Step>
decltype(auto) setup_step(Step&& step) {
  try {
    return std::forward<Step>(step)();
  } catch (const Error& e) {
    throw UnusableInput(e.what());
  }
}

/// --inject-fault STAGE:I: the I-th job submitted (from 0) fails in STAGE.
using InjectedFault = std::optional<std::pair<graph::Stage, std::uint64_t>>;

/// Whether `stage` runs in `mode` (--inject-fault names one that does), and why not when it does not.
bool stage_runs_in(graph::Stage stage, graph::Mode mode);
std::string fault_stage_refusal(graph::Stage stage, graph::Mode mode);

/// The pipeline of `config` with --inject-fault's hook, holding no more slots than `jobs` (when known) would
/// lease. OptionError when the fault could never happen: a stage the backend does not run (h2d without
/// CUDA), or a job index at or past `jobs` (when known).
graph::Pipeline make_pipeline_with_fault(graph::Config config, const InjectedFault& fault,
                                         std::optional<std::uint64_t> jobs);

/// batch_prove --plan: the pipeline's memory plan on stdout (its JSON into `report` when given); returns 0.
int print_memory_plan(const graph::Pipeline& pipeline, const std::optional<std::filesystem::path>& report);

/// Makes --out and checks that it, and the directories of --report, --trace and --timeline, take files, so
/// that a bad path is refused before any proving rather than after the whole batch. UnusableInput naming the
/// option and the path otherwise.
void check_outputs_writable(const BatchOptions& o);

/// Runs a command's `body` with SIGINT/SIGTERM recorded (util/stop_signals.hpp; the batch polls
/// stop_signal() between jobs): 128 + the signal when one
/// arrived, whether `body` returned or threw (its message printed, as the reason it stopped), else what
/// `body` returned.
template <class Body>
int run_until_stopped(std::string_view program, Body&& body) {
  route_stop_signals();
  try {
    const int status = std::forward<Body>(body)();
    if (const int signal = stop_signal()) return 128 + signal;
    return status;
  } catch (const std::exception& e) {
    const int signal = stop_signal();
    if (signal == 0) throw;
    print_error_line(program, e.what());
    return 128 + signal;
  }
}

/// `build` that also stops when SIGINT or SIGTERM arrived (util/stop_signals.hpp).
circom::BuildOptions stoppable(circom::BuildOptions build);

/// A job that failed (not one cancelled because the batch was stopped).
struct JobFailure {
  std::uint64_t seq = 0;
  std::string label, message;
};

/// Results as the pipeline delivers them (on its threads): each proof handed to the writer at once, only the
/// failures kept, counted on the progress line. Declare it before the pipeline that reports into it, so that
/// it outlives the pipeline's last callback.
class ResultCollector {
 public:
  using Writer = std::function<void(const graph::JobResult&)>;

  /// Makes `config` deliver every result here; each proof goes to `write` (on a pipeline thread) when set.
  void attach(graph::Config& config, Writer write = {});
  /// Shows a progress line on stderr from now on (when `enabled`).
  void start_progress(bool enabled, std::uint64_t total);
  void finish_progress();

  std::uint64_t delivered();
  /// Results that hold a proof (written or not).
  std::uint64_t proven();
  std::uint64_t written();
  /// The failed jobs so far, in submission order.
  std::vector<JobFailure> failures();
  /// The first error writing a proof, if any.
  std::optional<std::string> write_error();

 private:
  void take(const graph::JobResult& result);

  Writer write_;
  std::mutex mutex_;
  std::uint64_t delivered_ = 0, proven_ = 0, written_ = 0;
  std::uint64_t cancelled_by_stop_ = 0;  ///< not done: the progress line does not count them
  std::vector<JobFailure> failures_;
  std::optional<std::string> write_error_;
  std::optional<trace::ProgressReporter> progress_;
};

/// Submits jobs 0..count-1 (made by `job_at`) and waits for their results. When a stop signal arrives it
/// submits no more, cancels the queued jobs and lets the running ones finish (saying so, after `program`).
/// Returns how many were submitted.
std::uint64_t prove_until_stopped(graph::Pipeline& prover, std::uint64_t count,
                                  const std::function<graph::Job(std::uint64_t)>& job_at,
                                  ResultCollector& results, const std::string& program);

/// Failed jobs and proofs that could not be written, on stderr ("batch_prove: PREFIX LABEL failed: ...").
void print_failures(ResultCollector& results, const char* prefix);

/// Writes `text` to `path`, replacing it; Error(io) when that fails.
void write_file(const std::filesystem::path& path, const std::string& text);

/// 0 when every one of `expected` jobs made a proof (and it verified, with `verify`) and every proof was
/// written, else 1; 128 + the signal when one stopped the batch.
int batch_status(const graph::RunReport& report, std::uint64_t expected, bool verify,
                 ResultCollector& results);

}  // namespace proofline::apps
