// Host entry points of the device-side arithmetic checks (kernels in arith_kernels.cu), so the doctest cases
// stay in plain C++.
#pragma once

#include <vector>

#include <proofline/arith/fp2.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline::gpu_test {

/// For each i: out[4i..4i+3] = {a*b, a+b, a-b, a^-1 * b} computed on the device.
std::vector<Fr> fr_ops_on_device(const std::vector<Fr>& a, const std::vector<Fr>& b);
std::vector<Fp> fp_ops_on_device(const std::vector<Fp>& a, const std::vector<Fp>& b);
std::vector<Fp2> fp2_ops_on_device(const std::vector<Fp2>& a, const std::vector<Fp2>& b);

}  // namespace proofline::gpu_test
