// proofline_test_ptau: writes a snarkjs powers-of-tau file (.ptau, bls12381 or bn128) from a KNOWN trapdoor.
//
//   *** TESTS AND BENCHMARKS ONLY. τ, α and β come from trapdoor_from_seed(seed): anyone can recompute them
//   *** and forge proofs for every key made from this file.
//
//   proofline_test_ptau POWER OUT.ptau [--seed S] [--raw] [--curve bls12381|bn128]
//
// snarkjs's own route to a prepared file (powersoftau new, contribute, beacon, prepare phase2) takes minutes
// at power 13 and hours at 17; this takes seconds, so the interop tests and the
// snarkjs-vs-proofline benchmark can make keys of 2^16 constraints. The output is what `snarkjs powersoftau
// prepare phase2` writes for the same τ, α, β, byte for byte (tests/interop checks that by preparing the
// --raw file with snarkjs):
//
//   1 header: n8 (48 or 32: Fp's bytes) | q | power | ceremonyPower (= power)
//   2 tauG1: [τ^j]1, j < 2^(K+1) − 1     3 tauG2: [τ^j]2, j < 2^K     4 alphaTauG1: [ατ^j]1     5 betaTauG1
//   6 betaG2: [β]2                         7 contributions: none (u32 0)
//   (prepared only) 12: [L^(2^p)_i(τ)]1 for p = 0..K+1; 13: the same in G2, 14: ×α, 15: ×β, for p = 0..K
//
// L^(n)_i is the Lagrange basis of ffjavascript's size-n domain (its roots of unity, natural order);
// snarkjs computes it by an inverse FFT over the powers in section 2, which for p = K + 1 lacks τ^(2^(K+1) −
// 1) (it is zero-filled), so level K + 1 holds L_i(τ) − ω^i·τ^(n−1)/n; this writer reproduces that too.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/fixed_base.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/util/error.hpp>

