// Cost of recording spans: nanoseconds per span on each thread, and spans per second over all threads, from
// 1, 2 and N threads at once (N = hardware threads), medians over several runs, as a table and optionally
// JSON. Each run uses a fresh Recorder, so the chunk allocations of a growing run are included. Build with
// -DPROOFLINE_TRACE=OFF to measure the same loops with recording compiled out.
//
//   bench_trace [--spans N] [--runs R] [--threads 1,2,8] [--json FILE]
#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <proofline/trace/config.hpp>
#include <proofline/trace/nvtx.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/trace/scoped_span.hpp>
#include <proofline/util/options.hpp>

namespace {

using namespace proofline;
using namespace proofline::trace;
using SteadyClock = std::chrono::steady_clock;

struct Options {
  std::uint64_t spans = 1'000'000;  // per thread per run
  unsigned runs = 5;
  std::vector<unsigned> threads;
  std::string json_path;
};

struct Row {
  std::string op;
  unsigned threads = 0;
  double ns_per_span = 0;   // median over runs of the mean per-thread time per span
  double mspans_per_s = 0;  // median over runs of all spans / wall time of the run
  double snapshot_ms = 0;   // median time to merge and sort what the run recorded (0 where nothing is kept)
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/// What one thread does `spans` times; `i` is the iteration.
using Body = std::function<void(Recorder&, const StageId&, const TrackId&, std::uint64_t spans)>;

struct Case {
  const char* op;
  Body body;
  bool nvtx = false;
  bool keeps_spans = true;
};

Row measure(const Case& c, unsigned threads, const Options& options) {
  std::vector<double> ns, rate, snap;
  for (unsigned run = 0; run < options.runs; ++run) {
    Recorder recorder;
    recorder.set_nvtx(c.nvtx);
    const StageId stage = recorder.add_stage("bench");
    const TrackId stream = recorder.add_track("stream", TrackKind::cuda_stream, 0);
    std::vector<double> per_thread(threads, 0.0);
    std::vector<SteadyClock::time_point> began(threads), ended(threads);
    std::barrier start(static_cast<std::ptrdiff_t>(threads) + 1);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        recorder.worker_track();  // register outside the timed loop, as a long-running worker would have
        start.arrive_and_wait();
        began[t] = SteadyClock::now();
        c.body(recorder, stage, stream, options.spans);
        ended[t] = SteadyClock::now();
        per_thread[t] = std::chrono::duration<double, std::nano>(ended[t] - began[t]).count();
      });
    }
    start.arrive_and_wait();
    for (auto& th : pool) th.join();
    // From the first thread's start to the last one's end, as the threads saw it (this thread may be
    // descheduled).
    const double wall_s = std::chrono::duration<double>(*std::max_element(ended.begin(), ended.end()) -
                                                        *std::min_element(began.begin(), began.end()))
                              .count();
    double sum = 0;
    for (double v : per_thread) sum += v;
    ns.push_back(sum / threads / static_cast<double>(options.spans));
    rate.push_back(static_cast<double>(options.spans) * threads / wall_s * 1e-6);
    const auto s0 = SteadyClock::now();
    const Snapshot s = recorder.snapshot();
    snap.push_back(std::chrono::duration<double, std::milli>(SteadyClock::now() - s0).count());
    const std::uint64_t expected = compiled_in && c.keeps_spans ? options.spans * threads : 0;
    if (s.spans.size() != expected)
      throw std::runtime_error(std::string(c.op) + ": recorded " + std::to_string(s.spans.size()) +
                               " spans, expected " + std::to_string(expected));
  }
  return Row{c.op, threads, median(ns), median(rate), median(snap)};
}

