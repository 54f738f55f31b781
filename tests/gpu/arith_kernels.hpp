// Host entry points of the device-side arithmetic checks (kernels in arith_kernels.cu), so the doctest cases
// stay in plain C++.
#pragma once

#include <vector>

#include <proofline/arith/fp2.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline::gpu_test {

/// Results per input pair of the *_ops_on_device functions.
inline constexpr int kFieldOps = 5;

/// For each i, with j = (i + 1) mod n: out[5i..5i+4] = {a_i b_i, a_i + b_i, a_i - b_i, a_i^-1 b_i,
/// product_difference(a_i, b_i, b_j, a_j) (a_i b_i − b_j a_j)} computed on the device.
std::vector<Fr> fr_ops_on_device(const std::vector<Fr>& a, const std::vector<Fr>& b);
std::vector<Fp> fp_ops_on_device(const std::vector<Fp>& a, const std::vector<Fp>& b);
std::vector<Fp2> fp2_ops_on_device(const std::vector<Fp2>& a, const std::vector<Fp2>& b);

}  // namespace proofline::gpu_test
