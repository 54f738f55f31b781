#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <proofline/trace/progress.hpp>

using namespace proofline::trace;
using namespace std::chrono_literals;

namespace {

/// A clock the test moves by hand.
struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  std::function<std::chrono::steady_clock::time_point()> function() {
    return [this] { return now; };
  }
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : text) {
    if (c == separator) {
      if (!current.empty()) parts.push_back(current);
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) parts.push_back(current);
  return parts;
}

}  // namespace

TEST_CASE("trace/progress/plain lines are rate limited") {
  FakeClock clock;
  std::ostringstream out;
  ProgressOptions options;
  options.total = 10;
  options.clock = clock.function();
  ProgressReporter progress(out, options);
  CHECK_FALSE(progress.terminal());

  progress.update(1);  // the first update always draws
  clock.now += 1s;
  progress.update(2);  // within the 10 s interval: nothing
  clock.now += 10s;
  progress.update(5, 0.97);
  progress.update(3);  // a late, smaller count does not go backwards (and is rate limited)
  clock.now += 4s;
  progress.update(10);  // plain lines wait for finish() to report the end
  progress.finish();
  progress.update(10);  // after finish: ignored
  const auto lines = split(out.str(), '\n');
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "progress: 1/10 proofs (10%), 0.00 proofs/s");
  CHECK(lines[1] == "progress: 5/10 proofs (50%), 0.45 proofs/s, GPU busy 97%, ETA 11s");
  CHECK(lines[2] == "finished: 10/10 proofs (100%), 0.67 proofs/s, GPU busy 97%, in 15s");
}

TEST_CASE("trace/progress/a terminal gets one line redrawn in place") {
  FakeClock clock;
  std::ostringstream out;
  ProgressOptions options;
  options.total = 4;
  options.unit = "jobs";
  options.mode = ProgressOptions::Mode::terminal;
  options.bar_width = 8;
  options.clock = clock.function();
  {
    ProgressReporter progress(out, options);
    CHECK(progress.terminal());
    clock.now += 2s;
    progress.update(2, 0.5);
    clock.now += 50ms;
    progress.update(3);  // within 200 ms: not drawn
    progress.update(4);  // reaching the total draws at once
    CHECK(out.str().find('\n') == std::string::npos);
  }  // the destructor finishes the line
  const std::string text = out.str();
  CHECK(text.back() == '\n');
  const auto frames = split(text.substr(0, text.size() - 1), '\r');
  REQUIRE(frames.size() == 3);
  CHECK(frames[0] == "[####....]  2/4 jobs  1.00 jobs/s  GPU 50%  ETA 2s\x1b[K");
  CHECK(frames[1] == "[########]  4/4 jobs  1.95 jobs/s  GPU 50%  in 2s\x1b[K");
  CHECK(frames[2] == frames[1]);
}

TEST_CASE("trace/progress/unknown totals and early stops") {
  FakeClock clock;
  std::ostringstream out;
  ProgressOptions options;
  options.clock = clock.function();
  ProgressReporter progress(out, options);
  clock.now += 90s;
  progress.update(45);
  progress.finish();
  const auto lines = split(out.str(), '\n');
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "progress: 45 proofs, 0.50 proofs/s");
  CHECK(lines[1] == "finished: 45 proofs, 0.50 proofs/s");  // no total: any end is the end

  std::ostringstream partial;
  options.total = 100;
  {
    ProgressReporter p(partial, options);
    clock.now += 3720s;
    p.update(31);
  }
  CHECK(split(partial.str(), '\n').back() == "stopped: 31/100 proofs (31%), 0.01 proofs/s");
}

TEST_CASE("trace/progress/updates from many threads never interleave a line") {
  std::ostringstream out;
  ProgressOptions options;
  options.total = 8000;
  options.mode = ProgressOptions::Mode::terminal;
  options.terminal_interval = 0ms;  // draw on every update: the most chances to interleave
  {
    ProgressReporter progress(out, options);
    std::vector<std::thread> threads;
    std::atomic<std::uint64_t> done{0};
    for (int t = 0; t < 8; ++t)
      threads.emplace_back([&] {
        for (int i = 0; i < 1000; ++i) progress.update(++done);
      });
    for (auto& t : threads) t.join();
  }
  const std::string text = out.str();
  const auto frames = split(text.substr(0, text.size() - 1), '\r');
  CHECK(frames.size() >= 2);
  for (const std::string& frame : frames) {
    CAPTURE(frame);
    REQUIRE(frame.size() > 3);
    CHECK(frame.front() == '[');
    CHECK(frame.substr(frame.size() - 3) == "\x1b[K");
    CHECK(frame.find('[', 1) == frame.size() - 2);  // exactly one bar and one erase: no interleaving
  }
  CHECK(frames.back().find("8000/8000 proofs") != std::string::npos);
}

TEST_CASE("trace/progress/a file that is not a terminal gets plain lines") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  {
    ProgressOptions options;
    options.total = 2;
    ProgressReporter progress(file, options);
    CHECK_FALSE(progress.terminal());
    progress.update(2);
  }
  std::rewind(file);
  char buffer[256] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, file);
  std::fclose(file);
  const std::string text(buffer, n);
  CHECK(text.rfind("progress: 2/2 proofs (100%)", 0) == 0);
  CHECK(text.find("\nfinished: 2/2 proofs (100%)") != std::string::npos);
}

TEST_CASE("trace/progress/failed jobs are counted apart from proofs") {
  FakeClock clock;
  std::ostringstream out;
  ProgressOptions options;
  options.total = 4;
  options.clock = clock.function();
  ProgressReporter progress(out, options);
  progress.update(1);
  clock.now += 10s;
  progress.update(3, std::nullopt, 1);
  progress.update(3, std::nullopt, 0);  // a late, smaller failure count does not go backwards
  clock.now += 5s;
  progress.update(4, std::nullopt, 2);  // within the interval: finish() reports it
  progress.finish();
  const auto lines = split(out.str(), '\n');
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "progress: 1/4 proofs (25%), 0.00 proofs/s");
  CHECK(lines[1] == "progress: 3/4 proofs (75%), 1 failed, 0.30 proofs/s, ETA 3s");
  CHECK(lines[2] == "finished: 4/4 proofs (100%), 2 failed, 0.27 proofs/s, in 15s");
}
