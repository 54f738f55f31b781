// libFuzzer target: the circom --c witness shim's reader of the circuit's .dat file
// (circom/shim/dat_file.hpp, compiled here as witness_shim.cpp compiles it, over a struct of circom's shape).
// The generated code says how many of each thing the file holds: the first bytes of the input pick those
// counts, the rest is the file. On any bytes the reader must return a circuit or throw its "truncated" error
// naming the file, never crash, read out of bounds or allocate more than the file's bytes can justify, and
// leave no array behind either way. What it returns must be what an independent reading of the same layout
// finds, and written back in that layout it must read again to the same circuit (the bytes it consumed,
// exactly, when no template is given twice).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <proofline/circom/shim/dat_file.hpp>

#include "circom/dat_circuit.hpp"

namespace {

using proofline_test_dat::Circom_Circuit;
using proofline_test_dat::FrElement;
using proofline_test_dat::HashSignalInfo;
using proofline_test_dat::IOFieldDefPair;
using proofline_test_dat::u32;
using proofline_test_dat::u64;

struct Def {
  u32 offset = 0;
  std::vector<u32> lengths;
  u32 size = 0;
  u32 bus = 0;
  bool operator==(const Def&) const = default;
};

/// A circuit as plain values: what the reader's arrays hold, comparable.
struct Plain {
  std::vector<char> hashmap, witness, constants;  ///< their bytes
  std::vector<u32> index;                         ///< the template ids in the file's order
  std::map<u32, std::vector<Def>> templates;
  std::vector<std::vector<Def>> buses;
  bool operator==(const Plain&) const = default;
};

/// An independent reading of the layout: nullopt where the bytes end before it does.
class Reference {
 public:
  explicit Reference(const std::vector<char>& bytes) : bytes_(bytes) {}
  std::optional<Plain> read(const proofline_shim::DatSizes& sizes) {
    Plain plain;
    if (!take(plain.hashmap, sizes.input_hashmap * sizeof(HashSignalInfo)) ||
        !take(plain.witness, sizes.witness * sizeof(u64)) ||
        !take(plain.constants, sizes.constants * sizeof(FrElement)))
      return std::nullopt;
    if (sizes.io_map == 0) return plain;
    for (std::uint64_t i = 0; i < sizes.io_map; ++i) {
      plain.index.emplace_back();
      if (!word(plain.index.back())) return std::nullopt;
    }
    for (const u32 id : plain.index) {
      std::vector<Def> defs;
      if (!read_defs(defs)) return std::nullopt;
      plain.templates[id] = std::move(defs);
    }
    plain.buses.resize(sizes.bus_field_map);
    for (auto& defs : plain.buses)
      if (!read_defs(defs)) return std::nullopt;
    return plain;
  }
  std::size_t at() const { return at_; }

