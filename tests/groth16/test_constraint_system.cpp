// R1CS in CSR form: evaluation against hand computation on tiny systems, C-less systems, the zero-filled
// tail, satisfaction with the first failing row, structural validation, and the builder.
#include <doctest/doctest.h>

#include <vector>

#include <proofline/groth16/constraint_builder.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;

namespace {

Fr f(std::uint64_t v) {
  return Fr::from_u64(v);
}

/// z = [1, out, x, y, t]: x·y = t; (t + x)·1 = out − 5; (2x)·(y + 1) = 2t + 2x; y·0 = 0.
ConstraintSystem tiny_system(bool with_c = true) {
  ConstraintSystemBuilder builder(5, 1, with_c);
  const Fr minus_five = -f(5);
  if (with_c) {
    builder.add({{2, f(1)}}, {{3, f(1)}}, {{4, f(1)}});
    builder.add({{4, f(1)}, {2, f(1)}}, {{0, f(1)}}, {{1, f(1)}, {0, minus_five}});
    builder.add({{2, f(2)}}, {{3, f(1)}, {0, f(1)}}, {{4, f(2)}, {2, f(2)}});
    builder.add({{3, f(1)}}, {}, {});
  } else {
    builder.add({{2, f(1)}}, {{3, f(1)}}, {});
    builder.add({{4, f(1)}, {2, f(1)}}, {{0, f(1)}}, {});
  }
  return builder.build();
}

std::vector<Fr> tiny_witness(std::uint64_t x = 3, std::uint64_t y = 4) {
  const std::uint64_t t = x * y;
  return {f(1), f(t + x + 5), f(x), f(y), f(t)};
}

}  // namespace

TEST_CASE("groth16/r1cs/evaluate matches hand computation and zero-fills the tail") {
  const ConstraintSystem cs = tiny_system();
  CHECK(cs.num_constraints() == 4);
  CHECK(cs.nonzeros() == 5 + 4 + 5);
  const auto z = tiny_witness();
  std::vector<Fr> a(8, f(99)), b(8, f(99)), c(8, f(99));  // junk that evaluate must overwrite
  evaluate(cs, z, a, b, c);
  // x = 3, y = 4, t = 12, out = 20.
  const std::vector<Fr> ea = {f(3), f(15), f(6), f(4), f(0), f(0), f(0), f(0)};
  const std::vector<Fr> eb = {f(4), f(1), f(5), f(0), f(0), f(0), f(0), f(0)};
  const std::vector<Fr> ec = {f(12), f(15), f(30), f(0), f(0), f(0), f(0), f(0)};
  CHECK(a == ea);
  CHECK(b == eb);
  CHECK(c == ec);
  CHECK(is_satisfied(cs, z));
}

TEST_CASE("groth16/r1cs/first unsatisfied row is the lowest failing one") {
  const ConstraintSystem cs = tiny_system();
  auto z = tiny_witness();
  z[4] = f(13);  // t wrong: rows 0, 1 and 2 fail
  CHECK(first_unsatisfied_row(cs, z) == std::optional<std::uint64_t>(0));
  z = tiny_witness();
  z[1] = f(21);  // only row 1 fails
  CHECK(first_unsatisfied_row(cs, z) == std::optional<std::uint64_t>(1));
  CHECK_FALSE(is_satisfied(cs, z));
}

TEST_CASE("groth16/r1cs/without C the system evaluates c as a times b") {
  const ConstraintSystem cs = tiny_system(false);
  CHECK_FALSE(cs.c.has_value());
  auto z = tiny_witness();
  std::vector<Fr> a(4), b(4), c(4);
  evaluate(cs, z, a, b, c);
  CHECK(c[0] == f(12));
  CHECK(c[1] == f(15));
  CHECK(c[2] == Fr::zero());
  z[4] = f(1000);  // nothing to check against without C
  CHECK(is_satisfied(cs, z));
}

