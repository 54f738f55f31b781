// The full key check's subgroup tests on a GPU: a groth16::SubgroupTester over cuda::first_outside_subgroup,
// which the programs hand to the key readers (KeyCheckOptions::tester) when they prove on the CUDA backend.
#pragma once

#include <memory>

#include <proofline/groth16/key_check.hpp>

namespace proofline::devices {

/// A tester that runs on CUDA device `device`, or null when that device is not usable (no GPU, or proofline
/// built without CUDA): the readers then check on the CPU.
std::shared_ptr<const groth16::SubgroupTester> gpu_subgroup_tester(int device = 0);

}  // namespace proofline::devices
