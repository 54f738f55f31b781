// Internal: the flow graph.
//
//   jobs (priority_queue_node) ──► admit_join (reserving) ◄── tokens (buffer_node) ◄────────────── mint ◄──
//   capacity
//                                        │                          ▲ (pool/budget events)
//                     admit (lease the slot; park the token and requeue on a transient failure) ──┤
//                                        ▼                                                         │
//          synthesis_wait ─► synthesis_join (reserving) ◄── permits ◄┐ (the ramp: detail/synthesis_ramp.hpp)
//                                        ▼                           │                             │
//                                    synthesis ──────────────────────┘                             │
//   CPU backend:  ──► cpu_size_route ─► cpu_ntt ─► cpu_msm ──────────────────────────► release ────┤
//                                     └─► cpu_small (jobs of at most 2^16 rows, side by side) ─┘
//   CUDA, per GPU:──► route ─► ready ─► bind_join (reserving) ◄─ device_tokens ◄─ gpu_done ◄┐     │
//                                        ▼                                                   │     │
//                          h2d (async, copy stream) ─► unpin (slot and token home) ─► ntt ─► msm ─┘  (async,
//                                                                                   compute streams)
//   CUDA with cpu_fallback: also ─► cpu_route ─► (the CPU backend's nodes) ─► release (jobs with no GPU)
//   baseline mode: synthesis ─► baseline (CPU, or per GPU behind route) ─► release
//   release ─► jobs (a job whose GPU died under it, to be proved again: graph/failover.cpp)
//   release ─► results ─► [sequencer] ─► sink (callbacks, futures)      (cancel and timeouts enter at
//   results)
//
// Every node after a GPU async_node is queueing (never lightweight): the gateways are fed from CUDA host
// functions, and a lightweight successor would run its body on the driver's thread.
#pragma once

#include <memory>
#include <tuple>
#include <vector>

#include <oneapi/tbb/flow_graph.h>

#include <proofline/graph/detail/core.hpp>
#include <proofline/graph/detail/synthesis_ramp.hpp>
#include <proofline/nodes/messages.hpp>

namespace proofline::graph::detail {

namespace flow = oneapi::tbb::flow;

using nodes::DeviceSlotMsg;
using nodes::Gateway;
using nodes::JobMsg;
using nodes::ResultMsg;
using nodes::Work;
using JobQueue = flow::priority_queue_node<JobMsg, nodes::JobOrder>;
using TokenBuffer = flow::buffer_node<Token>;
using AdmitJoin = flow::join_node<std::tuple<JobMsg, Token>, flow::reserving>;
using AdmitNode = flow::multifunction_node<std::tuple<JobMsg, Token>, std::tuple<Work, Token, JobMsg>>;
using MintNode = flow::multifunction_node<flow::continue_msg, std::tuple<Token>>;
using WorkNode = flow::function_node<Work, Work>;
using SynthesisJoin = flow::join_node<std::tuple<Work, SynthesisPermit>, flow::reserving>;
/// Port 0: the synthesized job, port 1: permits back to the ramp's buffer.
using SynthesisNode =
    flow::multifunction_node<std::tuple<Work, SynthesisPermit>, std::tuple<Work, SynthesisPermit>>;
/// Its third port takes a job back to the queue when its GPU died under it (graph/failover.cpp).
using ReleaseNode = flow::multifunction_node<Work, std::tuple<Token, ResultMsg, JobMsg>>;
using RouteNode = flow::multifunction_node<Work, std::tuple<Work>, flow::lightweight>;
/// Port 0: jobs computed one at a time (all threads on each), port 1: small jobs computed side by side.
using SizeRouteNode = flow::multifunction_node<Work, std::tuple<Work, Work>, flow::lightweight>;
using Bound = std::tuple<Work, DeviceSlotMsg>;
using BindJoin = flow::join_node<Bound, flow::reserving>;
using H2dNode = flow::async_node<Bound, Work, flow::queueing>;
using UnpinNode = flow::multifunction_node<Work, std::tuple<Token, Work>>;
using GpuNode = flow::async_node<Work, Work, flow::queueing>;
using GpuDoneNode = flow::multifunction_node<Work, std::tuple<DeviceSlotMsg, Work>>;
static_assert(std::is_same_v<Gateway, GpuNode::gateway_type>);
static_assert(std::is_same_v<Gateway, H2dNode::gateway_type>);
using Sequencer = flow::sequencer_node<ResultMsg>;
using Sink = flow::function_node<ResultMsg, flow::continue_msg>;

/// The stage set of one GPU.
struct GpuNodes {
  GpuNodes(flow::graph& graph, Core& core, devices::GpuLane& lane);

