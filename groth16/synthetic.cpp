#include <proofline/groth16/synthetic.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>

#include <proofline/arith/bigint.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

// Rows per generation block: the unit of determinism (a block's rows come out the same whichever thread
// makes them) and of the prefix sums that place each block's entries.
constexpr std::uint64_t rows_per_block = 1 << 14;
constexpr int max_draws = 16;  // attempts to find a variable of a wanted type before the fallback

// Domain-separation tags of the hash streams.
constexpr std::uint64_t tag_type = 0x7479706500000001ULL;
constexpr std::uint64_t tag_free = 0x6672656500000002ULL;
constexpr std::uint64_t tag_row = 0x726f770000000003ULL;
constexpr std::uint64_t tag_public = 0x7075620000000004ULL;

inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline std::uint64_t hash3(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return mix64(mix64(mix64(a ^ 0x9e3779b97f4a7c15ULL) ^ b) ^ c);
}

/// The bits of the modulus's top limb: candidates are drawn below the next power of two (BLS12-381's r has
/// 255 bits, BN254's 254).
template <class F>
constexpr std::uint64_t top_limb_mask() {
  std::uint64_t mask = 0;
  while (mask < F::modulus.limb[3]) mask = (mask << 1) | 1;
  return mask;
}

/// SplitMix64: a counter-based stream, cheap to start at any row.
class SplitMix {
 public:
  explicit SplitMix(std::uint64_t state) : state_(state) {}
  std::uint64_t next() { return mix64(state_ += 0x9e3779b97f4a7c15ULL); }
  /// Uniform in [0, bound).
  std::uint64_t below(std::uint64_t bound) {
    std::uint64_t lo = 0, hi = 0;
    proofline::detail::mul_wide(next(), bound, lo, hi);
    return hi;
  }
  /// Uniform full-width element of F by rejection (not for secrets: only for synthetic data).
  template <class F>
  F field() {
    for (;;) {
      typename F::Int value;
      for (std::size_t i = 0; i < 4; ++i) value.limb[i] = next();
      value.limb[3] &= top_limb_mask<F>();
      if (F::is_canonical(value)) return F::from_canonical(value);
    }
  }
  template <class F>
  F nonzero_field() {
    for (;;) {
      const F value = field<F>();
      if (!value.is_zero()) return value;
    }
  }

 private:
  std::uint64_t state_;
};

enum class VarType : std::uint8_t { one, zero, free, derived };

/// Everything that defines the circuit, derived from the options once.
struct Plan {
  std::uint64_t seed;
  std::uint64_t num_public;
  std::uint64_t constraints;
  std::uint64_t num_variables;
  std::uint64_t rows;
  std::uint64_t zero_below, one_below;  // thresholds on 53-bit hash fractions
  std::uint64_t free_below;

  explicit Plan(const SyntheticOptions& o) {
    if (o.log_size < 1 || o.log_size > 28)
      throw Error(Errc::invalid_argument,
                  "synthetic circuit: log2 size " + std::to_string(o.log_size) + " is outside 1..28");
    const auto in_unit = [](double x) { return std::isfinite(x) && x >= 0 && x <= 1; };
    if (!in_unit(o.mix.zeros) || !in_unit(o.mix.ones) || o.mix.zeros + o.mix.ones > 1 ||
        !in_unit(o.free_fraction))
      throw Error(Errc::invalid_argument,
                  "synthetic circuit: the witness mix (zeros " + std::to_string(o.mix.zeros) + ", ones " +
                      std::to_string(o.mix.ones) + ", free " + std::to_string(o.free_fraction) +
                      ") is not a set of fractions");
    const std::uint64_t n = std::uint64_t{1} << o.log_size;
    if (o.num_public + 1 >= n)
      throw Error(Errc::invalid_argument, "synthetic circuit: " + std::to_string(o.num_public) +
                                              " public inputs leave no room for constraints in 2^" +
                                              std::to_string(o.log_size) + " rows");
    seed = o.seed;
    num_public = o.num_public;
    constraints = synthetic_constraints(o);
    if (constraints == 0 || constraints + num_public + 1 > n)
      throw Error(Errc::invalid_argument, "synthetic circuit: " + std::to_string(constraints) +
                                              " constraints and " + std::to_string(num_public + 1) +
                                              " input rows do not fit 2^" + std::to_string(o.log_size) +
                                              " rows");
    num_variables = num_public + 1 + constraints;
    if (num_variables > (std::uint64_t{1} << 32))
      throw Error(Errc::invalid_argument, "synthetic circuit: more than 2^32 variables");
    rows = constraints + num_public + 1;
    constexpr double scale = 9007199254740992.0;  // 2^53
    zero_below = static_cast<std::uint64_t>(o.mix.zeros * scale);
    one_below = static_cast<std::uint64_t>((o.mix.zeros + o.mix.ones) * scale);
    free_below = static_cast<std::uint64_t>(o.free_fraction * scale);
  }

