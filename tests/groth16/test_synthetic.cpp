// Synthetic circuits: the witness satisfies the system, the mix and density are as asked, the output is the
// same for any thread count, other witness seeds give other valid witnesses, and the domain keeps room for
// the input rows.
#include <doctest/doctest.h>

#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <proofline/groth16/synthetic.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;

namespace {

template <class T>
bool same_bytes(const SharedArray<T>& x, const SharedArray<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size_bytes()) == 0;
}

bool same_matrix(const CsrMatrix& x, const CsrMatrix& y) {
  return same_bytes(x.row_offsets, y.row_offsets) && same_bytes(x.columns, y.columns) &&
         same_bytes(x.values, y.values);
}

struct MixCount {
  double zeros = 0, ones = 0, full = 0;
};

MixCount private_mix(const SyntheticCircuit& circuit) {
  MixCount count;
  const std::uint64_t first = circuit.cs.num_public + 1;
  for (std::uint64_t j = first; j < circuit.witness.size(); ++j) {
    if (circuit.witness[j].is_zero()) {
      count.zeros += 1;
    } else if (circuit.witness[j].is_one()) {
      count.ones += 1;
    } else {
      count.full += 1;
    }
  }
  const double total = static_cast<double>(circuit.witness.size() - first);
  return {count.zeros / total, count.ones / total, count.full / total};
}

}  // namespace

TEST_CASE("groth16/synthetic/witness satisfies its system at several sizes") {
  for (unsigned log : {10u, 12u, 14u}) {
    CAPTURE(log);
    const auto circuit = make_synthetic_circuit({.log_size = log, .num_public = 3, .seed = log});
    CHECK_NOTHROW(validate(circuit.cs));
    CHECK(circuit.cs.num_constraints() == (std::uint64_t{1} << log));  // constraints + input rows fill n
    CHECK(circuit.cs.num_variables == synthetic_constraints(circuit.options) + 4);
    CHECK(circuit.witness[0] == Fr::one());
    CHECK(first_unsatisfied_row(circuit.cs, circuit.witness) == std::nullopt);
  }
}

TEST_CASE("groth16/synthetic/mix and density are as specified") {
  const auto circuit = make_synthetic_circuit({.log_size = 14, .seed = 3});
  const MixCount mix = private_mix(circuit);
  const double per_row =
      static_cast<double>(circuit.cs.nonzeros()) / static_cast<double>(circuit.cs.num_constraints());
  MESSAGE("mix zeros " << mix.zeros << " ones " << mix.ones << " full " << mix.full << ", " << per_row
                       << " nonzeros/row");
  CHECK(std::abs(mix.zeros - 0.20) < 0.02);
  CHECK(std::abs(mix.ones - 0.50) < 0.02);
  CHECK(std::abs(mix.full - 0.30) < 0.02);
  CHECK(per_row > 2.9);
  CHECK(per_row < 3.2);

  SyntheticOptions custom{.log_size = 13, .seed = 4};
  custom.mix = {.zeros = 0.05, .ones = 0.15};
  const auto other = make_synthetic_circuit(custom);
  const MixCount mix2 = private_mix(other);
  CHECK(std::abs(mix2.zeros - 0.05) < 0.02);
  CHECK(std::abs(mix2.ones - 0.15) < 0.02);
  CHECK(std::abs(mix2.full - 0.80) < 0.02);
  CHECK(is_satisfied(other.cs, other.witness));

  SyntheticOptions all_bits{.log_size = 11, .seed = 5};
  all_bits.mix = {.zeros = 0.5, .ones = 0.5};
  const auto bits = make_synthetic_circuit(all_bits);
  CHECK(private_mix(bits).full == 0.0);
  CHECK(is_satisfied(bits.cs, bits.witness));
}