  RouteNode route;
  // pinned mode
  std::unique_ptr<flow::queue_node<Work>> ready;
  std::unique_ptr<flow::buffer_node<DeviceSlotMsg>> device_tokens;
  std::unique_ptr<BindJoin> bind;
  std::unique_ptr<H2dNode> h2d;
  std::unique_ptr<UnpinNode> unpin;
  std::unique_ptr<GpuNode> ntt;
  std::unique_ptr<GpuNode> msm;
  std::unique_ptr<GpuDoneNode> done;
  // baseline mode
  std::unique_ptr<WorkNode> baseline;
};

struct Flow {
  /// Builds the graph for core.backend and core.mode. Call inside core.arena (the graph attaches to the
  /// arena it is built in).
  explicit Flow(Core& core);

  /// Joins the jobs waiting for synthesis with the ramp's permits and puts its first permits out.
  void wire_synthesis();
  /// The synthesis node's body: the job's witness, then its permit back (perhaps with another, or none).
  void synthesize(Core& core, const Work& work, SynthesisNode::output_ports_type& ports);
  /// A synthesis finished while no job waited: permits idle in the buffer retire down to the ramp's floor.
  void retire_idle_permits();
  /// The supervisor's tick: one more permit when jobs wait while the syntheses running leave the host idle.
  void unstall_synthesis(SynthesisRamp::Clock::time_point now);

  flow::graph graph;  // first member: destroyed after every node
  SynthesisRamp synthesis_ramp;
  JobQueue jobs;
  TokenBuffer tokens;
  AdmitJoin admit_join;
  AdmitNode admit;
  flow::broadcast_node<flow::continue_msg> capacity;
  MintNode mint;
  flow::queue_node<Work> synthesis_wait;
  flow::buffer_node<SynthesisPermit> synthesis_permits;
  SynthesisJoin synthesis_join;
  SynthesisNode synthesis;
  std::unique_ptr<SizeRouteNode> cpu_size_route;
  std::unique_ptr<WorkNode> cpu_ntt, cpu_msm, cpu_small, cpu_baseline;
  std::unique_ptr<RouteNode> cpu_route;  ///< CUDA backend with Config::cpu_fallback: jobs routed to no GPU
  std::vector<std::unique_ptr<GpuNodes>> gpus;
  ReleaseNode release;
  flow::broadcast_node<ResultMsg> results;
  std::unique_ptr<Sequencer> sequencer;
  Sink sink;
};

/// Hands a prepared result to delivery (the sequencer or the sink) through `to`, the results node or the
/// release node's port. Whatever happens, the job's future is fulfilled: a put that throws or is refused
/// leaves the result to Core::deliver_directly on this thread (deliver_now delivers once, so a message the
/// graph took before its put threw does not come twice). More cannot be done: oneTBB's nodes allocate their
/// buffers and tasks with its own allocator, and an exception inside a node's aggregator leaves that node
/// unusable, so in order the results behind a failed sequencer wait.
template <class Port>
void put_result(Core& core, JobState& job, Port& to) noexcept {
  const std::shared_ptr<JobState> owner = job.shared_from_this();
  try {
    if (to.try_put(ResultMsg{job.seq, owner})) return;
    core.deliver_directly(owner, "the graph refused it");
  } catch (const std::exception& e) {
    core.deliver_directly(owner, e.what());
  } catch (...) {
    core.deliver_directly(owner, "an exception of unknown type");
  }
}

/// Admission's node body: pairs a job with a token and leases its buffers (graph/admit.cpp).
enum class Admit {
  proceed,  ///< the job holds its token and slot: on to synthesis
  requeue,  ///< no slot right now: the job goes back to the queue (its token parked, or back if it may not)
  drop,     ///< the job was withdrawn (cancelled or timed out in the queue): its token goes home
};
/// Tokens to put back into the token buffer are appended to `tokens`.
Admit admit(Core& core, JobState& job, Token token, std::vector<Token>& tokens);

}  // namespace proofline::graph::detail
