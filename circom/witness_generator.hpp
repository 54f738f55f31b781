// A circom witness generator run in-process: circom's --c output, or its --wasm output translated to C, built
// once into a shared object (generator_build.hpp), loaded, and asked for witnesses from input JSON. Witnesses
// are written straight into the caller's memory (a job's pinned slot, through witness_from_input), never into
// .wtns files.
//
//   auto generator = circom::WitnessGenerator::open("multiplier_cpp");
//   generator->check_curve(CurveId::bn254, "multiplier.zkey");
//   generator->check_fits(pk.num_variables, "multiplier.zkey");
//   prover.submit({.key = key, .witness = circom::witness_from_input(generator, "input.json")});
//
// Thread safety: compute_into may run on many threads at once (one circom calculator, or one instance of the
// wasm module, per call).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/circom/generator_build.hpp>
#include <proofline/graph/job.hpp>

namespace proofline::circom {

class WitnessGenerator {
 public:
  /// Builds (or finds in the cache) and loads the generator of `cpp_dir`: circom's --c output folder
  /// (CIRCUIT_cpp/), its --wasm output folder (CIRCUIT_js/) or .wasm file. Error(bad_input) for a path
  /// that is not circom's output or a circuit compiled for a prime that is neither curve's r (circom
  /// --prime bls12381 for BLS12-381, circom's default bn128 for BN254), Error(io) when building fails.
  static std::shared_ptr<const WitnessGenerator> open(const std::filesystem::path& cpp_dir,
                                                      const BuildOptions& options = {});
  ~WitnessGenerator();
  WitnessGenerator(const WitnessGenerator&) = delete;
  WitnessGenerator& operator=(const WitnessGenerator&) = delete;

  const std::string& circuit_name() const noexcept { return built_.circuit_name; }
  const BuiltGenerator& built() const noexcept { return built_; }
  /// Values in a witness, z[0] = 1 included: the key's variable count.
  std::uint64_t witness_size() const noexcept { return witness_size_; }
  /// The curve whose scalar field (r) is the prime the circuit was compiled for: its witnesses' field.
  CurveId curve() const noexcept { return curve_; }

  /// Error(bad_input) unless the circuit's prime is the r of `key_curve`, naming both primes and the key.
  void check_curve(CurveId key_curve, std::string_view key_name) const;
  /// Error(bad_input) unless the witness fits a key of `num_variables` variables (`key_name` in the message).
  void check_fits(std::uint64_t num_variables, std::string_view key_name) const;

  /// How many of main's input signals the circuit's .sym file named (messages name those; circom's C++ and
  /// wasm output keep no names), and how many there are (for wasm output whose input map proofline cannot
  /// read, how many the .sym file showed).
  /// The .sym file is CIRCUIT.sym beside CIRCUIT_cpp/ or CIRCUIT_js/, as circom --sym -o writes it, or
  /// inside it; sym_file() is it, when there was one.
  std::uint64_t named_inputs() const noexcept { return named_inputs_; }
  std::uint64_t inputs() const noexcept { return inputs_; }
  const std::optional<std::filesystem::path>& sym_file() const noexcept { return sym_; }

  /// Checks `input_json` as compute_into does before running the circuit - JSON, numbers, and the signals
  /// against main's inputs (unknown, missing or mis-sized ones, every one named: "signal \"in\" of main
  /// expects 3 values, got 2") - without running it. Error(bad_input) with that message.
  void check_input(std::string_view input_json) const;

  /// The witness of `input_json` into `out` (witness_size() elements). Throws Error(bad_input) with the
  /// generator's message: bad JSON, an unknown signal or a wrong number of values, or "the witness does not
  /// satisfy the circuit: <circom's message>" for a failing assert or constraint. The span's field must be
  /// the generator's (curve()): Error(invalid_argument) otherwise. Once `stop` is set (a job's
  /// WitnessTarget::stop), the circuit's code stops at its next loop iteration or branch: Error(cancelled).
  void compute_into(std::string_view input_json, std::span<Fr> out,
                    const std::atomic<bool>* stop = nullptr) const;
  void compute_into(std::string_view input_json, std::span<bn254::Fr> out,
                    const std::atomic<bool>* stop = nullptr) const;
  /// The witness in the generator's field: a std::vector<Fr> or std::vector<bn254::Fr> (curve()).
  std::vector<Fr> compute(std::string_view input_json) const;
  std::vector<bn254::Fr> compute_bn254(std::string_view input_json) const;
  /// The witness as a .wtns file's values section holds it (groth16::write_wtns_canonical): witness_size()
  /// values of 32 bytes, canonical (each checked below curve()'s r) and little-endian. Errors as
  /// compute_into's (`stop` as there).
  std::vector<std::byte> compute_canonical(std::string_view input_json,
                                           const std::atomic<bool>* stop = nullptr) const;

 private:
  WitnessGenerator() = default;
  struct Api;

  /// The generator's canonical little-endian output into `bytes` (witness_size() values of 32 bytes).
  void compute_bytes(std::string_view input_json, unsigned char* bytes, std::size_t values,
                     const std::atomic<bool>* stop = nullptr) const;
  void check_field(CurveId field) const;

  BuiltGenerator built_;
  std::filesystem::path cpp_dir_;
  void* library_ = nullptr;
  void* circuit_ = nullptr;
  std::uint64_t witness_size_ = 0;
  std::uint64_t named_inputs_ = 0, inputs_ = 0;
  std::optional<std::filesystem::path> sym_;
  CurveId curve_ = CurveId::bls12_381;
  std::unique_ptr<Api> api_;
};

/// A job's witness source: reads `input` (JSON) when the job is synthesized and computes its witness into the
/// job's slot, in the generator's field (the callback's curve, which submit checks against the key's). Errors
/// name the file.
graph::WitnessCallback witness_from_input(std::shared_ptr<const WitnessGenerator> generator,
                                          std::filesystem::path input);

/// Reads a whole input file; Error(bad_input) naming it when it cannot be read.
std::string read_input_file(const std::filesystem::path& input);

}  // namespace proofline::circom
