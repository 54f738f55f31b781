// circom --c's circuit structs (circom.hpp and fr.hpp of its generated code, circom 2.2), in the shape
// circom/shim/dat_file.hpp fills, so that tests and fuzz targets read .dat files without a generated circuit.
// Only the layout matters: sizes and field types as circom declares them.
#pragma once

#include <cstdint>
#include <map>

namespace proofline_test_dat {

using u32 = std::uint32_t;
using u64 = unsigned long long;

struct __attribute__((__packed__)) HashSignalInfo {
  u64 hash;
  u64 signalid;
  u64 signalsize;
};

struct __attribute__((__packed__)) FrElement {
  std::int32_t shortVal;
  u32 type;
  u64 longVal[4];
};

struct IOFieldDef {
  u32 offset;
  u32 len;
  u32* lengths;
  u32 size;
  u32 busId;
};

struct IOFieldDefPair {
  u32 len;
  IOFieldDef* defs;
};

struct Circom_Circuit {
  HashSignalInfo* InputHashMap;
  u64* witness2SignalList;
  FrElement* circuitConstants;
  std::map<u32, IOFieldDefPair> templateInsId2IOSignalInfo;
  IOFieldDefPair* busInsId2FieldInfo;
};

}  // namespace proofline_test_dat
