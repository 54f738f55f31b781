#include <proofline/circom/witness_generator.hpp>

#include <dlfcn.h>

#include <cstring>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>

namespace proofline::circom {

namespace {

namespace fs = std::filesystem;

constexpr int expected_abi = 3;
constexpr std::size_t error_capacity = 4096;

BigInt<4> le_bigint(const unsigned char* bytes) {
  BigInt<4> value;
  for (std::size_t i = 0; i < 4; ++i) std::memcpy(&value.limb[i], bytes + 8 * i, 8);
  return value;
}

/// The prime as circom's --prime names it (with its digits), or just its digits for a prime of neither curve.
std::string prime_name(const BigInt<4>& prime) {
  const std::string decimal = to_decimal(prime);
  if (prime == bn254::FrParams::modulus) return "bn128 (" + decimal + ")";
  if (prime == FrParams::modulus) return "bls12381 (" + decimal + ")";
  return decimal;
}

const BigInt<4>& scalar_prime(CurveId curve) {
  return curve == CurveId::bn254 ? bn254::FrParams::modulus : FrParams::modulus;
}

/// How to compile a circuit for `curve`'s r.
std::string compile_hint(CurveId curve) {
  return curve == CurveId::bn254 ? "circom's default prime (no --prime, or --prime bn128)"
                                 : "circom --prime bls12381";
}

/// The canonical little-endian integer the generator wrote at `bytes`, value `index` of its output; Error
/// (internal) unless it is below `Field`'s r.
template <class Field>
BigInt<4> canonical_at(const unsigned char* bytes, std::size_t index) {
  const BigInt<4> value = le_bigint(bytes);
  if (!Field::is_canonical(value))
    throw Error(Errc::internal, "the generator wrote a value not below r at index " + std::to_string(index));
  return value;
}

/// Canonical little-endian integers, written in place by the generator, into Montgomery form.
template <class Field>
void to_montgomery(std::span<Field> out) {
  static_assert(sizeof(Field) == 32);
  const auto* bytes = reinterpret_cast<const unsigned char*>(out.data());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = Field::from_canonical(canonical_at<Field>(bytes + 32 * i, i));
}

/// Checks that every value of the generator's output (`values` of 32 bytes) is below `Field`'s r.
template <class Field>
void check_canonical(const unsigned char* bytes, std::size_t values) {
  for (std::size_t i = 0; i < values; ++i) canonical_at<Field>(bytes + 32 * i, i);
}

/// circom --sym's file for the circuit: CIRCUIT.sym beside CIRCUIT_cpp/ or CIRCUIT_js/ (where circom -o puts
/// it) or inside it; none when neither exists.
std::optional<fs::path> find_sym_file(const fs::path& cpp_dir, const std::string& name) {
  fs::path dir = cpp_dir.lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();
  std::error_code error;
  for (const fs::path& candidate : {dir.parent_path() / (name + ".sym"), dir / (name + ".sym")})
    if (fs::is_regular_file(candidate, error)) return candidate;
  return std::nullopt;
}

}  // namespace

struct WitnessGenerator::Api {
  int (*abi_version)();
  void (*prime)(unsigned char*);
  std::uint64_t (*witness_size)();
  void* (*load)(const char*, const char*, char*, std::size_t);
  void (*free_circuit)(void*);
  void (*named_inputs)(const void*, std::uint64_t*, std::uint64_t*);
  int (*check_input)(const void*, const char*, std::size_t, char*, std::size_t);
  int (*compute)(const void*, const char*, std::size_t, unsigned char*, std::uint64_t, const void*, char*,
                 std::size_t);
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
  // RTLD_NODELETE: the library stays loaded once loaded, its static state with it (circom's fr.cpp keeps
  // GMP numbers, wabt's runtime its function types, and neither frees them), so a generator opened and
  // freed again and again initializes that state once instead of leaking it at every dlclose.
  g->library_ = ::dlopen(g->built_.library.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
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
  bind(g->library_, so, "proofline_circom_named_inputs", api.named_inputs);
  bind(g->library_, so, "proofline_circom_check_input", api.check_input);
  bind(g->library_, so, "proofline_circom_compute", api.compute);
  g->cpp_dir_ = cpp_dir;
  unsigned char prime_bytes[32];
  api.prime(prime_bytes);
  const BigInt<4> prime = le_bigint(prime_bytes);
  if (prime == bn254::FrParams::modulus)
    g->curve_ = CurveId::bn254;
  else if (prime == FrParams::modulus)
    g->curve_ = CurveId::bls12_381;
  else
    throw Error(Errc::bad_input, cpp_dir.string() + ": the circuit was compiled for the prime " +
                                     prime_name(prime) +
                                     ", the scalar field of neither curve proofline proves on: compile it "
                                     "with circom --prime bls12381 (BLS12-381) or at circom's default prime "
                                     "bn128 (BN254)");
  g->witness_size_ = api.witness_size();
  std::string error(error_capacity, '\0');
  g->sym_ = find_sym_file(generator_folder(cpp_dir), g->built_.circuit_name);
  const std::string sym = g->sym_ ? g->sym_->string() : std::string();
  g->circuit_ = api.load(g->built_.dat.c_str(), sym.c_str(), error.data(), error.size());
  if (g->circuit_ == nullptr) {
    // The shim read the cache's copy of the .dat; name the user's file, which holds the same bytes.
    std::string message = error.c_str();
    const std::string copy = g->built_.dat.string();
    if (message.rfind(copy, 0) == 0)
      message = (cpp_dir / (g->built_.circuit_name + ".dat")).string() + message.substr(copy.size());
    throw Error(Errc::bad_input, message);
  }
  api.named_inputs(g->circuit_, &g->named_inputs_, &g->inputs_);
  if (g->sym_ && g->named_inputs_ < g->inputs_)
    PL_LOG_WARN(
        "{}: names {} of the {} inputs of main (a .sym file of another compile?): the others are "
        "counted, not named, in messages",
        g->sym_->string(), g->named_inputs_, g->inputs_);
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

void WitnessGenerator::check_curve(CurveId key_curve, std::string_view key_name) const {
  if (key_curve == curve_) return;
  throw Error(Errc::bad_input, cpp_dir_.string() + ": the circuit was compiled for the prime " +
                                   prime_name(scalar_prime(curve_)) + ", but " + std::string(key_name) +
                                   " is a " + std::string(curve_name(key_curve)) + " key, whose prime is " +
                                   prime_name(scalar_prime(key_curve)) + ": compile the circuit with " +
                                   compile_hint(key_curve));
}

void WitnessGenerator::check_field(CurveId field) const {
  if (field != curve_)
    throw Error(Errc::invalid_argument, "the circuit " + circuit_name() + " computes " +
                                            std::string(curve_name(curve_)) + " witnesses, asked for " +
                                            std::string(curve_name(field)) + " values");
}

void WitnessGenerator::check_input(std::string_view input_json) const {
  std::string error(error_capacity, '\0');
  if (api_->check_input(circuit_, input_json.data(), input_json.size(), error.data(), error.size()) != 0)
    throw Error(Errc::bad_input, error.c_str());
}

void WitnessGenerator::compute_bytes(std::string_view input_json, unsigned char* bytes, std::size_t values,
                                     const std::atomic<bool>* stop) const {
  if (values != witness_size_)
    throw Error(Errc::invalid_argument, "the witness buffer holds " + std::to_string(values) +
                                            " values, the circuit's witness " +
                                            std::to_string(witness_size_));
  std::string error(error_capacity, '\0');
  const int status = api_->compute(circuit_, input_json.data(), input_json.size(), bytes, values, stop,
                                   error.data(), error.size());
  if (status != 0 && stop != nullptr && stop->load(std::memory_order_relaxed))
    throw Error(Errc::cancelled, error.c_str());
  if (status == 2)
    throw Error(Errc::bad_input, std::string("witness does not satisfy the circuit: ") + error.c_str());
  if (status != 0) throw Error(Errc::bad_input, error.c_str());
}

// The generator writes canonical little-endian integers where the field elements go; each is then converted
// in place into Montgomery form of the generator's field.
void WitnessGenerator::compute_into(std::string_view input_json, std::span<Fr> out,
                                    const std::atomic<bool>* stop) const {
  check_field(CurveId::bls12_381);
  compute_bytes(input_json, reinterpret_cast<unsigned char*>(out.data()), out.size(), stop);
  to_montgomery(out);
}

void WitnessGenerator::compute_into(std::string_view input_json, std::span<bn254::Fr> out,
                                    const std::atomic<bool>* stop) const {
  check_field(CurveId::bn254);
  compute_bytes(input_json, reinterpret_cast<unsigned char*>(out.data()), out.size(), stop);
  to_montgomery(out);
}

std::vector<std::byte> WitnessGenerator::compute_canonical(std::string_view input_json,
                                                           const std::atomic<bool>* stop) const {
  std::vector<std::byte> bytes(witness_size_ * 32);
  auto* out = reinterpret_cast<unsigned char*>(bytes.data());
  compute_bytes(input_json, out, witness_size_, stop);
  if (curve_ == CurveId::bn254)
    check_canonical<bn254::Fr>(out, witness_size_);
  else
    check_canonical<Fr>(out, witness_size_);
  return bytes;
}

std::vector<Fr> WitnessGenerator::compute(std::string_view input_json) const {
  std::vector<Fr> z(witness_size_);
  compute_into(input_json, z);
  return z;
}

std::vector<bn254::Fr> WitnessGenerator::compute_bn254(std::string_view input_json) const {
  std::vector<bn254::Fr> z(witness_size_);
  compute_into(input_json, z);
  return z;
}

std::string read_input_file(const fs::path& input) {
  // A FIFO, a directory or a device is refused at once (a FIFO without a writer would block the job's
  // thread, and signals with it); a few GiB of JSON is more than any circuit's inputs.
  return groth16::json::read_text_file(input, std::uint64_t{4} << 30, "an input JSON file");
}

graph::WitnessCallback witness_from_input(std::shared_ptr<const WitnessGenerator> generator, fs::path input) {
  const CurveId curve = generator->curve();
  graph::WitnessCallback callback{
      [generator = std::move(generator), input = std::move(input)](const graph::WitnessTarget& t) {
        try {
          const std::string text = read_input_file(input);
          if (generator->curve() == CurveId::bn254)
            generator->compute_into(text, t.bn254_z.unchecked(), t.stop);
          else
            generator->compute_into(text, t.z.unchecked(), t.stop);
        } catch (const Error& e) {
          const std::string what = e.what();
          // read_input_file names the file already.
          if (what.rfind(input.string() + ":", 0) == 0) throw;
          throw Error(e.code(), input.string() + ": " + what);
        }
      }};
  callback.curve = curve;
  return callback;
}

}  // namespace proofline::circom