TEST_CASE("groth16/synthetic/output does not depend on the thread count") {
  const SyntheticOptions options{.log_size = 15, .num_public = 2, .seed = 99, .witness_seed = 7};
  SyntheticCircuit one_thread, many_threads;
  tbb::task_arena(1).execute([&] { one_thread = make_synthetic_circuit(options); });
  tbb::task_arena(std::max(2, tbb::info::default_concurrency())).execute([&] {
    many_threads = make_synthetic_circuit(options);
  });
  CHECK(same_matrix(one_thread.cs.a, many_threads.cs.a));
  CHECK(same_matrix(one_thread.cs.b, many_threads.cs.b));
  CHECK(same_matrix(*one_thread.cs.c, *many_threads.cs.c));
  CHECK(one_thread.witness == many_threads.witness);
  // A different seed gives a different system.
  const auto other =
      make_synthetic_circuit({.log_size = 15, .num_public = 2, .seed = 100, .witness_seed = 7});
  CHECK_FALSE(same_matrix(one_thread.cs.a, other.cs.a));
}

TEST_CASE("groth16/synthetic/other witness seeds give other valid witnesses") {
  const SyntheticOptions options{.log_size = 12, .num_public = 2, .seed = 8, .witness_seed = 1};
  const auto circuit = make_synthetic_circuit(options);
  const auto second = synthetic_witness(circuit.cs, options, 2);
  CHECK(is_satisfied(circuit.cs, second));
  CHECK(second != circuit.witness);
  CHECK(second[1] != circuit.witness[1]);  // the public inputs change too
  CHECK(synthetic_witness(circuit.cs, options, 1) == circuit.witness);
  std::vector<Fr> too_short(circuit.cs.num_variables - 1);
  CHECK_THROWS_AS(synthetic_witness_into(circuit.cs, options, 3, too_short), Error);
  SyntheticOptions other = options;
  other.num_public = 3;
  CHECK_THROWS_AS(synthetic_witness(circuit.cs, other, 3), Error);
}

TEST_CASE("groth16/synthetic/input rows close the system and fit the domain") {
  const SyntheticOptions options{.log_size = 10, .constraints = 700, .num_public = 4, .seed = 2};
  const auto circuit = make_synthetic_circuit(options);
  const ConstraintSystem& cs = circuit.cs;
  CHECK(cs.num_constraints() == 705);
  CHECK(cs.num_variables == 705);
  for (std::uint64_t s = 0; s <= 4; ++s) {
    const std::uint64_t row = 700 + s;
    REQUIRE(cs.a.row_offsets[row + 1] - cs.a.row_offsets[row] == 1);
    CHECK(cs.a.columns[cs.a.row_offsets[row]] == s);
    CHECK(cs.a.values[cs.a.row_offsets[row]] == Fr::one());
    CHECK(cs.b.row_offsets[row + 1] == cs.b.row_offsets[row]);
    CHECK(cs.c->row_offsets[row + 1] == cs.c->row_offsets[row]);
  }
  CHECK(is_satisfied(cs, circuit.witness));
  CHECK(synthetic_circuit_name(options) == "synthetic-n10-c700-p4-s2-z200-o500-f500");
}

TEST_CASE("groth16/synthetic/bad options are rejected") {
  CHECK_THROWS_AS(make_synthetic_circuit({.log_size = 0}), Error);
  CHECK_THROWS_AS(make_synthetic_circuit({.log_size = 29}), Error);
  CHECK_THROWS_AS(make_synthetic_circuit({.log_size = 10, .constraints = 1023, .num_public = 1}), Error);
  CHECK_NOTHROW(make_synthetic_circuit({.log_size = 10, .constraints = 1022, .num_public = 1}));
  SyntheticOptions bad_mix{.log_size = 10};
  bad_mix.mix = {.zeros = 0.7, .ones = 0.5};
  CHECK_THROWS_AS(make_synthetic_circuit(bad_mix), Error);
  bad_mix.mix = {.zeros = -0.1, .ones = 0.5};
  CHECK_THROWS_AS(make_synthetic_circuit(bad_mix), Error);
}
