// Without the CUDA backend: the GPU resource and stage functions exist so that one graph serves both
// builds, and refuse to run. The CPU backend never calls them (the pipeline resolves to it, or refuses
// Backend::cuda at construction with the same message).
#include <proofline/nodes/detail/stages.hpp>

#include <proofline/util/error.hpp>

namespace proofline::graph::detail {

namespace {
[[noreturn]] void no_cuda() {
  throw Error(Errc::cuda, "proofline was built without CUDA: the CUDA backend is not available");
}
}  // namespace

void GpuDeleter::operator()(GpuDevice* device) const noexcept {
  // No GpuDevice is ever made in this build.
  (void)device;
}

std::unique_ptr<GpuDevice, GpuDeleter> make_gpu_device(Core&, GpuLane&) {
  no_cuda();
}
std::vector<DeviceSlot*> allocate_device_slots(Core&, GpuLane&, unsigned, std::uint64_t, HConvention,
                                               std::uint64_t) {
  no_cuda();
}
void check_key_fits_device(const GpuLane&, const KeyState&) {
  no_cuda();
}
std::uint64_t device_key_bytes(const KeyState&) {
  no_cuda();
}
std::optional<memory::ResidentHandle> find_device_key(GpuLane&, const KeyState&) {
  no_cuda();
}
memory::ResidentHandle acquire_device_key(Core&, GpuLane&, const KeyState&,
                                          std::optional<std::chrono::milliseconds>) {
  no_cuda();
}
void evict_device_key(GpuLane&, const KeyState&) {}
std::uint64_t device_vram_available(const GpuLane&) {
  return 0;
}
void enable_srs_streaming(Core&, GpuLane&) {
  no_cuda();
}
bool srs_streaming(const GpuLane&) {
  return false;
}
GpuStats device_stats(const GpuLane& lane) {
  GpuStats stats;
  stats.device = lane.device;
  stats.name = lane.name;
  return stats;
}
void device_tick(Core&, GpuLane&) {}
void gpu_h2d(Core&, GpuLane&, Work, DeviceSlot*, Gateway&) {
  no_cuda();
}
void gpu_unpin(Core&, GpuLane&, JobState&, std::vector<Token>&) {
  no_cuda();
}
void gpu_ntt(Core&, GpuLane&, Work, Gateway&) {
  no_cuda();
}
void gpu_msm(Core&, GpuLane&, Work, Gateway&) {
  no_cuda();
}
DeviceSlot* gpu_done(Core&, GpuLane&, JobState&) {
  no_cuda();
}
void gpu_baseline(Core&, GpuLane&, JobState&) {
  no_cuda();
}

}  // namespace proofline::graph::detail