  VarType type(std::uint64_t j) const {
    if (j == 0) return VarType::one;
    if (j <= num_public) return VarType::free;
    const std::uint64_t h = hash3(seed, j, tag_type);
    const std::uint64_t u = h >> 11;
    if (u < zero_below) return VarType::zero;
    if (u < one_below) return VarType::one;
    return (mix64(h) >> 11) < free_below ? VarType::free : VarType::derived;
  }
};

/// coefficient · z[variable] in F.
template <class F>
struct CoefTerm {
  std::uint32_t variable = 0;
  F coefficient = F::one();
};

template <class F>
struct RowTerms {
  std::array<CoefTerm<F>, 2> a;
  std::array<CoefTerm<F>, 1> b;
  std::array<CoefTerm<F>, 1> c;
  unsigned na = 0, nb = 0, nc = 0;
};

/// A variable whose type passes `wanted`, or `fallback` after max_draws misses.
template <class Wanted>
std::uint32_t draw(SplitMix& rng, const Plan& plan, Wanted wanted, std::uint32_t fallback) {
  for (int i = 0; i < max_draws; ++i) {
    const std::uint64_t j = rng.below(plan.num_variables);
    if (wanted(plan.type(j))) return static_cast<std::uint32_t>(j);
  }
  return fallback;
}

template <class Fr>
RowTerms<Fr> make_row(const Plan& plan, std::uint64_t row) {
  RowTerms<Fr> t;
  if (row >= plan.constraints) {  // input row: A = z_s
    t.a[0] = {static_cast<std::uint32_t>(row - plan.constraints), Fr::one()};
    t.na = 1;
    return t;
  }
  const auto o = static_cast<std::uint32_t>(plan.num_public + 1 + row);
  SplitMix rng(hash3(plan.seed, row, tag_row));
  const auto known_nonzero = [](VarType v) { return v == VarType::one || v == VarType::free; };
  t.c[0] = {o, Fr::one()};
  t.nc = 1;
  switch (plan.type(o)) {
    case VarType::zero: {
      t.a[0] = {static_cast<std::uint32_t>(rng.below(plan.num_variables)), Fr::one()};
      t.na = 1;
      // Any zero-type variable makes B·z = 0; without one in reach, an empty B does the same.
      const std::uint32_t q = draw(
          rng, plan, [](VarType v) { return v == VarType::zero; }, 0);
      if (q != 0) {
        t.b[0] = {q, Fr::one()};
        t.nb = 1;
      }
      break;
    }
    case VarType::one:
      t.a[0] = {draw(
                    rng, plan, [](VarType v) { return v == VarType::one; }, 0),
                Fr::one()};
      t.b[0] = {draw(
                    rng, plan, [](VarType v) { return v == VarType::one; }, 0),
                Fr::one()};
      t.na = t.nb = 1;
      break;
    case VarType::free:
      t.a[0] = {o, Fr::one()};
      t.b[0] = {0, Fr::one()};
      t.na = t.nb = 1;
      break;
    case VarType::derived:
      t.a[0] = {draw(rng, plan, known_nonzero, 0), rng.template nonzero_field<Fr>()};
      t.na = 1;
      if ((rng.next() & 3) == 0) {  // a quarter of them add a second term, like a linear combination
        t.a[1] = {draw(rng, plan, known_nonzero, 0), rng.template nonzero_field<Fr>()};
        t.na = 2;
      }
      t.b[0] = {draw(rng, plan, known_nonzero, 0), Fr::one()};
      t.nb = 1;
      break;
  }
  return t;
}

struct BlockCounts {
  std::uint64_t a = 0, b = 0, c = 0;
};

/// Fills the CSR arrays of all three matrices in two passes over blocks of rows: count, then write.
template <class Curve, class Fr = typename Curve::Fr>
struct MatrixArrays {
  std::unique_ptr<std::uint64_t[]> offsets;
  std::unique_ptr<std::uint32_t[]> columns;
  std::unique_ptr<Fr[]> values;
  std::uint64_t nonzeros = 0;

