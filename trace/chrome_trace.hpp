// Chrome trace event JSON (the object form), which opens in https://ui.perfetto.dev and chrome://tracing.
//
// - One process per group: pid 1 is the host, pid 2 + g is GPU g, each named by a process_name event; GPUs
//   sort above the host.
// - One thread (tid) per track, named by a thread_name event: tid = track id + 1. Spans are "X" events with
//   ts/dur in microseconds (three decimals: nanosecond precision), name = stage, args {job, label, bytes,
//   gpu}.
//   Perfetto draws only properly nested slices on one thread, so spans that overlap without nesting (two
//   copies in flight on one stream, say) are moved to extra lanes named "<track> (overlap k)".
// - Each job's life becomes two async slices (ph b/e, category "job", id = the job): "queued" from its
//   submission to its admission (or to its end, if it never left the queue) and "in flight" from there to its
//   result, with args {job, label, key, outcome}.
// - Counter tracks become "C" events named after the track with one series, "value" (non-finite samples
//   are left out).
// - Times are nanoseconds since the recorder's epoch, so host and GPU spans share one axis.
#pragma once

#include <iosfwd>
#include <string>

#include <proofline/trace/snapshot.hpp>

namespace proofline::trace {

struct ChromeTraceOptions {
  std::string host_process_name = "proofline host";
  bool counters = true;  ///< emit counter samples
};

/// Validates the snapshot (Error(internal) on unknown ids) and writes it.
void write_chrome_trace(const Snapshot& snapshot, std::ostream& out, const ChromeTraceOptions& options = {});
/// Same, to a file; throws Error(io) naming the path when it cannot be written.
void write_chrome_trace_file(const Snapshot& snapshot, const std::string& path,
                             const ChromeTraceOptions& options = {});

}  // namespace proofline::trace