TEST_CASE("groth16/r1cs/evaluate agrees with a direct product on a random system") {
  // Random sparse rows (0..4 terms, repeated columns allowed) against a per-entry sum.
  std::mt19937_64 rng(5);
  const std::uint64_t vars = 300, rows = 20000;
  ConstraintSystemBuilder builder(vars, 3);
  const auto scalars = test::random_scalars(4 * rows * 3, 9);
  std::size_t next = 0;
  for (std::uint64_t i = 0; i < rows; ++i) {
    std::vector<Term> terms[3];
    for (auto& t : terms) {
      const int count = static_cast<int>(rng() % 5);
      for (int k = 0; k < count; ++k)
        t.push_back(
            {static_cast<std::uint32_t>(rng() % vars), (rng() % 3 == 0) ? Fr::one() : scalars[next++]});
    }
    builder.add(terms[0], terms[1], terms[2]);
  }
  const ConstraintSystem cs = builder.build();
  auto z = test::random_scalars(vars, 10);
  z[0] = Fr::one();
  std::vector<Fr> a(1 << 15), b(1 << 15), c(1 << 15);
  evaluate(cs, z, a, b, c);
  const CsrMatrix* matrices[3] = {&cs.a, &cs.b, &*cs.c};
  const std::vector<Fr>* outputs[3] = {&a, &b, &c};
  bool all_equal = true;
  for (int m = 0; m < 3; ++m) {
    for (std::uint64_t i = 0; i < rows; ++i) {
      Fr expected = Fr::zero();
      for (std::uint64_t k = matrices[m]->row_offsets[i]; k < matrices[m]->row_offsets[i + 1]; ++k)
        expected += matrices[m]->values[k] * z[matrices[m]->columns[k]];
      all_equal = all_equal && (*outputs[m])[i] == expected;
    }
    for (std::uint64_t i = rows; i < a.size(); ++i) all_equal = all_equal && (*outputs[m])[i].is_zero();
  }
  CHECK(all_equal);
}

TEST_CASE("groth16/r1cs/evaluate rejects wrong sizes") {
  const ConstraintSystem cs = tiny_system();
  auto z = tiny_witness();
  std::vector<Fr> a(4), b(4), c(3);
  CHECK_THROWS_AS(evaluate(cs, z, a, b, c), Error);
  std::vector<Fr> short_a(3), short_b(3), short_c(3);
  CHECK_THROWS_AS(evaluate(cs, z, short_a, short_b, short_c), Error);
  z.pop_back();
  std::vector<Fr> c4(4);
  CHECK_THROWS_AS(evaluate(cs, z, a, b, c4), Error);
  CHECK_THROWS_AS(first_unsatisfied_row(cs, z), Error);
}

TEST_CASE("groth16/r1cs/witness shape needs z0 equal to one") {
  const ConstraintSystem cs = tiny_system();
  auto z = tiny_witness();
  CHECK_NOTHROW(check_witness_shape(cs, z));
  z[0] = f(2);
  CHECK_THROWS_WITH_AS(check_witness_shape(cs, z), "witness: z[0] must be 1", Error);
  CHECK(public_inputs(tiny_witness(), cs.num_public).size() == 1);
  CHECK(public_inputs(tiny_witness(), cs.num_public)[0] == f(20));
}

