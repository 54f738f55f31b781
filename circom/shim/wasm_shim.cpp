// proofline's entry points into a circom WebAssembly witness generator (circom --wasm output). proofline
// translates CIRCUIT.wasm to C with wasm2c (module name "circuit"), compiles it with the system C compiler
// together with wabt's runtime (wasm-rt-impl.c, bounds checked in software: no signal handler, no global
// call-depth counter) and this file into one shared object, and calls it through the same C functions as a
// circom --c generator (witness_shim.cpp), so WitnessGenerator runs either. The module's Montgomery
// multiplication and reduction are computed natively (wasm_native_fr.c, included in the translated C) after
// a check against the module's own functions when the circuit is first instantiated.
//
// This file drives circom's wasm witness protocol as its witness_calculator.js does: init, each input value
// written to the shared memory (little-endian 32-bit words) and set by the hash of its signal's name, then
// every witness value read back. The imports (module "runtime") are here: exceptionHandler(code) records
// circom's error and unwinds out of the wasm code with longjmp (the generated code is C, with nothing to
// destroy), and so does a trap of the runtime (WASM_RT_TRAP_HANDLER is proofline_wasm_trap); the target is
// per thread. Input JSON is read by input_json.hpp, as for --c output; main's inputs are read from circom's
// input map in the module's memory (the hashes of their names, their signals and sizes) and named from the
// .sym file when there is one, as for --c output; where the map does not read as circom's, from the .sym file
// alone, or not at all (then the values left out are counted).
//
// Thread safety: each computation takes a module instance of its own from the loaded circuit's pool (a
// mutex guards the pool only); an instance a failed computation leaves behind is freed, not reused. An
// instance goes back to the pool with its memory as a new instance's (the module has no globals): a circuit
// that reads memory it never wrote (an index past an array's end) then reads what a fresh instance holds, as
// snarkjs's one witness per process does, never what an earlier input left there.
#include <gmp.h>

#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "circuit.h"
#include "shim/input_json.hpp"
#include "shim/input_signals.hpp"

/// One module instance and what its imports gather: circom's error code and messages, a log() line.
struct Z_runtime_instance_t {
  /// The caller's stop flag during a computation, else null: first, where the translated module's loops
  /// read it (generator_build.cpp's with_stop_polls).
  const std::atomic<bool>* stop = nullptr;
  Z_circuit_instance_t module;
  unsigned code = 0;
  std::string errors;
  std::string log_line;
};

extern "C" [[noreturn]] void proofline_wasm_trap(int code);
extern "C" int proofline_native_fr_setup(Z_circuit_instance_t* instance);

// wasm2c keeps the module's memory in the host's byte order (reversed on a big-endian host); the shim copies
// values out of it as little-endian bytes.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the wasm shim reads the module's memory as little-endian");

