// libFuzzer target: the input JSON reader of the circom witness shims (circom/shim/input_json.hpp, compiled
// into every circuit's generator: `proofline prove|batch --input` and the bodies `proofline serve` takes),
// and the check of what it read against main's input signals (circom/shim/input_signals.hpp). On arbitrary
// text the reader must return an object of circom's qualified names or throw std::runtime_error (the shims
// turn that into the job's message; nothing else is expected), and every number it passes on must be digits
// that GMP, which both shims reduce them with, reads in the base it gives. With the first byte's top bit set
// the rest is a .sym file instead, from which the shim names main's inputs.
#include <gmp.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <proofline/circom/shim/input_json.hpp>
#include <proofline/circom/shim/input_signals.hpp>

namespace {

using proofline_shim::InputSignal;
using proofline_shim::json;
using proofline_shim::u64;

/// main's inputs as circom's input hash map gives them (name hash, first signal, number of values); names
/// and shapes as the .sym file would give them. Four circuits: plain signals and arrays, a bus and its
/// fields, arrays of no values, and no inputs at all.
std::vector<InputSignal> table(unsigned which, bool named) {
  const auto signal = [&](const std::string& name, u64 first, u64 size, std::vector<u64> dims) {
    return InputSignal{proofline_shim::fnv1a(name),       first, size, named ? name : "",
                       named ? dims : std::vector<u64>{}, false};
  };
  std::vector<InputSignal> inputs;
  switch (which % 4) {
    case 0:
      inputs = {signal("a", 1, 1, {}), signal("b", 2, 3, {3}), signal("c", 5, 4, {2, 2})};
      break;
    case 1:
      inputs = {signal("s", 1, 3, {}), signal("s.x", 1, 1, {}), signal("s.y", 2, 2, {2}),
                signal("in", 4, 2, {2})};
      break;
    case 2:
      inputs = {signal("z", 1, 0, {0}), signal("a", 1, 1, {})};
      break;
    default:
      break;
  }
  proofline_shim::sort_inputs(inputs);
  return inputs;
}

/// No object in a flattened value: objects are flattened into names, an empty one kept only on its own.
bool holds_object(const json& value) {
  if (value.is_object()) return true;
  if (!value.is_array()) return false;
  for (const json& item : value)
    if (holds_object(item)) return true;
  return false;
}

int depth_of(const json& value) {
  int deepest = 0;
  if (value.is_structured())
    for (const json& item : value) deepest = std::max(deepest, depth_of(item));
  return deepest + (value.is_structured() ? 1 : 0);
}

std::size_t values_in(const json& value) {
  if (!value.is_structured()) return 1;
  std::size_t count = 0;
  for (const json& item : value) count += values_in(item);
  return count;
}

/// What main takes in the fuzzed circuits: a few values, so that the bound on the rest is reached.
constexpr std::size_t fuzz_main_values = 16;

void check_json(const char* text, std::size_t size, unsigned which, bool named) {
  proofline_shim::InputJson input;
  try {
    input = proofline_shim::parse_input(text, size, fuzz_main_values);
  } catch (const std::runtime_error&) {
    return;
  }
  if (!input.object.is_object() || !input.flat.is_object()) __builtin_trap();
  // Values beyond what main takes are bounded while parsing.
  if (values_in(input.object) > fuzz_main_values + proofline_shim::max_extra_values) __builtin_trap();
  if (depth_of(input.object) > proofline_shim::max_input_depth) __builtin_trap();
  // The names take memory linear in the input's size, however long its keys.
  std::size_t names = 0;
  for (auto it = input.flat.begin(); it != input.flat.end(); ++it) names += it.key().size();
  if (names > proofline_shim::max_names_per_input_byte * size + proofline_shim::max_names_slack)
    __builtin_trap();
  std::vector<std::pair<std::string, u64>> given;
  mpz_t value;
  mpz_init(value);
  for (auto it = input.flat.begin(); it != input.flat.end(); ++it) {
    if ((it.value().is_object() && !it.value().empty()) ||
        (it.value().is_array() && holds_object(it.value())))
      __builtin_trap();
    std::vector<proofline_shim::Number> numbers;
    try {
      proofline_shim::flatten_numbers(it.key(), it.value(), numbers);
    } catch (const std::runtime_error&) {
      continue;
    }
    for (const proofline_shim::Number& number : numbers) {
      if (number.base != 2 && number.base != 8 && number.base != 10 && number.base != 16) __builtin_trap();
      if (number.digits.empty() ||
          mpz_set_str(value, number.digits.c_str(), static_cast<int>(number.base)) != 0)
        __builtin_trap();
    }
    given.emplace_back(it.key(), numbers.size());
  }
  mpz_clear(value);
  // What main's inputs make of the names and counts: no problem means each name is an input with its count.
  const std::vector<InputSignal> inputs = table(which, named);
  const std::vector<std::string> problems = proofline_shim::input_problems(inputs, given);
  for (const std::string& problem : problems)
    if (problem.empty()) __builtin_trap();
  if (!problems.empty()) return;
  for (const auto& [name, count] : given) {
    const u64 hash = proofline_shim::fnv1a(name);
    bool found = false;
    for (const InputSignal& s : inputs) found = found || (s.hash == hash && s.size == count);
    if (!found) __builtin_trap();
  }
}

/// The .sym file at a path of this process's own, removed at exit.
struct ScratchFile {
  std::string path = "/tmp/proofline-fuzz-sym-" + std::to_string(::getpid());
  ~ScratchFile() { std::remove(path.c_str()); }
};

void check_sym(const char* text, std::size_t size, unsigned which) {
  static const ScratchFile file;
  std::FILE* out = std::fopen(file.path.c_str(), "wb");
  if (out == nullptr) __builtin_trap();
  if (size != 0 && std::fwrite(text, 1, size, out) != size) __builtin_trap();
  std::fclose(out);
  std::vector<InputSignal> inputs = table(which, false);
  const u64 first = inputs.empty() ? 1 : inputs.front().first;
  proofline_shim::name_inputs(inputs, file.path, first, first + 16);
  // A name is kept only when its hash is the input's and its shape holds the input's values exactly.
  for (const InputSignal& input : inputs) {
    if (input.name.empty()) {
      if (!input.dims.empty()) __builtin_trap();
      continue;
    }
    if (proofline_shim::fnv1a(input.name) != input.hash) __builtin_trap();
    // Every dimension of a shape that holds the input's values (none of them 0) is at most their number.
    u64 product = 1;
    for (const u64 d : input.dims) {
      if (d == 0 || d > input.size) __builtin_trap();
      product *= d;
    }
    if (!input.dims.empty() && product != input.size) __builtin_trap();
  }
  (void)proofline_shim::input_problems(inputs, {});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte: bits 0-1 main's inputs, bit 2 whether the .sym file named them, bit 7 a .sym file.
  const char* text = reinterpret_cast<const char*>(data + 1);
  if ((data[0] & 0x80) != 0)
    check_sym(text, size - 1, data[0]);
  else
    check_json(text, size - 1, data[0], (data[0] & 4) != 0);
  return 0;
}
