#include <proofline/groth16/r1cs_file.hpp>

#include <optional>
#include <string>
#include <vector>

#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/iden3_fields.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::uint32_t r1cs_version = 1;
constexpr std::uint32_t section_header = 1;
constexpr std::uint32_t section_constraints = 2;
constexpr std::uint32_t section_wire_map = 3;
constexpr std::uint32_t section_custom_gates_list = 4;
constexpr std::uint32_t section_custom_gates_uses = 5;
constexpr std::uint32_t n8 = 32;
constexpr std::uint64_t term_bytes = 4 + n8;

template <class Curve>
struct MatrixBuilder {
  using Fr = typename Curve::Fr;
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint32_t> columns;
  std::vector<Fr> values;

  BasicCsrMatrix<Curve> take() {
    return BasicCsrMatrix<Curve>{SharedArray<std::uint64_t>(std::move(offsets)),
                                 SharedArray<std::uint32_t>(std::move(columns)),
                                 SharedArray<Fr>(std::move(values))};
  }
};

R1csHeader parse_header(const BinFile& file) {
  BinReader head(file, file.require(section_header, "header section"), "header section");
  const std::uint32_t field_bytes = head.u32("n8");
  if (field_bytes != n8) {
    const std::string what = field_bytes == 8 ? " (a Goldilocks circuit?)" : "";
    file.fail("field elements of " + std::to_string(field_bytes) +
              " bytes: not a bn128 or BLS12-381 circuit (their scalars take 32 bytes)" + what);
  }
  const auto prime = head.bytes(n8, "the prime");
  const std::optional<CurveId> curve = detail::curve_of_scalar_prime(prime);
  if (!curve)
    file.fail("the circuit is over " + detail::describe_prime(prime) +
              ", not the scalar field of bn128 or BLS12-381");
  R1csHeader header;
  header.curve = *curve;
  header.num_wires = head.u32("nWires");
  header.num_public_outputs = head.u32("nPubOut");
  header.num_public_inputs = head.u32("nPubIn");
  header.num_private_inputs = head.u32("nPrvIn");
  header.num_labels = head.u64("nLabels");
  header.num_constraints = head.u32("nConstraints");
  head.expect_end();
  if (header.num_wires == 0) file.fail("the circuit has no wires (wire 0 is the constant 1)");
  const std::uint64_t inputs = 1 + header.num_public() + std::uint64_t{header.num_private_inputs};
  if (inputs > header.num_wires)
    file.fail("1 + " + std::to_string(header.num_public_outputs) + " outputs + " +
              std::to_string(header.num_public_inputs) + " public + " +
              std::to_string(header.num_private_inputs) + " private inputs do not fit in " +
              std::to_string(header.num_wires) + " wires");
  return header;
}

template <class Curve>
void read_combination(BinReader& in, const BinFile& file, std::uint32_t wires, MatrixBuilder<Curve>& out,
                      std::uint32_t constraint, const char* matrix) {
  using Fr = typename Curve::Fr;
  const std::uint32_t terms = in.u32("a term count");
  const auto bytes = in.array(terms, term_bytes, "the terms");
  const std::byte* p = bytes.data();
  for (std::uint32_t t = 0; t < terms; ++t, p += term_bytes) {
    const std::uint32_t wire = detail::load_u32(p);
    if (wire >= wires)
      file.fail("constraint " + std::to_string(constraint) + ", " + matrix + ": wire " +
                std::to_string(wire) + " is not below nWires = " + std::to_string(wires));
    const auto value = detail::load_bigint<4>(p + 4);
    if (!Fr::is_canonical(value))
      file.fail("constraint " + std::to_string(constraint) + ", " + matrix + ": the coefficient of wire " +
                std::to_string(wire) + " is not below r");
    out.columns.push_back(wire);
    out.values.push_back(Fr::from_canonical(value));
  }
  out.offsets.push_back(out.columns.size());
}

