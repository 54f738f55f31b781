// Known-trapdoor setup: the O(n) Lagrange basis and the striped accumulation against quadratic definitions,
// and every kind of key point against its meaning computed directly from the trapdoor, in both conventions.
#include <doctest/doctest.h>

#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <algorithm>

#include <proofline/groth16/setup.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;

TEST_CASE("groth16/setup/lagrange basis matches the product formula") {
  for (const auto convention : {HConvention::generator7, HConvention::snarkjs}) {
    for (unsigned log : {1u, 3u, 5u}) {
      const Domain domain = Domain::make(log, convention);
      const Fr tau = Fr::from_u64(987654321);
      const auto fast = lagrange_basis_at(domain, tau);
      const auto naive = test::naive_lagrange(test::domain_points(domain.omega(), domain.size()), tau);
      CHECK(fast == naive);
    }
  }
  // Across block boundaries: the basis sums to 1 and interpolates X at τ.
  const Domain big = Domain::make(13, HConvention::generator7);
  const Fr tau = Fr::from_u64(31337);
  const auto basis = lagrange_basis_at(big, tau);
  Fr sum = Fr::zero(), x = Fr::zero(), point = Fr::one();
  for (const auto& l : basis) {
    sum += l;
    x += l * point;
    point *= big.omega();
  }
  CHECK(sum == Fr::one());
  CHECK(x == tau);
  CHECK_THROWS_AS(lagrange_basis_at(big, big.omega()), Error);
}

TEST_CASE("groth16/setup/qap columns match a per-entry sum for any thread count") {
  const auto circuit = make_synthetic_circuit({.log_size = 11, .num_public = 2, .seed = 21});
  const Domain domain = Domain::make(11, HConvention::generator7);
  const auto basis = lagrange_basis_at(domain, Fr::from_u64(5555));
  QapColumns one, many;
  tbb::task_arena(1).execute([&] { one = qap_columns_at(circuit.cs, basis); });
  tbb::task_arena(std::max(2, tbb::info::default_concurrency())).execute([&] {
    many = qap_columns_at(circuit.cs, basis);
  });
  CHECK(one.u == many.u);
  CHECK(one.v == many.v);
  CHECK(one.w == many.w);
  CHECK(many.u == test::naive_columns(circuit.cs.a, circuit.cs.num_variables, basis));
  CHECK(many.v == test::naive_columns(circuit.cs.b, circuit.cs.num_variables, basis));
  CHECK(many.w == test::naive_columns(*circuit.cs.c, circuit.cs.num_variables, basis));
}

