// BN254's Fp2 = Fp[u] / (u^2 + 1) with the tower non-residue xi = 9 + u: coordinates of G2 points. The
// Fp2T template of arith/fp2.hpp (host and device), over BN254's Fp.
#pragma once

#include <proofline/arith/bn254/fp.hpp>
#include <proofline/arith/fp2.hpp>

namespace proofline::bn254 {

struct Fp2Config {
  using Base = Fp;
  static constexpr unsigned xi_real = 9;  ///< xi = 9 + u builds Fp6 and Fp12 and the twist
};

using Fp2 = Fp2T<Fp2Config>;
static_assert(sizeof(Fp2) == 64);

}  // namespace proofline::bn254