template <class Curve>
BasicR1csFile<Curve> parse(const BinFile& file, const R1csOptions& options) {
  if (file.find(section_custom_gates_list, "custom gates list") != nullptr ||
      file.find(section_custom_gates_uses, "custom gates application") != nullptr)
    file.fail("the circuit uses custom gates (pragma custom_templates), which only PLONK can prove");
  BasicR1csFile<Curve> out;
  out.header = parse_header(file);
  if (out.header.curve != Curve::id)
    file.fail("the circuit is over " + std::string(curve_name(out.header.curve)) + "'s scalar field, not " +
              std::string(Curve::name) + "'s as this caller expects");
  const R1csHeader& h = out.header;

  // The map's size bounds nWires by the file's, before anything is sized by a count from the header: the
  // input rows below take memory for every public wire, and nothing else limits how many the header claims.
  const BinFile::Section* map = file.find(section_wire_map, "wire-to-label map");
  if (map != nullptr && map->size != std::uint64_t{h.num_wires} * 8)
    file.fail("the wire-to-label map has " + std::to_string(map->size) + " bytes, " +
              std::to_string(h.num_wires) + " wires need " + std::to_string(std::uint64_t{h.num_wires} * 8));
  if (map == nullptr && options.snarkjs_input_rows)
    file.fail("no wire-to-label map (section 3), which circom always writes: without it the header's " +
              std::to_string(h.num_public()) +
              " public wires are not backed by the file, and snarkjs's input rows are not made for them");

  const BinFile::Section& section = file.require(section_constraints, "constraints section");
  BinReader in(file, section, "constraints section");
  // Each constraint takes at least its three term counts: a count the section cannot hold is truncation, and
  // must not size a reservation.
  if (std::uint64_t{h.num_constraints} * 12 > section.size)
    in.fail("truncated: " + std::to_string(h.num_constraints) + " constraints cannot fit in " +
            std::to_string(section.size) + " bytes");
  const std::uint64_t input_rows = options.snarkjs_input_rows ? h.num_public() + 1 : 0;
  const std::uint64_t rows = std::uint64_t{h.num_constraints} + input_rows;
  const std::uint64_t terms_estimate = section.size / term_bytes;
  MatrixBuilder<Curve> a, b, c;
  for (MatrixBuilder<Curve>* m : {&a, &b, &c}) {
    m->offsets.reserve(rows + 1);
    m->columns.reserve(terms_estimate / 3 + input_rows);
    m->values.reserve(terms_estimate / 3 + input_rows);
  }
  for (std::uint32_t i = 0; i < h.num_constraints; ++i) {
    read_combination(in, file, h.num_wires, a, i, "A");
    read_combination(in, file, h.num_wires, b, i, "B");
    read_combination(in, file, h.num_wires, c, i, "C");
  }
  in.expect_end();
  for (std::uint64_t s = 0; s < input_rows; ++s) {
    a.columns.push_back(static_cast<std::uint32_t>(s));
    a.values.push_back(Curve::Fr::one());
    a.offsets.push_back(a.columns.size());
    b.offsets.push_back(b.columns.size());
    c.offsets.push_back(c.columns.size());
  }

  out.cs.num_variables = h.num_wires;
  out.cs.num_public = h.num_public();
  out.cs.a = a.take();
  out.cs.b = b.take();
  out.cs.c = c.take();
  // Everything was checked on the way in; this guards the invariants evaluate() relies on.
  validate(out.cs, Errc::bad_input, file.name(), /*check_values=*/false);
  return out;
}

}  // namespace

template <class Curve>
BasicR1csFile<Curve> read_r1cs(const std::filesystem::path& path, const R1csOptions& options) {
  return parse<Curve>(BinFile::open(path, "r1cs", ".r1cs", r1cs_version), options);
}

template <class Curve>
BasicR1csFile<Curve> parse_r1cs(std::span<const std::byte> image, std::string_view name,
                                const R1csOptions& options) {
  return parse<Curve>(BinFile::from_memory(nullptr, image, std::string(name), "r1cs", ".r1cs", r1cs_version),
                      options);
}

CurveId r1cs_curve(const std::filesystem::path& path) {
  return parse_header(BinFile::open(path, "r1cs", ".r1cs", r1cs_version)).curve;
}

template BasicR1csFile<Bls12_381> read_r1cs<Bls12_381>(const std::filesystem::path&, const R1csOptions&);
template BasicR1csFile<Bn254> read_r1cs<Bn254>(const std::filesystem::path&, const R1csOptions&);
template BasicR1csFile<Bls12_381> parse_r1cs<Bls12_381>(std::span<const std::byte>, std::string_view,
                                                        const R1csOptions&);
template BasicR1csFile<Bn254> parse_r1cs<Bn254>(std::span<const std::byte>, std::string_view,
                                                const R1csOptions&);

}  // namespace proofline::groth16
