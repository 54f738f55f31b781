#include <proofline/devices/subgroup_tester.hpp>

#include <algorithm>

#include <proofline/cuda/device.hpp>
#include <proofline/cuda/gpu_key_check.hpp>

namespace proofline::devices {

namespace {

class GpuSubgroupTester final : public groth16::SubgroupTester {
 public:
  explicit GpuSubgroupTester(int device) : device_(device) {}

  std::optional<std::size_t> first_outside(std::span<const G1Affine> points) const override {
    return cuda::first_outside_subgroup(points, device_);
  }
  std::optional<std::size_t> first_outside(std::span<const G2Affine> points) const override {
    return cuda::first_outside_subgroup(points, device_);
  }
  std::optional<std::size_t> first_outside(std::span<const bn254::G1Affine> points) const override {
    return cuda::first_outside_subgroup(points, device_);
  }
  std::optional<std::size_t> first_outside(std::span<const bn254::G2Affine> points) const override {
    return cuda::first_outside_subgroup(points, device_);
  }

 private:
  int device_;
};

}  // namespace

std::shared_ptr<const groth16::SubgroupTester> gpu_subgroup_tester(int device) {
  const auto devices = cuda::list_devices();
  const bool usable = std::any_of(devices.begin(), devices.end(),
                                  [device](const cuda::DeviceInfo& d) { return d.index == device; });
  if (!usable) return nullptr;
  return std::make_shared<GpuSubgroupTester>(device);
}

}  // namespace proofline::devices
