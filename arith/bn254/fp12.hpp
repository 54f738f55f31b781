// BN254's pairing tower: Fp6 = Fp2[v] / (v^3 - (9 + u)), Fp12 = Fp6[w] / (w^2 - v), the Fp6T / Fp12T
// templates of arith/fp6.hpp and arith/fp12.hpp over BN254's Fp2. The slot layout is BLS12-381's, which is
// also ffjavascript's bn128 layout. Host only.
#pragma once

#include <proofline/arith/bn254/fp2.hpp>
#include <proofline/arith/fp12.hpp>
#include <proofline/arith/fp6.hpp>

namespace proofline::bn254 {

using Fp6 = Fp6T<Fp2>;
using Fp12 = Fp12T<Fp2>;

}  // namespace proofline::bn254
