#include <proofline/groth16/zkey.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <proofline/arith/curve_pairing.hpp>
#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/iden3_fields.hpp>
#include <proofline/groth16/detail/input_file.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/groth16/detail/point_checks.hpp>
#include <proofline/groth16/detail/zkey_coefficients.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::uint32_t zkey_version = 1;
constexpr std::uint32_t protocol_groth16 = 1;
constexpr std::uint32_t section_protocol = 1;
constexpr std::uint32_t section_groth16 = 2;
constexpr std::uint32_t section_ic = 3;
constexpr std::uint32_t section_coefficients = 4;
constexpr std::uint32_t section_a = 5;
constexpr std::uint32_t section_b1 = 6;
constexpr std::uint32_t section_b2 = 7;
constexpr std::uint32_t section_c = 8;
constexpr std::uint32_t section_h = 9;
// Points per parallel task of the checks and copies: a full subgroup check costs tens of microseconds.
constexpr std::size_t point_grain = 256;
// Points per task of a copy: a plain memcpy of a few hundred KB.
constexpr std::size_t copy_grain = 4096;
constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();

std::string section_label(const char* what, std::uint32_t type) {
  return std::string(what) + " (section " + std::to_string(type) + ")";
}

template <class Affine>
Affine load_point(std::span<const std::byte> bytes) {
  Affine point;
  std::memcpy(static_cast<void*>(&point), bytes.data(), sizeof(Affine));
  return point;
}

/// Why a point fails `level`, or nullptr.
template <class Affine>
const char* point_problem(const Affine& p, PointCheck level) {
  if (level == PointCheck::trusted) return nullptr;
  if (!detail::is_valid_coordinates(p)) return "has a coordinate that is not reduced mod q";
  if (!detail::on_curve(p)) return "is not on the curve";
  if (level == PointCheck::full && !detail::in_subgroup(p)) return "is not in the prime-order subgroup";
  return nullptr;
}

template <class Affine>
Affine header_point(const BinFile& file, BinReader& in, const char* name) {
  const Affine p = load_point<Affine>(in.bytes(sizeof(Affine), name));
  if (const char* problem = point_problem(p, PointCheck::full))
    file.fail(std::string("the Groth16 header's ") + name + " " + problem);
  if (p.is_infinity()) file.fail(std::string("the Groth16 header's ") + name + " is the point at infinity");
  return p;
}

struct Counts {
  std::uint64_t views = 0;
  std::uint64_t copied = 0;
};

/// The section of a query, which must hold exactly `count` points.
template <class Affine>
const BinFile::Section& query_section(const BinFile& file, std::uint32_t type, const char* what,
                                      std::uint64_t count, const char* count_text) {
  const BinFile::Section& section = file.require(type, what);
  if (section.size / sizeof(Affine) != count || section.size % sizeof(Affine) != 0)
    file.fail(section_label(what, type) + " has " + std::to_string(section.size) + " bytes; " + count_text +
              " = " + std::to_string(count) + " points need " + std::to_string(count * sizeof(Affine)));
  return section;
}

/// The points of a query section: a view into the section's bytes when they are aligned for Affine and
/// someone owns them (always, for a file that was read: binfile.hpp), otherwise a parallel copy into memory
/// of its own, written once (no zero fill first).
template <class Affine>
SharedArray<Affine> query_points(const BinFile& file, const BinFile::Section& section, std::uint64_t count,
                                 Counts& counts) {
  const std::byte* bytes = file.payload(section).data();
  const std::shared_ptr<const void>& owner = file.payload_owner(section);
  if (owner != nullptr && reinterpret_cast<std::uintptr_t>(bytes) % alignof(Affine) == 0) {
    counts.views += section.size;
    return SharedArray<Affine>(std::span<const Affine>(reinterpret_cast<const Affine*>(bytes), count), owner);
  }
  std::shared_ptr<void> buffer =
      detail::file_buffer(section.size, alignof(Affine), file.name() + ": a query");
  // Affine is trivially copyable: its bytes are the point (the section holds exactly count of them).
  auto* points = static_cast<Affine*>(buffer.get());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, copy_grain),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      std::memcpy(static_cast<void*>(points + r.begin()), bytes + r.begin() * sizeof(Affine),
                                  (r.end() - r.begin()) * sizeof(Affine));
                    });
  counts.copied += section.size;
  return SharedArray<Affine>(std::span<const Affine>(points, count), std::move(buffer));
}

