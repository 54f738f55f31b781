// The parts of the GPU interface that need no CUDA.
#include <proofline/devices/gpu_lane.hpp>

#include <proofline/groth16/proving_key.hpp>

namespace proofline::devices {

std::uint64_t device_key_bytes(const groth16::ProvingKey& pk) {
  return pk.a_query.size_bytes() + pk.b1_query.size_bytes() + pk.b2_query.size_bytes() +
         pk.h_query.size_bytes() + pk.l_query.size_bytes();
}

}  // namespace proofline::devices