  void allocate(std::uint64_t rows, std::uint64_t nnz) {
    // Uninitialised on purpose: the parallel fill below is the first touch.
    offsets.reset(new std::uint64_t[rows + 1]);
    columns.reset(new std::uint32_t[nnz]);
    values.reset(new Fr[nnz]);
    nonzeros = nnz;
  }
  BasicCsrMatrix<Curve> take(std::uint64_t rows) {
    // The views are taken before ownership moves into the shared owners.
    const std::span<const std::uint64_t> offsets_view(offsets.get(), rows + 1);
    const std::span<const std::uint32_t> columns_view(columns.get(), nonzeros);
    const std::span<const Fr> values_view(values.get(), nonzeros);
    BasicCsrMatrix<Curve> m;
    m.row_offsets = SharedArray<std::uint64_t>(offsets_view, std::shared_ptr<const void>(std::move(offsets)));
    m.columns = SharedArray<std::uint32_t>(columns_view, std::shared_ptr<const void>(std::move(columns)));
    m.values = SharedArray<Fr>(values_view, std::shared_ptr<const void>(std::move(values)));
    return m;
  }
};

template <class Arrays, class Term, std::size_t N>
void put_terms(Arrays& m, std::uint64_t& cursor, const std::array<Term, N>& terms, unsigned count) {
  for (unsigned k = 0; k < count; ++k) {
    m.columns[cursor] = terms[k].variable;
    m.values[cursor] = terms[k].coefficient;
    ++cursor;
  }
}

template <class Curve>
BasicConstraintSystem<Curve> make_system(const Plan& plan) {
  using Fr = typename Curve::Fr;
  const std::uint64_t blocks = (plan.rows + rows_per_block - 1) / rows_per_block;
  std::vector<BlockCounts> counts(blocks + 1);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, blocks, 1),
                    [&](const tbb::blocked_range<std::uint64_t>& r) {
                      for (std::uint64_t blk = r.begin(); blk < r.end(); ++blk) {
                        BlockCounts sum;
                        const std::uint64_t end = std::min(plan.rows, (blk + 1) * rows_per_block);
                        for (std::uint64_t row = blk * rows_per_block; row < end; ++row) {
                          const RowTerms<Fr> t = make_row<Fr>(plan, row);
                          sum.a += t.na;
                          sum.b += t.nb;
                          sum.c += t.nc;
                        }
                        counts[blk + 1] = sum;
                      }
                    });
  for (std::uint64_t blk = 1; blk <= blocks; ++blk) {  // exclusive prefix sums: where each block starts
    counts[blk].a += counts[blk - 1].a;
    counts[blk].b += counts[blk - 1].b;
    counts[blk].c += counts[blk - 1].c;
  }
  MatrixArrays<Curve> a, b, c;
  a.allocate(plan.rows, counts[blocks].a);
  b.allocate(plan.rows, counts[blocks].b);
  c.allocate(plan.rows, counts[blocks].c);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, blocks, 1),
                    [&](const tbb::blocked_range<std::uint64_t>& r) {
                      for (std::uint64_t blk = r.begin(); blk < r.end(); ++blk) {
                        std::uint64_t ka = counts[blk].a, kb = counts[blk].b, kc = counts[blk].c;
                        const std::uint64_t end = std::min(plan.rows, (blk + 1) * rows_per_block);
                        for (std::uint64_t row = blk * rows_per_block; row < end; ++row) {
                          a.offsets[row] = ka;
                          b.offsets[row] = kb;
                          c.offsets[row] = kc;
                          const RowTerms<Fr> t = make_row<Fr>(plan, row);
                          put_terms(a, ka, t.a, t.na);
                          put_terms(b, kb, t.b, t.nb);
                          put_terms(c, kc, t.c, t.nc);
                        }
                      }
                    });
  a.offsets[plan.rows] = a.nonzeros;
  b.offsets[plan.rows] = b.nonzeros;
  c.offsets[plan.rows] = c.nonzeros;
  BasicConstraintSystem<Curve> cs;
  cs.num_variables = plan.num_variables;
  cs.num_public = plan.num_public;
  cs.a = a.take(plan.rows);
  cs.b = b.take(plan.rows);
  cs.c = c.take(plan.rows);
  return cs;
}

template <class Matrix, class Fr>
Fr dot_row(const Matrix& m, std::uint64_t row, std::span<const Fr> z) {
  Fr acc = Fr::zero();
  for (std::uint64_t k = m.row_offsets[row]; k < m.row_offsets[row + 1]; ++k)
    acc += m.values[k] * z[m.columns[k]];
  return acc;
}

