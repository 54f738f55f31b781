// The circuit's .dat file that circom --c writes beside its generated code, read as circom's main.cpp's
// loadCircuit reads it, in its order, but with every read checked against the bytes the file holds (circom's
// own copies are unchecked) and every array freed with the circuit (circom's never are). What is read, and
// how much, comes from the generated code (get_size_of_witness() and the others, DatSizes here), except the
// lengths of the I/O maps' definitions, which come from the file: each is checked to fit in what the file has
// left before anything is allocated for it, so a file of N bytes allocates O(N) bytes beyond what the
// circuit's sizes call for. Included by witness_shim.cpp (circom --c output) after circom's circom.hpp, whose
// Circom_Circuit it fills; templates over that struct, so that tests and fuzz targets can read .dat files
// without circom's generated code, through a struct of the same shape.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace proofline_shim {

/// The .dat file, read whole and consumed front to back with bounds checks.
class DatReader {
 public:
  /// `bytes` named `path` in messages.
  DatReader(std::vector<char> bytes, std::string path) : path_(std::move(path)), bytes_(std::move(bytes)) {}

  static DatReader open(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open the circuit's .dat file");
    std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return DatReader(std::move(bytes), path);
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
  std::uint32_t u32_value() {
    std::uint32_t v;
    read(&v, sizeof v);
    return v;
  }
  /// The bytes read so far.
  std::uint64_t consumed() const { return at_; }

 private:
  std::string path_;
  std::vector<char> bytes_;
  std::uint64_t at_ = 0;
};

/// How many of each thing the .dat holds, as the circuit's generated code says (get_size_of_...()).
struct DatSizes {
  std::uint64_t input_hashmap = 0;
  std::uint64_t witness = 0;
  std::uint64_t constants = 0;
  std::uint64_t io_map = 0;
  std::uint64_t bus_field_map = 0;
};

/// The arrays that loaded circuits hold, all circuits together (proofline_circom_live_allocations): 0 once
/// every circuit loaded is freed.
inline std::atomic<std::uint64_t> live_arrays{0};

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

template <class IOFieldDefPair>
void free_field_defs(IOFieldDefPair& pair) {
  if (pair.defs != nullptr)
    for (std::uint32_t j = 0; j < pair.len; ++j) delete_array(pair.defs[j].lengths);
  delete_array(pair.defs);
  pair = IOFieldDefPair{};
}

/// circom's Circom_Circuit and the arrays load_circuit gives it, which circom's struct never frees (its
/// main.cpp loads one circuit a process and leaves it to the exit): freed with it, a circuit left half read
/// by a .dat that ends early too.
template <class Circuit>
struct OwnedCircuit {
  Circuit circom{};
  std::uint32_t bus_entries = 0;  ///< of circom.busInsId2FieldInfo

  OwnedCircuit() = default;
  OwnedCircuit(const OwnedCircuit&) = delete;
  OwnedCircuit& operator=(const OwnedCircuit&) = delete;
  ~OwnedCircuit() {
    delete_array(circom.InputHashMap);
    delete_array(circom.witness2SignalList);
    delete_array(circom.circuitConstants);
    for (auto& entry : circom.templateInsId2IOSignalInfo) free_field_defs(entry.second);
    if (circom.busInsId2FieldInfo != nullptr)
      for (std::uint32_t i = 0; i < bus_entries; ++i) free_field_defs(circom.busInsId2FieldInfo[i]);
    delete_array(circom.busInsId2FieldInfo);
  }
};

/// One entry of the template (or bus) I/O map into `pair`: its field definitions. Each array is in `pair` as
/// soon as it is allocated, so that the circuit frees it should the .dat end early.
template <class IOFieldDefPair>
void read_field_defs(DatReader& dat, IOFieldDefPair& pair) {
  using IOFieldDef = std::remove_pointer_t<decltype(pair.defs)>;
  using Length = std::remove_pointer_t<decltype(IOFieldDef::lengths)>;
  free_field_defs(pair);  // an entry the .dat gives twice
  const std::uint32_t len = dat.u32_value();
  dat.require(std::uint64_t{len} * 4 * sizeof(std::uint32_t));  // each definition takes four u32 at least
  pair.defs = new_array<IOFieldDef>(len);
  pair.len = len;
  for (std::uint32_t j = 0; j < len; ++j) {
    IOFieldDef& def = pair.defs[j];
    def.offset = dat.u32_value();
    def.len = dat.u32_value();
    def.lengths = read_array<Length>(dat, def.len);
    def.size = dat.u32_value();
    def.busId = dat.u32_value();
  }
}

/// What main.cpp's loadCircuit reads, in its order, without its unchecked copies. Bytes after what `sizes`
/// call for are left unread, as loadCircuit leaves them.
template <class Circuit>
std::unique_ptr<OwnedCircuit<Circuit>> load_circuit(DatReader& dat, const DatSizes& sizes) {
  using HashSignalInfo = std::remove_pointer_t<decltype(Circuit::InputHashMap)>;
  using Witness = std::remove_pointer_t<decltype(Circuit::witness2SignalList)>;
  using Constant = std::remove_pointer_t<decltype(Circuit::circuitConstants)>;
  using IOFieldDefPair = std::remove_pointer_t<decltype(Circuit::busInsId2FieldInfo)>;
  auto owned = std::make_unique<OwnedCircuit<Circuit>>();
  Circuit& circuit = owned->circom;
  circuit.InputHashMap = read_array<HashSignalInfo>(dat, sizes.input_hashmap);
  circuit.witness2SignalList = read_array<Witness>(dat, sizes.witness);
  circuit.circuitConstants = read_array<Constant>(dat, sizes.constants);
  if (sizes.io_map > 0) {
    dat.require(sizes.io_map * sizeof(std::uint32_t));
    std::vector<std::uint32_t> index(sizes.io_map);
    dat.read(index.data(), index.size() * sizeof(std::uint32_t));
    for (const std::uint32_t template_id : index)
      read_field_defs(dat, circuit.templateInsId2IOSignalInfo[template_id]);
    owned->bus_entries = static_cast<std::uint32_t>(sizes.bus_field_map + 1);
    circuit.busInsId2FieldInfo = new_array<IOFieldDefPair>(owned->bus_entries);
    for (std::uint64_t i = 0; i < sizes.bus_field_map; ++i)
      read_field_defs(dat, circuit.busInsId2FieldInfo[i]);
  }
  return owned;
}

}  // namespace proofline_shim