namespace {

using namespace proofline;
using namespace proofline::groth16;

template <class Point>
std::vector<std::byte> points_payload(std::span<const Point> points) {
  std::vector<std::byte> out(points.size_bytes());
  std::memcpy(out.data(), points.data(),
              out.size());  // our affine layout is snarkjs's (Montgomery LE, 0 = ∞)
  return out;
}

/// The Lagrange basis at τ of the size-2^p domain, as snarkjs's prepare phase 2 evaluates it; `complete`
/// false drops the highest power of τ (the level past the ceremony's power).
template <class Curve, class Fr = typename Curve::Fr>
std::vector<Fr> lagrange_level(unsigned p, const Fr& tau, bool complete) {
  if (p == 0) return {Fr::one()};  // the inverse FFT of one point is the point
  const auto domain = Curve::Domain::make(p, HConvention::snarkjs);
  std::vector<Fr> out = lagrange_basis_at(domain, tau);
  if (!complete) {
    // L'_i = (1/n)·Σ_{j<n−1} ω^(−ij)·τ^j = L_i(τ) − (1/n)·ω^(−i(n−1))·τ^(n−1) = L_i(τ) − (1/n)·ω^i·τ^(n−1).
    const Fr last = tau.pow(domain.size() - 1) * domain.size_inv();
    Fr omega_i = Fr::one();
    for (Fr& value : out) {
      value -= omega_i * last;
      omega_i *= domain.omega();
    }
  }
  return out;
}

template <class Curve>
int write_ptau(unsigned power, const std::string& path, std::uint64_t seed, bool raw) {
  using Fr = typename Curve::Fr;
  using Fp = typename Curve::Fp;
  using G1Affine = typename Curve::G1Affine;
  using G2Affine = typename Curve::G2Affine;
  // Level power + 1 of the Lagrange bases needs a domain of 2^(power + 1).
  if (power < 1 || power + 1 > max_ntt_log_size) {
    std::fprintf(stderr, "proofline_test_ptau: power %u is outside 1..%u for %s\n", power,
                 max_ntt_log_size - 1, std::string(Curve::snarkjs_name).c_str());
    return 2;
  }
  const auto t = trapdoor_from_seed<Curve>(seed);
  const std::uint64_t n = std::uint64_t{1} << power;

  // Every G1 scalar back to back: tauG1 | alphaTauG1 | betaTauG1 | [12] | [14] | [15]; G2: tauG2 | beta |
  // [13].
  std::vector<Fr> g1, g2;
  std::vector<std::size_t> g1_cut{0}, g2_cut{0};
  Fr tau_j = Fr::one();
  std::vector<Fr> taus(2 * n - 1);
  for (Fr& value : taus) {
    value = tau_j;
    tau_j *= t.tau;
  }
  g1.insert(g1.end(), taus.begin(), taus.end());
  g1_cut.push_back(g1.size());
  for (std::uint64_t j = 0; j < n; ++j) g1.push_back(t.alpha * taus[j]);
  g1_cut.push_back(g1.size());
  for (std::uint64_t j = 0; j < n; ++j) g1.push_back(t.beta * taus[j]);
  g1_cut.push_back(g1.size());
  g2.insert(g2.end(), taus.begin(), taus.begin() + static_cast<std::ptrdiff_t>(n));
  g2_cut.push_back(g2.size());
  g2.push_back(t.beta);
  g2_cut.push_back(g2.size());
  if (!raw) {
    std::vector<Fr> alpha_lagrange, beta_lagrange;
    for (unsigned p = 0; p <= power + 1; ++p) {
      const std::vector<Fr> level = lagrange_level<Curve>(p, t.tau, p <= power);
      g1.insert(g1.end(), level.begin(), level.end());
      if (p > power) continue;
      g2.insert(g2.end(), level.begin(), level.end());
      for (const Fr& value : level) {
        alpha_lagrange.push_back(t.alpha * value);
        beta_lagrange.push_back(t.beta * value);
      }
    }
    g1_cut.push_back(g1.size());
    g1.insert(g1.end(), alpha_lagrange.begin(), alpha_lagrange.end());
    g1_cut.push_back(g1.size());
    g1.insert(g1.end(), beta_lagrange.begin(), beta_lagrange.end());
    g1_cut.push_back(g1.size());
    g2_cut.push_back(g2.size());
  }
  std::vector<G1Affine> g1_points(g1.size());
  std::vector<G2Affine> g2_points(g2.size());
  cpu_fixed_base_mul(G1Affine::generator(), g1, g1_points);
  cpu_fixed_base_mul(G2Affine::generator(), g2, g2_points);
  const auto g1_part = [&](std::size_t k) {
    return points_payload<G1Affine>(std::span(g1_points).subspan(g1_cut[k], g1_cut[k + 1] - g1_cut[k]));
  };
  const auto g2_part = [&](std::size_t k) {
    return points_payload<G2Affine>(std::span(g2_points).subspan(g2_cut[k], g2_cut[k + 1] - g2_cut[k]));
  };

  BinFileWriter writer("ptau", 1);
  std::vector<std::byte> header;
  constexpr std::size_t n8 = sizeof(Fp::modulus.limb);
  append_u32(header, n8);
  std::byte q[n8];
  for (std::size_t i = 0; i < n8; ++i)
    q[i] = static_cast<std::byte>(Fp::modulus.limb[i / 8] >> (8 * (i % 8)));
  append_bytes(header, q);
  append_u32(header, power);
  append_u32(header, power);
  writer.add_section(1, std::move(header));
  writer.add_section(2, g1_part(0));
  writer.add_section(3, g2_part(0));
  writer.add_section(4, g1_part(1));
  writer.add_section(5, g1_part(2));
  writer.add_section(6, g2_part(1));
  std::vector<std::byte> contributions;
  append_u32(contributions, 0);
  writer.add_section(7, std::move(contributions));
  if (!raw) {
    writer.add_section(12, g1_part(3));
    writer.add_section(13, g2_part(2));
    writer.add_section(14, g1_part(4));
    writer.add_section(15, g1_part(5));
  }
  writer.write(path);
  std::printf("proofline_test_ptau: wrote %s (%s, power %u, %s, KNOWN tau from seed %llu: tests only)\n",
              path.c_str(), std::string(Curve::snarkjs_name).c_str(), power, raw ? "raw" : "prepared",
              static_cast<unsigned long long>(seed));
  return 0;
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::uint64_t seed = 1;
  bool raw = false;
  CurveId curve = CurveId::bls12_381;
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--seed" && i + 1 < args.size()) {
      seed = std::stoull(args[++i]);
    } else if (args[i] == "--raw") {
      raw = true;
    } else if (args[i] == "--curve" && i + 1 < args.size() &&
               (args[i + 1] == "bn128" || args[i + 1] == "bls12381")) {
      curve = args[++i] == "bn128" ? CurveId::bn254 : CurveId::bls12_381;
    } else {
      positional.push_back(args[i]);
    }
  }
  if (positional.size() != 2) {
    std::fputs(
        "usage: proofline_test_ptau POWER OUT.ptau [--seed S] [--raw] [--curve bls12381|bn128]   (TESTS "
        "ONLY: "
        "known tau)\n",
        stderr);
    return 2;
  }
  const unsigned power = static_cast<unsigned>(std::stoul(positional[0]));
  return with_curve(curve, [&]<class Curve>() { return write_ptau<Curve>(power, positional[1], seed, raw); });
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "proofline_test_ptau: %s\n", e.what());
    return 1;
  }
}