TEST_CASE("groth16/setup/every key point has the meaning documented in proving_key.hpp") {
  for (const auto convention : {HConvention::generator7, HConvention::snarkjs}) {
    CAPTURE(static_cast<int>(convention));
    const auto circuit = make_synthetic_circuit({.log_size = 4, .num_public = 2, .seed = 3});
    const Trapdoor t = trapdoor_from_seed(9, true);
    SetupTimings timings;
    const KeyPair keys =
        setup_from_trapdoor(circuit.cs, t, SetupOptions{.convention = convention, .timings = &timings});
    const ProvingKey& pk = keys.pk;
    CHECK_NOTHROW(validate(pk, Errc::internal, "pk", true));
    CHECK_NOTHROW(validate(keys.vk));
    CHECK(timings.total_s > 0);
    const std::uint64_t n = 16, m = circuit.cs.num_variables;
    REQUIRE(pk.domain_size() == n);
    REQUIRE(pk.convention == convention);

    // Independent expectations from the quadratic definitions.
    const Domain domain = Domain::make(4, convention);
    const auto basis = test::naive_lagrange(test::domain_points(domain.omega(), n), t.tau);
    const auto u = test::naive_columns(circuit.cs.a, m, basis);
    const auto v = test::naive_columns(circuit.cs.b, m, basis);
    const auto w = test::naive_columns(*circuit.cs.c, m, basis);
    const Fr gamma_inv = t.gamma.inverse(), delta_inv = t.delta.inverse();

    CHECK(pk.alpha1 == test::g1_times(t.alpha));
    CHECK(pk.beta1 == test::g1_times(t.beta));
    CHECK(pk.delta1 == test::g1_times(t.delta));
    CHECK(pk.beta2 == test::g2_times(t.beta));
    CHECK(pk.delta2 == test::g2_times(t.delta));
    CHECK(keys.vk.alpha1 == pk.alpha1);
    CHECK(keys.vk.beta2 == pk.beta2);
    CHECK(keys.vk.gamma2 == test::g2_times(t.gamma));
    CHECK(keys.vk.delta2 == pk.delta2);
    bool ok = true;
    for (std::uint64_t j = 0; j < m; ++j) {
      ok = ok && pk.a_query[j] == test::g1_times(u[j]);
      ok = ok && pk.b1_query[j] == test::g1_times(v[j]);
      ok = ok && pk.b2_query[j] == test::g2_times(v[j]);
      const Fr combined = t.beta * u[j] + t.alpha * v[j] + w[j];
      if (j <= circuit.cs.num_public) {
        ok = ok && keys.vk.ic[j] == test::g1_times(combined * gamma_inv);
      } else {
        ok = ok && pk.l_query[j - circuit.cs.num_public - 1] == test::g1_times(combined * delta_inv);
      }
    }
    CHECK(ok);
    const Fr z_tau = t.tau.pow(n) - Fr::one();
    if (convention == HConvention::generator7) {
      REQUIRE(pk.h_query.size() == n - 1);
      for (std::uint64_t i = 0; i < n - 1; ++i)
        ok = ok && pk.h_query[i] == test::g1_times(t.tau.pow(i) * z_tau * delta_inv);
    } else {
      // The Lagrange basis of the 2n-th roots at the odd points.
      REQUIRE(pk.h_query.size() == n);
      const Domain twice = Domain::make(5, convention);
      const auto basis2 = test::naive_lagrange(test::domain_points(twice.omega(), 2 * n), t.tau);
      for (std::uint64_t i = 0; i < n; ++i)
        ok = ok && pk.h_query[i] == test::g1_times(basis2[2 * i + 1] * delta_inv);
    }
    CHECK(ok);
  }
}

TEST_CASE("groth16/setup/fixed-base backend is pluggable") {
  const auto circuit = make_synthetic_circuit({.log_size = 5, .seed = 4});
  int g1_calls = 0, g2_calls = 0;
  SetupOptions options;
  options.fixed_base.g1 = [&](const G1Affine& base, std::span<const Fr> s, std::span<G1Affine> out) {
    ++g1_calls;
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = base.mul(s[i]).to_affine();
  };
  options.fixed_base.g2 = [&](const G2Affine& base, std::span<const Fr> s, std::span<G2Affine> out) {
    ++g2_calls;
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = base.mul(s[i]).to_affine();
  };
  const KeyPair plugged = setup_from_trapdoor(circuit.cs, trapdoor_from_seed(1), options);
  const KeyPair builtin = setup_from_trapdoor(circuit.cs, trapdoor_from_seed(1));
  CHECK(g1_calls == 1);
  CHECK(g2_calls == 1);
  CHECK(std::equal(plugged.pk.a_query.begin(), plugged.pk.a_query.end(), builtin.pk.a_query.begin()));
  CHECK(std::equal(plugged.pk.h_query.begin(), plugged.pk.h_query.end(), builtin.pk.h_query.begin()));
  CHECK(std::equal(plugged.pk.b2_query.begin(), plugged.pk.b2_query.end(), builtin.pk.b2_query.begin()));
  CHECK(plugged.vk == builtin.vk);
}