namespace {

using proofline_shim::InputSignal;
using proofline_shim::json;
using Runtime = Z_runtime_instance_t;

/// Where a circom error or a runtime trap unwinds to: the innermost guarded call of this thread.
thread_local std::jmp_buf* unwind_target = nullptr;

constexpr int unwind_circom_error = 1;
constexpr int unwind_stopped = 2;
constexpr int unwind_trap = 3;  // plus the trap's code

/// A circom assert that the input does not satisfy, as opposed to unusable input.
struct CircuitAssertFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::once_flag module_initialized;

/// The module instances and loaded circuits not yet freed (proofline_circom_live_allocations): 0 once every
/// circuit loaded is freed.
std::atomic<std::uint64_t> live_allocations{0};

/// A new instance of the module (its memory and table allocated, its data copied in). The first also checks
/// the native field functions (wasm_native_fr.c) against the module's own, on an instance of their own.
Runtime* new_instance() {
  std::call_once(module_initialized, [] {
    Z_circuit_init_module();
    Runtime check;
    Z_circuit_instantiate(&check.module, &check);
    proofline_native_fr_setup(&check.module);
    Z_circuit_free(&check.module);
  });
  auto* rt = new Runtime();
  Z_circuit_instantiate(&rt->module, rt);
  live_allocations.fetch_add(1, std::memory_order_relaxed);
  return rt;
}

void free_instance(Runtime* rt) {
  Z_circuit_free(&rt->module);
  delete rt;
  live_allocations.fetch_sub(1, std::memory_order_relaxed);
}

using InstancePtr = std::unique_ptr<Runtime, void (*)(Runtime*)>;

InstancePtr probe_instance() {
  return InstancePtr(new_instance(), free_instance);
}

std::string message_of(Runtime* rt) {
  std::string message;
  for (std::uint32_t c; (c = Z_circuitZ_getMessageChar(&rt->module)) != 0;)
    message.push_back(static_cast<char>(c));
  return message;
}

/// The field's words in the shared memory as a number.
void shared_memory_value(Runtime* rt, mpz_t out) {
  const std::uint32_t n32 = Z_circuitZ_getFieldNumLen32(&rt->module);
  std::vector<std::uint32_t> words(n32);
  for (std::uint32_t j = 0; j < n32; ++j) words[j] = Z_circuitZ_readSharedRWMemory(&rt->module, j);
  mpz_import(out, n32, -1, sizeof(std::uint32_t), 0, 0, words.data());
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

/// circom's words for an exceptionHandler code (witness_calculator.js's), and what it gathered before.
std::string circom_error(const Runtime& rt) {
  static const char* const said[] = {"Unknown error.",
                                     "Signal not found.",
                                     "Too many signals set.",
                                     "Signal already set.",
                                     "Assert Failed.",
                                     "Not enough memory.",
                                     "Input signal array access exceeds the size.",
                                     "Out of bounds array access."};
  std::string text = said[rt.code < 8 ? rt.code : 0];
  const std::string gathered = trimmed(rt.errors);
  if (!gathered.empty()) text += " " + gathered;
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

/// Runs `body` (calls into the instance, with nothing to destroy on the way out) so that a circom error or a
/// trap returns here: 0 when it ran through, else unwind_circom_error, unwind_stopped (the caller asked it to
/// stop) or unwind_trap + the trap's code.
template <class Body>
int guarded(Runtime* rt, const Body& body) {
  std::jmp_buf target;
  std::jmp_buf* const previous = unwind_target;
  rt->code = 0;
  rt->errors.clear();
  const int status = setjmp(target);
  if (status != 0) {
    unwind_target = previous;
    return status;
  }
  unwind_target = &target;
  body();
  unwind_target = previous;
  return 0;
}

std::string trap_message(int status) {
  return std::string("the circuit's WebAssembly trapped: ") +
         wasm_rt_strerror(static_cast<wasm_rt_trap_t>(status - unwind_trap));
}

/// The size of the input signal of `hash`; 0 when circom has none of that name (its map answers 0 for one,
/// or raises "Signal not found", depending on where the name's hash falls).
long long input_signal_size(Runtime* rt, proofline_shim::u64 hash) {
  std::uint32_t size = 0;
  const int status = guarded(rt, [&] {
    size = Z_circuitZ_getInputSignalSize(&rt->module, static_cast<std::uint32_t>(hash >> 32),
                                         static_cast<std::uint32_t>(hash));
  });
  if (status != 0 || static_cast<std::int32_t>(size) < 0) return 0;
  return size;
}

/// A new instance's memory: its size and the runs of bytes that are not zero (the module's data segments).
class InitialMemory {
 public:
  explicit InitialMemory(Runtime* fresh) {
    const wasm_rt_memory_t* memory = Z_circuitZ_memory(&fresh->module);
    size_ = memory->size;
    const unsigned char* data = memory->data;
    for (std::uint64_t at = 0; at < size_;) {
      if (data[at] == 0) {
        ++at;
        continue;
      }
      // A run ends where 64 zero bytes in a row begin (or the memory ends).
      std::uint64_t end = at + 1, zeros = 0;
      for (; end < size_ && zeros < 64; ++end) zeros = data[end] == 0 ? zeros + 1 : 0;
      end -= zeros;
      runs_.push_back({at, std::vector<unsigned char>(data + at, data + end)});
      at = end;
    }
  }
  /// Puts `rt`'s memory back as it was; false (nothing done) where it has grown.
  bool restore(Runtime* rt) const {
    wasm_rt_memory_t* memory = Z_circuitZ_memory(&rt->module);
    if (memory->size != size_) return false;
    std::memset(memory->data, 0, size_);
    for (const auto& [at, bytes] : runs_) std::memcpy(memory->data + at, bytes.data(), bytes.size());
    return true;
  }

 private:
  std::uint64_t size_ = 0;
  std::vector<std::pair<std::uint64_t, std::vector<unsigned char>>> runs_;
};

/// A loaded circuit: its field, its inputs (named when the .sym file was at hand) and its idle instances.
struct LoadedCircuit {
  std::uint32_t n32 = 0;
  std::uint32_t witness_size = 0;
  std::uint32_t input_size = 0;
  std::uint32_t shared_memory_start = 0;  ///< where readSharedRWMemory reads, in the module's memory
  mpz_t prime;
  std::vector<InputSignal> inputs;
  std::unique_ptr<InitialMemory> initial;  ///< taken from the first instance, before anything runs on it
  std::mutex mutex;
  std::vector<Runtime*> idle;

  LoadedCircuit() {
    mpz_init(prime);
    live_allocations.fetch_add(1, std::memory_order_relaxed);
  }
  ~LoadedCircuit() {
    for (Runtime* rt : idle) free_instance(rt);
    mpz_clear(prime);
    live_allocations.fetch_sub(1, std::memory_order_relaxed);
  }

  InstancePtr acquire() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!idle.empty()) {
        Runtime* rt = idle.back();
        idle.pop_back();
        return InstancePtr(rt, free_instance);
      }
    }
    return InstancePtr(new_instance(), free_instance);
  }
  /// Back to the pool, with its memory as a new instance's, after a computation that ran through (freed
  /// where its memory has grown).
  void release(InstancePtr rt) {
    if (!initial->restore(rt.get())) return;
    std::lock_guard<std::mutex> lock(mutex);
    idle.push_back(rt.release());
  }
};

