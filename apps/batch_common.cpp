#include "batch_common.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include <proofline/graph/memory_plan.hpp>
#include <proofline/graph/testing.hpp>
#include <proofline/util/atomic_file.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::apps {

namespace {

namespace fs = std::filesystem;

}  // namespace

std::string quoted(const fs::path& path) {
  return quote_for_message(path.string(), 256, '\'');
}

void check_directory_takes_files(const std::string& who, const fs::path& dir, const fs::path& named) {
  // mkstemp creates a new file of its own (O_EXCL): a link planted under a guessable name is never followed.
  std::string probe = (dir / ".proofline-write-check-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) throw UnusableInput(who + ": cannot write " + quoted(named) + ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

namespace {

std::mutex created_folders_mutex;
std::vector<fs::path> created_folders;  // in the order made: each after the folder above it

}  // namespace

void create_output_folder(const fs::path& dir, std::error_code& error) {
  std::vector<fs::path> missing;
  for (fs::path at = fs::absolute(dir, error).lexically_normal();
       !error && !at.empty() && !fs::exists(at, error); at = at.parent_path()) {
    missing.push_back(at);
    if (at == at.parent_path()) break;
  }
  if (error) return;
  fs::create_directories(dir, error);
  if (error) return;
  std::lock_guard lock(created_folders_mutex);
  created_folders.insert(created_folders.end(), missing.rbegin(), missing.rend());
}

void remove_created_output_folders() noexcept {
  std::lock_guard lock(created_folders_mutex);
  for (auto it = created_folders.rbegin(); it != created_folders.rend(); ++it) {
    std::error_code ignored;
    if (fs::is_empty(*it, ignored)) fs::remove(*it, ignored);
  }
  created_folders.clear();
}

void check_output_replaceable(const std::string& who, const fs::path& output) {
  if (const auto problem = output_path_problem(output))
    throw UnusableInput(who + ": its output " + quoted(output) + " " + *problem + " (nothing was proven)");
  std::error_code error;
  const char* kind = nullptr;
  switch (fs::status(output, error).type()) {  // through a link, to what it names
    case fs::file_type::fifo:
      kind = "a FIFO";
      break;
    case fs::file_type::character:
      kind = "a character device";
      break;
    case fs::file_type::block:
      kind = "a block device";
      break;
    case fs::file_type::socket:
      kind = "a socket";
      break;
    default:
      return;
  }
  throw UnusableInput(who + ": its output " + quoted(output) + " is " + kind +
                      ", not a regular file: proofline renames each finished output into place, which would "
                      "replace it without writing to it (nothing was proven)");
}

namespace {

void check_out_dir(const fs::path& dir) {
  std::error_code error;
  create_output_folder(dir, error);
  if (error || !fs::is_directory(dir, error))
    throw UnusableInput("--out: cannot create directory " + quoted(dir) +
                        (error ? ": " + error.message() : ": not a directory"));
  check_directory_takes_files("--out", dir, dir);
}

void check_output_file(const char* option, const fs::path& path) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code error;
  if (!fs::is_directory(dir, error))
    throw UnusableInput(std::string(option) + ": cannot write " + quoted(path) + ": " + quoted(dir) +
                        " is not a directory");
  if (fs::is_directory(path, error))
    throw UnusableInput(std::string(option) + ": cannot write " + quoted(path) + ": it is a directory");
  check_output_replaceable(option, path);
  check_directory_takes_files(option, dir, path);
}

}  // namespace

bool stage_runs_in(graph::Stage stage, graph::Mode mode) {
  using graph::Stage;
  if (stage == Stage::baseline) return mode == graph::Mode::baseline;
  if (stage == Stage::h2d || stage == Stage::ntt || stage == Stage::msm) return mode == graph::Mode::pinned;
  return true;
}

std::string fault_stage_refusal(graph::Stage stage, graph::Mode mode) {
  return "--inject-fault: the " + std::string(nodes::to_string(stage)) + " stage does not run in " +
         std::string(graph::to_string(mode)) +
         " mode (baseline mode runs H2D, NTT and MSM as its one baseline stage; pinned mode has no "
         "baseline stage)";
}

graph::Pipeline make_pipeline_with_fault(graph::Config config, const InjectedFault& fault,
                                         std::optional<std::uint64_t> jobs) {
  graph::testing::Hooks hooks;
  if (fault) {
    if (jobs && fault->second >= *jobs)
      throw OptionError("--inject-fault: job " + std::to_string(fault->second) + " is past the batch's " +
                        std::to_string(*jobs) + " jobs (they count from 0)");
    // Job ids are handed out from 1 in submission order, so the I-th job has id I + 1.
    hooks.fault = [stage = fault->first, id = fault->second + 1](graph::Stage at, graph::JobId job) {
      if (at == stage && job == id) throw Error(Errc::internal, "fault injected by --inject-fault");
    };
  }
  if (fault && !stage_runs_in(fault->first, config.mode))
    throw OptionError(fault_stage_refusal(fault->first, config.mode));
  if (jobs) config.expected_jobs = *jobs;  // no slots pinned beyond the batch's jobs
  graph::Pipeline pipeline = graph::testing::make_pipeline(std::move(config), std::move(hooks));
  if (fault && fault->first == graph::Stage::h2d && pipeline.backend() != graph::Backend::cuda)
    throw OptionError("--inject-fault: the h2d stage runs only on the CUDA backend, not the " +
                      std::string(graph::to_string(pipeline.backend())) + " backend");
  return pipeline;
}

int print_memory_plan(const graph::Pipeline& pipeline, const std::optional<std::filesystem::path>& report) {
  const graph::PipelineStats stats = pipeline.stats();
  std::fputs(graph::memory_plan_text(stats).c_str(), stdout);
  if (report) write_file(*report, graph::memory_plan_json(stats));
  return 0;
}

void check_outputs_writable(const BatchOptions& o) {
  if (o.out) check_out_dir(*o.out);
  if (o.report) check_output_file("--report", *o.report);
  if (o.trace) check_output_file("--trace", *o.trace);
  if (o.timeline) check_output_file("--timeline", *o.timeline);
}

circom::BuildOptions stoppable(circom::BuildOptions build) {
  build.stop_requested = [] { return stop_signal() != 0; };
  return build;
}

void ResultCollector::attach(graph::Config& config, Writer write) {
  write_ = std::move(write);
  config.on_result = [this](const graph::JobResult& result) { take(result); };
}

void ResultCollector::take(const graph::JobResult& result) {
  // Written here, on the pipeline thread, so that a proof is on disk as soon as it exists and no result
  // outlives its callback.
  std::optional<std::string> error;
  bool wrote = false;
  if (write_ && result.ok()) {  // a proof of either curve
    try {
      write_(result);
      wrote = true;
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  std::lock_guard lock(mutex_);
  ++delivered_;
  if (result.ok()) ++proven_;
  if (wrote) ++written_;
  if (error) {
    // Proved but not kept: the job failed as far as its caller can tell.
    if (!write_error_) write_error_ = result.label + ": " + *error;
    failures_.push_back({result.seq, result.label, "its proof was made but cannot be written: " + *error});
  }
  const bool cancelled_by_stop = stop_signal() != 0 && result.error && result.error->code == Errc::cancelled;
  if (result.error && !cancelled_by_stop)
    failures_.push_back({result.seq, result.label, result.error->message});
  if (cancelled_by_stop) ++cancelled_by_stop_;
  // A job cancelled by the stop was not done: the final line says "stopped: 8/12", not "finished: 12/12".
  if (progress_) progress_->update(delivered_ - cancelled_by_stop_, std::nullopt, failures_.size());
}

void ResultCollector::start_progress(bool enabled, std::uint64_t total) {
  if (!enabled) return;
  std::lock_guard lock(mutex_);
  progress_.emplace(stderr, trace::ProgressOptions{.total = total});
}

void ResultCollector::finish_progress() {
  std::lock_guard lock(mutex_);
  if (progress_) progress_->finish();
}

std::uint64_t ResultCollector::proven() {
  std::lock_guard lock(mutex_);
  return proven_;
}

std::uint64_t ResultCollector::delivered() {
  std::lock_guard lock(mutex_);
  return delivered_;
}

std::uint64_t ResultCollector::written() {
  std::lock_guard lock(mutex_);
  return written_;
}

std::vector<JobFailure> ResultCollector::failures() {
  std::lock_guard lock(mutex_);
  std::vector<JobFailure> out = failures_;
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
  return out;
}

std::optional<std::string> ResultCollector::write_error() {
  std::lock_guard lock(mutex_);
  return write_error_;
}

std::uint64_t prove_until_stopped(graph::Pipeline& prover, std::uint64_t count,
                                  const std::function<graph::Job(std::uint64_t)>& job_at,
                                  ResultCollector& results, const std::string& program) {
  std::uint64_t submitted = 0;
  try {
    for (; submitted < count && stop_signal() == 0; ++submitted) prover.submit(job_at(submitted));
  } catch (const Error& e) {
    // The pipeline refuses new jobs (every GPU out of service without --cpu-fallback): what was submitted
    // still finishes and is reported; the rest is counted as not run.
    if (e.code() != Errc::cuda) throw;
    print_error_line(program, std::string(e.what()) + "; " + std::to_string(count - submitted) + " of " +
                                  std::to_string(count) + " jobs were not submitted");
  }
  // Polled rather than drained at once, so that a signal during the last queue's worth still cancels it.
  while (stop_signal() == 0 && results.delivered() < submitted)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (const int signal = stop_signal()) {
    const std::size_t cancelled = prover.cancel_queued();
    std::fprintf(stderr,
                 "%s: stopped by signal %d after %llu of %llu jobs were submitted; %zu queued jobs "
                 "cancelled, waiting for the running ones (a second signal stops their witnesses)\n",
                 program.c_str(), signal, static_cast<unsigned long long>(submitted),
                 static_cast<unsigned long long>(count), cancelled);
    // A witness may be computed for as long as its input says: after a second signal, every job whose
    // witness is being computed, or comes to be, is cancelled; the jobs past their witnesses finish.
    bool said = false;
    while (results.delivered() < submitted) {
      if (stop_signal_count() >= 2) {
        const std::size_t stopped = prover.cancel_witnesses();
        if (!said)
          std::fprintf(stderr, "%s: a second signal: %zu witness computation%s stopped\n", program.c_str(),
                       stopped, stopped == 1 ? "" : "s");
        said = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  prover.drain();
  return submitted;
}

void print_failures(ResultCollector& results, const char* prefix) {
  for (const JobFailure& f : results.failures())
    print_error_line("batch_prove", prefix + f.label + " failed: " + f.message);
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  // Written beside and renamed into place, so that a file under its name is always complete, even when
  // another program reads it while the batch runs, and never written through a link.
  write_file_atomically(path, text);
}

int batch_status(const graph::RunReport& report, std::uint64_t expected, bool verify,
                 ResultCollector& results) {
  if (const int signal = stop_signal()) return 128 + signal;
  const bool all_good = report.failed == 0 && report.proofs == expected &&
                        (!verify || report.verified == expected) && !results.write_error();
  return all_good ? 0 : 1;
}

}  // namespace proofline::apps
