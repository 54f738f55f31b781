#include <proofline/groth16/zkey_writer.hpp>

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <proofline/arith/curves.hpp>
#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/util/atomic_file.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::uint32_t zkey_version = 1;
constexpr std::uint32_t protocol_groth16 = 1;
constexpr std::uint32_t n8r = 32;
constexpr std::uint64_t coefficient_bytes = 12 + n8r;
constexpr std::uint64_t circuit_hash_bytes = 64;  // blake2b-512, as snarkjs's setup computes it
constexpr std::uint64_t file_header_bytes = 12;   // magic, version, nSections
constexpr std::uint64_t section_header_bytes = 12;
constexpr std::uint64_t u32_max = std::numeric_limits<std::uint32_t>::max();
// Rows per parallel task when the coefficients are encoded.
constexpr std::size_t row_grain = 1 << 12;

struct Section {
  std::uint32_t type;
  std::span<const std::byte> payload;
};

template <class T>
std::span<const std::byte> bytes_of(std::span<const T> items) {
  return std::as_bytes(items);
}

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& what) {
  throw Error(Errc::invalid_argument, path.string() + ": " + what);
}

/// Bytes of one coordinate (q): 48 on BLS12-381, 32 on BN254.
template <class Curve>
constexpr std::uint32_t n8q = sizeof(typename Curve::Fp);

template <class Curve>
void check_matrix_fits(const std::filesystem::path& path, const BasicCsrMatrix<Curve>& m, const char* name,
                       const BasicProvingKey<Curve>& pk) {
  if (m.rows() > pk.domain_size())
    refuse(path, std::string("the constraint system's ") + name + " has " + std::to_string(m.rows()) +
                     " rows, more than the key's domain of " + std::to_string(pk.domain_size()));
}

template <class Curve>
void check_inputs(const std::filesystem::path& path, const BasicProvingKey<Curve>& pk,
                  const BasicVerifyingKey<Curve>& vk, const BasicConstraintSystem<Curve>& cs) {
  if (pk.convention != HConvention::snarkjs)
    refuse(
        path,
        "the proving key's H query is in proofline's generator7 convention (n - 1 points tau^i "
        "Z(tau)/delta); "
        "a .zkey holds snarkjs's n odd-coset Lagrange points: make the key with SetupOptions::convention = "
        "HConvention::snarkjs");
  validate(pk, Errc::invalid_argument, path.string());
  validate(cs, Errc::invalid_argument, path.string(), /*check_values=*/false);
  if (pk.num_variables > u32_max)
    refuse(path, std::to_string(pk.num_variables) + " variables: a .zkey counts them in 32 bits");
  if (cs.num_variables != pk.num_variables || cs.num_public != pk.num_public)
    refuse(path, "the constraint system (" + std::to_string(cs.num_variables) + " variables, " +
                     std::to_string(cs.num_public) + " public) is not the proving key's (" +
                     std::to_string(pk.num_variables) + ", " + std::to_string(pk.num_public) + ")");
  if (vk.ic.size() != pk.num_public + 1)
    refuse(path, "the verifying key has " + std::to_string(vk.ic.size()) + " IC points, the proving key's " +
                     std::to_string(pk.num_public) + " public inputs need " +
                     std::to_string(pk.num_public + 1));
  if (vk.alpha1 != pk.alpha1 || vk.beta2 != pk.beta2 || vk.delta2 != pk.delta2)
    refuse(path, "the verifying key's alpha1, beta2 or delta2 is not the proving key's (keys of two setups)");
  check_matrix_fits(path, cs.a, "A", pk);
  check_matrix_fits(path, cs.b, "B", pk);
  if (cs.a.nonzeros() + cs.b.nonzeros() > u32_max)
    refuse(path, std::to_string(cs.a.nonzeros() + cs.b.nonzeros()) +
                     " coefficients in A and B: a .zkey counts them in 32 bits");
}

std::vector<std::byte> protocol_section() {
  std::vector<std::byte> out;
  append_u32(out, protocol_groth16);
  return out;
}

template <class Affine>
void append_point(std::vector<std::byte>& out, const Affine& point) {
  append_bytes(out, std::as_bytes(std::span<const Affine>(&point, 1)));
}

template <std::size_t N>
void append_prime(std::vector<std::byte>& out, const BigInt<N>& prime) {
  std::byte bytes[8 * N];
  detail::store_bigint(bytes, prime);
  append_bytes(out, bytes);
}

template <class Curve>
std::vector<std::byte> groth16_header(const BasicProvingKey<Curve>& pk, const BasicVerifyingKey<Curve>& vk) {
  static_assert(sizeof(typename Curve::G1Affine) == 2 * n8q<Curve> &&
                sizeof(typename Curve::G2Affine) == 4 * n8q<Curve> && sizeof(typename Curve::Fr) == n8r);
  std::vector<std::byte> out;
  append_u32(out, n8q<Curve>);
  append_prime(out, Curve::Fp::modulus);
  append_u32(out, n8r);
  append_prime(out, Curve::Fr::modulus);
  append_u32(out, static_cast<std::uint32_t>(pk.num_variables));
  append_u32(out, static_cast<std::uint32_t>(pk.num_public));
  append_u32(out, static_cast<std::uint32_t>(pk.domain_size()));
  append_point(out, pk.alpha1);
  append_point(out, pk.beta1);
  append_point(out, pk.beta2);
  append_point(out, vk.gamma2);
  append_point(out, pk.delta1);
  append_point(out, pk.delta2);
  return out;
}

