#include <proofline/groth16/setup.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <proofline/arith/random.hpp>
#include <proofline/cpu/scalar_mul.hpp>
#include <proofline/groth16/detail/chacha20.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/free_storage.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::size_t block = 4096;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// out[i] = c·x_i / (τ − x_i) with x_i = start·step^i: the Lagrange bases of a (coset of a) domain at τ.
/// Each block computes its first x by exponentiation and inverts its denominators together.
template <class Fr>
void fill_lagrange_like(std::span<Fr> out, const Fr& start, const Fr& step, const Fr& tau, const Fr& c) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), block),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      const std::size_t count = r.size();
                      std::vector<Fr> x(count), prefix(count);
                      Fr point = start * step.pow(static_cast<std::uint64_t>(r.begin()));
                      Fr acc = Fr::one();
                      for (std::size_t k = 0; k < count; ++k) {
                        x[k] = point;
                        prefix[k] = acc;
                        acc *= tau - point;
                        point *= step;
                      }
                      Fr inv = acc.inverse();  // 1 / Π (τ − x_k)
                      for (std::size_t k = count; k-- > 0;) {
                        const Fr denominator_inv = inv * prefix[k];
                        inv *= tau - x[k];
                        out[r.begin() + k] = c * x[k] * denominator_inv;
                      }
                    });
}

/// out[i] = start·τ^i.
template <class Fr>
void fill_powers(std::span<Fr> out, const Fr& start, const Fr& tau) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), block),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      Fr value = start * tau.pow(static_cast<std::uint64_t>(r.begin()));
                      for (std::size_t i = r.begin(); i < r.end(); ++i) {
                        out[i] = value;
                        value *= tau;
                      }
                    });
}

/// Spin locks over column stripes: adding a product into a column takes a few nanoseconds, so a lock is held
/// only that long; with columns spread over 2^14 stripes two threads rarely meet.
class StripedLocks {
 public:
  static constexpr std::size_t stripes = std::size_t{1} << 14;

  StripedLocks() : flags_(new std::atomic_flag[stripes]) {
    for (std::size_t i = 0; i < stripes; ++i) flags_[i].clear();
  }

  void lock(std::uint32_t column) {
    std::atomic_flag& flag = flags_[column & (stripes - 1)];
    unsigned spins = 0;
    while (flag.test_and_set(std::memory_order_acquire)) {
      while (flag.test(std::memory_order_relaxed))
        if (++spins % 64 == 0) std::this_thread::yield();  // the holder may have been preempted
    }
  }
  void unlock(std::uint32_t column) { flags_[column & (stripes - 1)].clear(std::memory_order_release); }

 private:
  std::unique_ptr<std::atomic_flag[]> flags_;
};

template <class Fr, class Matrix>
void accumulate(const Matrix& m, std::span<const Fr> lagrange, std::vector<Fr>& target, StripedLocks& locks) {
  const std::uint64_t* offsets = m.row_offsets.data();
  const std::uint32_t* columns = m.columns.data();
  const Fr* values = m.values.data();
  const Fr one = Fr::one();
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, m.rows(), block),
                    [&](const tbb::blocked_range<std::uint64_t>& r) {
                      for (std::uint64_t i = r.begin(); i < r.end(); ++i) {
                        const Fr& basis = lagrange[i];
                        for (std::uint64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                          const Fr term = values[k] == one ? basis : values[k] * basis;
                          const std::uint32_t j = columns[k];
                          locks.lock(j);
                          target[j] += term;
                          locks.unlock(j);
                        }
                      }
                    });
}

}  // namespace

template <class Curve>
BasicTrapdoor<Curve> trapdoor_from_seed(std::uint64_t seed, bool random_gamma) {
  using Fr = typename Curve::Fr;
  detail::ChaChaDrbg drbg(seed, 0);
  const auto nonzero = [&] {
    for (;;) {
      const Fr value = random_field<Fr>(drbg);
      if (!value.is_zero()) return value;
    }
  };
  BasicTrapdoor<Curve> t;
  t.tau = nonzero();
  t.alpha = nonzero();
  t.beta = nonzero();
  t.delta = nonzero();
  t.gamma = random_gamma ? nonzero() : Fr::one();
  return t;
}