/// A query section's points, checked at `level`.
template <class Affine>
SharedArray<Affine> read_query(const BinFile& file, std::uint32_t type, const char* what, std::uint64_t count,
                               const char* count_text, PointCheck level, Counts& counts) {
  const BinFile::Section& section = query_section<Affine>(file, type, what, count, count_text);
  SharedArray<Affine> out = query_points<Affine>(file, section, count, counts);
  if (level == PointCheck::trusted) return out;
  const Affine* points = out.data();
  // The lowest failing index, so the message does not depend on the schedule.
  const std::uint64_t bad = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, count, point_grain), none,
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i)
          if (point_problem(points[i], level) != nullptr) return i;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (bad != none)
    file.fail(section_label(what, type) + ": point " + std::to_string(bad) + " " +
              point_problem(points[bad], level));
  return out;
}

/// e(p1, G2) = e(G1, p2), i.e. p1 and p2 are the same multiple of the generators.
template <class Curve>
bool same_discrete_log(const typename Curve::G1Affine& p1, const typename Curve::G2Affine& p2) {
  using Pairing = CurvePairing<Curve>;
  const typename Pairing::PreparedG2 g2 = Pairing::prepare(Curve::G2Affine::generator());
  const typename Pairing::PreparedG2 q = Pairing::prepare(p2);
  const typename Pairing::Pair pairs[] = {{p1, std::cref(g2)}, {-Curve::G1Affine::generator(), std::cref(q)}};
  return Pairing::product(pairs).is_one();
}

void read_protocol(const BinFile& file) {
  BinReader in(file, file.require(section_protocol, "header section"), "header section");
  const std::uint32_t protocol = in.u32("the protocol");
  in.expect_end();
  if (protocol == protocol_groth16) return;
  const std::string name = protocol == 2    ? "a PLONK key"
                           : protocol == 10 ? "an FFLONK key"
                                            : "protocol " + std::to_string(protocol);
  file.fail(name + ", not a Groth16 key (protocol 1)");
}

template <class Curve>
struct GrothHeader {
  ZkeyHeader counts;
  typename Curve::G1Affine alpha1, beta1, delta1;
  typename Curve::G2Affine beta2, gamma2, delta2;
};

/// The curve of the Groth16 header's primes q and r; a key of any other field is refused, naming it.
CurveId read_curve(const BinFile& file, BinReader& in) {
  // A size no curve has would misplace every field after it: named here, before it does.
  const auto element_bytes = [&](const char* field, const char* usual) {
    const std::uint32_t bytes = in.u32(field);
    if (bytes == 0 || bytes % 8 != 0 || bytes > 64)
      file.fail(std::string(field) + " is " + std::to_string(bytes) +
                ", not a field element's size in bytes (a multiple of 8 up to 64; " + usual + ")");
    return bytes;
  };
  const std::uint32_t q_bytes = element_bytes("n8q", "32 in bn128 keys, 48 in bls12381 keys");
  const auto q = in.bytes(q_bytes, "the base field prime q");
  const std::uint32_t r_bytes = element_bytes("n8r", "32 in bn128 and bls12381 keys");
  const auto r = in.bytes(r_bytes, "the scalar field prime r");
  const std::optional<CurveId> curve = detail::curve_of_primes(q, r);
  if (!curve)
    file.fail("the key is for another curve (q is " + detail::describe_prime(q) + ", r is " +
              detail::describe_prime(r) + "): proofline proves bn128 (BN254) and bls12381 keys");
  return *curve;
}

CurveId peek_curve(const BinFile& file) {
  BinReader in(file, file.require(section_groth16, "Groth16 header section"), "Groth16 header section");
  return read_curve(file, in);
}

template <class Curve>
GrothHeader<Curve> read_groth_header(const BinFile& file) {
  using G1Affine = typename Curve::G1Affine;
  using G2Affine = typename Curve::G2Affine;
  BinReader in(file, file.require(section_groth16, "Groth16 header section"), "Groth16 header section");
  const CurveId curve = read_curve(file, in);
  if (curve != Curve::id)
    file.fail("the key is for " + std::string(curve_name(curve)) + ", not " + std::string(Curve::name) +
              " as this caller expects");
  GrothHeader<Curve> h;
  h.counts.num_variables = in.u32("nVars");
  h.counts.num_public = in.u32("nPublic");
  h.counts.domain_size = in.u32("domainSize");
  h.alpha1 = header_point<G1Affine>(file, in, "alpha1");
  h.beta1 = header_point<G1Affine>(file, in, "beta1");
  h.beta2 = header_point<G2Affine>(file, in, "beta2");
  h.gamma2 = header_point<G2Affine>(file, in, "gamma2");
  h.delta1 = header_point<G1Affine>(file, in, "delta1");
  h.delta2 = header_point<G2Affine>(file, in, "delta2");
  in.expect_end();
  const ZkeyHeader& c = h.counts;
  if (std::uint64_t{c.num_public} + 1 > c.num_variables)
    file.fail("nPublic = " + std::to_string(c.num_public) + " public inputs do not fit in nVars = " +
              std::to_string(c.num_variables) + " variables (z[0] = 1 comes first)");
  if (c.domain_size < 2 || !std::has_single_bit(c.domain_size) ||
      std::countr_zero(c.domain_size) > static_cast<int>(max_ntt_log_size))
    file.fail("domainSize = " + std::to_string(c.domain_size) + " is not a power of two in 2..2^" +
              std::to_string(max_ntt_log_size));
  if (!same_discrete_log<Curve>(h.delta1, h.delta2))
    file.fail("delta1 and delta2 are not the same multiple of the generators (a corrupted key)");
  if (!same_discrete_log<Curve>(h.beta1, h.beta2))
    file.fail("beta1 and beta2 are not the same multiple of the generators (a corrupted key)");
  return h;
}

