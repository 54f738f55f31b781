#include <proofline/graph/detail/flow.hpp>

#include <algorithm>
#include <thread>

#include <proofline/nodes/stages.hpp>
#include <proofline/util/logging.hpp>

namespace proofline::graph::detail {

namespace {

template <class Port>
void put_tokens(Port& port, const std::vector<Token>& tokens) {
  for (const Token token : tokens) port.try_put(token);
}

/// The end of a job's way through the graph: its token home, its result out, its record retired.
void release_job(Core& core, JobState& job, ReleaseNode::output_ports_type& ports) {
  nodes::finish(*core.ctx, job);
  std::vector<Token> back;
  bool requeue = false;
  try {
    requeue = requeue_after_gpu_loss(core, job);
  } catch (const std::exception& e) {  // out of memory before the job was queued again: its failure stands
    PL_LOG_ERROR("job {}: proving it again after its GPU failed was not possible: {}", job.id, e.what());
  }
  if (requeue) {
    core.return_token(job, back);
    put_tokens(std::get<0>(ports), back);
    std::get<2>(ports).try_put(JobMsg::of(job));
    return;
  }
  // Neither throws: whatever memory is left, the token comes home (or is minted anew) and the result is out.
  core.return_token(job, back);
  if (core.prepare_result(job)) put_result(core, job, std::get<1>(ports));
  core.retire(job);
  put_tokens(std::get<0>(ports), back);
}

}  // namespace

GpuNodes::GpuNodes(flow::graph& graph, Core& core, devices::GpuLane& lane)
    : route(
          graph, flow::unlimited,
          // Runs inline in synthesis's task (lightweight + noexcept): a filter, no CUDA, nothing to wait for.
          [index = lane.index](const Work& work, RouteNode::output_ports_type& ports) noexcept {
            if (work.job->gpu == index) std::get<0>(ports).try_put(work);
          }) {
  nodes::Context& ctx = *core.ctx;
  if (core.mode == Mode::baseline) {
    baseline = std::make_unique<WorkNode>(graph, flow::unlimited, [&ctx, &lane](Work work) {
      nodes::gpu_baseline(ctx, lane, *work.job);
      return work;
    });
    flow::make_edge(flow::output_port<0>(route), *baseline);
    return;
  }
  ready = std::make_unique<flow::queue_node<Work>>(graph);
  device_tokens = std::make_unique<flow::buffer_node<DeviceSlotMsg>>(graph);
  bind = std::make_unique<BindJoin>(graph);
  // One submission at a time per stream keeps each job's commands together in stream order; the bodies only
  // enqueue, so this bounds nothing but the enqueueing itself.
  h2d = std::make_unique<H2dNode>(graph, flow::serial, [&ctx, &lane](const Bound& in, Gateway& gateway) {
    nodes::gpu_h2d(ctx, lane, std::get<0>(in), std::get<1>(in).slot, gateway);
  });
  unpin = std::make_unique<UnpinNode>(graph, flow::unlimited,
                                      [&core, &lane](const Work& work, UnpinNode::output_ports_type& ports) {
                                        nodes::gpu_after_copy(*core.ctx, lane, *work.job);
                                        std::vector<Token> back;
                                        core.return_token(*work.job, back);
                                        put_tokens(std::get<0>(ports), back);
                                        std::get<1>(ports).try_put(work);
                                      });
  ntt = std::make_unique<GpuNode>(graph, flow::serial, [&ctx, &lane](const Work& work, Gateway& gateway) {
    nodes::gpu_ntt(ctx, lane, work, gateway);
  });
  msm = std::make_unique<GpuNode>(graph, flow::serial, [&ctx, &lane](const Work& work, Gateway& gateway) {
    nodes::gpu_msm(ctx, lane, work, gateway);
  });
  done = std::make_unique<GpuDoneNode>(
      graph, flow::unlimited, [&ctx, &lane](const Work& work, GpuDoneNode::output_ports_type& ports) {
        devices::DeviceSlot* slot = nodes::gpu_done(ctx, lane, *work.job);
        if (slot != nullptr) std::get<0>(ports).try_put(DeviceSlotMsg{slot});
        std::get<1>(ports).try_put(work);
      });
  flow::make_edge(flow::output_port<0>(route), *ready);
  flow::make_edge(*ready, flow::input_port<0>(*bind));
  flow::make_edge(*device_tokens, flow::input_port<1>(*bind));
  flow::make_edge(*bind, *h2d);
  flow::make_edge(*h2d, *unpin);
  flow::make_edge(flow::output_port<1>(*unpin), *ntt);
  flow::make_edge(*ntt, *msm);
  flow::make_edge(*msm, *done);
  flow::make_edge(flow::output_port<0>(*done), *device_tokens);
}

namespace {

/// Jobs of at most 2^kCpuSmallJobLogRows rows are computed side by side on the CPU backend: alone, their
/// MSMs are too small to keep many threads busy; their bucket sets are small enough (windows of at most 13
/// bits: about a MiB a thread in G1, two in G2) for several at once, and the tokens bound how many are in
/// flight (perf/results/cpu-small-jobs-2core-2026-12-04).
constexpr unsigned kCpuSmallJobLogRows = 16;

/// The CPU backend's compute stages. Larger jobs: one H and one MSM set at a time, each TBB-parallel
/// inside, like one device (H of job i+1 overlaps the MSMs of job i); small jobs: H and MSMs of several at
/// once. In baseline mode, both under one mutex. They take jobs from `source`: synthesis, or the CUDA
/// backend's route for jobs with no GPU.
template <class Source>
void wire_cpu(Flow& f, nodes::Context& ctx, Mode mode, Source& source) {
  if (mode == Mode::pinned) {
    f.cpu_size_route = std::make_unique<SizeRouteNode>(
        f.graph, flow::unlimited, [](const Work& work, SizeRouteNode::output_ports_type& ports) noexcept {
          if (work.job->key->log_domain_size <= kCpuSmallJobLogRows)
            std::get<1>(ports).try_put(work);
          else
            std::get<0>(ports).try_put(work);
        });
    f.cpu_ntt = std::make_unique<WorkNode>(f.graph, flow::serial, [&ctx](Work work) {
      nodes::cpu_ntt(ctx, *work.job);
      return work;
    });
    f.cpu_msm = std::make_unique<WorkNode>(f.graph, flow::serial, [&ctx](Work work) {
      nodes::cpu_msm(ctx, *work.job);
      return work;
    });
    f.cpu_small = std::make_unique<WorkNode>(f.graph, flow::unlimited, [&ctx](Work work) {
      nodes::cpu_ntt(ctx, *work.job);
      nodes::cpu_msm(ctx, *work.job);
      return work;
    });
    flow::make_edge(source, *f.cpu_size_route);
    flow::make_edge(flow::output_port<0>(*f.cpu_size_route), *f.cpu_ntt);
    flow::make_edge(*f.cpu_ntt, *f.cpu_msm);
    flow::make_edge(*f.cpu_msm, f.release);
    flow::make_edge(flow::output_port<1>(*f.cpu_size_route), *f.cpu_small);
    flow::make_edge(*f.cpu_small, f.release);
    return;
  }
  f.cpu_baseline = std::make_unique<WorkNode>(f.graph, flow::unlimited, [&ctx](Work work) {
    nodes::cpu_baseline(ctx, *work.job);
    return work;
  });
  flow::make_edge(source, *f.cpu_baseline);
  flow::make_edge(*f.cpu_baseline, f.release);
}

void wire_gpus(Flow& f, Core& core) {
  for (auto& lane : core.gpus()) {
    auto nodes = std::make_unique<GpuNodes>(f.graph, core, *lane);
    flow::make_edge(flow::output_port<0>(f.synthesis), nodes->route);
    if (nodes->baseline) {
      flow::make_edge(*nodes->baseline, f.release);
    } else {
      flow::make_edge(flow::output_port<0>(*nodes->unpin), f.tokens);
      flow::make_edge(flow::output_port<1>(*nodes->done), f.release);
    }
    f.gpus.push_back(std::move(nodes));
  }
  if (core.config.cpu_fallback) {
    f.cpu_route = std::make_unique<RouteNode>(
        f.graph, flow::unlimited, [](const Work& work, RouteNode::output_ports_type& ports) noexcept {
          if (work.job->gpu < 0) std::get<0>(ports).try_put(work);
        });
    flow::make_edge(flow::output_port<0>(f.synthesis), *f.cpu_route);
    wire_cpu(f, *core.ctx, core.mode, flow::output_port<0>(*f.cpu_route));
  }
}

}  // namespace

Flow::Flow(Core& core)
    // A first job per compute consumer, each synthesized with every thread.
    : synthesis_ramp(core.backend == Backend::cuda ? core.gpus().size() : 1, core.synthesis_concurrency,
                     std::min<std::size_t>(core.threads, std::max(1u, std::thread::hardware_concurrency()))),
      jobs(graph, nodes::JobOrder()),
      tokens(graph),
      admit_join(graph),
      // Serial, so jobs reach synthesis in the join's priority and submission order (in parallel, a burst
      // went in whatever order its tasks ran); the body never waits.
      admit(graph, flow::serial,
            [this, &core](const std::tuple<JobMsg, Token>& in, AdmitNode::output_ports_type& ports) {
              std::vector<Token> back;
              synthesis_ramp.arrive();
              switch (detail::admit(core, *std::get<0>(in).job, std::get<1>(in), back)) {
                case Admit::proceed:
                  std::get<0>(ports).try_put(Work{std::get<0>(in).job});
                  break;
                case Admit::requeue:
                  synthesis_ramp.leave();
                  std::get<2>(ports).try_put(std::get<0>(in));
                  break;
                case Admit::drop:
                  synthesis_ramp.leave();
                  break;
              }
              put_tokens(std::get<1>(ports), back);
            }),
      capacity(graph),
      // Serial: one minting at a time; the flag lets the next event schedule another run.
      mint(graph, flow::serial,
           [&core](flow::continue_msg, MintNode::output_ports_type& ports) {
             core.mint_pending.store(false, std::memory_order_release);
             put_tokens(std::get<0>(ports), core.admission.on_capacity());
           }),
      synthesis_wait(graph),
      synthesis_permits(graph),
      synthesis_join(graph),
      synthesis(graph, core.synthesis_concurrency,
                [this, &core](const std::tuple<Work, SynthesisPermit>& in,
                              SynthesisNode::output_ports_type& ports) {
                  synthesize(core, std::get<0>(in), ports);
                }),
      release(graph, flow::unlimited,
              [&core](const Work& work, ReleaseNode::output_ports_type& ports) {
                release_job(core, *work.job, ports);
              }),
      results(graph),
      // In order: one delivery at a time, as the sequencer releases them.
      sink(graph, core.config.in_order ? flow::serial : flow::unlimited, [&core](const ResultMsg& m) {
        core.deliver_now(m.job);
        return flow::continue_msg();
      }) {
  flow::make_edge(jobs, flow::input_port<0>(admit_join));
  flow::make_edge(tokens, flow::input_port<1>(admit_join));
  flow::make_edge(admit_join, admit);
  flow::make_edge(flow::output_port<0>(admit), synthesis_wait);
  wire_synthesis();
  flow::make_edge(flow::output_port<1>(admit), tokens);
  flow::make_edge(flow::output_port<2>(admit), jobs);
  flow::make_edge(capacity, mint);
  flow::make_edge(flow::output_port<0>(mint), tokens);
  flow::make_edge(flow::output_port<0>(release), tokens);
  flow::make_edge(flow::output_port<1>(release), results);
  flow::make_edge(flow::output_port<2>(release), jobs);

  if (core.backend == Backend::cpu) {
    wire_cpu(*this, *core.ctx, core.mode, flow::output_port<0>(synthesis));
  } else {
    wire_gpus(*this, core);
  }

  if (core.config.in_order) {
    // The sink delivers one result at a time, in submission order.
    sequencer = std::make_unique<Sequencer>(graph, [](const ResultMsg& m) -> std::size_t { return m.seq; });
    flow::make_edge(results, *sequencer);
    flow::make_edge(*sequencer, sink);
  } else {
    flow::make_edge(results, sink);
  }
}

void Flow::wire_synthesis() {
  flow::make_edge(synthesis_wait, flow::input_port<0>(synthesis_join));
  flow::make_edge(synthesis_permits, flow::input_port<1>(synthesis_join));
  flow::make_edge(synthesis_join, synthesis);
  flow::make_edge(flow::output_port<1>(synthesis), synthesis_permits);
  for (std::size_t n = synthesis_ramp.floor(); n > 0; --n) synthesis_permits.try_put(SynthesisPermit{});
}

void Flow::synthesize(Core& core, const Work& work, SynthesisNode::output_ports_type& ports) {
  synthesis_ramp.start();
  // Does not throw: a failure marks the job (Context::guarded), and its permit comes back.
  nodes::synthesize(*core.ctx, *work.job);
  // A timeout or cancel that came while its witness callback ran: its result goes out now.
  std::optional<nodes::JobError> deferred;
  {
    std::lock_guard lock(work.job->callback_run.mutex);
    deferred = std::exchange(work.job->callback_run.deferred, std::nullopt);
  }
  if (deferred) core.deliver_early(*work.job, std::move(*deferred));
  // Permits first, so the next job's synthesis is under way before this one moves on.
  const std::size_t back = synthesis_ramp.finish();
  for (std::size_t n = back; n > 0; --n) std::get<1>(ports).try_put(SynthesisPermit{});
  if (back == 0) retire_idle_permits();
  std::get<0>(ports).try_put(work);
}

void Flow::unstall_synthesis(SynthesisRamp::Clock::time_point now) {
  // The process's CPU clock sums its threads' times: read only when it can matter.
  if (synthesis_ramp.jobs_wait() && synthesis_ramp.grow_on_tick(now, process_cpu_time()))
    synthesis_permits.try_put(SynthesisPermit{});
}

void Flow::retire_idle_permits() {
  SynthesisPermit permit;
  while (synthesis_permits.try_get(permit)) {
    if (!synthesis_ramp.retire_idle()) {
      synthesis_permits.try_put(permit);
      return;
    }
  }
}

}  // namespace proofline::graph::detail
