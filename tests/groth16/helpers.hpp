// Shared by the groth16 tests: a temporary directory (tests/support's), file helpers, naive (quadratic,
// obviously correct) Lagrange and QAP evaluations that the fast setup is checked against, and small keys made
// once per process.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>

#include "support/field_vectors.hpp"
#include "support/temp_dir.hpp"

namespace proofline::groth16::test {

using test_support::TempDir;

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

/// L_i(τ) = Π_{k≠i} (τ − ω^k) / (ω^i − ω^k) over the points `x`: quadratic, straight from the definition.
inline std::vector<Fr> naive_lagrange(const std::vector<Fr>& x, const Fr& tau) {
  std::vector<Fr> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    Fr num = Fr::one(), den = Fr::one();
    for (std::size_t k = 0; k < x.size(); ++k) {
      if (k == i) continue;
      num *= tau - x[k];
      den *= x[i] - x[k];
    }
    out[i] = num * den.inverse();
  }
  return out;
}

/// The points g·ω^i, i < n.
inline std::vector<Fr> domain_points(const Fr& omega, std::uint64_t n, const Fr& g = Fr::one()) {
  std::vector<Fr> x(n);
  Fr point = g;
  for (auto& value : x) {
    value = point;
    point *= omega;
  }
  return x;
}

/// Σ_i M[i][j]·L_i for every column j, one entry at a time.
inline std::vector<Fr> naive_columns(const CsrMatrix& m, std::uint64_t num_variables,
                                     const std::vector<Fr>& lagrange) {
  std::vector<Fr> out(num_variables);
  for (std::uint64_t i = 0; i < m.rows(); ++i)
    for (std::uint64_t k = m.row_offsets[i]; k < m.row_offsets[i + 1]; ++k)
      out[m.columns[k]] += m.values[k] * lagrange[i];
  return out;
}

inline G1Affine g1_times(const Fr& s) {
  return G1Affine::generator().mul(s).to_affine();
}
inline G2Affine g2_times(const Fr& s) {
  return G2Affine::generator().mul(s).to_affine();
}

inline std::vector<Fr> random_scalars(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return test_support::random_scalars(rng, count);
}

/// A small synthetic circuit and its keys, made once per (log size, convention) and shared by the tests.
struct SmallFixture {
  SyntheticCircuit circuit;
  KeyPair keys;
};

inline const SmallFixture& small_fixture(unsigned log_size, HConvention convention,
                                         std::uint64_t num_public = 2) {
  static std::map<std::tuple<unsigned, int, std::uint64_t>, SmallFixture> cache;
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  const auto key = std::make_tuple(log_size, static_cast<int>(convention), num_public);
  auto it = cache.find(key);
  if (it == cache.end()) {
    SmallFixture fixture;
    fixture.circuit =
        make_synthetic_circuit({.log_size = log_size, .num_public = num_public, .seed = 11 + log_size});
    fixture.keys = setup_from_trapdoor(fixture.circuit.cs, trapdoor_from_seed(77),
                                       SetupOptions{.convention = convention});
    it = cache.emplace(key, std::move(fixture)).first;
  }
  return it->second;
}

}  // namespace proofline::groth16::test
