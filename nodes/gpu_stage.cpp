#include <proofline/nodes/gpu_stage.hpp>

#include <proofline/cuda/check.hpp>

namespace proofline::nodes {

namespace {

/// The completion handler of every GPU stage: hands the job back (try_put, then release_wait, never the
/// other way round, or the graph's wait_for_all could return in between), failing it first when the GPU
/// died and the handler runs from the health check instead of a host function.
void hand_back(devices::Completion& done, const char* why) noexcept {
  auto* gateway = static_cast<Gateway*>(done.target);
  auto* job = static_cast<JobState*>(done.message);
  // No body holds this job now (it waits for this completion): the error is ours to set.
  if (why != nullptr) fail(*job, static_cast<Stage>(done.tag), Errc::cuda, why);
  gateway->try_put(Work{job});
  gateway->release_wait();
}

}  // namespace

void launch_completion(devices::Completion& done, Stage stage, Gateway& gateway, Work work,
                       cudaStream_t stream) {
  done.handler = hand_back;
  done.target = &gateway;
  done.message = work.job;
  done.tag = static_cast<std::uint8_t>(stage);
  done.armed.store(true, std::memory_order_release);
  gateway.reserve_wait();  // before the launch: the host function may run at once
  const cudaError_t status = cudaLaunchHostFunc(stream, devices::run_completion, &done);
  if (status != cudaSuccess) {
    done.armed.store(false, std::memory_order_release);
    gateway.release_wait();
    proofline::detail::throw_cuda_error(status, "cudaLaunchHostFunc", __FILE__, __LINE__);
  }
}

}  // namespace proofline::nodes
