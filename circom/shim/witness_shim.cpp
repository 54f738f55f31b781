// proofline's entry points into a circom witness generator. proofline compiles this file together with what
// `circom --c` generates (calcwit.cpp, fr.cpp, fr.asm and the circuit's own .cpp; never main.cpp, which exits
// the process on errors) into one shared object, and calls it through the C functions at the end. Every
// error comes back as a message: input JSON that does not parse, unknown, missing or mis-sized signals (all
// of them at once, named as shim/input_signals.hpp names them), a failing circom assert or constraint
// (assert.h beside this file makes assert() throw; the circuit's std::cout is redirected into
// proofline_circom_messages() at build time so the exception carries circom's text), and Fr_fail (a field
// element too large to be an index), reached from assembly without unwind tables, which returns here through
// siglongjmp.
//
// Thread safety: the loaded circuit is read-only; each compute call makes its own Circom_CalcWit.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <csetjmp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calcwit.hpp"
#include "circom.hpp"
#include "shim/input_json.hpp"
#include "shim/input_signals.hpp"

namespace {

using proofline_shim::InputSignal;

using json = nlohmann::json;
using proofline_shim::InputJson;
using proofline_shim::parse_input;

thread_local sigjmp_buf* field_failure_target = nullptr;

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

/// The .dat file, read whole and consumed front to back with bounds checks.
class DatReader {
 public:
  explicit DatReader(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open the circuit's .dat file");
    bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    path_ = path;
  }
  /// Throws unless `size` more bytes are left.
  void require(std::uint64_t size) const {
    if (size > bytes_.size() - at_)
      throw std::runtime_error(path_ + ": truncated (a .dat file of another circuit?)");
  }
  void read(void* out, std::uint64_t size) {
    require(size);
    if (size) std::memcpy(out, bytes_.data() + at_, size);
    at_ += size;
  }
  u32 u32_value() {
    u32 v;
    read(&v, sizeof v);
    return v;
  }

 private:
  std::string path_;
  std::vector<char> bytes_;
  std::uint64_t at_ = 0;
};

/// The arrays that loaded circuits hold, all circuits together (proofline_circom_live_allocations): 0 once
/// every circuit loaded is freed.
std::atomic<std::uint64_t> live_arrays{0};

/// `n` value-initialized T (one for none: circom sizes some arrays 0 and still takes their address),
/// counted in live_arrays until delete_array.
template <class T>
T* new_array(std::uint64_t n) {
  T* array = new T[n == 0 ? 1 : n]();
  live_arrays.fetch_add(1, std::memory_order_relaxed);
  return array;
}

template <class T>
void delete_array(T* array) {
  if (array == nullptr) return;
  delete[] array;
  live_arrays.fetch_sub(1, std::memory_order_relaxed);
}

/// `n` values of T from the .dat, into a new array; the .dat is checked to hold them before anything is
/// allocated.
template <class T>
T* read_array(DatReader& dat, std::uint64_t n) {
  dat.require(n * sizeof(T));
  T* array = new_array<T>(n);
  dat.read(array, n * sizeof(T));
  return array;
}

void free_field_defs(IOFieldDefPair& pair) {
  if (pair.defs != nullptr)
    for (u32 j = 0; j < pair.len; ++j) delete_array(pair.defs[j].lengths);
  delete_array(pair.defs);
  pair = IOFieldDefPair{};
}

/// circom's Circom_Circuit and the arrays load_circuit gives it, which circom's struct never frees (its
/// main.cpp loads one circuit a process and leaves it to the exit): freed with it, a circuit left half read
/// by a .dat that ends early too.
struct OwnedCircuit {
  Circom_Circuit circom{};
  u32 bus_entries = 0;  ///< of circom.busInsId2FieldInfo

