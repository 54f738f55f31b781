#include <proofline/groth16/wtns.hpp>

#include <atomic>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/iden3_fields.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::uint32_t wtns_version = 2;
constexpr std::uint32_t section_header = 1;
constexpr std::uint32_t section_values = 2;
constexpr std::uint32_t n8 = 32;
// Values per parallel task: big enough to amortize scheduling, small enough to spread a 2^20 witness.
constexpr std::size_t grain_values = 1 << 13;

struct Parsed {
  WtnsHeader header;
  std::span<const std::byte> values;
};

Parsed parse(const BinFile& file) {
  BinReader head(file, file.require(section_header, "header section"), "header section");
  const std::uint32_t field_bytes = head.u32("n8");
  if (field_bytes != n8)
    file.fail("field elements of " + std::to_string(field_bytes) +
              " bytes: not a bn128 or BLS12-381 witness (their scalars take 32 bytes)");
  const auto prime = head.bytes(n8, "the prime");
  const std::optional<CurveId> curve = detail::curve_of_scalar_prime(prime);
  if (!curve)
    file.fail("the witness is over " + detail::describe_prime(prime) +
              ", not the scalar field of bn128 or BLS12-381 (a witness for another curve's field)");
  Parsed out;
  out.header.curve = *curve;
  out.header.version = file.version();
  out.header.num_witness = head.u32("nWitness");
  head.expect_end();

  const BinFile::Section& values = file.require(section_values, "values section");
  if (values.size != out.header.num_witness * n8)
    file.fail("values section of " + std::to_string(values.size) + " bytes for " +
              std::to_string(out.header.num_witness) + " values of 32 bytes");
  out.header.values_offset = values.offset;
  out.values = file.payload(values);
  return out;
}

BinFile open_wtns(const std::filesystem::path& path) {
  return BinFile::open(path, "wtns", ".wtns", wtns_version);
}

/// A file image the caller keeps alive while the BinFile is in use.
BinFile wtns_image(std::span<const std::byte> image, std::string_view name) {
  return BinFile::from_memory(nullptr, image, std::string(name), "wtns", ".wtns", wtns_version);
}

[[noreturn]] void fail_not_below_r(const BinFile& file, std::uint64_t index) {
  file.fail("the value at index " + std::to_string(index) + " is not below the field modulus r");
}

[[noreturn]] void fail_first_not_one(const BinFile& file) {
  file.fail("w[0] is not 1 (every R1CS witness starts with the constant 1)");
}

constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();

/// Keeps the lowest index of a value not below r, so the message does not depend on the thread schedule.
void lower_to(std::atomic<std::uint64_t>& first_bad, std::uint64_t i) {
  std::uint64_t seen = first_bad.load();
  while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
  }
}

template <class Fr>
void check_values_as(const BinFile& file, const Parsed& parsed) {
  std::atomic<std::uint64_t> first_bad{none};
  const std::byte* values = parsed.values.data();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, parsed.header.num_witness, grain_values),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t i = range.begin(); i != range.end(); ++i)
                        if (!Fr::is_canonical(detail::load_bigint<4>(values + i * n8))) {
                          lower_to(first_bad, i);
                          return;
                        }
                    });
  if (const std::uint64_t bad = first_bad.load(); bad != none) fail_not_below_r(file, bad);
  if (parsed.header.num_witness != 0 && !Fr::from_canonical(detail::load_bigint<4>(values)).is_one())
    fail_first_not_one(file);
}

void check_values(const BinFile& file, const Parsed& parsed) {
  with_curve(parsed.header.curve, [&]<class Curve>() { check_values_as<typename Curve::Fr>(file, parsed); });
}

void check_curve(const BinFile& file, const Parsed& parsed, CurveId expected) {
  if (parsed.header.curve != expected)
    file.fail("the witness is over " + std::string(curve_name(parsed.header.curve)) +
              "'s scalar field, not " + std::string(curve_name(expected)) +
              "'s (a witness for a key of the other curve)");
}