template <class Curve, class Fr = typename Curve::Fr>
void fill_witness(const Plan& plan, const BasicConstraintSystem<Curve>& cs, std::uint64_t witness_seed,
                  std::span<Fr> z) {
  if (cs.num_variables != plan.num_variables || cs.num_public != plan.num_public ||
      cs.num_constraints() != plan.rows || !cs.c)
    throw Error(Errc::invalid_argument,
                "synthetic witness: the constraint system is not the one these options describe");
  if (z.size() != plan.num_variables)
    throw Error(Errc::invalid_argument, "synthetic witness: " + std::to_string(z.size()) + " slots for " +
                                            std::to_string(plan.num_variables) + " variables");
  constexpr std::uint64_t grain = 1 << 14;
  // Pass 1: everything that does not depend on another variable.
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, plan.num_variables, grain),
                    [&](const tbb::blocked_range<std::uint64_t>& r) {
                      for (std::uint64_t j = r.begin(); j < r.end(); ++j) {
                        switch (plan.type(j)) {
                          case VarType::one:
                            z[j] = Fr::one();
                            break;
                          case VarType::zero:
                          case VarType::derived:
                            z[j] = Fr::zero();
                            break;
                          case VarType::free:
                            z[j] =
                                SplitMix(hash3(witness_seed, j, j <= plan.num_public ? tag_public : tag_free))
                                    .template field<Fr>();
                            break;
                        }
                      }
                    });
  // Pass 2: derived variables from their rows (C = {o: 1}), whose A and B name only pass-1 variables.
  const auto& a = cs.a;
  const auto& b = cs.b;
  const std::span<const Fr> values(z);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, plan.constraints, grain),
                    [&](const tbb::blocked_range<std::uint64_t>& r) {
                      for (std::uint64_t row = r.begin(); row < r.end(); ++row) {
                        const std::uint64_t o = plan.num_public + 1 + row;
                        if (plan.type(o) == VarType::derived)
                          z[o] = dot_row(a, row, values) * dot_row(b, row, values);
                      }
                    });
}

}  // namespace

std::uint64_t synthetic_constraints(const SyntheticOptions& options) {
  if (options.constraints != 0) return options.constraints;
  if (options.log_size < 1 || options.log_size > 28) return 0;
  const std::uint64_t n = std::uint64_t{1} << options.log_size;
  return n > options.num_public + 1 ? n - options.num_public - 1 : 0;
}

template <class Curve>
BasicSyntheticCircuit<Curve> make_synthetic_circuit(const SyntheticOptions& options) {
  const Plan plan(options);
  BasicSyntheticCircuit<Curve> out;
  out.options = options;
  out.cs = make_system<Curve>(plan);
  out.witness.resize(plan.num_variables);
  fill_witness(plan, out.cs, options.witness_seed, std::span<typename Curve::Fr>(out.witness));
  return out;
}

template <class Curve>
void synthetic_witness_into(const BasicConstraintSystem<Curve>& cs, const SyntheticOptions& options,
                            std::uint64_t witness_seed, std::span<typename Curve::Fr> out) {
  fill_witness(Plan(options), cs, witness_seed, out);
}

template <class Curve>
std::vector<typename Curve::Fr> synthetic_witness(const BasicConstraintSystem<Curve>& cs,
                                                  const SyntheticOptions& options,
                                                  std::uint64_t witness_seed) {
  std::vector<typename Curve::Fr> z(cs.num_variables);
  synthetic_witness_into(cs, options, witness_seed, std::span<typename Curve::Fr>(z));
  return z;
}

#define PL_INSTANTIATE_SYNTHETIC(Curve)                                                              \
  template BasicSyntheticCircuit<Curve> make_synthetic_circuit<Curve>(const SyntheticOptions&);      \
  template void synthetic_witness_into(const BasicConstraintSystem<Curve>&, const SyntheticOptions&, \
                                       std::uint64_t, std::span<Curve::Fr>);                         \
  template std::vector<Curve::Fr> synthetic_witness(const BasicConstraintSystem<Curve>&,             \
                                                    const SyntheticOptions&, std::uint64_t);
PL_INSTANTIATE_SYNTHETIC(Bls12_381)
PL_INSTANTIATE_SYNTHETIC(Bn254)
#undef PL_INSTANTIATE_SYNTHETIC

std::string synthetic_circuit_name(const SyntheticOptions& options) {
  const auto permille = [](double x) {
    return std::to_string(static_cast<long long>(std::llround(x * 1000)));
  };
  return "synthetic-n" + std::to_string(options.log_size) + "-c" +
         std::to_string(synthetic_constraints(options)) + "-p" + std::to_string(options.num_public) + "-s" +
         std::to_string(options.seed) + "-z" + permille(options.mix.zeros) + "-o" +
         permille(options.mix.ones) + "-f" + permille(options.free_fraction);
}

}  // namespace proofline::groth16