  OwnedCircuit() = default;
  OwnedCircuit(const OwnedCircuit&) = delete;
  OwnedCircuit& operator=(const OwnedCircuit&) = delete;
  ~OwnedCircuit() {
    delete_array(circom.InputHashMap);
    delete_array(circom.witness2SignalList);
    delete_array(circom.circuitConstants);
    for (auto& entry : circom.templateInsId2IOSignalInfo) free_field_defs(entry.second);
    if (circom.busInsId2FieldInfo != nullptr)
      for (u32 i = 0; i < bus_entries; ++i) free_field_defs(circom.busInsId2FieldInfo[i]);
    delete_array(circom.busInsId2FieldInfo);
  }
};

/// One entry of the template (or bus) I/O map into `pair`: its field definitions. Each array is in `pair` as
/// soon as it is allocated, so that the circuit frees it should the .dat end early.
void read_field_defs(DatReader& dat, IOFieldDefPair& pair) {
  free_field_defs(pair);  // an entry the .dat gives twice
  const u32 len = dat.u32_value();
  dat.require(std::uint64_t{len} * 4 * sizeof(u32));  // each definition takes four u32 at least
  pair.defs = new_array<IOFieldDef>(len);
  pair.len = len;
  for (u32 j = 0; j < len; ++j) {
    IOFieldDef& def = pair.defs[j];
    def.offset = dat.u32_value();
    def.len = dat.u32_value();
    def.lengths = read_array<u32>(dat, def.len);
    def.size = dat.u32_value();
    def.busId = dat.u32_value();
  }
}

/// What main.cpp's loadCircuit reads, in its order, without its unchecked copies.
std::unique_ptr<OwnedCircuit> load_circuit(const std::string& path) {
  DatReader dat(path);
  auto owned = std::make_unique<OwnedCircuit>();
  Circom_Circuit& circuit = owned->circom;
  circuit.InputHashMap = read_array<HashSignalInfo>(dat, get_size_of_input_hashmap());
  circuit.witness2SignalList = read_array<u64>(dat, get_size_of_witness());
  circuit.circuitConstants = read_array<FrElement>(dat, get_size_of_constants());
  if (get_size_of_io_map() > 0) {
    std::vector<u32> index(get_size_of_io_map());
    dat.read(index.data(), index.size() * sizeof(u32));
    for (const u32 template_id : index) read_field_defs(dat, circuit.templateInsId2IOSignalInfo[template_id]);
    owned->bus_entries = get_size_of_bus_field_map() + 1;
    circuit.busInsId2FieldInfo = new_array<IOFieldDefPair>(owned->bus_entries);
    for (uint i = 0; i < get_size_of_bus_field_map(); ++i)
      read_field_defs(dat, circuit.busInsId2FieldInfo[i]);
  }
  return owned;
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

/// Runs `body` so that Fr_fail (called from fr.asm, which has no unwind tables) returns here.
template <class Body>
void with_field_failure_return(Body&& body) {
  sigjmp_buf target;
  if (sigsetjmp(target, 0) != 0) {
    field_failure_target = nullptr;
    throw std::runtime_error("a field element too large to convert to an integer (circom's Fr_toInt)");
  }
  field_failure_target = &target;
  try {
    body();
  } catch (...) {
    field_failure_target = nullptr;
    throw;
  }
  field_failure_target = nullptr;
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

/// Every input checked (names, counts, numbers) before the first is set: setting the last one runs the
/// circuit. Where no value is set (main has no input values, and the input only empty arrays or nothing),
/// nothing would run it: it runs here, or its signals would be left as the allocator found them.
void set_inputs(Circom_CalcWit& ctx, const LoadedCircuit& circuit, const InputJson& input) {
  auto inputs = checked_inputs(circuit, input);
  if (std::all_of(inputs.begin(), inputs.end(), [](const auto& input) { return input.second.empty(); }))
    ctx.tryRunCircuit();
  for (auto& [hash, values] : inputs)
    for (uint i = 0; i < values.size(); ++i) ctx.setInputSignal(hash, i, values[i]);
}

void compute(const LoadedCircuit& circuit, const char* text, std::size_t size, unsigned char* out) {
  const InputJson input = parse_input(text, size);
  CalcWitOwner owner{new Circom_CalcWit(&circuit.circuit->circom)};
  messages().str("");
  with_field_failure_return([&] { set_inputs(*owner.ctx, circuit, input); });
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

[[noreturn]] void proofline_circom_assert_failed(const char* expression, const char* file, int line) {
  std::string said = trimmed(messages().str());
  messages().str("");
  if (said.empty())
    said = std::string("assert(") + expression + ") failed at " + file + ":" + std::to_string(line);
  throw CircuitAssertFailure(said);
}

extern "C" {

void Fr_fail() {
  if (field_failure_target != nullptr) siglongjmp(*field_failure_target, 1);
  std::abort();  // only reachable outside a compute call, which never runs circuit code
}

int proofline_circom_abi_version() {
  return 2;
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
    const InputJson input = parse_input(input_json, input_size);
    with_field_failure_return([&] { checked_inputs(*static_cast<const LoadedCircuit*>(circuit), input); });
    return 0;
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
    return 1;
  }
}

/// Computes the witness of `input_json` into `out` (witness_size values of 32 bytes, canonical, little
/// endian). 0 on success; 2 when a circom assert or constraint fails; 1 for any other error; the message in
/// `error`.
int proofline_circom_compute(const void* circuit, const char* input_json, std::size_t input_size,
                             unsigned char* out, std::uint64_t out_values, char* error,
                             std::size_t error_size) {
  try {
    if (out_values != get_size_of_witness())
      throw std::runtime_error("the output holds " + std::to_string(out_values) +
                               " values, the witness has " + std::to_string(get_size_of_witness()));
    compute(*static_cast<const LoadedCircuit*>(circuit), input_json, input_size, out);
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
