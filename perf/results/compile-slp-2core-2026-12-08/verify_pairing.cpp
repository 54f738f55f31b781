// Times the product of 4 pairings (a Groth16 verification's pairing check) on both curves, median of 200.
// Built twice: arith/pairing.cpp, fp12.cpp, pairing_bn254.cpp and this file with -O3 -DNDEBUG -std=c++20,
// with and without -fno-tree-slp-vectorize, linked against a release libproofline_arith.a for the rest.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <proofline/arith/curve_pairing.hpp>
#include <vector>
using namespace proofline;
template <class Curve>
double bench() {
  using P = CurvePairing<Curve>;
  auto g1 = Curve::G1Affine::generator();
  auto g2 = Curve::G2Affine::generator();
  typename P::PreparedG2 q = P::prepare(g2);
  std::vector<typename P::Pair> pairs(4, typename P::Pair{g1, std::cref(q)});
  std::vector<double> t;
  volatile bool sink = false;
  for (int i = 0; i < 200; ++i) {
    auto s = std::chrono::steady_clock::now();
    auto r = P::product(pairs);
    sink = sink ^ (r == r);
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
  }
  std::sort(t.begin(), t.end());
  return t[100];
}
int main() {
  std::printf("bls12-381 %.3f ms, bn254 %.3f ms\n", bench<Bls12_381>(), bench<Bn254>());
}