/// main's inputs from circom's input hash map in the module's memory, as witness_shim.cpp reads them from
/// the .dat file. circom's wasm keeps the map after the shared memory (at getSharedRWMemoryStart() + 4 * n32
/// + 8): a power of two of at least 256 slots, the fewest that hold every input, of 16 bytes each (the name's
/// hash, 0 for an empty slot; the first signal; the number of values). Each entry read is confirmed by the
/// module: with the entry's size replaced for a moment by a sentinel, getInputSignalSize answers the sentinel
/// for the entry's hash only when its lookup ends at that very slot. The map has twice as many slots as read
/// so far while the next as many hold an entry it finds there (certainly one when it has: it holds more
/// inputs than half its slots). Empty when an entry of the first 256 slots is not confirmed, or the sizes of
/// main's inputs (buses whole) do not add up to getInputSize: then this is not circom's map. `rt`'s memory
/// is as it was on return.
std::vector<InputSignal> inputs_from_map(Runtime* rt, std::uint32_t shared, std::uint32_t n32,
                                         std::uint32_t input_size) {
  wasm_rt_memory_t* const memory = Z_circuitZ_memory(&rt->module);
  const std::uint64_t start = std::uint64_t{shared} + 4 * std::uint64_t{n32} + 8;
  if (start >= memory->size) return {};
  const std::uint64_t slots_in_memory = (memory->size - start) / 16;
  std::uint32_t at_12 = 0;  // getInputSignalSize's answer for a hash its lookup does not find
  std::memcpy(&at_12, memory->data + 12, 4);
  const std::uint32_t sentinel = at_12 == 0x5A5A5A5A ? 0x5A5A5A5B : 0x5A5A5A5A;
  // 1 when the module finds the entry at `slot` there (read into `entry`), 0 for an empty slot, -1 otherwise.
  const auto confirmed = [&](std::uint64_t slot, InputSignal& entry) {
    const std::uint64_t at = start + 16 * slot;
    std::uint32_t first = 0, size = 0;
    std::memcpy(&entry.hash, memory->data + at, 8);
    std::memcpy(&first, memory->data + at + 8, 4);
    std::memcpy(&size, memory->data + at + 12, 4);
    if (entry.hash == 0) return 0;
    std::memcpy(memory->data + at + 12, &sentinel, 4);
    std::uint32_t answer = 0;
    const int status = guarded(rt, [&] {
      answer = Z_circuitZ_getInputSignalSize(&rt->module, static_cast<std::uint32_t>(entry.hash >> 32),
                                             static_cast<std::uint32_t>(entry.hash));
    });
    std::memcpy(memory->data + at + 12, &size, 4);
    entry.first = first;
    entry.size = size;
    return status == 0 && answer == sentinel ? 1 : -1;
  };
  if (slots_in_memory < 256) return {};
  std::vector<InputSignal> inputs;
  for (std::uint64_t slot = 0; slot < 256; ++slot) {
    InputSignal entry;
    const int found = confirmed(slot, entry);
    if (found < 0) return {};
    if (found > 0) inputs.push_back(entry);
  }
  std::uint64_t slots = 256;
  while (true) {
    std::vector<InputSignal> more;
    for (std::uint64_t slot = slots; slot < 2 * slots && slot < slots_in_memory; ++slot) {
      InputSignal entry;
      if (confirmed(slot, entry) > 0) more.push_back(entry);
    }
    if (more.empty()) break;
    inputs.insert(inputs.end(), more.begin(), more.end());
    slots *= 2;
  }
  std::uint64_t fewest = 256;  // circom's number of slots for this many inputs
  while (fewest < inputs.size()) fewest *= 2;
  proofline_shim::sort_inputs(inputs);
  std::uint64_t values = 0;
  for (const InputSignal& input : inputs) values += input.part ? 0 : input.size;
  if (fewest != slots || values != input_size) return {};
  return inputs;
}