/// The options; none after printing --help. Throws OptionError for anything unusable.
std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  OptionParser cli("bench_trace", "usage: bench_trace [options]",
                   "Cost of recording spans: ns per span per thread and spans per second over all threads.");
  cli.integer("--spans", "N", "spans per thread per run (default 1000000)", options.spans,
              Bounds<std::uint64_t>{1, 1'000'000'000});
  cli.integer("--runs", "R", "runs, medians reported (default 5)", options.runs, Bounds<unsigned>{1, 1000});
  const Bounds<std::uint64_t> threads = thread_bounds();
  cli.integer_list("--threads", "LIST", "thread counts, e.g. 1,2,8 (default: 1, 2 and the hardware threads)",
                   options.threads, Bounds<unsigned>{1, static_cast<unsigned>(threads.max), threads.why});
  cli.text("--json", "FILE", "write the rows as JSON too", options.json_path);
  if (!cli.parse(argc, argv)) return std::nullopt;
  if (options.threads.empty()) {
    const unsigned n = std::max(1u, std::thread::hardware_concurrency());
    options.threads = {1u};
    if (n >= 2) options.threads.push_back(2);
    if (n > 2) options.threads.push_back(n);
  }
  return options;
}

void write_json(const std::string& path, const std::vector<Row>& rows, const Options& options) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "{\"benchmark\":\"bench_trace\",\"trace_compiled_in\":" << (compiled_in ? "true" : "false")
      << ",\"nvtx_compiled_in\":" << (nvtx_compiled_in() ? "true" : "false")
      << ",\"hardware_threads\":" << std::thread::hardware_concurrency()
      << ",\"spans_per_thread\":" << options.spans << ",\"runs\":" << options.runs << ",\"rows\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    char buffer[256];
    std::snprintf(
        buffer, sizeof buffer,
        "%s{\"op\":\"%s\",\"threads\":%u,\"ns_per_span\":%.3f,\"mspans_per_s\":%.3f,\"snapshot_ms\":%.3f}",
        i == 0 ? "" : ",", rows[i].op.c_str(), rows[i].threads, rows[i].ns_per_span, rows[i].mspans_per_s,
        rows[i].snapshot_ms);
    out << buffer;
  }
  out << "]}\n";
  if (!out) throw std::runtime_error("cannot write " + path);
}

/// The operations measured: a clock reference, then each way of recording a span.
std::vector<Case> cases() {
  return {
      {"steady_clock::now x2 (reference)",
       [](Recorder&, const StageId&, const TrackId&, std::uint64_t n) {
         std::int64_t sink = 0;
         for (std::uint64_t i = 0; i < n; ++i) sink += (SteadyClock::now() - SteadyClock::now()).count();
         if (sink == 42) std::printf(" ");  // keeps the loop
       },
       false, false},
      {"record_worker_span",
       [](Recorder& r, const StageId& stage, const TrackId&, std::uint64_t n) {
         for (std::uint64_t i = 0; i < n; ++i)
           r.record_worker_span(stage, i, static_cast<std::int64_t>(i), static_cast<std::int64_t>(i) + 1);
       }},
      {"record_span (stream track)",
       [](Recorder& r, const StageId& stage, const TrackId& stream, std::uint64_t n) {
         Span span;
         span.stage = stage;
         span.track = stream;
         span.gpu = 0;
         for (std::uint64_t i = 0; i < n; ++i) {
           span.begin_ns = static_cast<std::int64_t>(i);
           span.end_ns = static_cast<std::int64_t>(i) + 1;
           span.job = i;
           r.record_span(span);
         }
       }},
      {"ScopedSpan",
       [](Recorder& r, const StageId& stage, const TrackId&, std::uint64_t n) {
         for (std::uint64_t i = 0; i < n; ++i) ScopedSpan span(r, stage, i);
       }},
      {"ScopedSpan + NVTX",
       [](Recorder& r, const StageId& stage, const TrackId&, std::uint64_t n) {
         for (std::uint64_t i = 0; i < n; ++i) ScopedSpan span(r, stage, i);
       },
       true},
  };
}

void print_row(const Row& row) {
  if (row.ns_per_span < 0.01)  // compiled out: the loop is gone and a rate means nothing
    std::printf("%-34s %7u %12.2f %14s %13.2f\n", row.op.c_str(), row.threads, row.ns_per_span, "n/a",
                row.snapshot_ms);
  else
    std::printf("%-34s %7u %12.2f %14.2f %13.2f\n", row.op.c_str(), row.threads, row.ns_per_span,
                row.mspans_per_s, row.snapshot_ms);
  std::fflush(stdout);
}

int run(const Options& options) {
  std::printf(
      "bench_trace: tracing %s, NVTX %s, %u hardware threads, %llu spans per thread, median of %u runs\n\n",
      compiled_in ? "compiled in" : "COMPILED OUT", nvtx_compiled_in() ? "compiled in" : "not built",
      std::thread::hardware_concurrency(), static_cast<unsigned long long>(options.spans), options.runs);
  std::printf("%-34s %7s %12s %14s %13s\n", "operation", "threads", "ns/span", "Mspans/s all", "snapshot ms");
  std::vector<Row> rows;
  for (const Case& c : cases()) {
    for (unsigned threads : options.threads) {
      rows.push_back(measure(c, threads, options));
      print_row(rows.back());
    }
  }
  if (!options.json_path.empty()) write_json(options.json_path, rows, options);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run_with_options(
      "bench_trace", [&] { return parse_options(argc, argv); }, run);
}
