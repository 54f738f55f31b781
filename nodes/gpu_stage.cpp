#include <proofline/nodes/gpu_stage.hpp>

#include <proofline/cuda/check.hpp>

#include <cstring>

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

void enqueue_job_h(devices::GpuDevice& g, JobState& job, devices::DeviceSlot& slot, cudaStream_t stream) {
  visit_curve(job, [&]<class Curve>(const CurveKey<Curve>& key, CurveWork<Curve>&) {
    using F = typename Curve::Fr;
    if (job.evaluate_on_gpu)
      devices::enqueue_job_evaluation<Curve>(job.gpu_key, slot, key.domain->size(), job.witness_checked);
    g.engines<Curve>().ntt->enqueue_h(devices::scalars_of<F>(slot.a), devices::scalars_of<F>(slot.b),
                                      devices::scalars_of<F>(slot.c), *key.domain, stream);
  });
}

void enqueue_job_msms(devices::GpuDevice& g, JobState& job, devices::DeviceSlot& slot) {
  visit_curve(job, [&]<class Curve>(const CurveKey<Curve>& key, CurveWork<Curve>&) {
    devices::enqueue_job_msms(g, *key.pk, key.host_srs.get(), job.gpu_key, slot);
    // Only what this job wrote: the buffer is sized for the larger curve's results, and the bad-row word is
    // set only where the GPU checked the rows (copying the rest would read memory no kernel initialised).
    PL_CUDA_CHECK(cudaMemcpyAsync(slot.host_results.data(), slot.results.data(),
                                  sizeof(devices::MsmResultsDevice<Curve>), cudaMemcpyDeviceToHost,
                                  slot.compute));
    if (job.evaluate_on_gpu && job.witness_checked)
      PL_CUDA_CHECK(cudaMemcpyAsync(slot.host_results.data() + devices::kMsmResultsBytes,
                                    slot.first_bad_row(), sizeof(std::uint64_t), cudaMemcpyDeviceToHost,
                                    slot.compute));
  });
}

void take_msm_results(JobState& job, const devices::DeviceSlot& slot) {
  if (job.evaluate_on_gpu && job.witness_checked) {
    std::uint64_t row = 0;
    std::memcpy(&row, slot.host_results.data() + devices::kMsmResultsBytes, sizeof row);
    if (row != cuda::kNoBadRow) throw Error(Errc::bad_input, unsatisfied_row_message(row, job.key->name));
  }
  visit_curve(job, [&]<class Curve>(const CurveKey<Curve>&, CurveWork<Curve>& work) {
    devices::MsmResultsDevice<Curve> r;
    std::memcpy(&r, slot.host_results.data(), sizeof r);
    work.msm = groth16::BasicMsmResults<Curve>{r.a, r.b1, r.b2, r.l, r.h};
  });
}

}  // namespace proofline::nodes