/// main's inputs from the .sym file: each name of a main signal (and each bus prefix of one) that circom's
/// wasm knows as an input, at the first signal the file gives it; named by name_inputs as for --c output.
std::vector<InputSignal> inputs_from_sym(Runtime* rt, const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::vector<std::pair<std::string, proofline_shim::u64>> candidates;  // name, first signal
  std::set<std::string> seen;
  std::string line, qualified, base, component, main_component;
  std::vector<proofline_shim::u64> indices;
  proofline_shim::u64 signal = 0;
  while (std::getline(in, line)) {
    if (!proofline_shim::parse_sym_line(line, signal, qualified)) continue;
    const std::size_t c1 = line.find(',', line.find(',') + 1), c2 = line.find(',', c1 + 1);
    component = line.substr(c1 + 1, c2 - c1 - 1);
    if (!proofline_shim::split_sym_name(qualified, base, indices)) continue;
    if (main_component.empty()) main_component = component;
    if (component != main_component) break;  // circom lists main's signals first
    for (std::size_t cut = 0; cut <= base.size(); ++cut) {
      if (cut < base.size() && base[cut] != '.' && base[cut] != '[') continue;
      const std::string name = base.substr(0, cut);
      if (seen.insert(name).second) candidates.emplace_back(name, signal);
    }
  }
  std::vector<InputSignal> inputs;
  proofline_shim::u64 first = ~0ULL, end = 0;
  for (const auto& [name, at] : candidates) {
    const long long size = input_signal_size(rt, proofline_shim::fnv1a(name));
    if (size <= 0) continue;  // not an input, or an array of no values, which takes none
    inputs.push_back(
        {proofline_shim::fnv1a(name), at, static_cast<proofline_shim::u64>(size), {}, {}, false});
    first = std::min(first, at);
    end = std::max(end, at + size);
  }
  proofline_shim::sort_inputs(inputs);
  if (!inputs.empty()) proofline_shim::name_inputs(inputs, path, first, end);
  return inputs;
}

/// One input signal's values, reduced modulo the prime, as the shared memory takes them.
struct SignalValues {
  std::string name;
  proofline_shim::u64 hash = 0;
  std::vector<std::uint32_t> words;  // n32 per value
  std::size_t count = 0;
};