 private:
  bool take(std::vector<char>& out, std::uint64_t n) {
    if (n > bytes_.size() - at_) return false;
    out.assign(bytes_.begin() + static_cast<std::ptrdiff_t>(at_),
               bytes_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
    at_ += n;
    return true;
  }
  bool word(u32& out) {
    std::vector<char> b;
    if (!take(b, 4)) return false;
    std::memcpy(&out, b.data(), 4);
    return true;
  }
  bool read_defs(std::vector<Def>& defs) {
    u32 n = 0;
    if (!word(n)) return false;
    for (u32 j = 0; j < n; ++j) {
      Def def;
      u32 len = 0;
      if (!word(def.offset) || !word(len)) return false;
      for (u32 k = 0; k < len; ++k) {
        def.lengths.emplace_back();
        if (!word(def.lengths.back())) return false;
      }
      if (!word(def.size) || !word(def.bus)) return false;
      defs.push_back(std::move(def));
    }
    return true;
  }
  const std::vector<char>& bytes_;
  std::size_t at_ = 0;
};

std::vector<Def> plain_defs(const IOFieldDefPair& pair) {
  std::vector<Def> defs;
  for (u32 j = 0; j < pair.len; ++j) {
    const auto& d = pair.defs[j];
    defs.push_back({d.offset, std::vector<u32>(d.lengths, d.lengths + d.len), d.size, d.busId});
  }
  return defs;
}

template <class T>
std::vector<char> bytes_of(const T* array, std::uint64_t n) {
  const auto* p = reinterpret_cast<const char*>(array);
  return {p, p + n * sizeof(T)};
}

/// The reader's circuit as plain values; `index` is not in the struct and comes from the reference.
Plain plain_of(const Circom_Circuit& c, const proofline_shim::DatSizes& sizes, std::vector<u32> index) {
  Plain plain;
  plain.hashmap = bytes_of(c.InputHashMap, sizes.input_hashmap);
  plain.witness = bytes_of(c.witness2SignalList, sizes.witness);
  plain.constants = bytes_of(c.circuitConstants, sizes.constants);
  plain.index = std::move(index);
  for (const auto& [id, pair] : c.templateInsId2IOSignalInfo) plain.templates[id] = plain_defs(pair);
  if (sizes.io_map > 0) {
    if (c.busInsId2FieldInfo == nullptr) __builtin_trap();
    for (std::uint64_t i = 0; i < sizes.bus_field_map; ++i)
      plain.buses.push_back(plain_defs(c.busInsId2FieldInfo[i]));
  } else if (c.busInsId2FieldInfo != nullptr || !c.templateInsId2IOSignalInfo.empty()) {
    __builtin_trap();
  }
  return plain;
}

void put(std::vector<char>& out, u32 v) {
  const auto* p = reinterpret_cast<const char*>(&v);
  out.insert(out.end(), p, p + 4);
}

void put_defs(std::vector<char>& out, const std::vector<Def>& defs) {
  put(out, static_cast<u32>(defs.size()));
  for (const Def& def : defs) {
    put(out, def.offset);
    put(out, static_cast<u32>(def.lengths.size()));
    for (const u32 length : def.lengths) put(out, length);
    put(out, def.size);
    put(out, def.bus);
  }
}

/// `plain` in the .dat layout: each template id of the index with its (last) definitions.
std::vector<char> write(const Plain& plain, const proofline_shim::DatSizes& sizes) {
  std::vector<char> out;
  out.insert(out.end(), plain.hashmap.begin(), plain.hashmap.end());
  out.insert(out.end(), plain.witness.begin(), plain.witness.end());
  out.insert(out.end(), plain.constants.begin(), plain.constants.end());
  if (sizes.io_map == 0) return out;
  for (const u32 id : plain.index) put(out, id);
  for (const u32 id : plain.index) put_defs(out, plain.templates.at(id));
  for (const auto& defs : plain.buses) put_defs(out, defs);
  return out;
}

std::size_t def_count(const Plain& plain, std::size_t& lengths) {
  std::size_t defs = 0;
  const auto count = [&](const std::vector<Def>& list) {
    defs += list.size();
    for (const Def& def : list) lengths += def.lengths.size();
  };
  for (const auto& [id, list] : plain.templates) count(list);
  for (const auto& list : plain.buses) count(list);
  return defs;
}

/// Reads `file` with the shim's reader: the circuit as plain values, or nullopt for its truncation error.
std::optional<Plain> shim_read(const std::vector<char>& file, const proofline_shim::DatSizes& sizes,
                               const std::vector<u32>& index, std::uint64_t& consumed) {
  const std::uint64_t live = proofline_shim::live_arrays.load();
  std::optional<Plain> plain;
  try {
    proofline_shim::DatReader dat(file, "fuzz.dat");
    const auto owned = proofline_shim::load_circuit<Circom_Circuit>(dat, sizes);
    consumed = dat.consumed();
    plain = plain_of(owned->circom, sizes, index);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()) != "fuzz.dat: truncated (a .dat file of another circuit?)") __builtin_trap();
  }
  // Every array the reader allocated is freed with its circuit, whole or cut short.
  if (proofline_shim::live_arrays.load() != live) __builtin_trap();
  return plain;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 5) return 0;
  const proofline_shim::DatSizes sizes{data[0] % 8u, data[1] % 16u, data[2] % 8u, data[3] % 8u, data[4] % 8u};
  const std::vector<char> file(data + 5, data + size);

  Reference reference(file);
  const std::optional<Plain> expected = reference.read(sizes);
  std::uint64_t consumed = 0;
  const std::optional<Plain> got =
      shim_read(file, sizes, expected ? expected->index : std::vector<u32>{}, consumed);
  if (got.has_value() != expected.has_value()) __builtin_trap();
  if (!got) return 0;
  if (*got != *expected || consumed != reference.at() || consumed > file.size()) __builtin_trap();
  // Each field definition took at least four words of the file, each length one more.
  std::size_t lengths = 0;
  const std::size_t defs = def_count(*got, lengths);
  if (defs * 16 + lengths * 4 > consumed) __builtin_trap();

  // Written back, it reads again to itself; with no template id twice, as the very bytes it consumed.
  const std::vector<char> again = write(*got, sizes);
  std::uint64_t consumed_again = 0;
  const std::optional<Plain> reread = shim_read(again, sizes, got->index, consumed_again);
  if (!reread || *reread != *got || consumed_again != again.size()) __builtin_trap();
  const bool unique_ids = got->templates.size() == got->index.size();
  if (unique_ids && (again.size() != consumed || !std::equal(again.begin(), again.end(), file.begin())))
    __builtin_trap();
  return 0;
}
