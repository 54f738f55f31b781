// Without the CUDA backend: the GPU stage bodies exist so that one graph serves both builds, and refuse to
// run. The CPU backend never calls them (the pipeline resolves to it, or refuses Backend::cuda at
// construction with the same message).
#include <proofline/nodes/stages.hpp>

#include <proofline/util/error.hpp>

namespace proofline::nodes {

namespace {
[[noreturn]] void no_cuda() {
  throw Error(Errc::cuda, "proofline was built without CUDA: the CUDA backend is not available");
}
}  // namespace

void gpu_h2d(Context&, devices::GpuLane&, Work, devices::DeviceSlot*, Gateway&) {
  no_cuda();
}
void gpu_after_copy(Context&, devices::GpuLane&, JobState&) {
  no_cuda();
}
void gpu_ntt(Context&, devices::GpuLane&, Work, Gateway&) {
  no_cuda();
}
void gpu_msm(Context&, devices::GpuLane&, Work, Gateway&) {
  no_cuda();
}
devices::DeviceSlot* gpu_done(Context&, devices::GpuLane&, JobState&) {
  no_cuda();
}
void gpu_baseline(Context&, devices::GpuLane&, JobState&) {
  no_cuda();
}

}  // namespace proofline::nodes
