// The flow graph's messages: copyable handles into pipeline-owned state (nodes/job_state.hpp), and the
// gateway type through which a GPU stage's host function hands a job back.
#pragma once

#include <cstdint>
#include <memory>

#include <oneapi/tbb/flow_graph.h>

#include <proofline/nodes/job_state.hpp>

namespace proofline::nodes {

/// A job waiting for a token. Ordered by priority, then submission.
struct JobMsg {
  JobState* job = nullptr;
  int priority = 0;
  std::uint64_t turn = 0;  ///< 0 for every job unless keys take turns
  std::uint64_t seq = 0;

  static JobMsg of(JobState& job) noexcept { return {&job, job.priority, job.turn, job.seq}; }
};
struct JobOrder {
  /// priority_queue_node pops the "largest": higher priority, then the earlier turn, then the lower sequence
  /// number.
  bool operator()(const JobMsg& a, const JobMsg& b) const noexcept {
    if (a.priority != b.priority) return a.priority < b.priority;
    if (a.turn != b.turn) return a.turn > b.turn;
    return a.seq > b.seq;
  }
};
/// A job that holds a token (and, past admission, a slot).
struct Work {
  JobState* job = nullptr;
};
/// The right to use one device slot of one GPU.
struct DeviceSlotMsg {
  devices::DeviceSlot* slot = nullptr;
};
/// A result on its way to delivery (through the sequencer when in order).
struct ResultMsg {
  std::uint64_t seq = 0;
  std::shared_ptr<JobState> job;
};

/// Where a GPU stage's completion hands its job: the gateway of an async_node with Work output.
using Gateway = oneapi::tbb::flow::async_node<Work, Work, oneapi::tbb::flow::queueing>::gateway_type;

}  // namespace proofline::nodes
