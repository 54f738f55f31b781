#include "batch_common.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace proofline::apps {

void ResultCollector::attach(graph::Config& config) {
  config.on_result = [this](const graph::JobResult& result) {
    std::lock_guard lock(mutex_);
    results_.push_back(result);
    if (progress_) progress_->update(results_.size());
  };
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

std::vector<graph::JobResult> ResultCollector::sorted() {
  std::lock_guard lock(mutex_);
  std::vector<graph::JobResult> out = results_;
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
  return out;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw Error(Errc::io, path.string() + ": cannot write");
}

int batch_status(const graph::RunReport& report, std::uint64_t expected, bool verify) {
  const bool all_good =
      report.failed == 0 && report.proofs == expected && (!verify || report.verified == expected);
  return all_good ? 0 : 1;
}

}  // namespace proofline::apps
