// Number-theoretic transforms over Fr (either curve's: each function has an overload per curve) on the CPU,
// TBB-parallel and in place. They are the CPU backend's NTTs and the bit-exact reference for the GPU kernels.
//
// Semantics, for a Domain of size n with root ω and coset shift g (domain.hpp):
//   forward:        out[i] = Σ_j in[j]·ω^(ij)           (coefficients -> evaluations at ω^i)
//   coset forward:  out[i] = Σ_j in[j]·(g·ω^i)^j        (evaluations at g·ω^i)
//   inverse, coset inverse: the exact inverses of the two above (1/n included).
// The NttOrder names the element order of the input and of the output: in bit-reversed order, position i
// holds index bitrev(i) (log2 n bits), for coefficients and evaluations alike.
//
// Twiddle tables are built on first use per field and convention and cached (thread-safe); they take 16·n
// bytes per direction for the largest n used so far, and serve every smaller size of that convention.
#pragma once

#include <span>

#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline::cpu {

// Every function below throws Error(invalid_argument) when values.size() != domain.size().

void forward_ntt(std::span<Fr> values, const Domain& domain, NttOrder order = NttOrder::NN);
void inverse_ntt(std::span<Fr> values, const Domain& domain, NttOrder order = NttOrder::NN);
void coset_forward_ntt(std::span<Fr> values, const Domain& domain, NttOrder order = NttOrder::NN);
void coset_inverse_ntt(std::span<Fr> values, const Domain& domain, NttOrder order = NttOrder::NN);
void forward_ntt(std::span<bn254::Fr> values, const bn254::Domain& domain, NttOrder order = NttOrder::NN);
void inverse_ntt(std::span<bn254::Fr> values, const bn254::Domain& domain, NttOrder order = NttOrder::NN);
void coset_forward_ntt(std::span<bn254::Fr> values, const bn254::Domain& domain,
                       NttOrder order = NttOrder::NN);
void coset_inverse_ntt(std::span<bn254::Fr> values, const bn254::Domain& domain,
                       NttOrder order = NttOrder::NN);

/// The four above through one entry point.
void ntt(std::span<Fr> values, const Domain& domain, NttDirection direction, NttOrder order, bool coset);
void ntt(std::span<bn254::Fr> values, const bn254::Domain& domain, NttDirection direction, NttOrder order,
         bool coset);

/// values[i] <-> values[bitrev(i)] for a power-of-two size (throws Error(invalid_argument) otherwise);
/// blocked so both sides of every swap are read in cache-line runs.
void bit_reverse_permutation(std::span<Fr> values);
void bit_reverse_permutation(std::span<bn254::Fr> values);

/// Drops the cached twiddle tables (rebuilt on the next transform). Safe at any time: a transform in
/// flight keeps the tables it holds alive until it returns.
void release_ntt_twiddles();

}  // namespace proofline::cpu
