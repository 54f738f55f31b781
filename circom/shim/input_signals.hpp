// The main component's input signals as proofline names them in messages: circom's input hash map (the hash
// of each name, its first signal, its number of values) and, when the circuit's .sym file is at hand (circom
// --sym writes CIRCUIT.sym beside CIRCUIT_cpp/), each signal's name and dimensions. circom's C++ output keeps
// only the hashes of the names, so without the .sym file a signal the input leaves out can be counted but
// not named. A bus input (circom 2.2) is in the map whole ("s", all its values in order) and field by field
// ("s.a.x", "s.b[1].y"): an input sets it either way, and each value once. Included by witness_shim.cpp
// (circom
// --c output) and wasm_shim.cpp (circom --wasm output, whose inputs are found from the .sym file) only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace proofline_shim {

using u64 = unsigned long long;  // circom's u64

/// circom's hash of a signal name (64-bit FNV-1a over its bytes, as calcwit.cpp and witness_calculator.js
/// compute it for ASCII names).
inline u64 fnv1a(const std::string& name) {
  u64 hash = 0xCBF29CE484222325ULL;
  for (const char c : name) {
    hash ^= static_cast<u64>(c);
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

struct InputSignal {
  u64 hash = 0;
  u64 first = 0;          ///< the index of its first signal
  u64 size = 0;           ///< its number of values
  std::string name;       ///< empty unless the .sym file named it
  std::vector<u64> dims;  ///< its array dimensions, from the .sym file (empty for one value)
  bool part = false;      ///< its values are within an earlier input's: a bus's field
};

/// Every input of main, from circom's input hash map, in signal order (the order of the circuit's source), a
/// bus before its fields.
/// `inputs` in signal order (the order of the circuit's source), a bus before its fields, each marked when
/// its values are within an earlier input's.
inline void sort_inputs(std::vector<InputSignal>& out) {
  std::sort(out.begin(), out.end(), [](const InputSignal& a, const InputSignal& b) {
    return a.first != b.first ? a.first < b.first : a.size > b.size;
  });
  u64 end = 0;  // where the values of the inputs so far end
  for (InputSignal& input : out) {
    input.part = input.first + input.size <= end;
    end = std::max(end, input.first + input.size);
  }
}

template <class HashSignalInfo>
std::vector<InputSignal> main_inputs(const HashSignalInfo* map, unsigned size) {
  std::vector<InputSignal> out;
  for (unsigned i = 0; i < size; ++i)
    if (map[i].signalid != 0) out.push_back({map[i].hash, map[i].signalid, map[i].signalsize, {}, {}, false});
  sort_inputs(out);
  return out;
}

/// "main.in[1][2]" as the name circom hashes ("in") and the indices ({1, 2}); false for another component's
/// signal or a line that is not one.
inline bool split_sym_name(const std::string& qualified, std::string& base, std::vector<u64>& indices) {
  const std::string prefix = "main.";
  if (qualified.compare(0, prefix.size(), prefix) != 0) return false;
  std::string name = qualified.substr(prefix.size());
  indices.clear();
  while (!name.empty() && name.back() == ']') {
    const std::size_t open = name.rfind('[');
    if (open == std::string::npos || open + 2 > name.size() - 1) return false;
    const std::string digits = name.substr(open + 1, name.size() - open - 2);
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 18) return false;
    indices.insert(indices.begin(), std::stoull(digits));
    name.erase(open);
  }
  base = std::move(name);
  return !base.empty();
}

/// One line of a .sym file: "signal,witness,component,qualified name"; false for a malformed one.
inline bool parse_sym_line(const std::string& line, u64& signal, std::string& qualified) {
  const std::size_t first = line.find(',');
  if (first == 0 || first == std::string::npos || first > 18) return false;
  if (line.find_first_not_of("0123456789") != first) return false;
  signal = std::stoull(line.substr(0, first));
  std::size_t at = first;
  for (int field = 0; field < 2; ++field)
    if ((at = line.find(',', at + 1)) == std::string::npos) return false;
  qualified = line.substr(at + 1);
  while (!qualified.empty() && (qualified.back() == '\r' || qualified.back() == ' ')) qualified.pop_back();
  return true;
}

/// Names the inputs from the .sym file at `path` (nothing when it cannot be read). A name is kept only when
/// circom's hash of it is an input's and its elements fill that input exactly, so a stale .sym file of
/// another circuit names nothing wrongly. circom lists the signals in order, main's first: reading stops at
/// the first signal past main's inputs.
inline void name_inputs(std::vector<InputSignal>& inputs, const std::string& path, u64 first, u64 end) {
  std::ifstream in(path);
  if (!in) return;
  std::unordered_map<u64, std::size_t> by_hash;
  for (std::size_t i = 0; i < inputs.size(); ++i) by_hash[inputs[i].hash] = i;
  std::vector<std::vector<u64>> extent(inputs.size());
  std::vector<u64> seen(inputs.size(), 0);
  std::string line, qualified, base;
  std::vector<u64> indices;
  u64 signal = 0;
  while (std::getline(in, line)) {
    if (!parse_sym_line(line, signal, qualified)) continue;
    if (signal >= end) break;
    if (signal < first || !split_sym_name(qualified, base, indices)) continue;
    const auto it = by_hash.find(fnv1a(base));
    if (it == by_hash.end()) continue;
    const InputSignal& input = inputs[it->second];
    if (signal < input.first || signal - input.first >= input.size) continue;
    std::vector<u64>& dims = extent[it->second];
    if (seen[it->second]++ == 0) dims.assign(indices.size(), 0);
    if (dims.size() != indices.size()) continue;
    for (std::size_t k = 0; k < dims.size(); ++k) dims[k] = std::max(dims[k], indices[k] + 1);
    inputs[it->second].name = base;
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name.empty()) continue;
    // Multiplied with a check: a product past 2^64 would wrap, and could wrap to the input's size.
    u64 product = 1;
    for (const u64 d : extent[i])
      product = d != 0 && product > inputs[i].size / d ? inputs[i].size + 1 : product * d;
    if (product == inputs[i].size && seen[i] == inputs[i].size)
      inputs[i].dims = extent[i].size() > 0 && inputs[i].size > 0 ? extent[i] : std::vector<u64>{};
    else
      inputs[i].name.clear();
  }
  // The .sym file lists a bus's fields only ("main.s.b[1].y"): a bus is named by the prefix of a field's name
  // whose hash is the bus's, and whose values hold the field's.
  for (const InputSignal& field : std::vector<InputSignal>(inputs)) {
    if (!field.part || field.name.empty()) continue;
    for (std::size_t cut = field.name.size(); cut-- > 0;) {
      if (field.name[cut] != '.' && field.name[cut] != '[') continue;
      const std::string prefix = field.name.substr(0, cut);
      const auto it = by_hash.find(fnv1a(prefix));
      if (it == by_hash.end()) continue;
      InputSignal& bus = inputs[it->second];
      if (bus.name.empty() && bus.first <= field.first && field.first + field.size <= bus.first + bus.size)
        bus.name = prefix;
    }
  }
}