TEST_CASE("groth16/setup/rejects what it cannot key") {
  auto circuit = make_synthetic_circuit({.log_size = 4, .seed = 4});
  const Trapdoor t = trapdoor_from_seed(1);
  CHECK_THROWS_AS(setup_from_trapdoor(circuit.cs, t, SetupOptions{.log_domain_size = 3}), Error);
  Trapdoor zero_delta = t;
  zero_delta.delta = Fr::zero();
  CHECK_THROWS_AS(setup_from_trapdoor(circuit.cs, zero_delta), Error);
  Trapdoor tau_on_domain = t;
  tau_on_domain.tau = Domain::make(4, HConvention::snarkjs).shift();  // a 2n-th root: bad for snarkjs only
  CHECK_THROWS_AS(
      setup_from_trapdoor(circuit.cs, tau_on_domain, SetupOptions{.convention = HConvention::snarkjs}),
      Error);
  tau_on_domain.tau = Domain::make(4, HConvention::generator7).omega();
  CHECK_THROWS_AS(setup_from_trapdoor(circuit.cs, tau_on_domain), Error);
  circuit.cs.c.reset();
  CHECK_THROWS_AS(setup_from_trapdoor(circuit.cs, t), Error);
  CHECK(min_log_domain_size(1) == 1);
  CHECK(min_log_domain_size(1025) == 11);
  CHECK(min_log_domain_size(1024) == 10);
  // A larger domain than needed works too.
  const auto roomy = make_synthetic_circuit({.log_size = 4, .seed = 4});
  CHECK(setup_from_trapdoor(roomy.cs, t, SetupOptions{.log_domain_size = 6}).pk.h_query.size() == 63);
}

namespace {

template <class T>
bool same_points(const SharedArray<T>& x, const SharedArray<T>& y) {
  return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin());
}

bool same_keys(const KeyPair& x, const KeyPair& y) {
  const ProvingKey& p = x.pk;
  const ProvingKey& q = y.pk;
  return p.convention == q.convention && p.num_variables == q.num_variables && p.num_public == q.num_public &&
         p.log_domain_size == q.log_domain_size && p.alpha1 == q.alpha1 && p.beta1 == q.beta1 &&
         p.delta1 == q.delta1 && p.beta2 == q.beta2 && p.delta2 == q.delta2 &&
         same_points(p.a_query, q.a_query) && same_points(p.b1_query, q.b1_query) &&
         same_points(p.b2_query, q.b2_query) && same_points(p.h_query, q.h_query) &&
         same_points(p.l_query, q.l_query) && x.vk == y.vk;
}

}  // namespace

TEST_CASE("groth16/setup/keys are deterministic from the seed whatever the thread count") {
  // Same seed: the same trapdoor; another seed: every secret differs (γ too when it is random).
  const Trapdoor t = trapdoor_from_seed(42, true);
  const Trapdoor again = trapdoor_from_seed(42, true);
  const Trapdoor other = trapdoor_from_seed(43, true);
  CHECK(t.tau == again.tau);
  CHECK(t.alpha == again.alpha);
  CHECK(t.beta == again.beta);
  CHECK(t.gamma == again.gamma);
  CHECK(t.delta == again.delta);
  CHECK(t.tau != other.tau);
  CHECK(t.alpha != other.alpha);
  CHECK(t.beta != other.beta);
  CHECK(t.gamma != other.gamma);
  CHECK(t.delta != other.delta);
  CHECK(trapdoor_from_seed(42).gamma == Fr::one());
  CHECK(trapdoor_from_seed(42).tau == t.tau);

  // 2^11 rows: the fixed-base blocks (1024 scalars per batched inversion) and the accumulation stripes are
  // split differently over 1 and several threads; the keys must not notice.
  const auto circuit = make_synthetic_circuit({.log_size = 11, .num_public = 2, .seed = 8});
  for (const auto convention : {HConvention::generator7, HConvention::snarkjs}) {
    CAPTURE(static_cast<int>(convention));
    const SetupOptions options{.convention = convention};
    KeyPair serial, parallel;
    tbb::task_arena(1).execute(
        [&] { serial = setup_from_trapdoor(circuit.cs, trapdoor_from_seed(42), options); });
    tbb::task_arena(std::max(2, tbb::info::default_concurrency())).execute([&] {
      parallel = setup_from_trapdoor(circuit.cs, trapdoor_from_seed(42), options);
    });
    CHECK(same_keys(serial, parallel));
    const KeyPair reseeded = setup_from_trapdoor(circuit.cs, trapdoor_from_seed(43), options);
    CHECK_FALSE(reseeded.pk.delta1 == serial.pk.delta1);
    CHECK_FALSE(reseeded.pk.h_query[5] == serial.pk.h_query[5]);
    CHECK_FALSE(reseeded.vk == serial.vk);
  }
}
