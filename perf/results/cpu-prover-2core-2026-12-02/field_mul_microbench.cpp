// Standalone: the portable MontField product against the mulx twin (cpu/detail/mulx_field.hpp), CPU time
// of this thread per product, 4 independent chains (throughput) and one dependent chain (latency); checks
// 300,000 random products of each field against the portable one first. Build from the worktree root:
//   g++ -O3 -std=c++20 -I build-cpu/include perf/results/cpu-prover-2core-2026-12-02/field_mul_microbench.cpp
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <proofline/arith/bn254/fp.hpp>
#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/cpu/detail/mulx_field.hpp>
#include <random>
namespace proofline::cpu::detail {
bool cpu_has_mulx_adx() {
  return true;
}
}  // namespace proofline::cpu::detail
using namespace proofline;
static double cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}
template <class F>
void run(const char* name) {
  using M = cpu::detail::MulxField<F>;
  constexpr std::size_t N = F::N;
  std::mt19937_64 rng(42);
  auto rnd = [&] {
    typename F::Int v;
    for (auto& l : v.limb) l = rng();
    v.limb[N - 1] &= F::modulus.limb[N - 1];
    while (!(v < F::modulus)) v.limb[N - 1] >>= 1;
    return F::from_montgomery(v);
  };
  long bad = 0;
  for (int i = 0; i < 300000; ++i) {
    F a = rnd(), b = rnd();
    if ((M::from(a) * M::from(b)).base() != a * b) ++bad;
  }
  F x0 = rnd(), x1 = rnd(), x2 = rnd(), x3 = rnd(), y = rnd();
  double a0 = cpu_ns();
  for (int i = 0; i < 2500000; ++i) {
    x0 = x0 * y;
    x1 = x1 * y;
    x2 = x2 * y;
    x3 = x3 * y;
  }
  double a1 = cpu_ns();
  M m0 = M::from(x0), m1 = M::from(x1), m2 = M::from(x2), m3 = M::from(x3), my = M::from(y);
  for (int i = 0; i < 2500000; ++i) {
    m0 = m0 * my;
    m1 = m1 * my;
    m2 = m2 * my;
    m3 = m3 * my;
  }
  double a2 = cpu_ns();
  F z = x0;
  for (int i = 0; i < 10000000; ++i) z = z * y;
  double a3 = cpu_ns();
  M w = m0;
  for (int i = 0; i < 10000000; ++i) w = w * my;
  double a4 = cpu_ns();
  std::printf("%s bad=%ld throughput portable %.2f mulx %.2f | latency portable %.2f mulx %.2f (%d)\n", name,
              bad, (a1 - a0) / 1e7, (a2 - a1) / 1e7, (a3 - a2) / 1e7, (a4 - a3) / 1e7,
              (int)((m0.limb[0] ^ m1.limb[0] ^ m2.limb[0] ^ m3.limb[0] ^ x0.limb[0] ^ x1.limb[0] ^
                     x2.limb[0] ^ x3.limb[0] ^ z.limb[0] ^ w.limb[0]) &
                    1));
}
int main() {
  run<bn254::Fp>("bn254 Fp");
  run<bn254::Fr>("bn254 Fr");
  run<Fp>("bls Fp");
  run<Fr>("bls Fr");
}