unsigned min_log_domain_size(std::uint64_t rows) {
  unsigned log = 1;
  while ((std::uint64_t{1} << log) < rows) {
    if (++log > max_ntt_log_size)
      throw Error(Errc::invalid_argument, std::to_string(rows) + " rows need a domain larger than 2^" +
                                              std::to_string(max_ntt_log_size));
  }
  return log;
}

template <class Fr>
std::vector<Fr> lagrange_basis_at(const BasicDomain<Fr>& domain, const Fr& tau) {
  const Fr tau_n = tau.pow(domain.size());
  if (tau_n.is_one()) throw Error(Errc::invalid_argument, "lagrange_basis_at: tau is a point of the domain");
  std::vector<Fr> out(domain.size());
  fill_lagrange_like(std::span<Fr>(out), Fr::one(), domain.omega(), tau,
                     (tau_n - Fr::one()) * domain.size_inv());
  return out;
}

template <class Curve>
BasicQapColumns<typename Curve::Fr> qap_columns_at(const BasicConstraintSystem<Curve>& cs,
                                                   std::span<const typename Curve::Fr> lagrange) {
  if (lagrange.size() < cs.num_constraints())
    throw Error(Errc::invalid_argument, "qap_columns_at: " + std::to_string(lagrange.size()) +
                                            " Lagrange values for " + std::to_string(cs.num_constraints()) +
                                            " rows");
  BasicQapColumns<typename Curve::Fr> out;
  out.u.resize(cs.num_variables);
  out.v.resize(cs.num_variables);
  out.w.resize(cs.num_variables);
  StripedLocks locks;
  accumulate(cs.a, lagrange, out.u, locks);
  accumulate(cs.b, lagrange, out.v, locks);
  if (cs.c) accumulate(*cs.c, lagrange, out.w, locks);
  return out;
}

