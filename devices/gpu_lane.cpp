// The parts of the GPU interface that need no CUDA.
#include <proofline/devices/gpu_lane.hpp>

#include <proofline/groth16/proving_key.hpp>

namespace proofline::devices {

std::uint64_t device_key_bytes(const AnyProvingKey& key) {
  return std::visit([](const auto* pk) { return pk->query_bytes(); }, key);
}

}  // namespace proofline::devices