template <class Fr>
void convert(const BinFile& file, const Parsed& parsed, std::span<Fr> out) {
  check_curve(file, parsed, std::is_same_v<Fr, Bn254::Fr> ? CurveId::bn254 : CurveId::bls12_381);
  if (parsed.header.num_witness != out.size())
    file.fail("the witness has " + std::to_string(parsed.header.num_witness) + " values, the circuit " +
              std::to_string(out.size()) + " variables");
  std::atomic<std::uint64_t> first_bad{none};
  const std::byte* values = parsed.values.data();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), grain_values),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t i = range.begin(); i != range.end(); ++i) {
                        const auto value = detail::load_bigint<4>(values + i * n8);
                        if (!Fr::is_canonical(value)) {
                          lower_to(first_bad, i);
                          continue;
                        }
                        out[i] = Fr::from_canonical(value);
                      }
                    });
  if (const std::uint64_t bad = first_bad.load(); bad != none) fail_not_below_r(file, bad);
  if (!out.empty() && !out[0].is_one()) fail_first_not_one(file);
}

}  // namespace

WtnsHeader read_wtns_header(const std::filesystem::path& path) {
  return parse(open_wtns(path)).header;
}

WtnsHeader check_wtns(const std::filesystem::path& path, std::optional<CurveId> curve) {
  const BinFile file = open_wtns(path);
  const Parsed parsed = parse(file);
  if (curve) check_curve(file, parsed, *curve);
  check_values(file, parsed);
  return parsed.header;
}

void read_wtns_into(const std::filesystem::path& path, std::span<Fr> out) {
  const BinFile file = open_wtns(path);
  convert(file, parse(file), out);
}

void read_wtns_into(const std::filesystem::path& path, std::span<bn254::Fr> out) {
  const BinFile file = open_wtns(path);
  convert(file, parse(file), out);
}

WtnsHeader read_wtns_header(std::span<const std::byte> image, std::string_view name) {
  return parse(wtns_image(image, name)).header;
}

void read_wtns_into(std::span<const std::byte> image, std::string_view name, std::span<Fr> out) {
  const BinFile file = wtns_image(image, name);
  convert(file, parse(file), out);
}

void read_wtns_into(std::span<const std::byte> image, std::string_view name, std::span<bn254::Fr> out) {
  const BinFile file = wtns_image(image, name);
  convert(file, parse(file), out);
}

template <class F>
std::vector<F> read_wtns(const std::filesystem::path& path) {
  const BinFile file = open_wtns(path);
  const Parsed parsed = parse(file);
  std::vector<F> z(parsed.header.num_witness);
  convert(file, parsed, std::span<F>(z));
  return z;
}

template <class F>
std::vector<F> parse_wtns(std::span<const std::byte> image, std::string_view name) {
  const BinFile file = wtns_image(image, name);
  const Parsed parsed = parse(file);
  std::vector<F> z(parsed.header.num_witness);
  convert(file, parsed, std::span<F>(z));
  return z;
}

template std::vector<Fr> read_wtns<Fr>(const std::filesystem::path&);
template std::vector<bn254::Fr> read_wtns<bn254::Fr>(const std::filesystem::path&);
template std::vector<Fr> parse_wtns<Fr>(std::span<const std::byte>, std::string_view);
template std::vector<bn254::Fr> parse_wtns<bn254::Fr>(std::span<const std::byte>, std::string_view);

namespace {

void check_length(std::string_view name, const WtnsHeader& header, std::uint64_t num_variables,
                  std::string_view key_name) {
  if (header.num_witness != num_variables)
    throw Error(Errc::bad_input, std::string(name) + ": the witness has " +
                                     std::to_string(header.num_witness) + " values, " +
                                     std::string(key_name) + " expects " + std::to_string(num_variables) +
                                     " variables (a witness of another circuit?)");
}

}  // namespace

