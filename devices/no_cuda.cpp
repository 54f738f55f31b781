// Without the CUDA backend: the GPU functions exist so that one pipeline serves both builds, and refuse to
// run. The CPU backend never calls them (the pipeline resolves to it, or refuses Backend::cuda at
// construction with the same message).
#include <proofline/devices/gpu_lane.hpp>

#include <proofline/util/error.hpp>

namespace proofline::devices {

namespace {
[[noreturn]] void no_cuda() {
  throw Error(Errc::cuda, "proofline was built without CUDA: the CUDA backend is not available");
}
}  // namespace

void GpuDeleter::operator()(GpuDevice* device) const noexcept {
  (void)device;  // no GpuDevice is ever made in this build
}

std::unique_ptr<GpuDevice, GpuDeleter> make_gpu_device(GpuLane&, const GpuOptions&, trace::Recorder&,
                                                       memory::PinnedPool&) {
  no_cuda();
}
std::vector<DeviceSlot*> allocate_device_slots(GpuLane&, unsigned, std::uint64_t, CurveId, HConvention,
                                               const GpuKey*) {
  no_cuda();
}
void prepare_curve(GpuLane&, CurveId, HConvention) {
  no_cuda();
}
void check_key_fits_device(const GpuLane&, const GpuKey&) {
  no_cuda();
}
std::optional<memory::ResidentHandle> find_device_key(GpuLane&, const GpuKey&) {
  no_cuda();
}
bool device_key_resident(const GpuLane&, const GpuKey&) {
  return false;
}
std::uint64_t device_key_vram_bytes(GpuLane&, const GpuKey&) {
  no_cuda();
}
memory::ResidentHandle acquire_device_key(GpuLane&, const GpuKey&, std::optional<std::chrono::milliseconds>,
                                          bool) {
  no_cuda();
}
bool evict_device_key(GpuLane&, const GpuKey&, std::chrono::steady_clock::time_point) {
  return true;
}
std::uint64_t device_vram_available(const GpuLane&) {
  return 0;
}
void enable_srs_streaming(GpuLane&) {
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
bool check_health(GpuLane& lane) {
  return lane.healthy.load();
}
void device_tick(GpuLane&) {}

}  // namespace proofline::devices