/// Encodes one matrix's entries, row by row, at `out` (nonzeros × 44 bytes), in parallel over rows.
template <class Curve>
void encode_matrix(const BasicCsrMatrix<Curve>& m, std::uint32_t matrix, std::byte* out) {
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, m.rows(), row_grain),
                    [&](const tbb::blocked_range<std::uint64_t>& rows) {
                      for (std::uint64_t row = rows.begin(); row < rows.end(); ++row)
                        for (std::uint64_t k = m.row_offsets[row]; k < m.row_offsets[row + 1]; ++k) {
                          std::byte* p = out + k * coefficient_bytes;
                          detail::store_u32(p, matrix);
                          detail::store_u32(p + 4, static_cast<std::uint32_t>(row));
                          detail::store_u32(p + 8, m.columns[k]);
                          detail::store_bigint(p + 12, zkey_coefficient_to_stored(m.values[k]));
                        }
                    });
}

template <class Curve>
std::vector<std::byte> coefficients_section(const BasicConstraintSystem<Curve>& cs) {
  const std::uint64_t count = cs.a.nonzeros() + cs.b.nonzeros();
  std::vector<std::byte> out;
  append_u32(out, static_cast<std::uint32_t>(count));
  const std::size_t start = out.size();
  out.resize(start + count * coefficient_bytes);
  encode_matrix(cs.a, 0, out.data() + start);
  encode_matrix(cs.b, 1, out.data() + start + cs.a.nonzeros() * coefficient_bytes);
  return out;
}

std::vector<std::byte> contributions_section() {
  std::vector<std::byte> out(circuit_hash_bytes, std::byte{0});
  append_u32(out, 0);
  return out;
}

void write_sections(const std::filesystem::path& path, std::span<const Section> sections) {
  std::vector<std::byte> head;
  for (const char ch : std::string_view("zkey")) head.push_back(static_cast<std::byte>(ch));
  append_u32(head, zkey_version);
  append_u32(head, static_cast<std::uint32_t>(sections.size()));
  AtomicOutputFile out(path, 0644);
  std::uint64_t offset = 0;
  out.write_at(head.data(), head.size(), offset);
  offset += head.size();
  for (const Section& section : sections) {
    std::vector<std::byte> entry;
    append_u32(entry, section.type);
    append_u64(entry, section.payload.size());
    out.write_at(entry.data(), entry.size(), offset);
    offset += entry.size();
    out.write_at(section.payload.data(), section.payload.size(), offset);
    offset += section.payload.size();
  }
  out.commit(/*sync=*/false);
}

}  // namespace

template <class Curve>
std::uint64_t zkey_file_size(const BasicProvingKey<Curve>& pk, const BasicConstraintSystem<Curve>& cs) {
  using G1Affine = typename Curve::G1Affine;
  using G2Affine = typename Curve::G2Affine;
  const std::uint64_t payloads =
      4 + (4 + n8q<Curve> + 4 + n8r + 12 + 3 * sizeof(G1Affine) + 3 * sizeof(G2Affine)) +
      (pk.num_public + 1) * sizeof(G1Affine) + 4 + (cs.a.nonzeros() + cs.b.nonzeros()) * coefficient_bytes +
      pk.query_bytes() + circuit_hash_bytes + 4;
  return file_header_bytes + 10 * section_header_bytes + payloads;
}

template <class Curve>
void write_zkey(const std::filesystem::path& path, const BasicProvingKey<Curve>& pk,
                const BasicVerifyingKey<Curve>& vk, const BasicConstraintSystem<Curve>& cs) {
  using G1Affine = typename Curve::G1Affine;
  using G2Affine = typename Curve::G2Affine;
  check_inputs(path, pk, vk, cs);
  const std::vector<std::byte> protocol = protocol_section();
  const std::vector<std::byte> header = groth16_header(pk, vk);
  const std::vector<std::byte> coefficients = coefficients_section(cs);
  const std::vector<std::byte> contributions = contributions_section();
  const Section sections[] = {
      {1, protocol},
      {2, header},
      {3, bytes_of(std::span<const G1Affine>(vk.ic))},
      {4, coefficients},
      {5, bytes_of(std::span<const G1Affine>(pk.a_query.data(), pk.a_query.size()))},
      {6, bytes_of(std::span<const G1Affine>(pk.b1_query.data(), pk.b1_query.size()))},
      {7, bytes_of(std::span<const G2Affine>(pk.b2_query.data(), pk.b2_query.size()))},
      {8, bytes_of(std::span<const G1Affine>(pk.l_query.data(), pk.l_query.size()))},
      {9, bytes_of(std::span<const G1Affine>(pk.h_query.data(), pk.h_query.size()))},
      {10, contributions},
  };
  write_sections(path, sections);
}

#define PL_INSTANTIATE_ZKEY_WRITER(Curve)                                                         \
  template void write_zkey(const std::filesystem::path&, const BasicProvingKey<Curve>&,           \
                           const BasicVerifyingKey<Curve>&, const BasicConstraintSystem<Curve>&); \
  template std::uint64_t zkey_file_size(const BasicProvingKey<Curve>&, const BasicConstraintSystem<Curve>&);
PL_INSTANTIATE_ZKEY_WRITER(Bls12_381)
PL_INSTANTIATE_ZKEY_WRITER(Bn254)
#undef PL_INSTANTIATE_ZKEY_WRITER

}  // namespace proofline::groth16