/// The input's signals, every name and count checked against main's inputs before the first is set; an
/// error listing every problem otherwise.
std::vector<SignalValues> checked_inputs(LoadedCircuit& circuit, Runtime* rt,
                                         const proofline_shim::InputJson& input) {
  std::vector<SignalValues> signals;
  std::vector<std::pair<std::string, proofline_shim::u64>> given;
  mpz_t value;
  mpz_init(value);
  try {
    for (auto it = input.flat.begin(); it != input.flat.end(); ++it) {
      std::vector<proofline_shim::Number> numbers;
      proofline_shim::flatten_numbers(it.key(), it.value(), numbers);
      SignalValues s{it.key(), proofline_shim::fnv1a(it.key()), {}, numbers.size()};
      s.words.assign(numbers.size() * circuit.n32, 0);
      for (std::size_t i = 0; i < numbers.size(); ++i) {
        if (mpz_set_str(value, numbers[i].digits.c_str(), static_cast<int>(numbers[i].base)) != 0)
          throw std::runtime_error("signal \"" + it.key() + "\": invalid number " + numbers[i].digits);
        mpz_mod(value, value, circuit.prime);
        mpz_export(s.words.data() + i * circuit.n32, nullptr, -1, sizeof(std::uint32_t), 0, 0, value);
      }
      // snarkjs takes the size of a name main lacks as 0, so it passes over one the input object gives no
      // value ([], [[], []]); within an object it reads that object as a value, and refuses it.
      if (s.count == 0 && input.object.contains(it.key()) && input_signal_size(rt, s.hash) == 0) continue;
      given.emplace_back(it.key(), s.count);
      signals.push_back(std::move(s));
    }
  } catch (...) {
    mpz_clear(value);
    throw;
  }
  mpz_clear(value);
  std::vector<std::string> problems;
  if (!circuit.inputs.empty() || circuit.input_size == 0) {  // main's inputs known, or none
    problems = proofline_shim::input_problems(circuit.inputs, given, "CIRCUIT_js/");
  } else {
    // Neither the input map nor a .sym file: circom's wasm answers for each given name; the values left out
    // can only be counted.
    std::uint64_t set = 0;
    for (const SignalValues& s : signals) {
      const long long size = input_signal_size(rt, s.hash);
      if (size == 0) {
        problems.push_back("signal \"" + s.name + "\" is not an input of main");
      } else if (static_cast<std::uint64_t>(size) != s.count) {
        problems.push_back("signal \"" + s.name + "\" of main expects " + proofline_shim::values_text(size) +
                           ", got " + std::to_string(s.count));
      } else {
        set += s.count;
      }
    }
    if (problems.empty() && set < circuit.input_size)
      problems.push_back(proofline_shim::values_text(circuit.input_size - set) +
                         " of main's inputs missing (" + std::to_string(set) + " of " +
                         std::to_string(circuit.input_size) +
                         " set; circom's wasm output keeps no signal names: compile with --sym and keep "
                         "CIRCUIT.sym beside CIRCUIT_js/ for proofline to name them)");
  }
  if (!problems.empty()) {
    std::string message;
    for (const std::string& problem : problems) message += (message.empty() ? "" : "; ") + problem;
    throw std::runtime_error(message);
  }
  return signals;
}

void compute(LoadedCircuit& circuit, const char* text, std::size_t size, unsigned char* out,
             const std::atomic<bool>* stop) {
  const proofline_shim::InputJson input = proofline_shim::parse_input(text, size, circuit.input_size);
  InstancePtr rt = circuit.acquire();
  const std::vector<SignalValues> signals = checked_inputs(circuit, rt.get(), input);
  Runtime* const r = rt.get();
  r->stop = stop;
  const std::uint32_t n32 = circuit.n32, witness_size = circuit.witness_size;
  std::uint64_t set = 0;
  const int status = guarded(r, [&] {
    Z_circuitZ_init(&r->module, 0);  // snarkjs wtns calculate's: no sanity check
    for (const SignalValues& s : signals) {
      const auto msb = static_cast<std::uint32_t>(s.hash >> 32), lsb = static_cast<std::uint32_t>(s.hash);
      for (std::size_t i = 0; i < s.count; ++i) {
        for (std::uint32_t j = 0; j < n32; ++j)
          Z_circuitZ_writeSharedRWMemory(&r->module, j, s.words[i * n32 + j]);
        Z_circuitZ_setInputSignal(&r->module, msb, lsb, static_cast<std::uint32_t>(i));
        ++set;
      }
    }
    if (set < circuit.input_size) return;
    // Each value as readSharedRWMemory would give it word by word, copied from the module's memory at once
    // (little-endian there as here), its bounds checked as the module checks its own accesses.
    const std::uint64_t shared = circuit.shared_memory_start, bytes = 4 * std::uint64_t{n32};
    for (std::uint32_t i = 0; i < witness_size; ++i) {
      Z_circuitZ_getWitness(&r->module, i);
      const wasm_rt_memory_t* memory = Z_circuitZ_memory(&r->module);
      if (shared + bytes > memory->size) proofline_wasm_trap(WASM_RT_TRAP_OOB);
      unsigned char* value = out + std::size_t{i} * 32;
      if (bytes == 32) {  // both curves' fields: a copy of known size, inlined
        std::memcpy(value, memory->data + shared, 32);
      } else {
        std::memcpy(value, memory->data + shared, bytes);
        std::memset(value + bytes, 0, 32 - bytes);
      }
    }
  });
  if (status == unwind_circom_error) {
    if (r->code == 4) throw CircuitAssertFailure(circom_error(*r));
    throw std::runtime_error(circom_error(*r));
  }
  if (status == unwind_stopped)
    throw std::runtime_error("stopped: the job ended while its witness was being computed");
  if (status != 0) throw std::runtime_error(trap_message(status));
  if (set < circuit.input_size)
    throw std::runtime_error("not all inputs have been set: only " + std::to_string(set) + " of " +
                             std::to_string(circuit.input_size));
  r->stop = nullptr;
  circuit.release(std::move(rt));
}

