// The circom --c shim's reader of the circuit's .dat file (circom/shim/dat_file.hpp) on its own, over a
// struct of circom's shape: a file read in circom's layout, and files cut short or claiming more than they
// hold refused with the truncation error, before anything is allocated for what they lack and with nothing
// left allocated.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <proofline/circom/shim/dat_file.hpp>

#include "dat_circuit.hpp"

namespace {

using proofline_shim::DatReader;
using proofline_shim::DatSizes;
using proofline_test_dat::Circom_Circuit;
using proofline_test_dat::u32;
using proofline_test_dat::u64;

void put(std::vector<char>& out, const void* data, std::size_t size) {
  // resize and memcpy rather than insert, which GCC 12 misreads as an overflow (-Wstringop-overflow).
  const std::size_t at = out.size();
  out.resize(at + size);
  std::memcpy(out.data() + at, data, size);
}

void put32(std::vector<char>& out, u32 v) {
  put(out, &v, sizeof v);
}

void put64(std::vector<char>& out, u64 v) {
  put(out, &v, sizeof v);
}

/// One input (hash 7, signal 1, 2 values), 3 witness entries, 1 constant, templates 4 and 9 in the I/O map,
/// and one bus.
const DatSizes sizes{1, 3, 1, 2, 1};

std::vector<char> dat_file() {
  std::vector<char> out;
  for (const u64 v : {7, 1, 2}) put64(out, v);
  for (const u64 v : {0, 5, 6}) put64(out, v);
  const proofline_test_dat::FrElement constant{42, 0, {0, 0, 0, 0}};
  put(out, &constant, sizeof constant);
  put32(out, 4);
  put32(out, 9);
  // Template 4: one definition, of two dimensions (2 x 3).
  for (const u32 v : {1, 0, 2, 2, 3, 6, 0}) put32(out, v);
  // Template 9: none.
  put32(out, 0);
  // The bus: one field of no dimensions.
  for (const u32 v : {1, 0, 0, 1, 0}) put32(out, v);
  return out;
}

void read(const std::vector<char>& bytes, const DatSizes& dat_sizes = sizes) {
  DatReader dat(bytes, "x.dat");
  proofline_shim::load_circuit<Circom_Circuit>(dat, dat_sizes);
}

}  // namespace

TEST_CASE("circom/dat file/circom's layout is read whole, field definitions and bus included") {
  const std::vector<char> bytes = dat_file();
  const std::uint64_t live = proofline_shim::live_arrays.load();
  {
    DatReader dat(bytes, "x.dat");
    const auto owned = proofline_shim::load_circuit<Circom_Circuit>(dat, sizes);
    const Circom_Circuit& c = owned->circom;
    CHECK(dat.consumed() == bytes.size());
    CHECK(u64{c.InputHashMap[0].hash} == 7);  // copied: packed fields do not bind to references
    CHECK(u64{c.InputHashMap[0].signalsize} == 2);
    CHECK(c.witness2SignalList[2] == 6);
    CHECK(std::int32_t{c.circuitConstants[0].shortVal} == 42);
    REQUIRE(c.templateInsId2IOSignalInfo.size() == 2);
    const auto& four = c.templateInsId2IOSignalInfo.at(4);
    REQUIRE(four.len == 1);
    CHECK(four.defs[0].len == 2);
    CHECK(four.defs[0].lengths[1] == 3);
    CHECK(four.defs[0].size == 6);
    CHECK(c.templateInsId2IOSignalInfo.at(9).len == 0);
    REQUIRE(c.busInsId2FieldInfo[0].len == 1);
    CHECK(c.busInsId2FieldInfo[0].defs[0].size == 1);
  }
  CHECK(proofline_shim::live_arrays.load() == live);
}

TEST_CASE("circom/dat file/a file cut anywhere is refused as truncated, leaving nothing allocated") {
  const std::vector<char> bytes = dat_file();
  const std::uint64_t live = proofline_shim::live_arrays.load();
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    const std::vector<char> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    CHECK_THROWS_WITH_AS(read(part), "x.dat: truncated (a .dat file of another circuit?)",
                         std::runtime_error);
    CHECK_MESSAGE(proofline_shim::live_arrays.load() == live, cut);
  }
}

TEST_CASE("circom/dat file/a count of definitions the file cannot hold is refused before it is allocated") {
  // Template 4 claims 2^32 - 1 definitions in a file of a few bytes more: refused, not 100 GB allocated.
  std::vector<char> bytes = dat_file();
  const std::size_t count_at = 3 * 8 + 3 * 8 + sizeof(proofline_test_dat::FrElement) + 2 * 4;
  const u32 many = 0xffffffff;
  std::memcpy(bytes.data() + count_at, &many, sizeof many);
  CHECK_THROWS_WITH_AS(read(bytes), "x.dat: truncated (a .dat file of another circuit?)", std::runtime_error);
  // And a dimension count the same.
  bytes = dat_file();
  std::memcpy(bytes.data() + count_at + 2 * 4, &many, sizeof many);
  CHECK_THROWS_WITH_AS(read(bytes), "x.dat: truncated (a .dat file of another circuit?)", std::runtime_error);
}

TEST_CASE("circom/dat file/a missing file is named") {
  CHECK_THROWS_WITH_AS(DatReader::open("/nonexistent/x.dat"),
                       "/nonexistent/x.dat: cannot open the circuit's .dat file", std::runtime_error);
}
