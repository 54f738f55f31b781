// Device helpers of bench_gpu (bench_gpu_kernels.cu): input generation on the device and the Fr
// multiplication throughput probe that calibrates the integer-multiply model.
#pragma once

#include <cstddef>
#include <cstdint>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/fr.hpp>

struct CUstream_st;

namespace proofline::bench {

/// data[i] = pseudo-random Montgomery representations below 2^(b-1) < r for r of b bits (never all zero),
/// from `seed`.
void fill_random_fr(Fr* data, std::size_t n, std::uint64_t seed, CUstream_st* stream);
void fill_random_fr(bn254::Fr* data, std::size_t n, std::uint64_t seed, CUstream_st* stream);

/// Multiplications per second of the device Fr multiplication with enough independent chains per thread
/// to hide latency (SMs x 2048 threads, 4 chains each).
double fr_mul_per_second();

}  // namespace proofline::bench
