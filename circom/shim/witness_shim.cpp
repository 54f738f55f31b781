// proofline's entry points into a circom witness generator. proofline compiles this file together with what
// `circom --c` generates (calcwit.cpp, fr.cpp, fr.asm and the circuit's own .cpp; never main.cpp, which exits
// the process on errors) into one shared object, and calls it through the C functions at the end. Every
// error comes back as a message: input JSON that does not parse, unknown, missing or mis-sized signals (all
// of them at once, named as shim/input_signals.hpp names them), a failing circom assert or constraint
// (assert.h beside this file makes assert() throw; the circuit's std::cout is redirected into
// proofline_circom_messages() at build time so the exception carries circom's text), and what circom's code
// leaves unchecked: Fr_fail, an index out of bounds, a division by zero, a recursion too deep
// (circuit_faults.hpp).
//
// Thread safety: the loaded circuit is read-only; each compute call makes its own Circom_CalcWit.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calcwit.hpp"
#include "circom.hpp"
#include "shim/circuit_faults.hpp"
#include "shim/dat_file.hpp"
#include "shim/input_json.hpp"
#include "shim/input_signals.hpp"

namespace {

using proofline_shim::InputSignal;

using json = nlohmann::json;
using proofline_shim::InputJson;
using proofline_shim::parse_input;

/// A circom assert or constraint (===) that the input does not satisfy, as opposed to unusable input.
struct CircuitAssertFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::ostringstream& messages() {
  thread_local std::ostringstream sink;
  return sink;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

using OwnedCircuit = proofline_shim::OwnedCircuit<Circom_Circuit>;
using proofline_shim::live_arrays;

std::unique_ptr<OwnedCircuit> load_circuit(const std::string& path) {
  proofline_shim::DatReader dat = proofline_shim::DatReader::open(path);
  return proofline_shim::load_circuit<Circom_Circuit>(
      dat, {get_size_of_input_hashmap(), get_size_of_witness(), get_size_of_constants(), get_size_of_io_map(),
            get_size_of_bus_field_map()});
}

/// One input value reduced modulo the circuit's prime (input_json.hpp reads it as snarkjs does).
FrElement element_of(const std::string& name, const json& value) {
  const proofline_shim::Number number = proofline_shim::number_of(name, value);
  FrElement element;
  Fr_str2element(&element, number.digits.c_str(), number.base);
  return element;
}

void flatten(const std::string& name, const json& value, std::vector<FrElement>& out) {
  if (!value.is_array()) return out.push_back(element_of(name, value));
  for (const json& item : value) flatten(name, item, out);
}

/// A loaded circuit: circom's, and its main component's inputs (named when the .sym file was at hand).
struct LoadedCircuit {
  std::unique_ptr<OwnedCircuit> circuit;
  std::vector<InputSignal> inputs;
};

LoadedCircuit* load(const std::string& dat_path, const char* sym_path) {
  auto loaded = std::make_unique<LoadedCircuit>();
  loaded->circuit = load_circuit(dat_path);
  loaded->inputs =
      proofline_shim::main_inputs(loaded->circuit->circom.InputHashMap, get_size_of_input_hashmap());
  if (sym_path != nullptr && *sym_path != '\0') {
    const u64 first = get_main_input_signal_start();
    proofline_shim::name_inputs(loaded->inputs, sym_path, first, first + get_main_input_signal_no());
  }
  return loaded.release();
}

/// Frees what Circom_CalcWit's destructor leaves behind (it frees nothing).
struct CalcWitOwner {
  Circom_CalcWit* ctx;
  ~CalcWitOwner() {
    if (ctx->componentMemory) delete[] ctx->componentMemory[0].subcomponents;
    delete[] ctx->componentMemory;
    delete[] ctx->signalValues;
    delete[] ctx->inputSignalAssigned;  // private: this file is compiled with -fno-access-control
    delete ctx;
  }
};

bool is_main_input(const LoadedCircuit& circuit, const std::string& name) {
  const u64 hash = fnv1a(name);
  return std::any_of(circuit.inputs.begin(), circuit.inputs.end(),
                     [&](const InputSignal& input) { return input.hash == hash; });
}

/// Each input's hash and values, every name and count checked against main's inputs; an error listing every
/// problem (unknown, missing and mis-sized signals) otherwise.
std::vector<std::pair<u64, std::vector<FrElement>>> checked_inputs(const LoadedCircuit& circuit,
                                                                   const InputJson& input) {
  std::vector<std::pair<u64, std::vector<FrElement>>> inputs;
  std::vector<std::pair<std::string, u64>> given;
  for (auto it = input.flat.begin(); it != input.flat.end(); ++it) {
    std::vector<FrElement> values;
    flatten(it.key(), it.value(), values);
    // snarkjs takes the size of a name main lacks as 0, so it passes over one the input object gives no
    // value ([], [[], []]); within an object it reads that object as a value, and refuses it.
    if (values.empty() && input.object.contains(it.key()) && !is_main_input(circuit, it.key())) continue;
    given.emplace_back(it.key(), values.size());
    inputs.emplace_back(fnv1a(it.key()), std::move(values));
  }
  const std::vector<std::string> problems = proofline_shim::input_problems(circuit.inputs, given);
  if (!problems.empty()) {
    std::string message;
    for (const std::string& problem : problems) message += (message.empty() ? "" : "; ") + problem;
    throw std::runtime_error(message);
  }
  return inputs;
}

/// Sets the checked inputs: setting the last one runs the circuit. Where no value is set (main has no input
/// values, and the input only empty arrays or nothing), nothing would run it: it runs here, or its signals
/// would be left as the allocator found them.
void set_inputs(Circom_CalcWit& ctx, std::vector<std::pair<u64, std::vector<FrElement>>>& inputs) {
  if (std::all_of(inputs.begin(), inputs.end(), [](const auto& input) { return input.second.empty(); }))
    ctx.tryRunCircuit();
  for (auto& [hash, values] : inputs)
    for (uint i = 0; i < values.size(); ++i) ctx.setInputSignal(hash, i, values[i]);
}

void compute(const LoadedCircuit& circuit, const char* text, std::size_t size, unsigned char* out,
             const void* stop) {
  const InputJson input = parse_input(text, size, get_main_input_signal_no());
  // Every input checked (names, counts, numbers) before the first is set, and held out here: a fault returns
  // past the frames it leaves without their destructors, so none of the shim's own may be among them.
  auto inputs = checked_inputs(circuit, input);
  CalcWitOwner owner{new Circom_CalcWit(&circuit.circuit->circom)};
  messages().str("");
  owner.ctx->proofline_stop = stop;
  proofline_shim::run_guarded([&] { set_inputs(*owner.ctx, inputs); });
  for (uint i = 0; i < get_size_of_witness(); ++i) {
    FrElement value;
    owner.ctx->getWitness(i, &value);
    Fr_toLongNormal(&value, &value);
    std::memcpy(out + std::size_t{i} * 32, value.longVal, 32);
  }
}

void copy_message(const std::string& message, char* error, std::size_t error_size) {
  if (error == nullptr || error_size == 0) return;
  const std::size_t n = message.size() < error_size - 1 ? message.size() : error_size - 1;
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

}  // namespace

std::ostream& proofline_circom_messages() {
  return messages();
}

void proofline_circom_stopped() {
  throw std::runtime_error("stopped: the job ended while its witness was being computed");
}

[[noreturn]] void proofline_circom_assert_failed(const char* expression, const char* file, int line) {
  std::string said = trimmed(messages().str());
  messages().str("");
  if (said.empty())
    said = std::string("assert(") + expression + ") failed at " + file + ":" + std::to_string(line);
  throw CircuitAssertFailure(said);
}

extern "C" {

void Fr_fail() {
  proofline_shim::return_field_failure();
}

int proofline_circom_abi_version() {
  return 3;
}

void proofline_circom_prime(unsigned char out[32]) {
  std::memcpy(out, Fr_q.longVal, 32);  // fr.asm's Fr_rawq is static in --no_asm's fr.cpp; Fr_q is in both
}

std::uint64_t proofline_circom_witness_size() {
  return get_size_of_witness();
}

/// The circuit of `dat_path`, its inputs named from `sym_path` (circom --sym's file; may be null, or a file
/// that does not exist).
void* proofline_circom_load(const char* dat_path, const char* sym_path, char* error, std::size_t error_size) {
  try {
    return load(dat_path, sym_path);
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
    return nullptr;
  }
}

/// Frees what proofline_circom_load allocated: closing the library would not.
void proofline_circom_free(void* circuit) {
  delete static_cast<LoadedCircuit*>(circuit);
}

/// How many allocations the loaded circuits hold (the arrays of circom's circuits), all of them together: 0
/// once each is freed (a test's check that a freed circuit leaves nothing behind).
std::uint64_t proofline_circom_live_allocations() {
  return live_arrays.load(std::memory_order_relaxed);
}

/// How many of main's inputs the .sym file named, of how many (arrays of no values, which it cannot name,
/// left out).
void proofline_circom_named_inputs(const void* circuit, std::uint64_t* named, std::uint64_t* inputs) {
  const auto& loaded = *static_cast<const LoadedCircuit*>(circuit);
  *inputs = 0;
  *named = 0;
  for (const InputSignal& input : loaded.inputs) {
    *inputs += input.size > 0 ? 1 : 0;
    *named += input.name.empty() || input.size == 0 ? 0 : 1;
  }
}

/// Checks `input_json` as compute would before running the circuit (JSON, names, counts, numbers), without
/// running it. 0 when it is fit; 1 and the message in `error` otherwise.
int proofline_circom_check_input(const void* circuit, const char* input_json, std::size_t input_size,
                                 char* error, std::size_t error_size) {
  try {
    const InputJson input = parse_input(input_json, input_size, get_main_input_signal_no());
    proofline_shim::run_guarded([&] { checked_inputs(*static_cast<const LoadedCircuit*>(circuit), input); });
    return 0;
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
    return 1;
  }
}

/// Computes the witness of `input_json` into `out` (witness_size values of 32 bytes, canonical, little
/// endian), stopping early once `stop` (a const std::atomic<bool>*; may be null) is set. 0 on success; 2 when
/// a circom assert or constraint fails; 1 for any other error; the message in `error`.
int proofline_circom_compute(const void* circuit, const char* input_json, std::size_t input_size,
                             unsigned char* out, std::uint64_t out_values, const void* stop, char* error,
                             std::size_t error_size) {
  try {
    if (out_values != get_size_of_witness())
      throw std::runtime_error("the output holds " + std::to_string(out_values) +
                               " values, the witness has " + std::to_string(get_size_of_witness()));
    compute(*static_cast<const LoadedCircuit*>(circuit), input_json, input_size, out, stop);
    return 0;
  } catch (const CircuitAssertFailure& e) {
    copy_message(e.what(), error, error_size);
    return 2;
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
    return 1;
  }
}

}  // extern "C"