void copy_message(const std::string& message, char* error, std::size_t error_size) {
  if (error == nullptr || error_size == 0) return;
  const std::size_t n = message.size() < error_size - 1 ? message.size() : error_size - 1;
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

}  // namespace

extern "C" {

/// wabt's runtime traps here (out-of-bounds memory, unreachable, division by zero, ...).
[[noreturn]] void proofline_wasm_trap(int code) {
  if (unwind_target != nullptr) std::longjmp(*unwind_target, unwind_trap + code);
  std::abort();  // only reachable outside a guarded call, which never runs circuit code
}

/// Called by the translated module's loops once the caller's stop flag is set (generator_build.cpp adds the
/// looks): a loop that runs as long as the input says ends when the job does.
[[noreturn]] void proofline_wasm_stopped(void) {
  if (unwind_target != nullptr) std::longjmp(*unwind_target, unwind_stopped);
  std::abort();  // only reachable outside a guarded call, which never runs circuit code
}

void Z_runtimeZ_exceptionHandler(Runtime* rt, std::uint32_t code) {
  rt->code = code;
  if (unwind_target != nullptr) std::longjmp(*unwind_target, unwind_circom_error);
  std::abort();
}

void Z_runtimeZ_printErrorMessage(Runtime* rt) {
  rt->errors += message_of(rt) + "\n";
}

// log() output goes to stdout, a line at a time, as witness_calculator.js prints it.
void Z_runtimeZ_writeBufferMessage(Runtime* rt) {
  const std::string message = message_of(rt);
  if (message == "\n") {
    std::printf("%s\n", rt->log_line.c_str());
    std::fflush(stdout);
    rt->log_line.clear();
    return;
  }
  if (!rt->log_line.empty()) rt->log_line += " ";
  rt->log_line += message;
}

void Z_runtimeZ_showSharedRWMemory(Runtime* rt) {
  mpz_t value;
  mpz_init(value);
  shared_memory_value(rt, value);
  char* text = mpz_get_str(nullptr, 10, value);
  if (!rt->log_line.empty()) rt->log_line += " ";
  rt->log_line += text;
  void (*free_text)(void*, std::size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_text);
  free_text(text, std::strlen(text) + 1);
  mpz_clear(value);
}

int proofline_circom_abi_version() {
  return 3;
}

/// The circuit's prime, 32 little-endian bytes (the low ones of a wider prime, zeros above a narrower one).
void proofline_circom_prime(unsigned char out[32]) {
  InstancePtr rt = probe_instance();
  const std::uint32_t n32 = Z_circuitZ_getFieldNumLen32(&rt->module);
  Z_circuitZ_getRawPrime(&rt->module);
  for (std::uint32_t j = 0; j < 8; ++j) {
    const std::uint32_t word = j < n32 ? Z_circuitZ_readSharedRWMemory(&rt->module, j) : 0;
    std::memcpy(out + 4 * j, &word, 4);
  }
}

std::uint64_t proofline_circom_witness_size() {
  return Z_circuitZ_getWitnessSize(&probe_instance()->module);
}

/// The circuit (`dat_path` is unused: the module holds everything), its inputs named from `sym_path` (circom
/// --sym's file; may be null, or a file that does not exist).
void* proofline_circom_load(const char* /*dat_path*/, const char* sym_path, char* error,
                            std::size_t error_size) {
  try {
    auto circuit = std::make_unique<LoadedCircuit>();
    InstancePtr rt = probe_instance();
    circuit->initial = std::make_unique<InitialMemory>(rt.get());
    circuit->n32 = Z_circuitZ_getFieldNumLen32(&rt->module);
    circuit->witness_size = Z_circuitZ_getWitnessSize(&rt->module);
    circuit->input_size = Z_circuitZ_getInputSize(&rt->module);
    circuit->shared_memory_start = Z_circuitZ_getSharedRWMemoryStart(&rt->module);
    Z_circuitZ_getRawPrime(&rt->module);
    shared_memory_value(rt.get(), circuit->prime);
    if (circuit->n32 == 0 || circuit->n32 > 8)
      throw std::runtime_error("the circuit's field takes " + std::to_string(circuit->n32) +
                               " 32-bit words, proofline's at most 8");
    // Named from the .sym file, as for --c output, where the module's input map reads as circom's; else
    // found from the .sym file alone.
    const bool sym = sym_path != nullptr && *sym_path != '\0';
    circuit->inputs =
        inputs_from_map(rt.get(), circuit->shared_memory_start, circuit->n32, circuit->input_size);
    if (!circuit->inputs.empty() && sym) {
      proofline_shim::u64 first = ~0ULL, end = 0;
      for (const InputSignal& input : circuit->inputs) {
        first = std::min(first, input.first);
        end = std::max(end, input.first + input.size);
      }
      proofline_shim::name_inputs(circuit->inputs, sym_path, first, end);
    } else if (sym) {
      circuit->inputs = inputs_from_sym(rt.get(), sym_path);
    }
    return circuit.release();
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
    return nullptr;
  }
}

void proofline_circom_free(void* circuit) {
  delete static_cast<LoadedCircuit*>(circuit);
}

/// How many allocations the loaded circuits hold (the circuits and their module instances), all of them
/// together: 0 once each is freed (a test's check that a freed circuit leaves nothing behind).
std::uint64_t proofline_circom_live_allocations() {
  return live_allocations.load(std::memory_order_relaxed);
}

/// How many of main's inputs the .sym file named, of how many it found (none without a .sym file: circom's
/// wasm cannot list its inputs).
void proofline_circom_named_inputs(const void* circuit, std::uint64_t* named, std::uint64_t* inputs) {
  const auto& loaded = *static_cast<const LoadedCircuit*>(circuit);
  *inputs = 0;
  *named = 0;
  for (const InputSignal& input : loaded.inputs) {
    if (input.part) continue;
    *inputs += input.size > 0 ? 1 : 0;
    *named += input.name.empty() || input.size == 0 ? 0 : 1;
  }
}

/// Checks `input_json` as compute would before running the circuit (JSON, names, counts, numbers), without
/// running it. 0 when it is fit; 1 and the message in `error` otherwise.
int proofline_circom_check_input(const void* circuit, const char* input_json, std::size_t input_size,
                                 char* error, std::size_t error_size) {
  try {
    auto& loaded = *static_cast<LoadedCircuit*>(const_cast<void*>(circuit));
    const proofline_shim::InputJson input =
        proofline_shim::parse_input(input_json, input_size, loaded.input_size);
    InstancePtr rt = loaded.acquire();
    checked_inputs(loaded, rt.get(), input);
    loaded.release(std::move(rt));
    return 0;
  } catch (const std::exception& e) {
    copy_message(e.what(), error, error_size);
    return 1;
  }
}

/// Computes the witness of `input_json` into `out` (witness_size values of 32 bytes, canonical, little
/// endian). 0 on success; 2 when a circom assert fails; 1 for any other error; the message in `error`.
int proofline_circom_compute(const void* circuit, const char* input_json, std::size_t input_size,
                             unsigned char* out, std::uint64_t out_values, const void* stop, char* error,
                             std::size_t error_size) {
  try {
    auto& loaded = *static_cast<LoadedCircuit*>(const_cast<void*>(circuit));
    if (out_values != loaded.witness_size)
      throw std::runtime_error("the output holds " + std::to_string(out_values) +
                               " values, the witness has " + std::to_string(loaded.witness_size));
    compute(loaded, input_json, input_size, out, static_cast<const std::atomic<bool>*>(stop));
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