inline std::string values_text(u64 count) {
  return std::to_string(count) + (count == 1 ? " value" : " values");
}

/// "in[2][3]" for an array input, "" otherwise.
inline std::string shape_of(const InputSignal& input) {
  if (input.dims.empty()) return "";
  std::string out = input.name;
  for (const u64 d : input.dims) out += "[" + std::to_string(d) + "]";
  return out;
}

/// What is wrong with an input that gives `given` (name, number of values) for main's inputs, every problem
/// at once; empty when nothing is. A name appears once in `given`.
/// `output` is the folder circom wrote the circuit to ("CIRCUIT_cpp/", "CIRCUIT_js/"), for the message on a
/// signal left out that the .sym file did not name.
inline std::vector<std::string> input_problems(const std::vector<InputSignal>& inputs,
                                               const std::vector<std::pair<std::string, u64>>& given,
                                               const std::string& output = "CIRCUIT_cpp/") {
  std::vector<std::string> problems;
  std::string names;
  bool all_named = true;
  u64 first = inputs.empty() ? 0 : inputs.front().first, end = first;
  for (const InputSignal& input : inputs) {
    all_named = all_named && (!input.name.empty() || input.size == 0);
    end = std::max(end, input.first + input.size);
    if (!input.part && input.size > 0)
      names += (names.empty() ? "" : ", ") + (input.dims.empty() ? input.name : shape_of(input));
  }
  const std::string known = names.empty() ? " (main has no input values)" : " (its inputs: " + names + ")";
  // Which given name sets each of main's input values (a bus's field may be set whole or alone, not both).
  constexpr std::size_t unset = static_cast<std::size_t>(-1);
  std::vector<std::size_t> set_by(end - first, unset);
  for (std::size_t g = 0; g < given.size(); ++g) {
    const auto& [name, count] = given[g];
    const u64 hash = fnv1a(name);
    const auto it =
        std::find_if(inputs.begin(), inputs.end(), [&](const InputSignal& s) { return s.hash == hash; });
    if (it == inputs.end()) {
      problems.push_back("signal \"" + name + "\" is not an input of main" + (all_named ? known : ""));
      continue;
    }
    for (u64 v = it->first - first; v < it->first - first + it->size; ++v) {
      if (set_by[v] != unset && set_by[v] != g) {
        const std::string& other = given[set_by[v]].first;
        const bool whole = other.size() > name.size();  // the bus's name is a prefix of its field's
        problems.push_back("signal \"" + (whole ? other : name) +
                           "\" of main is given twice: alone and within \"" + (whole ? name : other) + "\"");
        break;
      }
      set_by[v] = g;
    }
    if (count != it->size) {
      InputSignal named = *it;
      named.name = name;
      const std::string shape = shape_of(named);
      problems.push_back("signal \"" + name + "\" of main expects " + values_text(it->size) +
                         (shape.empty() ? "" : " (" + shape + ")") + ", got " + std::to_string(count));
    }
  }
  // An input none of whose values is set is missing, unless it is a field of a bus that is missing whole, or
  // an array of no values (a template parameter of 0), which snarkjs and circom need no value for.
  u64 unnamed = 0, unnamed_values = 0, missing_end = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const u64 from = inputs[i].first - first, to = from + inputs[i].size;
    if (inputs[i].size == 0 || inputs[i].first < missing_end ||
        std::any_of(set_by.begin() + from, set_by.begin() + to, [](std::size_t g) { return g != unset; }))
      continue;
    missing_end = inputs[i].first + inputs[i].size;
    if (inputs[i].name.empty()) {
      ++unnamed;
      unnamed_values += inputs[i].size;
      continue;
    }
    const std::string shape = shape_of(inputs[i]);
    problems.push_back("signal \"" + inputs[i].name + "\" of main is missing (expects " +
                       values_text(inputs[i].size) + (shape.empty() ? "" : ", " + shape) + ")");
  }
  if (unnamed > 0)
    problems.push_back(std::to_string(unnamed) + (unnamed == 1 ? " input signal" : " input signals") +
                       " of main missing (" + values_text(unnamed_values) + "; circom's " +
                       (output == "CIRCUIT_js/" ? "wasm" : "C++") +
                       " output keeps no signal names: compile with --sym and keep CIRCUIT.sym beside " +
                       output + " for proofline to name them)");
  return problems;
}

}  // namespace proofline_shim