/// The header's points and the IC section. The IC points are few and end up in a vector anyway: always
/// copied and checked in full.
template <class Curve>
BasicVerifyingKey<Curve> verifying_key(const BinFile& file, const GrothHeader<Curve>& h) {
  using G1Affine = typename Curve::G1Affine;
  Counts ic_bytes;
  const std::uint64_t n_public = h.counts.num_public;
  const SharedArray<G1Affine> ic =
      read_query<G1Affine>(file, section_ic, "IC", n_public + 1, "nPublic + 1", PointCheck::full, ic_bytes);
  BasicVerifyingKey<Curve> vk{.alpha1 = h.alpha1, .beta2 = h.beta2, .gamma2 = h.gamma2, .delta2 = h.delta2};
  vk.ic.assign(ic.begin(), ic.end());
  return vk;
}

/// A and B in CSR form from the coefficients section (detail/zkey_coefficients.hpp), after every entry is
/// checked; counts.num_rows is set either way.
template <class Curve>
std::pair<BasicCsrMatrix<Curve>, BasicCsrMatrix<Curve>> read_coefficients(const BinFile& file,
                                                                          ZkeyHeader& counts, bool build) {
  BinReader in(file, file.require(section_coefficients, "coefficients section"), "coefficients section");
  counts.num_coefficients = in.u32("nCoef");
  const auto entries = in.array(counts.num_coefficients, detail::zkey_coefficient_bytes, "the coefficients");
  in.expect_end();
  const detail::ZkeyCoefficientScan scan = detail::scan_zkey_coefficients<Curve>(
      entries, detail::ZkeyCoefficientLimits{counts.domain_size, counts.num_variables});
  if (scan.problem)
    file.fail("coefficient " + std::to_string(scan.problem->index) + ": " + scan.problem->what);
  counts.num_rows = scan.rows;
  if (!build) return {};
  return detail::zkey_coefficient_matrices<Curve>(entries, scan.rows);
}

template <class Curve>
BasicZkeyFile<Curve> parse(const BinFile& file, const ZkeyOptions& options) {
  using G1Affine = typename Curve::G1Affine;
  using G2Affine = typename Curve::G2Affine;
  read_protocol(file);
  const GrothHeader<Curve> h = read_groth_header<Curve>(file);
  BasicZkeyFile<Curve> out;
  out.header = h.counts;
  ZkeyHeader& counts = out.header;
  // Every query's size against the header's counts before anything is sized by those counts: the header
  // alone could claim domainSize = 2^28 and make the coefficient matrices' row offsets take gigabytes, while
  // the H query of a domain that large takes 24 GiB of file.
  const std::uint64_t n_vars = counts.num_variables;
  const std::uint64_t n_public = counts.num_public;
  query_section<G1Affine>(file, section_ic, "IC", n_public + 1, "nPublic + 1");
  query_section<G1Affine>(file, section_a, "A query", n_vars, "nVars");
  query_section<G1Affine>(file, section_b1, "B1 query", n_vars, "nVars");
  query_section<G2Affine>(file, section_b2, "B2 query", n_vars, "nVars");
  query_section<G1Affine>(file, section_c, "C query", n_vars - n_public - 1, "nVars - nPublic - 1");
  query_section<G1Affine>(file, section_h, "H query", counts.domain_size, "domainSize");

  auto [a, b] = read_coefficients<Curve>(file, counts, options.constraint_system);

  Counts bytes;
  BasicProvingKey<Curve>& pk = out.pk;
  pk.convention = HConvention::snarkjs;
  pk.num_variables = n_vars;
  pk.num_public = n_public;
  pk.log_domain_size = static_cast<unsigned>(std::countr_zero(counts.domain_size));
  pk.alpha1 = h.alpha1;
  pk.beta1 = h.beta1;
  pk.delta1 = h.delta1;
  pk.beta2 = h.beta2;
  pk.delta2 = h.delta2;
  // Per point: coordinates and curve. The subgroups of the full level follow, query by query, batched.
  const PointCheck level = options.points == PointCheck::full ? PointCheck::on_curve : options.points;
  pk.a_query = read_query<G1Affine>(file, section_a, "A query", n_vars, "nVars", level, bytes);
  pk.b1_query = read_query<G1Affine>(file, section_b1, "B1 query", n_vars, "nVars", level, bytes);
  pk.b2_query = read_query<G2Affine>(file, section_b2, "B2 query", n_vars, "nVars", level, bytes);
  pk.l_query = read_query<G1Affine>(file, section_c, "C query", n_vars - n_public - 1, "nVars - nPublic - 1",
                                    level, bytes);
  pk.h_query =
      read_query<G1Affine>(file, section_h, "H query", counts.domain_size, "domainSize", level, bytes);
  out.mapped_bytes = bytes.views;
  out.copied_bytes = bytes.copied;
  if (options.points == PointCheck::full) {
    const std::string labels[] = {section_label("A query", section_a), section_label("B1 query", section_b1),
                                  section_label("B2 query", section_b2), section_label("H query", section_h),
                                  section_label("C query", section_c)};
    const QueryNames names{labels[0], labels[1], labels[2], labels[3], labels[4]};
    out.key_check = check_query_subgroups(pk, Errc::bad_input, file.name(), options.key_check, names);
  }

  out.vk = verifying_key(file, h);

  if (options.constraint_system) {
    out.cs.num_variables = n_vars;
    out.cs.num_public = n_public;
    out.cs.a = std::move(a);
    out.cs.b = std::move(b);
    // Structure only: the values were checked below r on the way in.
    validate(out.cs, Errc::bad_input, file.name(), /*check_values=*/false);
  }
  validate(out.pk, Errc::bad_input, file.name(), /*check_queries=*/false);
  return out;
}

}  // namespace

