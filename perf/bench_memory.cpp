// bench_memory: what the memory layer costs, per pinning backend. Prints a table; --json FILE writes the
// same figures as JSON.
//
//   pin        s/GiB to pin a block and to unpin it (first touch included where the backend needs it)
//   prewarm    seconds to pin N slots of S bytes (4 buffers each) into a pool
//   h2d        GB/s host-to-device from a leased buffer against pageable malloc memory, same run (CUDA only:
//              cudaMemcpyAsync timed with CUDA events after warm-up, median of runs)
//   lease      steady-state lease/return latency p50/p99 (slot and single buffer, one thread and one thread
//              per slot), with zero pin calls after warm-up (checked: the run fails otherwise)
//   wake       how long a waiter blocked on a full budget takes to run after a release, and after a trim
//              (the trim includes unpinning), p50/p99
//
// Sizes shrink to fit where memory is short (a note says so). Exit status 1 if a check fails, 2 for bad
// options.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <proofline/memory/budget.hpp>
#include <proofline/memory/host_memory.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/size.hpp>

#ifdef PROOFLINE_BENCH_CUDA
#include <cuda_runtime.h>
#endif

using namespace proofline;
using namespace proofline::memory;
using SteadyClock = std::chrono::steady_clock;

namespace {

struct Args {
  std::string json;
  std::vector<PinningKind> backends;  // empty: every backend usable here
  std::uint64_t budget = 0;           // 0: detected host budget
  std::uint64_t pin_bytes = GiB;
  int pin_runs = 3;
  int slots = 4;
  std::uint64_t slot_bytes = 3 * GiB / 2;
  std::uint64_t h2d_bytes = GiB;
  int h2d_runs = 10;
  int lease_iterations = 20000;
  int wake_runs = 20;
  std::uint64_t wake_bytes = 64 * MiB;
  double min_h2d_gbs = 0;  // fail if a page-locking backend copies slower than this (0: no check)
};

/// The options; none after printing --help. Throws OptionError for anything unusable.
std::optional<Args> parse(int argc, char** argv) {
  Args args;
  OptionParser cli("bench_memory", "usage: bench_memory [options]",
                   "What the memory layer costs, per pinning backend: a table, and JSON with --json.");
  cli.text("--json", "FILE", "write the figures as JSON too", args.json);
  cli.value("--backend", "host|cuda-alloc|cuda-register",
            "a pinning backend to measure; repeat for several (default: every backend usable here)",
            [&args](std::string_view name) { args.backends.push_back(parse_pinning_kind(name)); });
  cli.value("--budget", "SIZE", "host budget (default: the detected one)",
            [&args](std::string_view text) { args.budget = parse_size_option("--budget", text); });
  cli.size("--pin-size", "SIZE", "block pinned and unpinned per run (default 1G)", args.pin_bytes);
  cli.integer("--pin-runs", "N", "pin/unpin runs (default 3)", args.pin_runs, Bounds<int>{1, 1000});
  cli.integer("--slots", "N", "slots prewarmed into the pool (default 4)", args.slots, Bounds<int>{1, 1024});
  cli.size("--slot-size", "SIZE", "bytes per slot, in 4 buffers (default 1.5G)", args.slot_bytes);
  cli.size("--h2d-size", "SIZE", "bytes per H2D copy (default 1G)", args.h2d_bytes);
  cli.integer("--h2d-runs", "N", "timed H2D copies (default 10)", args.h2d_runs, Bounds<int>{1, 10'000});
  cli.integer("--lease-iterations", "N", "lease/return pairs (default 20000)", args.lease_iterations,
              Bounds<int>{1, 100'000'000});
  cli.integer("--wake-runs", "N", "wake-up measurements of each kind (default 20)", args.wake_runs,
              Bounds<int>{1, 100'000});
  cli.size("--wake-size", "SIZE", "bytes the waiter asks for (default 64M)", args.wake_bytes);
  cli.real("--min-h2d-gbs", "X",
           "fail if a page-locking backend copies slower than X GB/s (default 0: no check)", args.min_h2d_gbs,
           Bounds<double>{0, 10'000});
  cli.epilog("Exit codes: 0 every check passed, 1 a check failed, 2 bad options.");
  if (!cli.parse(argc, argv)) return std::nullopt;
  if (!args.json.empty()) check_output_file_option("--json", args.json);
  return args;
}

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double median(std::vector<double> values) {
  return percentile(std::move(values), 0.5);
}

#ifdef PROOFLINE_BENCH_CUDA
// Random bytes (never time a copy of zeros), filled in parallel: a GiB takes a while on one thread.
void fill_random(void* data, std::uint64_t bytes, std::uint64_t seed) {
  const unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  auto* words = static_cast<std::uint64_t*>(data);
  const std::uint64_t count = bytes / sizeof(std::uint64_t);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([=] {
      std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + t + 1;
      for (std::uint64_t i = count * t / threads; i < count * (t + 1) / threads; ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        words[i] = state;
      }
    });
  }
  for (auto& worker : workers) worker.join();
}
#endif

// ---- JSON, by hand: a few flat objects do not justify a dependency ----

class Json {
 public:
  void open(const char* key = nullptr) {
    item(key) << '{';
    first_ = true;
  }
  void close() {
    out_ << '}';
    first_ = false;
  }
  void open_array(const char* key) {
    item(key) << '[';
    first_ = true;
  }
  void close_array() {
    out_ << ']';
    first_ = false;
  }
  void number(const char* key, double value) {
    item(key);
    if (std::isfinite(value))
      out_ << value;
    else
      out_ << "null";
  }
  void integer(const char* key, std::uint64_t value) { item(key) << value; }
  void boolean(const char* key, bool value) { item(key) << (value ? "true" : "false"); }
  void string(const char* key, const std::string& value) {
    item(key) << '"';
    for (const char c : value) {
      if (c == '"' || c == '\\')
        out_ << '\\' << c;
      else if (static_cast<unsigned char>(c) < 0x20)
        out_ << ' ';
      else
        out_ << c;
    }
    out_ << '"';
  }
  void null(const char* key) { item(key) << "null"; }
  std::string text() const { return out_.str() + "\n"; }

 private:
  std::ostream& item(const char* key) {
    if (!first_) out_ << ',';
    first_ = false;
    if (key != nullptr) out_ << '"' << key << "\":";
    return out_;
  }
  std::ostringstream out_;
  bool first_ = true;
};

// ---- CUDA ----

#ifdef PROOFLINE_BENCH_CUDA
#define BENCH_CUDA(call)                                                                                   \
  do {                                                                                                     \
    const cudaError_t status_ = (call);                                                                    \
    if (status_ != cudaSuccess) {                                                                          \
      throw std::runtime_error(std::string(#call) + " failed at line " + std::to_string(__LINE__) + ": " + \
                               cudaGetErrorName(status_) + " (" + cudaGetErrorString(status_) + ")");      \
    }                                                                                                      \
  } while (0)

std::string cuda_device_name() {
  cudaDeviceProp properties{};
  BENCH_CUDA(cudaGetDeviceProperties(&properties, 0));
  return properties.name;
}

// Median GB/s of `runs` copies of `bytes` from `source` to the device, after two warm-up copies.
double h2d_gbs(const void* source, std::uint64_t bytes, int runs) {
  void* device = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  BENCH_CUDA(cudaMalloc(&device, bytes));
  std::vector<double> rates;
  try {
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    BENCH_CUDA(cudaEventCreate(&start));
    BENCH_CUDA(cudaEventCreate(&stop));
    for (int i = 0; i < 2; ++i)
      BENCH_CUDA(cudaMemcpyAsync(device, source, bytes, cudaMemcpyHostToDevice, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
    for (int i = 0; i < runs; ++i) {
      BENCH_CUDA(cudaEventRecord(start, stream));
      BENCH_CUDA(cudaMemcpyAsync(device, source, bytes, cudaMemcpyHostToDevice, stream));
      BENCH_CUDA(cudaEventRecord(stop, stream));
      BENCH_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      BENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
      rates.push_back(static_cast<double>(bytes) / 1e9 / (static_cast<double>(ms) * 1e-3));
    }
  } catch (...) {
    if (stop != nullptr) cudaEventDestroy(stop);
    if (start != nullptr) cudaEventDestroy(start);
    if (stream != nullptr) cudaStreamDestroy(stream);
    cudaFree(device);
    throw;
  }
  BENCH_CUDA(cudaEventDestroy(stop));
  BENCH_CUDA(cudaEventDestroy(start));
  BENCH_CUDA(cudaStreamDestroy(stream));
  BENCH_CUDA(cudaFree(device));
  return median(rates);
}
#endif

// ---- measurements ----

struct PinResult {
  bool page_locked = false;
  double pin_s_per_gib = 0;
  double unpin_s_per_gib = 0;
};

PinResult measure_pin(PinningBackend& backend, const Args& args) {
  std::vector<double> pins;
  std::vector<double> unpins;
  PinResult result;
  const double gib = static_cast<double>(args.pin_bytes) / static_cast<double>(GiB);
  for (int run = 0; run < args.pin_runs; ++run) {
    auto start = SteadyClock::now();
    const PinnedBuffer buffer = backend.allocate(args.pin_bytes);
    pins.push_back(seconds_since(start) / gib);
    result.page_locked = buffer.page_locked;
    start = SteadyClock::now();
    backend.deallocate(buffer);
    unpins.push_back(seconds_since(start) / gib);
  }
  result.pin_s_per_gib = median(pins);
  result.unpin_s_per_gib = median(unpins);
  return result;
}

struct LeaseResult {
  double slot_lease_p50_ns = 0, slot_lease_p99_ns = 0;
  double slot_return_p50_ns = 0, slot_return_p99_ns = 0;
  double buffer_lease_p50_ns = 0, buffer_lease_p99_ns = 0;
  unsigned threads = 0;
  double contended_p50_ns = 0, contended_p99_ns = 0;
  std::uint64_t pin_calls_after_warm = 0;
  int iterations = 0;
};

LeaseResult measure_leases(PinnedPool& pool, std::span<const std::uint64_t> sizes, const Args& args) {
  LeaseResult result;
  result.iterations = args.lease_iterations;
  pool.mark_warm();
  std::vector<double> lease_ns, return_ns, buffer_ns;
  lease_ns.reserve(static_cast<std::size_t>(args.lease_iterations));
  return_ns.reserve(static_cast<std::size_t>(args.lease_iterations));
  buffer_ns.reserve(static_cast<std::size_t>(args.lease_iterations));
  const auto ns_since = [](SteadyClock::time_point start) {
    return std::chrono::duration<double, std::nano>(SteadyClock::now() - start).count();
  };
  for (int i = 0; i < args.lease_iterations; ++i) {
    auto start = SteadyClock::now();
    PinnedSlot* slot = pool.try_acquire_slot(sizes);
    lease_ns.push_back(ns_since(start));
    if (slot == nullptr) throw std::runtime_error("a warm slot could not be leased");
    start = SteadyClock::now();
    pool.release_slot(slot);
    return_ns.push_back(ns_since(start));

    start = SteadyClock::now();
    {
      std::optional<PinnedLease> lease = pool.try_lease(sizes[0]);
      if (!lease) throw std::runtime_error("a warm buffer could not be leased");
    }
    buffer_ns.push_back(ns_since(start));  // lease and return together
  }
  result.slot_lease_p50_ns = percentile(lease_ns, 0.5);
  result.slot_lease_p99_ns = percentile(lease_ns, 0.99);
  result.slot_return_p50_ns = percentile(return_ns, 0.5);
  result.slot_return_p99_ns = percentile(return_ns, 0.99);
  result.buffer_lease_p50_ns = percentile(buffer_ns, 0.5);
  result.buffer_lease_p99_ns = percentile(buffer_ns, 0.99);

  // One thread per warm slot, each leasing and returning as fast as it can: the pool's lock under
  // contention. Blocking leases, since another thread may hold the slot this one would reuse.
  result.threads = static_cast<unsigned>(args.slots);
  std::vector<std::vector<double>> per_thread(result.threads);
  std::vector<std::thread> workers;
  const int each = std::max(1, args.lease_iterations / args.slots);
  for (unsigned t = 0; t < result.threads; ++t) {
    workers.emplace_back([&, t] {
      per_thread[t].reserve(static_cast<std::size_t>(each));
      for (int i = 0; i < each; ++i) {
        const auto start = SteadyClock::now();
        SlotLease slot = pool.lease_slot(sizes);
        per_thread[t].push_back(std::chrono::duration<double, std::nano>(SteadyClock::now() - start).count());
      }
    });
  }
  for (auto& worker : workers) worker.join();
  std::vector<double> contended;
  for (const auto& samples : per_thread) contended.insert(contended.end(), samples.begin(), samples.end());
  result.contended_p50_ns = percentile(contended, 0.5);
  result.contended_p99_ns = percentile(contended, 0.99);
  result.pin_calls_after_warm = pool.stats().pin_calls_since_warm;
  return result;
}

struct WakeResult {
  double release_p50_us = 0, release_p99_us = 0;
  double trim_p50_us = 0, trim_p99_us = 0;
  double trim_only_p50_us = 0;  // the trim call itself (unpin included), for reading the above
  std::uint64_t bytes = 0;
};

WakeResult measure_wake(PinningBackend& backend, const Args& args) {
  WakeResult result;
  const std::uint64_t bytes = backend.round_size(args.wake_bytes);
  result.bytes = bytes;
  const auto us_between = [](SteadyClock::time_point a, SteadyClock::time_point b) {
    return std::chrono::duration<double, std::micro>(b - a).count();
  };
  // A waiter that does not evict for itself: it sleeps until the room appears.
  const ReserveOptions no_evict{.evict = false};
  const auto wait_for_queue = [](Budget& budget) {
    while (budget.stats().waiting == 0) std::this_thread::yield();
  };

  std::vector<double> released;
  {
    Budget budget("wake", bytes);
    for (int run = 0; run < args.wake_runs; ++run) {
      std::optional<Reservation> hold = budget.reserve(bytes);
      auto waiter = std::async(std::launch::async, [&] {
        Reservation got = budget.reserve(bytes, no_evict);
        return SteadyClock::now();
      });
      wait_for_queue(budget);
      const auto start = SteadyClock::now();
      hold.reset();
      released.push_back(us_between(start, waiter.get()));
    }
  }

  std::vector<double> trimmed, trim_only;
  {
    Budget budget("wake", 2 * bytes);
    PinnedPool pool(budget, backend, PoolOptions{.name = "wake-pool"});
    for (int run = 0; run < args.wake_runs; ++run) {
      pool.prewarm(2 - pool.stats().buffers, bytes);  // the budget is full of idle pool buffers
      auto waiter = std::async(std::launch::async, [&] {
        Reservation got = budget.reserve(bytes, no_evict);
        return SteadyClock::now();
      });
      wait_for_queue(budget);
      const auto start = SteadyClock::now();
      pool.trim(bytes);
      const auto trim_done = SteadyClock::now();
      trimmed.push_back(us_between(start, waiter.get()));
      trim_only.push_back(us_between(start, trim_done));
    }
  }
  result.release_p50_us = percentile(released, 0.5);
  result.release_p99_us = percentile(released, 0.99);
  result.trim_p50_us = percentile(trimmed, 0.5);
  result.trim_p99_us = percentile(trimmed, 0.99);
  result.trim_only_p50_us = percentile(trim_only, 0.5);
  return result;
}

struct BackendResult {
  std::string name;
  PinResult pin;
  double prewarm_seconds = 0;
  std::uint64_t prewarm_bytes = 0;
  std::optional<double> h2d_pinned_gbs;
  std::optional<double> h2d_pageable_gbs;
  LeaseResult lease;
  WakeResult wake;
  bool ok = true;
  std::string failure;
};

/// The machine as the benchmark sees it.
struct Machine {
  HostMemory host;
  std::uint64_t budget_bytes = 0;
  bool cuda = false;
  std::string device = "none";
};

Machine detect_machine(const Args& args) {
  Machine m;
  m.host = detect_host_memory();
  m.budget_bytes = args.budget != 0 ? args.budget : host_budget_bytes(m.host);
  m.cuda = cuda_device_available();
#ifdef PROOFLINE_BENCH_CUDA
  if (m.cuda) m.device = cuda_device_name();
#endif
  return m;
}

/// Fits the sizes to this machine (the slots, an H2D buffer beside them and a pageable copy of it must fit in
/// the budget at once) and picks the backends; returns a note for each size that shrank.
std::vector<std::string> fit_to_machine(Args& args, const Machine& m) {
  std::vector<std::string> notes;
  const auto granule = 2 * MiB;
  if (args.slots * args.slot_bytes + 2 * args.h2d_bytes > m.budget_bytes) {
    const std::uint64_t room = m.budget_bytes / 2;
    args.h2d_bytes = std::max<std::uint64_t>(granule, std::min(args.h2d_bytes, room / 4 / granule * granule));
    args.slot_bytes = std::max<std::uint64_t>(4 * granule, room / args.slots / (4 * granule) * (4 * granule));
    notes.push_back("memory is short: slots of " + format_size(args.slot_bytes) + ", H2D buffer of " +
                    format_size(args.h2d_bytes));
  }
  if (args.pin_bytes > m.budget_bytes / 2) {
    args.pin_bytes = std::max<std::uint64_t>(granule, m.budget_bytes / 2 / granule * granule);
    notes.push_back("memory is short: pin cost measured on " + format_size(args.pin_bytes));
  }
  if (args.backends.empty()) {
    if (m.cuda) args.backends = {PinningKind::cuda_host_register, PinningKind::cuda_host_alloc};
    args.backends.push_back(PinningKind::host);
  }
  return notes;
}

/// H2D from a leased buffer and from pageable memory of the same size (CUDA builds with a device).
void measure_h2d([[maybe_unused]] PinnedPool& pool, [[maybe_unused]] const Args& args,
                 [[maybe_unused]] BackendResult& r) {
#ifdef PROOFLINE_BENCH_CUDA
  PinnedLease lease = pool.lease(args.h2d_bytes);
  fill_random(lease.data(), lease.size(), 1);
  r.h2d_pinned_gbs = h2d_gbs(lease.data(), lease.size(), args.h2d_runs);
  std::unique_ptr<std::byte[]> pageable(new std::byte[args.h2d_bytes]);
  fill_random(pageable.get(), args.h2d_bytes, 2);
  r.h2d_pageable_gbs = h2d_gbs(pageable.get(), args.h2d_bytes, args.h2d_runs);
#endif
}

/// Every measurement of one backend; a failure is recorded in the result, not thrown.
BackendResult measure_backend(PinningKind kind, const Args& args, const Machine& m,
                              std::span<const std::uint64_t> slot_sizes) {
  BackendResult r;
  r.name = std::string(to_string(kind));
  try {
    auto backend = make_backend(kind);
    r.pin = measure_pin(*backend, args);
    Budget budget("host", m.budget_bytes);
    PinnedPool pool(budget, *backend, PoolOptions{.name = r.name + "-pool"});
    const auto start = SteadyClock::now();
    pool.prewarm_slots(static_cast<std::size_t>(args.slots), slot_sizes);
    r.prewarm_seconds = seconds_since(start);
    r.prewarm_bytes = pool.stats().bytes_pinned;
    if (m.cuda) measure_h2d(pool, args, r);
    pool.trim(pool.stats().bytes_idle - r.prewarm_bytes);  // back to the warm slots only
    r.lease = measure_leases(pool, slot_sizes, args);
    if (r.lease.pin_calls_after_warm != 0) {
      r.ok = false;
      r.failure = std::to_string(r.lease.pin_calls_after_warm) + " pin calls after warm-up";
    }
    if (args.min_h2d_gbs > 0 && backend->pins() && r.h2d_pinned_gbs && *r.h2d_pinned_gbs < args.min_h2d_gbs &&
        kind != PinningKind::host) {
      r.ok = false;
      r.failure = "H2D from pinned memory below " + std::to_string(args.min_h2d_gbs) + " GB/s";
    }
    r.wake = measure_wake(*backend, args);
  } catch (const std::exception& e) {
    r.ok = false;
    r.failure = e.what();
  }
  return r;
}

std::string optional_rate(const std::optional<double>& value) {
  char text[32];
  if (value)
    std::snprintf(text, sizeof text, "%.1f", *value);
  else
    std::snprintf(text, sizeof text, "-");
  return text;
}

void print_table(const std::vector<BackendResult>& results) {
  std::printf("\n%-14s %6s %9s %9s %10s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n", "backend", "locked",
              "pin", "unpin", "prewarm", "h2d", "pageable", "slot", "slot", "return", "buffer", "contend",
              "contend", "wake", "wake", "wake");
  std::printf("%-14s %6s %9s %9s %10s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n", "", "", "s/GiB",
              "s/GiB", "s", "GB/s", "GB/s", "p50 ns", "p99 ns", "p50 ns", "p50 ns", "p50 ns", "p99 ns",
              "rel p50us", "trim p50us", "trim p99us");
  for (const auto& r : results) {
    if (!r.ok && r.prewarm_bytes == 0) {
      std::printf("%-14s FAILED: %s\n", r.name.c_str(), r.failure.c_str());
      continue;
    }
    std::printf(
        "%-14s %6s %9.3f %9.3f %10.2f %9s %9s %9.0f %9.0f %9.0f %9.0f %9.0f %9.0f %9.1f %10.1f %10.1f\n",
        r.name.c_str(), r.pin.page_locked ? "yes" : "no", r.pin.pin_s_per_gib, r.pin.unpin_s_per_gib,
        r.prewarm_seconds, optional_rate(r.h2d_pinned_gbs).c_str(), optional_rate(r.h2d_pageable_gbs).c_str(),
        r.lease.slot_lease_p50_ns, r.lease.slot_lease_p99_ns, r.lease.slot_return_p50_ns,
        r.lease.buffer_lease_p50_ns, r.lease.contended_p50_ns, r.lease.contended_p99_ns,
        r.wake.release_p50_us, r.wake.trim_p50_us, r.wake.trim_p99_us);
    if (!r.ok) std::printf("%-14s FAILED: %s\n", "", r.failure.c_str());
  }
}

void print_method(const Args& args) {
  std::printf(
      "\npin: %s blocks, median of %d; prewarm: %d slots x 4 x %s; h2d: %s from a leased buffer vs "
      "pageable malloc, median of %d after 2 warm-up copies; slot/return: try_acquire_slot/release_slot; "
      "buffer: try_lease + return; contend: lease_slot with %d threads, %d iterations in all; wake: a %s "
      "waiter, %d runs, after a release (rel) and after a trim that unpins (trim)\n",
      format_size(args.pin_bytes).c_str(), args.pin_runs, args.slots,
      format_size(args.slot_bytes / 4).c_str(), format_size(args.h2d_bytes).c_str(), args.h2d_runs,
      args.slots, args.lease_iterations, format_size(args.wake_bytes).c_str(), args.wake_runs);
}

void json_machine(Json& j, const Machine& m) {
  j.open("machine");
  j.integer("hardware_threads", std::thread::hardware_concurrency());
  j.integer("mem_total_bytes", m.host.mem_total);
  j.integer("usable_bytes", m.host.usable);
  j.integer("budget_bytes", m.budget_bytes);
  j.string("cuda_device", m.device);
  j.close();
}

void json_config(Json& j, const Args& args) {
  j.open("config");
  j.integer("pin_bytes", args.pin_bytes);
  j.integer("pin_runs", static_cast<std::uint64_t>(args.pin_runs));
  j.integer("slots", static_cast<std::uint64_t>(args.slots));
  j.integer("slot_bytes", args.slot_bytes);
  j.integer("buffers_per_slot", 4);
  j.integer("h2d_bytes", args.h2d_bytes);
  j.integer("h2d_runs", static_cast<std::uint64_t>(args.h2d_runs));
  j.integer("lease_iterations", static_cast<std::uint64_t>(args.lease_iterations));
  j.integer("wake_runs", static_cast<std::uint64_t>(args.wake_runs));
  j.integer("wake_bytes", args.wake_bytes);
  j.close();
}

void json_lease(Json& j, const LeaseResult& lease) {
  j.open("lease");
  j.integer("iterations", static_cast<std::uint64_t>(lease.iterations));
  j.number("slot_lease_p50_ns", lease.slot_lease_p50_ns);
  j.number("slot_lease_p99_ns", lease.slot_lease_p99_ns);
  j.number("slot_return_p50_ns", lease.slot_return_p50_ns);
  j.number("slot_return_p99_ns", lease.slot_return_p99_ns);
  j.number("buffer_lease_return_p50_ns", lease.buffer_lease_p50_ns);
  j.number("buffer_lease_return_p99_ns", lease.buffer_lease_p99_ns);
  j.integer("contended_threads", lease.threads);
  j.number("contended_slot_lease_p50_ns", lease.contended_p50_ns);
  j.number("contended_slot_lease_p99_ns", lease.contended_p99_ns);
  j.integer("pin_calls_after_warm", lease.pin_calls_after_warm);
  j.close();
}

void json_wake(Json& j, const WakeResult& wake) {
  j.open("wake");
  j.integer("bytes", wake.bytes);
  j.number("after_release_p50_us", wake.release_p50_us);
  j.number("after_release_p99_us", wake.release_p99_us);
  j.number("after_trim_p50_us", wake.trim_p50_us);
  j.number("after_trim_p99_us", wake.trim_p99_us);
  j.number("trim_call_p50_us", wake.trim_only_p50_us);
  j.close();
}

void json_backend(Json& j, const BackendResult& r) {
  j.open();
  j.string("name", r.name);
  j.boolean("ok", r.ok);
  if (!r.ok) j.string("failure", r.failure);
  j.boolean("page_locked", r.pin.page_locked);
  j.number("pin_s_per_gib", r.pin.pin_s_per_gib);
  j.number("unpin_s_per_gib", r.pin.unpin_s_per_gib);
  j.number("prewarm_seconds", r.prewarm_seconds);
  j.integer("prewarm_bytes", r.prewarm_bytes);
  if (r.h2d_pinned_gbs) {
    j.number("h2d_leased_gbs", *r.h2d_pinned_gbs);
    j.number("h2d_pageable_gbs", *r.h2d_pageable_gbs);
  } else {
    j.null("h2d_leased_gbs");
    j.null("h2d_pageable_gbs");
  }
  json_lease(j, r.lease);
  json_wake(j, r.wake);
  j.close();
}

/// False when the file cannot be written.
bool write_json(const std::string& path, const Machine& m, const Args& args,
                const std::vector<BackendResult>& results) {
  Json j;
  j.open();
  j.string("benchmark", "bench_memory");
  json_machine(j, m);
  json_config(j, args);
  j.open_array("backends");
  for (const auto& r : results) json_backend(j, r);
  j.close_array();
  j.close();
  std::ofstream out(path);
  out << j.text();
  return static_cast<bool>(out);
}

int run(Args args) {
  const Machine m = detect_machine(args);
  const std::vector<std::string> notes = fit_to_machine(args, m);
  const std::vector<std::uint64_t> slot_sizes(4, args.slot_bytes / 4);
  std::printf("bench_memory: %u hardware threads, MemTotal %s, usable %s, budget %s, CUDA device: %s\n",
              std::thread::hardware_concurrency(), format_size(m.host.mem_total).c_str(),
              format_size(m.host.usable).c_str(), format_size(m.budget_bytes).c_str(), m.device.c_str());
  for (const auto& note : notes) std::printf("note: %s\n", note.c_str());

  std::vector<BackendResult> results;
  for (const PinningKind kind : args.backends) results.push_back(measure_backend(kind, args, m, slot_sizes));
  print_table(results);
  print_method(args);
  if (!args.json.empty() && !write_json(args.json, m, args, results)) {
    std::fprintf(stderr, "bench_memory: cannot write %s\n", args.json.c_str());
    return 1;
  }
  const bool all_ok =
      std::all_of(results.begin(), results.end(), [](const BackendResult& r) { return r.ok; });
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return run_with_options(
      "bench_memory", [&] { return parse(argc, argv); }, run);
}