TEST_CASE("groth16/r1cs/validate names each structural problem") {
  const ConstraintSystem good = tiny_system();
  CHECK_NOTHROW(validate(good));
  const auto expect = [](const ConstraintSystem& cs, const std::string& fragment) {
    try {
      validate(cs, Errc::bad_input, "file.pce");
      FAIL("no error for " << fragment);
    } catch (const Error& e) {
      CHECK(e.code() == Errc::bad_input);
      CHECK_MESSAGE(std::string(e.what()).find("file.pce: ") == 0, e.what());
      CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos, e.what());
    }
  };
  {
    ConstraintSystem cs = good;
    std::vector<std::uint32_t> columns(cs.b.columns.begin(), cs.b.columns.end());
    columns[1] = 5;
    cs.b.columns = SharedArray<std::uint32_t>(std::move(columns));
    expect(cs, "names variable 5 of 5");
  }
  {
    ConstraintSystem cs = good;
    std::vector<std::uint64_t> offsets(cs.a.row_offsets.begin(), cs.a.row_offsets.end());
    std::swap(offsets[1], offsets[2]);
    cs.a.row_offsets = SharedArray<std::uint64_t>(std::move(offsets));
    expect(cs, "decrease at row 1");
  }
  {
    ConstraintSystem cs = good;
    std::vector<std::uint64_t> offsets(cs.c->row_offsets.begin(), cs.c->row_offsets.end());
    offsets.back() += 1;
    cs.c->row_offsets = SharedArray<std::uint64_t>(std::move(offsets));
    expect(cs, "not the nonzero count");
  }
  {
    ConstraintSystem cs = good;
    cs.b.row_offsets = cs.b.row_offsets.subarray(0, 3);
    expect(cs, "matrix B has 2 rows, matrix A has 4");
  }
  {
    ConstraintSystem cs = good;
    cs.a.values = cs.a.values.subarray(0, 3);
    expect(cs, "columns but 3 values");
  }
  {
    ConstraintSystem cs = good;
    std::vector<Fr> values(cs.a.values.begin(), cs.a.values.end());
    values[2] = Fr::from_montgomery(Fr::modulus);  // not reduced
    cs.a.values = SharedArray<Fr>(std::move(values));
    expect(cs, "not a reduced field element");
    CHECK_NOTHROW(validate(cs, Errc::bad_input, "x", false));
  }
  {
    ConstraintSystem cs = good;
    cs.num_public = 5;
    expect(cs, "public inputs do not fit");
  }
}

TEST_CASE("groth16/r1cs/builder rejects bad terms and appends input rows") {
  ConstraintSystemBuilder builder(4, 2);
  CHECK_THROWS_AS(builder.add({{4, f(1)}}, {}, {}), Error);
  builder.add({{1, f(1)}}, {{2, f(1)}}, {{3, f(1)}});
  builder.add_input_rows();
  const ConstraintSystem cs = builder.build();
  REQUIRE(cs.num_constraints() == 4);
  for (std::uint64_t s = 0; s <= 2; ++s) {
    const std::uint64_t row = 1 + s;
    CHECK(cs.a.row_offsets[row + 1] - cs.a.row_offsets[row] == 1);
    CHECK(cs.a.columns[cs.a.row_offsets[row]] == s);
    CHECK(cs.b.row_offsets[row + 1] == cs.b.row_offsets[row]);
    CHECK(cs.c->row_offsets[row + 1] == cs.c->row_offsets[row]);
  }
  ConstraintSystemBuilder no_c(4, 1, false);
  CHECK_THROWS_AS(no_c.add({{1, f(1)}}, {{1, f(1)}}, {{1, f(1)}}), Error);
  CHECK_THROWS_AS(ConstraintSystemBuilder(3, 3), Error);
}

TEST_CASE("groth16/r1cs/shared arrays view external memory without copying") {
  auto owner = std::make_shared<std::vector<std::uint64_t>>(std::vector<std::uint64_t>{1, 2, 3, 4});
  const SharedArray<std::uint64_t> view(std::span<const std::uint64_t>(owner->data() + 1, 2), owner);
  CHECK(view.data() == owner->data() + 1);
  CHECK(view.size() == 2);
  CHECK(view[1] == 3);
  std::weak_ptr<std::vector<std::uint64_t>> weak = owner;
  owner.reset();
  CHECK_FALSE(weak.expired());  // the view keeps its memory alive
  const auto sub = view.subarray(1, 1);
  CHECK(sub[0] == 3);
}
