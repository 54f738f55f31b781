// Which GPU a job is bound to, on lanes without CUDA resources (the choice reads only their counters): the
// least outstanding work, not the fewest jobs, so that a batch alternating job sizes spreads its large jobs;
// small jobs carry a fixed cost so that they do not all crowd onto one GPU; unhealthy or ineligible GPUs are
// passed over.
#include <doctest/doctest.h>

#include <proofline/graph/detail/gpu_choice.hpp>

#include <array>
#include <memory>
#include <vector>

using proofline::devices::GpuLane;
using namespace proofline::graph::detail;

namespace {

std::vector<std::unique_ptr<GpuLane>> lanes(int count) {
  std::vector<std::unique_ptr<GpuLane>> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(std::make_unique<GpuLane>());
    out.back()->index = i;
  }
  return out;
}

constexpr auto any = [](const GpuLane&) { return true; };

/// Binds a job of 2^log_rows rows to the least busy lane, as submission does; returns its index.
int submit(std::vector<std::unique_ptr<GpuLane>>& gpus, unsigned log_rows) {
  GpuLane* lane = least_busy(gpus, any);
  REQUIRE(lane != nullptr);
  bind_job(*lane, log_rows);
  return lane->index;
}

}  // namespace

TEST_CASE("pipeline/gpu choice/a batch alternating job sizes spreads its large jobs over the GPUs") {
  auto gpus = lanes(2);
  std::array<int, 2> large{}, small{};
  for (int i = 0; i < 16; ++i) {
    ++large[submit(gpus, 22)];
    ++small[submit(gpus, 12)];
  }
  // Counting jobs would put all 16 large ones on the first GPU and the small ones on the second.
  CHECK(large[0] == 8);
  CHECK(large[1] == 8);
  CHECK(small[0] + small[1] == 16);
  CHECK(gpus[0]->outstanding.load() + gpus[1]->outstanding.load() == 32);
}

TEST_CASE("pipeline/gpu choice/small jobs beside a large one share out by their fixed cost too") {
  auto gpus = lanes(2);
  bind_job(*gpus[0], 20);
  std::array<int, 2> placed{};
  for (int i = 0; i < 40; ++i) ++placed[submit(gpus, 8)];
  // 2^20 rows weigh as much as 16-17 jobs of 2^8 (each counted 2^16 + 2^8): the second GPU takes the first
  // 17, then they alternate. By rows alone the second GPU would take all 40.
  CHECK(placed[1] >= 16 + 11);
  CHECK(placed[0] >= 11);
  CHECK(job_work(20) < 17 * job_work(8));
  CHECK(job_work(20) > 16 * job_work(8));
}

TEST_CASE("pipeline/gpu choice/retired jobs give their work back") {
  auto gpus = lanes(2);
  bind_job(*gpus[0], 24);
  CHECK(least_busy(gpus, any) == gpus[1].get());
  bind_job(*gpus[1], 16);
  CHECK(least_busy(gpus, any) == gpus[1].get());
  unbind_job(*gpus[0], 24);
  CHECK(gpus[0]->outstanding_work.load() == 0);
  CHECK(gpus[0]->outstanding.load() == 0);
  CHECK(gpus[0]->jobs.load() == 1);  // jobs ever routed there stays
  CHECK(least_busy(gpus, any) == gpus[0].get());
}

TEST_CASE("pipeline/gpu choice/unhealthy and ineligible GPUs are passed over and ties go to the first") {
  auto gpus = lanes(3);
  CHECK(least_busy(gpus, any) == gpus[0].get());
  gpus[0]->healthy = false;
  CHECK(least_busy(gpus, any) == gpus[1].get());
  bind_job(*gpus[1], 10);
  CHECK(least_busy(gpus, any) == gpus[2].get());
  CHECK(least_busy(gpus, [](const GpuLane& l) { return l.index != 2; }) == gpus[1].get());
  CHECK(least_busy(gpus, [](const GpuLane& l) { return l.index == 0; }) == nullptr);
  gpus[1]->healthy = false;
  gpus[2]->healthy = false;
  CHECK(least_busy(gpus, any) == nullptr);
}
