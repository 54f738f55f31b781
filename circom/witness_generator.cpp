#include <proofline/circom/witness_generator.hpp>

#include <dlfcn.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/int_text.hpp>
#include <proofline/util/error.hpp>

namespace proofline::circom {

namespace {

namespace fs = std::filesystem;

constexpr int expected_abi = 1;
constexpr std::size_t error_capacity = 4096;

BigInt<4> le_bigint(const unsigned char* bytes) {
  BigInt<4> value;
  for (std::size_t i = 0; i < 4; ++i) std::memcpy(&value.limb[i], bytes + 8 * i, 8);
  return value;
}

/// "bn128" for BN254's r: the prime a circuit compiled without --prime most likely has.
std::string prime_name(const BigInt<4>& prime) {
  const std::string decimal = to_decimal(prime);
  if (decimal == "21888242871839275222246405745257275088548364400416034343698204186575808495617")
    return "bn128 (" + decimal + ")";
  return decimal;
}

}  // namespace

struct WitnessGenerator::Api {
  int (*abi_version)();
  void (*prime)(unsigned char*);
  std::uint64_t (*witness_size)();
  void* (*load)(const char*, char*, std::size_t);
  void (*free_circuit)(void*);
  int (*compute)(const void*, const char*, std::size_t, unsigned char*, std::uint64_t, char*, std::size_t);
};

namespace {

template <class Fn>
void bind(void* library, const fs::path& path, const char* name, Fn& target) {
  void* symbol = ::dlsym(library, name);
  if (symbol == nullptr)
    throw Error(Errc::bad_input, path.string() + ": no " + name + " (not a proofline circom generator)");
  target = reinterpret_cast<Fn>(symbol);
}

}  // namespace

std::shared_ptr<const WitnessGenerator> WitnessGenerator::open(const fs::path& cpp_dir,
                                                               const BuildOptions& options) {
  std::shared_ptr<WitnessGenerator> g(new WitnessGenerator());
  g->built_ = build_generator(cpp_dir, options);
  // RTLD_LOCAL: two circuits' generators define the same (hidden) names and must not see each other's.
  g->library_ = ::dlopen(g->built_.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (g->library_ == nullptr)
    throw Error(Errc::io, g->built_.library.string() + ": cannot load: " + ::dlerror());
  g->api_ = std::make_unique<Api>();
  Api& api = *g->api_;
  const fs::path& so = g->built_.library;
  bind(g->library_, so, "proofline_circom_abi_version", api.abi_version);
  if (api.abi_version() != expected_abi)
    throw Error(Errc::bad_input, so.string() + ": built by another proofline");
  bind(g->library_, so, "proofline_circom_prime", api.prime);
  bind(g->library_, so, "proofline_circom_witness_size", api.witness_size);
  bind(g->library_, so, "proofline_circom_load", api.load);
  bind(g->library_, so, "proofline_circom_free", api.free_circuit);
  bind(g->library_, so, "proofline_circom_compute", api.compute);
  unsigned char prime[32];
  api.prime(prime);
  if (le_bigint(prime) != FrParams::modulus)
    throw Error(Errc::bad_input,
                cpp_dir.string() + ": the circuit was compiled for the prime " +
                    prime_name(le_bigint(prime)) +
                    "; proofline proves on BLS12-381: compile it with circom --prime bls12381");
  g->witness_size_ = api.witness_size();
  std::string error(error_capacity, '\0');
  g->circuit_ = api.load(g->built_.dat.c_str(), error.data(), error.size());
  if (g->circuit_ == nullptr) throw Error(Errc::bad_input, error.c_str());
  return g;
}

WitnessGenerator::~WitnessGenerator() {
  if (circuit_ != nullptr) api_->free_circuit(circuit_);
  if (library_ != nullptr) ::dlclose(library_);
}

void WitnessGenerator::check_fits(std::uint64_t num_variables, std::string_view key_name) const {
  if (num_variables != witness_size_)
    throw Error(Errc::bad_input, "the circuit " + circuit_name() + " makes witnesses of " +
                                     std::to_string(witness_size_) + " values, " + std::string(key_name) +
                                     " expects " + std::to_string(num_variables) +
                                     " variables (a key of another circuit?)");
}

void WitnessGenerator::compute_into(std::string_view input_json, std::span<Fr> out) const {
  static_assert(sizeof(Fr) == 32);
  if (out.size() != witness_size_)
    throw Error(Errc::invalid_argument, "the witness buffer holds " + std::to_string(out.size()) +
                                            " values, the circuit's witness " +
                                            std::to_string(witness_size_));
  // The generator writes canonical little-endian integers where the field elements go; each is then
  // converted in place into Montgomery form.
  auto* bytes = reinterpret_cast<unsigned char*>(out.data());
  std::string error(error_capacity, '\0');
  const int status = api_->compute(circuit_, input_json.data(), input_json.size(), bytes, out.size(),
                                   error.data(), error.size());
  if (status == 2)
    throw Error(Errc::bad_input, std::string("witness does not satisfy the circuit: ") + error.c_str());
  if (status != 0) throw Error(Errc::bad_input, error.c_str());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const BigInt<4> value = le_bigint(bytes + 32 * i);
    if (!Fr::is_canonical(value))
      throw Error(Errc::internal, "the generator wrote a value not below r at index " + std::to_string(i));
    out[i] = Fr::from_canonical(value);
  }
}

std::vector<Fr> WitnessGenerator::compute(std::string_view input_json) const {
  std::vector<Fr> z(witness_size_);
  compute_into(input_json, z);
  return z;
}

std::string read_input_file(const fs::path& input) {
  std::ifstream in(input, std::ios::binary);
  if (!in) throw Error(Errc::bad_input, input.string() + ": cannot read the input file");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

graph::WitnessCallback witness_from_input(std::shared_ptr<const WitnessGenerator> generator, fs::path input) {
  return graph::WitnessCallback{
      [generator = std::move(generator), input = std::move(input)](const graph::WitnessTarget& t) {
        try {
          generator->compute_into(read_input_file(input), t.z.unchecked());
        } catch (const Error& e) {
          const std::string what = e.what();
          // read_input_file names the file already.
          if (what.rfind(input.string() + ":", 0) == 0) throw;
          throw Error(e.code(), input.string() + ": " + what);
        }
      }};
}

}  // namespace proofline::circom
