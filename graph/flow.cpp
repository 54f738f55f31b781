#include <proofline/graph/detail/flow.hpp>

#include <proofline/nodes/detail/stages.hpp>

namespace proofline::graph::detail {

namespace {

template <class Port>
void put_tokens(Port& port, const std::vector<Token>& tokens) {
  for (const Token token : tokens) port.try_put(token);
}

}  // namespace

GpuNodes::GpuNodes(flow::graph& graph, Core& core, GpuLane& lane)
    : route(
          graph, flow::unlimited,
          // Runs inline in synthesis's task (lightweight + noexcept): a filter, no CUDA, nothing to wait for.
          [index = lane.index](const Work& work, RouteNode::output_ports_type& ports) noexcept {
            if (work.job->gpu == index) std::get<0>(ports).try_put(work);
          }) {
  if (core.mode == Mode::baseline) {
    baseline = std::make_unique<WorkNode>(graph, flow::unlimited, [&core, &lane](Work work) {
      gpu_baseline(core, lane, *work.job);
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
  h2d = std::make_unique<H2dNode>(graph, flow::serial, [&core, &lane](const Bound& in, Gateway& gateway) {
    gpu_h2d(core, lane, std::get<0>(in), std::get<1>(in).slot, gateway);
  });
  unpin = std::make_unique<UnpinNode>(graph, flow::unlimited,
                                      [&core, &lane](const Work& work, UnpinNode::output_ports_type& ports) {
                                        std::vector<Token> tokens;
                                        gpu_unpin(core, lane, *work.job, tokens);
                                        put_tokens(std::get<0>(ports), tokens);
                                        std::get<1>(ports).try_put(work);
                                      });
  ntt = std::make_unique<GpuNode>(graph, flow::serial, [&core, &lane](const Work& work, Gateway& gateway) {
    gpu_ntt(core, lane, work, gateway);
  });
  msm = std::make_unique<GpuNode>(graph, flow::serial, [&core, &lane](const Work& work, Gateway& gateway) {
    gpu_msm(core, lane, work, gateway);
  });
  done = std::make_unique<GpuDoneNode>(
      graph, flow::unlimited, [&core, &lane](const Work& work, GpuDoneNode::output_ports_type& ports) {
        DeviceSlot* slot = gpu_done(core, lane, *work.job);
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

Flow::Flow(Core& core)
    : jobs(graph, JobOrder()),
      tokens(graph),
      admit_join(graph),
      admit(graph, flow::unlimited,
            [&core](const std::tuple<JobMsg, Token>& in, AdmitNode::output_ports_type& ports) {
              JobState& job = *std::get<0>(in).job;
              std::vector<Token> back;
              switch (detail::admit(core, job, std::get<1>(in), back)) {
                case Admit::proceed:
                  std::get<0>(ports).try_put(Work{&job});
                  break;
                case Admit::requeue:
                  std::get<2>(ports).try_put(std::get<0>(in));
                  break;
                case Admit::drop:
                  break;
              }
              put_tokens(std::get<1>(ports), back);
            }),
      synthesis(graph, core.synthesis_concurrency,
                [&core](Work work) {
                  synthesize(core, *work.job);
                  return work;
                }),
      release(graph, flow::unlimited, [&core](const Work& work, ReleaseNode::output_ports_type& ports) {
        std::vector<Token> back;
        detail::release(core, *work.job, back);
        put_tokens(std::get<0>(ports), back);
      }) {
  flow::make_edge(jobs, flow::input_port<0>(admit_join));
  flow::make_edge(tokens, flow::input_port<1>(admit_join));
  flow::make_edge(admit_join, admit);
  flow::make_edge(flow::output_port<0>(admit), synthesis);
  flow::make_edge(flow::output_port<1>(admit), tokens);
  flow::make_edge(flow::output_port<2>(admit), jobs);
  flow::make_edge(flow::output_port<0>(release), tokens);

  if (core.backend == Backend::cpu) {
    if (core.mode == Mode::pinned) {
      // One H and one MSM set at a time, each TBB-parallel inside, like one device: H of job i+1 overlaps
      // the MSMs of job i.
      cpu_ntt = std::make_unique<WorkNode>(graph, flow::serial, [&core](Work work) {
        detail::cpu_ntt(core, *work.job);
        return work;
      });
      cpu_msm = std::make_unique<WorkNode>(graph, flow::serial, [&core](Work work) {
        detail::cpu_msm(core, *work.job);
        return work;
      });
      flow::make_edge(synthesis, *cpu_ntt);
      flow::make_edge(*cpu_ntt, *cpu_msm);
      flow::make_edge(*cpu_msm, release);
    } else {
      cpu_baseline = std::make_unique<WorkNode>(graph, flow::unlimited, [&core](Work work) {
        detail::cpu_baseline(core, *work.job);
        return work;
      });
      flow::make_edge(synthesis, *cpu_baseline);
      flow::make_edge(*cpu_baseline, release);
    }
  } else {
    for (auto& lane : core.gpus) {
      auto nodes = std::make_unique<GpuNodes>(graph, core, *lane);
      flow::make_edge(synthesis, nodes->route);
      if (nodes->baseline) {
        flow::make_edge(*nodes->baseline, release);
      } else {
        flow::make_edge(flow::output_port<0>(*nodes->unpin), tokens);
        flow::make_edge(flow::output_port<1>(*nodes->done), release);
      }
      gpus.push_back(std::move(nodes));
    }
  }

  if (core.config.in_order) {
    sequencer = std::make_unique<Sequencer>(graph, [](const ResultMsg& m) -> std::size_t { return m.seq; });
    sink = std::make_unique<Sink>(graph, flow::serial, [&core](const ResultMsg& m) {
      core.deliver_now(m.job);
      return flow::continue_msg();
    });
    flow::make_edge(*sequencer, *sink);
  }
}

}  // namespace proofline::graph::detail