void check_wtns_length(const std::filesystem::path& path, const WtnsHeader& header,
                       std::uint64_t num_variables, std::string_view key_name) {
  check_length(path.string(), header, num_variables, key_name);
}

WtnsHeader read_wtns_header_for(std::span<const std::byte> image, std::string_view name, CurveId curve,
                                std::uint64_t num_variables, std::string_view key_name) {
  const BinFile file = wtns_image(image, name);
  const Parsed parsed = parse(file);
  check_curve(file, parsed, curve);
  check_length(name, parsed.header, num_variables, key_name);
  return parsed.header;
}

namespace {

/// The file of `count` values, `fill` writing them (count × n8 bytes) into the values section.
template <class Fr, class Fill>
std::vector<std::byte> wtns_file(std::size_t count, const Fill& fill) {
  if (count > std::numeric_limits<std::uint32_t>::max())
    throw Error(Errc::invalid_argument, "wtns: a .wtns file holds at most 2^32 - 1 values");
  std::vector<std::byte> header;
  append_u32(header, n8);
  std::byte prime[n8];
  detail::store_bigint(prime, Fr::modulus);
  append_bytes(header, prime);
  append_u32(header, static_cast<std::uint32_t>(count));
  std::vector<std::byte> values(count * n8);
  fill(values.data());
  BinFileWriter writer("wtns", wtns_version);
  writer.add_section(section_header, std::move(header));
  writer.add_section(section_values, std::move(values));
  return writer.bytes();
}

template <class Fr>
std::vector<std::byte> wtns_bytes_of(std::span<const Fr> z) {
  return wtns_file<Fr>(z.size(), [&](std::byte* values) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, z.size(), grain_values),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i != range.end(); ++i)
                          detail::store_bigint(values + i * n8, z[i].canonical());
                      });
  });
}

template <class Fr>
void write_wtns_of(const std::filesystem::path& path, std::span<const Fr> z) {
  if (z.size() > std::numeric_limits<std::uint32_t>::max())
    throw Error(Errc::invalid_argument, path.string() + ": a .wtns file holds at most 2^32 - 1 values");
  write_file_atomically(path, wtns_bytes(z), FilePermissions::owner_only);
}

}  // namespace

std::vector<std::byte> wtns_bytes(std::span<const Fr> z) {
  return wtns_bytes_of(z);
}
std::vector<std::byte> wtns_bytes(std::span<const bn254::Fr> z) {
  return wtns_bytes_of(z);
}
void write_wtns(const std::filesystem::path& path, std::span<const Fr> z) {
  write_wtns_of(path, z);
}
void write_wtns(const std::filesystem::path& path, std::span<const bn254::Fr> z) {
  write_wtns_of(path, z);
}

std::vector<std::byte> wtns_bytes_canonical(CurveId curve, std::span<const std::byte> values) {
  if (values.size() % n8 != 0)
    throw Error(Errc::invalid_argument, "wtns: " + std::to_string(values.size()) +
                                            " bytes of values, not a whole number of 32-byte values");
  const auto copy = [&](std::byte* out) {
    if (!values.empty()) std::memcpy(out, values.data(), values.size());
  };
  return curve == CurveId::bn254 ? wtns_file<bn254::Fr>(values.size() / n8, copy)
                                 : wtns_file<Fr>(values.size() / n8, copy);
}

void write_wtns_canonical(const std::filesystem::path& path, CurveId curve,
                          std::span<const std::byte> values) {
  if (values.size() / n8 > std::numeric_limits<std::uint32_t>::max())
    throw Error(Errc::invalid_argument, path.string() + ": a .wtns file holds at most 2^32 - 1 values");
  write_file_atomically(path, wtns_bytes_canonical(curve, values), FilePermissions::owner_only);
}

}  // namespace proofline::groth16