namespace {

/// The domain the keys are made for and τ^n, after checking that cs, the trapdoor and the options fit.
template <class Curve>
struct CheckedDomain {
  typename Curve::Domain domain;
  typename Curve::Fr tau_n;
};

template <class Curve>
CheckedDomain<Curve> checked_domain(const BasicConstraintSystem<Curve>& cs, const BasicTrapdoor<Curve>& t,
                                    const BasicSetupOptions<Curve>& options) {
  using Fr = typename Curve::Fr;
  validate(cs);
  if (!cs.c)
    throw Error(Errc::invalid_argument,
                "setup: the constraint system has no C matrix (the L and IC queries need it)");
  const std::uint64_t rows = cs.num_constraints();
  const unsigned log_n = options.log_domain_size != 0 ? options.log_domain_size : min_log_domain_size(rows);
  if (log_n > max_ntt_log_size || (std::uint64_t{1} << log_n) < rows)
    throw Error(Errc::invalid_argument, "setup: a domain of 2^" + std::to_string(log_n) + " cannot hold " +
                                            std::to_string(rows) + " rows");
  if (t.alpha.is_zero() || t.beta.is_zero() || t.gamma.is_zero() || t.delta.is_zero())
    throw Error(Errc::invalid_argument, "setup: alpha, beta, gamma and delta must be nonzero");
  const auto domain = Curve::Domain::make(log_n, options.convention);
  const Fr tau_n = t.tau.pow(domain.size());
  if (tau_n.is_one() || (options.convention == HConvention::snarkjs && tau_n.squared().is_one()))
    throw Error(Errc::invalid_argument, "setup: tau is a root of unity of the domain");
  return {domain, tau_n};
}

/// G1 scalars, back to back: A (m) | B1 (m) | IC (num_public + 1) | L (private) | H.
struct G1Layout {
  std::uint64_t m = 0;
  std::uint64_t ic_count = 0;
  std::uint64_t h_count = 0;
  std::uint64_t ic_at = 0;
  std::uint64_t h_at = 0;
};

template <class Curve>
G1Layout g1_layout(const BasicConstraintSystem<Curve>& cs, HConvention convention, std::uint64_t n) {
  G1Layout layout;
  layout.m = cs.num_variables;
  layout.ic_count = cs.num_public + 1;
  layout.h_count = h_query_size(convention, n);
  layout.ic_at = 2 * layout.m;
  layout.h_at = 3 * layout.m;
  return layout;
}

/// The scalars of every G1 query (in `layout`'s order). Frees cols.u and cols.w once they are used; cols.v is
/// kept for the B2 query.
template <class Curve, class Fr = typename Curve::Fr>
std::vector<Fr> g1_query_scalars(BasicQapColumns<Fr>& cols, const BasicTrapdoor<Curve>& t,
                                 const CheckedDomain<Curve>& checked, HConvention convention,
                                 const G1Layout& layout) {
  const std::uint64_t m = layout.m;
  std::vector<Fr> g1_scalars(3 * m + layout.h_count);
  const Fr gamma_inv = t.gamma.inverse();
  const Fr delta_inv = t.delta.inverse();
  tbb::parallel_for(
      tbb::blocked_range<std::uint64_t>(0, m, block), [&](const tbb::blocked_range<std::uint64_t>& r) {
        for (std::uint64_t j = r.begin(); j < r.end(); ++j) {
          g1_scalars[j] = cols.u[j];
          g1_scalars[m + j] = cols.v[j];
          const Fr combined = t.beta * cols.u[j] + t.alpha * cols.v[j] + cols.w[j];
          g1_scalars[layout.ic_at + j] = combined * (j < layout.ic_count ? gamma_inv : delta_inv);
        }
      });
  free_storage(cols.u);
  free_storage(cols.w);
  const std::span<Fr> h_scalars(g1_scalars.data() + layout.h_at, layout.h_count);
  const auto& domain = checked.domain;
  const Fr& tau_n = checked.tau_n;
  if (convention == HConvention::generator7) {
    // τ^i·Z(τ)/δ for i = 0..n−2.
    fill_powers(h_scalars, (tau_n - Fr::one()) * delta_inv, t.tau);
  } else {
    // L^(2n)_{2i+1}(τ)/δ = (τ^2n − 1)·x_i / (2n·(τ − x_i)·δ) with x_i = g·ω^i, g = ω_2n.
    const Fr two_n_inv = (domain.size_inv() * Fr::from_u64(2).inverse());
    fill_lagrange_like(h_scalars, domain.shift(), domain.omega(), t.tau,
                       (tau_n.squared() - Fr::one()) * two_n_inv * delta_inv);
  }
  return g1_scalars;
}

template <class Curve, class G1Affine = typename Curve::G1Affine>
std::vector<G1Affine> g1_fixed_base(std::span<const typename Curve::Fr> scalars,
                                    const BasicSetupOptions<Curve>& options) {
  std::vector<G1Affine> points(scalars.size());
  if (options.fixed_base.g1) {
    options.fixed_base.g1(G1Affine::generator(), scalars, points);
  } else {
    cpu_fixed_base_mul(G1Affine::generator(), scalars, points);
  }
  return points;
}

template <class Curve, class G2Affine = typename Curve::G2Affine>
std::vector<G2Affine> g2_fixed_base(std::span<const typename Curve::Fr> scalars,
                                    const BasicSetupOptions<Curve>& options) {
  std::vector<G2Affine> points(scalars.size());
  if (options.fixed_base.g2) {
    options.fixed_base.g2(G2Affine::generator(), scalars, points);
  } else {
    cpu_fixed_base_mul(G2Affine::generator(), scalars, points);
  }
  return points;
}

/// The keys from the trapdoor's fixed points and the query points (G1 in `layout`'s order, G2 the B2 query).
template <class Curve, class G1Affine = typename Curve::G1Affine, class G2Affine = typename Curve::G2Affine>
BasicKeyPair<Curve> assemble_keys(const BasicConstraintSystem<Curve>& cs, const BasicTrapdoor<Curve>& t,
                                  const BasicSetupOptions<Curve>& options, unsigned log_n,
                                  const G1Layout& layout, std::vector<G1Affine> g1_points,
                                  std::vector<G2Affine> g2_points) {
  using Fr = typename Curve::Fr;
  BasicKeyPair<Curve> keys;
  const auto g1 = [](const Fr& s) {
    return cpu::scalar_mul(G1Affine::generator().to_jacobian(), s).to_affine();
  };
  const auto g2 = [](const Fr& s) {
    return cpu::scalar_mul(G2Affine::generator().to_jacobian(), s).to_affine();
  };
  keys.vk.alpha1 = g1(t.alpha);
  keys.vk.beta2 = g2(t.beta);
  keys.vk.gamma2 = g2(t.gamma);
  keys.vk.delta2 = g2(t.delta);
  keys.vk.ic.assign(g1_points.begin() + static_cast<std::ptrdiff_t>(layout.ic_at),
                    g1_points.begin() + static_cast<std::ptrdiff_t>(layout.ic_at + layout.ic_count));

  const std::uint64_t m = layout.m;
  BasicProvingKey<Curve>& pk = keys.pk;
  pk.convention = options.convention;
  pk.num_variables = m;
  pk.num_public = cs.num_public;
  pk.log_domain_size = log_n;
  pk.alpha1 = keys.vk.alpha1;
  pk.beta1 = g1(t.beta);
  pk.delta1 = g1(t.delta);
  pk.beta2 = keys.vk.beta2;
  pk.delta2 = keys.vk.delta2;
  const SharedArray<G1Affine> g1_all(std::move(g1_points));
  pk.a_query = g1_all.subarray(0, m);
  pk.b1_query = g1_all.subarray(m, m);
  pk.l_query = g1_all.subarray(layout.ic_at + layout.ic_count, m - layout.ic_count);
  pk.h_query = g1_all.subarray(layout.h_at, layout.h_count);
  pk.b2_query = SharedArray<G2Affine>(std::move(g2_points));
  return keys;
}

}  // namespace

