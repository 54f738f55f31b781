// Bytes after the last section of a .wtns, .zkey or .r1cs: snarkjs and circom write each file to its exact
// length, so the files they made (the fixtures) must load, and the same files with anything after their last
// section - one stray byte, or a second file run on after the first - are refused naming the file, the offset
// and the byte count.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include <proofline/groth16/r1cs_file.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>

#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

struct Format {
  std::string file;                                                           ///< in each fixture folder
  std::function<void(const std::filesystem::path&)> read;                     ///< the reader of a file
  std::function<void(std::span<const std::byte>, const std::string&)> parse;  ///< of an image in memory
};

template <class Curve>
std::vector<Format> formats() {
  using F = typename Curve::Fr;
  return {
      {"witness.wtns", [](const auto& path) { read_wtns<F>(path); },
       [](auto image, const auto& name) { parse_wtns<F>(image, name); }},
      {"circuit_final.zkey", [](const auto& path) { read_zkey<Curve>(path); },
       [](auto image, const auto& name) { parse_zkey<Curve>(nullptr, image, name); }},
      {"circuit.r1cs", [](const auto& path) { read_r1cs<Curve>(path); },
       [](auto image, const auto& name) { parse_r1cs<Curve>(image, name); }},
  };
}

/// The file as snarkjs wrote it loads; with `extra` appended it is refused, naming it, where its sections end
/// and how many bytes follow.
void check_refused_with(const Format& format, const std::filesystem::path& original,
                        const std::vector<std::byte>& extra, const std::filesystem::path& dir) {
  const std::vector<std::byte> good = file_bytes(original);
  std::vector<std::byte> bad = good;
  bad.insert(bad.end(), extra.begin(), extra.end());
  const auto path = dir / ("bad-" + original.filename().string());
  write_file_bytes(path, bad);
  const std::string count =
      std::to_string(extra.size()) + (extra.size() == 1 ? " unexpected byte " : " unexpected bytes ");
  const std::string where = "after the last section, at offset " + std::to_string(good.size()) + " of " +
                            std::to_string(bad.size());
  const std::string from_file = bad_input_message([&] { format.read(path); });
  CHECK(contains(from_file, path.string() + ": " + count + where));
  const std::string from_memory = bad_input_message([&] { format.parse(bad, "image"); });
  CHECK(contains(from_memory, "image: " + count + where));
}

template <class Curve>
void check_fixtures(const std::string& prefix) {
  groth16::test::TempDir dir;
  for (const std::string circuit : {"chain_16", "chain_1024"}) {
    for (const Format& format : formats<Curve>()) {
      const auto original = fixture(prefix + circuit, format.file);
      CAPTURE(original);
      format.read(original);  // as snarkjs (or circom) wrote it
      format.parse(file_bytes(original), "image");
      check_refused_with(format, original, {std::byte{0}}, dir.path());
      check_refused_with(format, original, file_bytes(original), dir.path());  // the file twice
    }
  }
}

}  // namespace

TEST_CASE("groth16/binfile/snarkjs's BLS12-381 files load and refuse bytes after their last section") {
  check_fixtures<Bls12_381>("");
}

TEST_CASE("groth16/binfile/snarkjs's bn128 files load and refuse bytes after their last section") {
  check_fixtures<Bn254>("bn128/");
}
