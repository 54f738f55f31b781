#include <proofline/groth16/native_file.hpp>

#include <cstring>
#include <string>
#include <vector>

#include <proofline/groth16/detail/checksum.hpp>
#include <proofline/groth16/detail/native_container.hpp>

namespace proofline::groth16 {

namespace {

using detail::NativeImage;
using detail::SectionSource;
using Params = std::array<std::uint64_t, detail::native_param_count>;

// Proving key params.
enum : std::size_t {
  pk_num_variables,
  pk_num_public,
  pk_log_domain,
  pk_h_points,
  pk_l_points,
  pk_has_vk,
  pk_ic_points,
  pk_circuit_digest,
  pk_param_count
};
// Verifying key params.
enum : std::size_t { vk_num_public, vk_ic_points, vk_param_count };
// Constraint system params.
enum : std::size_t {
  cs_rows,
  cs_num_variables,
  cs_num_public,
  cs_has_c,
  cs_nnz_a,
  cs_nnz_b,
  cs_nnz_c,
  cs_param_count
};

constexpr std::size_t pk_fixed_bytes = 3 * sizeof(G1Affine) + 2 * sizeof(G2Affine);
constexpr std::size_t vk_fixed_bytes = sizeof(G1Affine) + 3 * sizeof(G2Affine);

/// Packs trivially copyable values back to back.
class Packer {
 public:
  template <class T>
  Packer& put(const T& value) {
    const auto* bytes = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), bytes, bytes + sizeof(T));
    return *this;
  }
  std::span<const std::byte> bytes() const { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

class Unpacker {
 public:
  explicit Unpacker(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <class T>
  Unpacker& get(T& value) {
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return *this;
  }

 private:
  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
};

Packer pack_vk_fixed(const VerifyingKey& vk) {
  Packer packer;
  packer.put(vk.alpha1).put(vk.beta2).put(vk.gamma2).put(vk.delta2);
  return packer;
}

void require_unused_params_zero(const NativeImage& image, std::size_t used) {
  for (std::size_t i = used; i < detail::native_param_count; ++i)
    if (image.param(i) != 0)
      image.fail("corrupt header: unused parameter " + std::to_string(i) + " is not zero");
}

void require_only_sections(const NativeImage& image, std::initializer_list<std::uint32_t> allowed,
                           const char* kind) {
  for (std::uint32_t id = 0; id < 64; ++id) {
    if (image.find(id) == nullptr) continue;
    bool ok = false;
    for (const auto a : allowed) ok = ok || a == id;
    if (!ok) image.fail(std::string(detail::section_name(id)) + " does not belong in a " + kind + " file");
  }
}

VerifyingKey read_vk_sections(const NativeImage& image, std::uint64_t ic_points) {
  VerifyingKey vk;
  Unpacker(image.raw(detail::vk_fixed, vk_fixed_bytes, detail::section_name(detail::vk_fixed)))
      .get(vk.alpha1)
      .get(vk.beta2)
      .get(vk.gamma2)
      .get(vk.delta2);
  const auto ic = image.array<G1Affine>(detail::vk_ic, ic_points, detail::section_name(detail::vk_ic));
  vk.ic.assign(ic.begin(), ic.end());
  validate(vk, Errc::bad_input, image.name());
  return vk;
}

Loaded<ProvingKeyFile> build_proving_key(const NativeImage& image, const LoadOptions& options) {
  const std::uint32_t convention = image.header().convention;
  if (convention != 1 && convention != 2)
    image.fail("unknown H convention " + std::to_string(convention) + " in a proving key");
  require_unused_params_zero(image, pk_param_count);
  ProvingKeyFile file;
  ProvingKey& pk = file.pk;
  pk.convention = convention == 1 ? HConvention::generator7 : HConvention::snarkjs;
  pk.num_variables = image.param(pk_num_variables);
  pk.num_public = image.param(pk_num_public);
  const std::uint64_t log_domain = image.param(pk_log_domain);
  if (log_domain < 1 || log_domain > max_ntt_log_size)
    image.fail("log2 domain size " + std::to_string(log_domain) + " is outside 1.." +
               std::to_string(max_ntt_log_size));
  pk.log_domain_size = static_cast<unsigned>(log_domain);
  if (pk.num_variables == 0 || pk.num_variables > (std::uint64_t{1} << 32) ||
      pk.num_public >= pk.num_variables)
    image.fail(std::to_string(pk.num_public) + " public inputs and " + std::to_string(pk.num_variables) +
               " variables are not a valid shape");
  if (image.param(pk_h_points) != h_query_size(pk.convention, pk.domain_size()))
    image.fail("the header's H query size " + std::to_string(image.param(pk_h_points)) +
               " does not match its domain size and convention");
  if (image.param(pk_l_points) != pk.num_private())
    image.fail("the header's L query size " + std::to_string(image.param(pk_l_points)) + " is not the " +
               std::to_string(pk.num_private()) + " private variables");
  const std::uint64_t has_vk = image.param(pk_has_vk);
  if (has_vk > 1) image.fail("corrupt header: verifying-key flag " + std::to_string(has_vk));
  if (image.param(pk_ic_points) != (has_vk ? pk.num_public + 1 : 0))
    image.fail("the header's IC size " + std::to_string(image.param(pk_ic_points)) + " does not match " +
               std::to_string(pk.num_public) + " public inputs");
  if (has_vk) {
    require_only_sections(image,
                          {detail::pk_fixed, detail::pk_a, detail::pk_b1, detail::pk_b2, detail::pk_h,
                           detail::pk_l, detail::vk_fixed, detail::vk_ic},
                          "proving key");
  } else {
    require_only_sections(
        image, {detail::pk_fixed, detail::pk_a, detail::pk_b1, detail::pk_b2, detail::pk_h, detail::pk_l},
        "proving key");
  }
  Unpacker(image.raw(detail::pk_fixed, pk_fixed_bytes, detail::section_name(detail::pk_fixed)))
      .get(pk.alpha1)
      .get(pk.beta1)
      .get(pk.delta1)
      .get(pk.beta2)
      .get(pk.delta2);
  pk.a_query = image.array<G1Affine>(detail::pk_a, pk.num_variables, detail::section_name(detail::pk_a));
  pk.b1_query = image.array<G1Affine>(detail::pk_b1, pk.num_variables, detail::section_name(detail::pk_b1));
  pk.b2_query = image.array<G2Affine>(detail::pk_b2, pk.num_variables, detail::section_name(detail::pk_b2));
  pk.h_query =
      image.array<G1Affine>(detail::pk_h, image.param(pk_h_points), detail::section_name(detail::pk_h));
  pk.l_query = image.array<G1Affine>(detail::pk_l, pk.num_private(), detail::section_name(detail::pk_l));
  validate(pk, Errc::bad_input, image.name(), options.check_query_points || options.check_query_subgroups);
  if (options.check_query_subgroups)
    file.key_check = check_query_subgroups(pk, Errc::bad_input, image.name(), options.key_check);
  if (has_vk) file.vk = read_vk_sections(image, image.param(pk_ic_points));
  file.circuit_digest = image.param(pk_circuit_digest);
  return {std::move(file), image.bytes()};
}

CsrMatrix read_matrix(const NativeImage& image, std::uint32_t first_id, std::uint64_t rows,
                      std::uint64_t nonzeros) {
  CsrMatrix m;
  m.row_offsets = image.array<std::uint64_t>(first_id, rows + 1, detail::section_name(first_id));
  m.columns = image.array<std::uint32_t>(first_id + 1, nonzeros, detail::section_name(first_id + 1));
  m.values = image.array<Fr>(first_id + 2, nonzeros, detail::section_name(first_id + 2));
  return m;
}

Loaded<ConstraintSystem> build_constraint_system(const NativeImage& image, const LoadOptions& options) {
  if (image.header().convention != 0) image.fail("a constraint system file names an H convention");
  require_unused_params_zero(image, cs_param_count);
  const std::uint64_t rows = image.param(cs_rows);
  const std::uint64_t has_c = image.param(cs_has_c);
  if (has_c > 1) image.fail("corrupt header: C flag " + std::to_string(has_c));
  if (rows >= image.bytes() / sizeof(std::uint64_t))
    image.fail("the header's " + std::to_string(rows) + " rows cannot fit in the file");
  if (!has_c && image.param(cs_nnz_c) != 0) image.fail("the header gives C nonzeros but no C matrix");
  if (has_c) {
    require_only_sections(image,
                          {detail::cs_a_offsets, detail::cs_a_columns, detail::cs_a_values,
                           detail::cs_b_offsets, detail::cs_b_columns, detail::cs_b_values,
                           detail::cs_c_offsets, detail::cs_c_columns, detail::cs_c_values},
                          "constraint system");
  } else {
    require_only_sections(image,
                          {detail::cs_a_offsets, detail::cs_a_columns, detail::cs_a_values,
                           detail::cs_b_offsets, detail::cs_b_columns, detail::cs_b_values},
                          "constraint system");
  }
  ConstraintSystem cs;
  cs.num_variables = image.param(cs_num_variables);
  cs.num_public = image.param(cs_num_public);
  cs.a = read_matrix(image, detail::cs_a_offsets, rows, image.param(cs_nnz_a));
  cs.b = read_matrix(image, detail::cs_b_offsets, rows, image.param(cs_nnz_b));
  if (has_c) cs.c = read_matrix(image, detail::cs_c_offsets, rows, image.param(cs_nnz_c));
  validate(cs, Errc::bad_input, image.name(), options.verify_checksums);
  return {std::move(cs), image.bytes()};
}

void append_matrix(std::vector<SectionSource>& sections, std::uint32_t first_id, const CsrMatrix& m) {
  sections.push_back(detail::section_source(first_id, m.row_offsets.span()));
  sections.push_back(detail::section_source(first_id + 1, m.columns.span()));
  sections.push_back(detail::section_source(first_id + 2, m.values.span()));
}

}  // namespace

template <class Curve>
std::uint64_t digest(const BasicConstraintSystem<Curve>& cs) {
  std::vector<std::uint64_t> words = {cs.num_variables, cs.num_public, cs.num_constraints(), cs.c ? 1u : 0u};
  const auto add = [&](const BasicCsrMatrix<Curve>& m) {
    words.push_back(detail::section_checksum(m.row_offsets.data(), m.row_offsets.size_bytes()));
    words.push_back(detail::section_checksum(m.columns.data(), m.columns.size_bytes()));
    words.push_back(detail::section_checksum(m.values.data(), m.values.size_bytes()));
  };
  add(cs.a);
  add(cs.b);
  if (cs.c) add(*cs.c);
  return detail::xxh64(words.data(), words.size() * sizeof(std::uint64_t), 0x70726f6f666c6e31ULL);
}

template std::uint64_t digest(const BasicConstraintSystem<Bls12_381>&);
template std::uint64_t digest(const BasicConstraintSystem<Bn254>&);

void write_proving_key(const std::filesystem::path& path, const ProvingKey& pk, const VerifyingKey* vk,
                       std::uint64_t circuit_digest) {
  validate(pk, Errc::invalid_argument, "write_proving_key " + path.string());
  if (vk != nullptr) {
    validate(*vk, Errc::invalid_argument, "write_proving_key " + path.string());
    if (vk->num_public() != pk.num_public)
      throw Error(Errc::invalid_argument, "write_proving_key " + path.string() + ": the verifying key has " +
                                              std::to_string(vk->num_public()) +
                                              " public inputs, the proving key " +
                                              std::to_string(pk.num_public));
  }
  Params params{};
  params[pk_num_variables] = pk.num_variables;
  params[pk_num_public] = pk.num_public;
  params[pk_log_domain] = pk.log_domain_size;
  params[pk_h_points] = pk.h_query.size();
  params[pk_l_points] = pk.l_query.size();
  params[pk_has_vk] = vk != nullptr ? 1 : 0;
  params[pk_ic_points] = vk != nullptr ? vk->ic.size() : 0;
  params[pk_circuit_digest] = circuit_digest;
  Packer fixed;
  fixed.put(pk.alpha1).put(pk.beta1).put(pk.delta1).put(pk.beta2).put(pk.delta2);
  std::vector<SectionSource> sections = {
      {detail::pk_fixed, 1, fixed.bytes().data(), fixed.bytes().size()},
      detail::section_source(detail::pk_a, pk.a_query.span()),
      detail::section_source(detail::pk_b1, pk.b1_query.span()),
      detail::section_source(detail::pk_b2, pk.b2_query.span()),
      detail::section_source(detail::pk_h, pk.h_query.span()),
      detail::section_source(detail::pk_l, pk.l_query.span()),
  };
  Packer vk_fixed;
  if (vk != nullptr) {
    vk_fixed = pack_vk_fixed(*vk);
    sections.push_back({detail::vk_fixed, 1, vk_fixed.bytes().data(), vk_fixed.bytes().size()});
    sections.push_back(detail::section_source(detail::vk_ic, std::span<const G1Affine>(vk->ic)));
  }
  detail::write_native_file(path, NativeKind::proving_key, detail::encode_convention(pk.convention), params,
                            sections);
}

void write_verifying_key(const std::filesystem::path& path, const VerifyingKey& vk) {
  validate(vk, Errc::invalid_argument, "write_verifying_key " + path.string());
  Params params{};
  params[vk_num_public] = vk.num_public();
  params[vk_ic_points] = vk.ic.size();
  const Packer fixed = pack_vk_fixed(vk);
  const SectionSource sections[] = {{detail::vk_fixed, 1, fixed.bytes().data(), fixed.bytes().size()},
                                    detail::section_source(detail::vk_ic, std::span<const G1Affine>(vk.ic))};
  detail::write_native_file(path, NativeKind::verifying_key, 0, params, sections);
}

void write_constraint_system(const std::filesystem::path& path, const ConstraintSystem& cs) {
  validate(cs, Errc::invalid_argument, "write_constraint_system " + path.string(), false);
  Params params{};
  params[cs_rows] = cs.num_constraints();
  params[cs_num_variables] = cs.num_variables;
  params[cs_num_public] = cs.num_public;
  params[cs_has_c] = cs.c ? 1 : 0;
  params[cs_nnz_a] = cs.a.nonzeros();
  params[cs_nnz_b] = cs.b.nonzeros();
  params[cs_nnz_c] = cs.c ? cs.c->nonzeros() : 0;
  std::vector<SectionSource> sections;
  append_matrix(sections, detail::cs_a_offsets, cs.a);
  append_matrix(sections, detail::cs_b_offsets, cs.b);
  if (cs.c) append_matrix(sections, detail::cs_c_offsets, *cs.c);
  detail::write_native_file(path, NativeKind::constraint_system, 0, params, sections);
}

Loaded<ProvingKeyFile> load_proving_key(const std::filesystem::path& path, const LoadOptions& options) {
  return build_proving_key(NativeImage::open(path, NativeKind::proving_key, options), options);
}

VerifyingKey load_verifying_key(const std::filesystem::path& path, const LoadOptions& options) {
  const NativeKind kind = detail::read_native_kind(path);
  if (kind == NativeKind::proving_key) {
    auto file = load_proving_key(path, options);
    if (!file.value.vk)
      throw Error(Errc::bad_input, path.string() + ": the proving key carries no verifying key");
    return *file.value.vk;
  }
  const NativeImage image = NativeImage::open(path, NativeKind::verifying_key, options);
  if (image.header().convention != 0) image.fail("a verifying key file names an H convention");
  require_unused_params_zero(image, vk_param_count);
  if (image.param(vk_ic_points) != image.param(vk_num_public) + 1)
    image.fail("the header's IC size " + std::to_string(image.param(vk_ic_points)) +
               " is not num_public + 1");
  require_only_sections(image, {detail::vk_fixed, detail::vk_ic}, "verifying key");
  return read_vk_sections(image, image.param(vk_ic_points));
}

Loaded<ConstraintSystem> load_constraint_system(const std::filesystem::path& path,
                                                const LoadOptions& options) {
  return build_constraint_system(NativeImage::open(path, NativeKind::constraint_system, options), options);
}

Loaded<ProvingKeyFile> parse_proving_key(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                                         std::string_view name, const LoadOptions& options) {
  return build_proving_key(
      NativeImage::from_memory(std::move(owner), image, std::string(name), NativeKind::proving_key, options),
      options);
}

Loaded<ConstraintSystem> parse_constraint_system(std::shared_ptr<const void> owner,
                                                 std::span<const std::byte> image, std::string_view name,
                                                 const LoadOptions& options) {
  return build_constraint_system(NativeImage::from_memory(std::move(owner), image, std::string(name),
                                                          NativeKind::constraint_system, options),
                                 options);
}

NativeKind native_file_kind(const std::filesystem::path& path) {
  return detail::read_native_kind(path);
}

}  // namespace proofline::groth16