template <class F>
F zkey_coefficient_from_stored(const BigInt<4>& stored) {
  // from_montgomery(S) has the value S·R⁻¹; its canonical integer S·R⁻¹ = coef·R is exactly the Montgomery
  // form of coef.
  return F::from_montgomery(F::from_montgomery(stored).canonical());
}

template <class F>
BigInt<4> zkey_coefficient_to_stored(const F& coefficient) {
  // The limbs of coef are coef·R; the element with that value has the limbs coef·R².
  return F::from_canonical(coefficient.montgomery()).montgomery();
}

template <class Curve>
BasicZkeyFile<Curve> read_zkey(const std::filesystem::path& path, const ZkeyOptions& options) {
  return parse<Curve>(BinFile::open(path, "zkey", ".zkey", zkey_version), options);
}

template <class Curve>
BasicZkeyFile<Curve> parse_zkey(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                                std::string_view name, const ZkeyOptions& options) {
  return parse<Curve>(
      BinFile::from_memory(std::move(owner), image, std::string(name), "zkey", ".zkey", zkey_version),
      options);
}

AnyZkeyFile read_any_zkey(const std::filesystem::path& path, const ZkeyOptions& options) {
  const BinFile file = BinFile::open(path, "zkey", ".zkey", zkey_version);
  read_protocol(file);
  return with_curve(peek_curve(file),
                    [&]<class Curve>() { return AnyZkeyFile(parse<Curve>(file, options)); });
}

AnyZkeyFile parse_any_zkey(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                           std::string_view name, const ZkeyOptions& options) {
  const BinFile file =
      BinFile::from_memory(std::move(owner), image, std::string(name), "zkey", ".zkey", zkey_version);
  read_protocol(file);
  return with_curve(peek_curve(file),
                    [&]<class Curve>() { return AnyZkeyFile(parse<Curve>(file, options)); });
}

AnyVerifyingKey read_zkey_verifying_key(const std::filesystem::path& path) {
  const std::uint32_t wanted[] = {section_protocol, section_groth16, section_ic};
  const BinFile file = BinFile::open_sections(path, "zkey", ".zkey", zkey_version, wanted);
  read_protocol(file);
  return with_curve(peek_curve(file), [&]<class Curve>() {
    return AnyVerifyingKey(verifying_key(file, read_groth_header<Curve>(file)));
  });
}

#define PROOFLINE_ZKEY_FOR(Curve)                                                                          \
  template Curve::Fr zkey_coefficient_from_stored<Curve::Fr>(const BigInt<4>&);                            \
  template BigInt<4> zkey_coefficient_to_stored(const Curve::Fr&);                                         \
  template BasicZkeyFile<Curve> read_zkey<Curve>(const std::filesystem::path&, const ZkeyOptions&);        \
  template BasicZkeyFile<Curve> parse_zkey<Curve>(std::shared_ptr<const void>, std::span<const std::byte>, \
                                                  std::string_view, const ZkeyOptions&);
PROOFLINE_ZKEY_FOR(Bls12_381)
PROOFLINE_ZKEY_FOR(Bn254)
#undef PROOFLINE_ZKEY_FOR

}  // namespace proofline::groth16
