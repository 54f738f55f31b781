#include <proofline/trace/progress.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <utility>

namespace proofline::trace {

namespace {

std::string format_duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  char buffer[32];
  if (s >= 3600)
    std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", s / 3600, s / 60 % 60);
  else if (s >= 60)
    std::snprintf(buffer, sizeof buffer, "%lldm%02llds", s / 60, s % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%llds", s);
  return buffer;
}

}  // namespace

ProgressReporter::ProgressReporter(std::FILE* out, ProgressOptions options) : options_(std::move(options)) {
  write_ = [out](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), out);
    std::fflush(out);
  };
  terminal_ = options_.mode == ProgressOptions::Mode::terminal ||
              (options_.mode == ProgressOptions::Mode::automatic && ::isatty(::fileno(out)) == 1);
  start_ = now();
}

ProgressReporter::ProgressReporter(std::ostream& out, ProgressOptions options)
    : options_(std::move(options)) {
  write_ = [&out](std::string_view text) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
  };
  terminal_ = options_.mode == ProgressOptions::Mode::terminal;
  start_ = now();
}

ProgressReporter::~ProgressReporter() {
  try {
    finish();
  } catch (...) {  // a destructor must not throw; a lost progress line is harmless
  }
}

ProgressReporter::time_point ProgressReporter::now() const {
  return options_.clock ? options_.clock() : std::chrono::steady_clock::now();
}

void ProgressReporter::update(std::uint64_t done, std::optional<double> gpu_busy, std::uint64_t failed) {
  std::lock_guard lock(mutex_);
  if (finished_) return;
  done_ = std::max(done_, done);
  failed_ = std::max(failed_, failed);
  if (gpu_busy) gpu_busy_ = gpu_busy;
  const time_point t = now();
  // On a terminal the bar is drawn full as soon as it is; plain lines wait for finish() to report the end.
  const bool reached_total = terminal_ && options_.total != 0 && done_ >= options_.total && !drew_total_;
  const auto interval = terminal_ ? options_.terminal_interval : options_.line_interval;
  if (reached_total || !last_draw_ || t - *last_draw_ >= interval) draw(t, false);
}

void ProgressReporter::finish() {
  std::lock_guard lock(mutex_);
  if (finished_) return;
  finished_ = true;
  draw(now(), true);
}

std::string ProgressReporter::status(time_point t, bool final) const {
  const double elapsed = std::chrono::duration<double>(t - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0.0;
  char buffer[160];
  std::string text;
  if (options_.total != 0) {
    std::snprintf(buffer, sizeof buffer, "%llu/%llu %s", static_cast<unsigned long long>(done_),
                  static_cast<unsigned long long>(options_.total), options_.unit.c_str());
    text = buffer;
    if (!terminal_) {
      std::snprintf(
          buffer, sizeof buffer, " (%.0f%%)",
          100.0 * static_cast<double>(std::min(done_, options_.total)) / static_cast<double>(options_.total));
      text += buffer;
    }
  } else {
    text = std::to_string(done_) + " " + options_.unit;
  }
  const char* separator = terminal_ ? "  " : ", ";
  // The count is of jobs done; those that failed made no proof, and a reader must not take them for proofs.
  if (failed_ != 0) text += separator + std::to_string(failed_) + " failed";
  std::snprintf(buffer, sizeof buffer, "%s%.2f %s/s", separator, rate, options_.unit.c_str());
  text += buffer;
  if (gpu_busy_) {
    std::snprintf(buffer, sizeof buffer, "%s%s %.0f%%", separator, terminal_ ? "GPU" : "GPU busy",
                  100.0 * std::clamp(*gpu_busy_, 0.0, 1.0));
    text += buffer;
  }
  if (options_.total != 0 && done_ < options_.total && rate > 0 && !final)  // a stopped run has no ETA
    text +=
        std::string(separator) + "ETA " + format_duration(static_cast<double>(options_.total - done_) / rate);
  else if (options_.total != 0 && done_ >= options_.total)
    text += std::string(separator) + "in " + format_duration(elapsed);
  return text;
}

void ProgressReporter::draw(time_point t, bool final) {
  last_draw_ = t;
  if (options_.total != 0 && done_ >= options_.total) drew_total_ = true;
  if (terminal_) {
    std::string line = "\r";
    if (options_.total != 0) {
      const int width = std::max(1, options_.bar_width);
      const auto filled =
          static_cast<int>(static_cast<double>(width) * static_cast<double>(std::min(done_, options_.total)) /
                           static_cast<double>(options_.total));
      line.push_back('[');
      line.append(static_cast<std::size_t>(filled), '#');
      line.append(static_cast<std::size_t>(width - filled), '.');
      line.append("]  ");
    }
    line += status(t, final);
    line += "\x1b[K";  // erase what a longer previous line left
    if (final) line += "\n";
    write_(line);
  } else {
    const bool complete = options_.total == 0 || done_ >= options_.total;
    write_(std::string(!final     ? "progress: "
                       : complete ? "finished: "
                                  : "stopped: ") +
           status(t, final) + "\n");
  }
}

}  // namespace proofline::trace