template <class Curve>
BasicKeyPair<Curve> setup_from_trapdoor(const BasicConstraintSystem<Curve>& cs, const BasicTrapdoor<Curve>& t,
                                        const BasicSetupOptions<Curve>& options) {
  using Fr = typename Curve::Fr;
  const auto start = std::chrono::steady_clock::now();
  SetupTimings timings;
  const CheckedDomain<Curve> checked = checked_domain(cs, t, options);
  const auto& domain = checked.domain;

  auto mark = std::chrono::steady_clock::now();
  std::vector<Fr> lagrange = lagrange_basis_at(domain, t.tau);
  timings.lagrange_s = seconds_since(mark);

  mark = std::chrono::steady_clock::now();
  BasicQapColumns<Fr> cols = qap_columns_at(cs, std::span<const Fr>(lagrange));
  free_storage(lagrange);
  timings.accumulate_s = seconds_since(mark);

  mark = std::chrono::steady_clock::now();
  const G1Layout layout = g1_layout(cs, options.convention, domain.size());
  std::vector<Fr> g1_scalars = g1_query_scalars(cols, t, checked, options.convention, layout);
  timings.scalars_s = seconds_since(mark);

  mark = std::chrono::steady_clock::now();
  std::vector<typename Curve::G1Affine> g1_points = g1_fixed_base(std::span<const Fr>(g1_scalars), options);
  free_storage(g1_scalars);
  timings.g1_s = seconds_since(mark);

  mark = std::chrono::steady_clock::now();
  std::vector<typename Curve::G2Affine> g2_points = g2_fixed_base(std::span<const Fr>(cols.v), options);
  free_storage(cols.v);
  timings.g2_s = seconds_since(mark);

  BasicKeyPair<Curve> keys =
      assemble_keys(cs, t, options, domain.log_size(), layout, std::move(g1_points), std::move(g2_points));
  timings.total_s = seconds_since(start);
  if (options.timings != nullptr) *options.timings = timings;
  return keys;
}

#define PL_INSTANTIATE_SETUP(Curve)                                                          \
  template BasicTrapdoor<Curve> trapdoor_from_seed<Curve>(std::uint64_t, bool);              \
  template std::vector<Curve::Fr> lagrange_basis_at(const Curve::Domain&, const Curve::Fr&); \
  template BasicQapColumns<Curve::Fr> qap_columns_at(const BasicConstraintSystem<Curve>&,    \
                                                     std::span<const Curve::Fr>);            \
  template BasicKeyPair<Curve> setup_from_trapdoor(                                          \
      const BasicConstraintSystem<Curve>&, const BasicTrapdoor<Curve>&, const BasicSetupOptions<Curve>&);
PL_INSTANTIATE_SETUP(Bls12_381)
PL_INSTANTIATE_SETUP(Bn254)
#undef PL_INSTANTIATE_SETUP

}  // namespace proofline::groth16
