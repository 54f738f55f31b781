// The native format: round trips (mapped, read, read into caller memory, parsed from memory) and clean errors
// for every kind of corrupt file: a flipped byte in each section, truncation at many lengths, wrong magic,
// version and kind, header sizes that disagree with the sections or the file, and bad section tables. The
// tests read the layout as native_file.hpp documents it.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include <proofline/groth16/detail/checksum.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;
namespace g16d = proofline::groth16::detail;

namespace {

struct Entry {
  std::uint32_t id, element_size;
  std::uint64_t offset, count, bytes, checksum;
};

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
std::uint64_t u64_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}
void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  std::memcpy(b.data() + at, &v, 4);
}
void put_u64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) {
  std::memcpy(b.data() + at, &v, 8);
}

std::vector<Entry> section_table(const std::vector<std::uint8_t>& b) {
  std::vector<Entry> out;
  const std::uint32_t count = u32_at(b, 24);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t at = 256 + 48 * std::size_t{i};
    out.push_back({u32_at(b, at), u32_at(b, at + 4), u64_at(b, at + 8), u64_at(b, at + 16),
                   u64_at(b, at + 24), u64_at(b, at + 32)});
  }
  return out;
}

/// Rewrites the header checksum after a deliberate edit of the header or table, so the edit itself is what
/// the loader must catch.
void fix_header_checksum(std::vector<std::uint8_t>& b) {
  const std::size_t length = 256 + 48 * std::size_t{u32_at(b, 24)};
  std::vector<std::uint8_t> copy(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(length));
  std::memset(copy.data() + 248, 0, 8);
  put_u64(b, 248, g16d::xxh64(copy.data(), copy.size(), 0));
}

template <class F>
std::string error_of(F&& load) {
  try {
    load();
  } catch (const Error& e) {
    CHECK_MESSAGE(e.code() == Errc::bad_input, e.what());
    return e.what();
  }
  return "(no error)";
}

void expect_error(const std::filesystem::path& file, const std::string& message,
                  const std::string& fragment) {
  CHECK_MESSAGE(message.rfind(file.string() + ": ", 0) == 0, message);
  CHECK_MESSAGE(message.find(fragment) != std::string::npos, message << "  [wanted: " << fragment << "]");
}

template <class T>
bool same(const SharedArray<T>& x, const SharedArray<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size_bytes()) == 0;
}

void check_same_key(const ProvingKey& x, const ProvingKey& y) {
  CHECK(x.convention == y.convention);
  CHECK(x.num_variables == y.num_variables);
  CHECK(x.num_public == y.num_public);
  CHECK(x.log_domain_size == y.log_domain_size);
  CHECK(x.alpha1 == y.alpha1);
  CHECK(x.beta1 == y.beta1);
  CHECK(x.delta1 == y.delta1);
  CHECK(x.beta2 == y.beta2);
  CHECK(x.delta2 == y.delta2);
  CHECK(same(x.a_query, y.a_query));
  CHECK(same(x.b1_query, y.b1_query));
  CHECK(same(x.b2_query, y.b2_query));
  CHECK(same(x.h_query, y.h_query));
  CHECK(same(x.l_query, y.l_query));
}

bool same_cs(const ConstraintSystem& x, const ConstraintSystem& y) {
  const auto m = [](const CsrMatrix& p, const CsrMatrix& q) {
    return same(p.row_offsets, q.row_offsets) && same(p.columns, q.columns) && same(p.values, q.values);
  };
  return x.num_variables == y.num_variables && x.num_public == y.num_public && m(x.a, y.a) && m(x.b, y.b) &&
         x.c.has_value() == y.c.has_value() && (!x.c || m(*x.c, *y.c));
}

/// A 4096-byte aligned copy of a file image, as a mapping or a pinned region would be.
std::pair<std::shared_ptr<const void>, std::span<const std::byte>> aligned_image(
    const std::vector<std::uint8_t>& bytes) {
  void* memory = std::aligned_alloc(4096, (bytes.size() + 4095) / 4096 * 4096);
  std::memcpy(memory, bytes.data(), bytes.size());
  return {std::shared_ptr<const void>(memory, [](const void* p) { std::free(const_cast<void*>(p)); }),
          std::span<const std::byte>(static_cast<const std::byte*>(memory), bytes.size())};
}

const test::SmallFixture& fixture() {
  return test::small_fixture(6, HConvention::snarkjs);
}

}  // namespace

TEST_CASE("groth16/native/proving key round trips mapped, read and from memory") {
  test::TempDir dir;
  const auto& f = fixture();
  const auto path = dir / "key.plkey";
  write_proving_key(path, f.keys.pk, &f.keys.vk, 1234);
  CHECK(native_file_kind(path) == NativeKind::proving_key);
  const auto size = std::filesystem::file_size(path);

  const auto mapped = load_proving_key(path);
  check_same_key(mapped.value.pk, f.keys.pk);
  REQUIRE(mapped.value.vk.has_value());
  CHECK(*mapped.value.vk == f.keys.vk);
  CHECK(mapped.value.circuit_digest == 1234);
  CHECK(mapped.bytes == size);
  // Queries are views into one image, 4096-byte aligned within it.
  CHECK(mapped.value.pk.a_query.owner() == mapped.value.pk.h_query.owner());
  CHECK(reinterpret_cast<std::uintptr_t>(mapped.value.pk.b2_query.data()) % 4096 == 0);

  std::size_t allocations = 0;
  std::vector<std::byte*> buffers;
  LoadOptions read{.mode = LoadOptions::Mode::read};
  read.allocate = [&](std::size_t bytes) {
    ++allocations;
    auto memory =
        std::shared_ptr<void>(std::aligned_alloc(64, (bytes + 63) / 64 * 64), [](void* p) { std::free(p); });
    buffers.push_back(static_cast<std::byte*>(memory.get()));
    return memory;
  };
  const auto copied = load_proving_key(path, read);
  check_same_key(copied.value.pk, f.keys.pk);
  CHECK(allocations == 1);
  CHECK(copied.bytes == size);
  const auto* a_data = reinterpret_cast<const std::byte*>(copied.value.pk.a_query.data());
  CHECK(a_data > buffers[0]);
  CHECK(a_data < buffers[0] + size);

  check_same_key(load_proving_key(path, {.mode = LoadOptions::Mode::read}).value.pk, f.keys.pk);

  const auto image = aligned_image(test::read_bytes(path));
  const auto parsed = parse_proving_key(image.first, image.second, "memory image");
  check_same_key(parsed.value.pk, f.keys.pk);

  // The loaded key keeps its image alive after every other handle is gone.
  ProvingKey survivor = load_proving_key(path).value.pk;
  std::filesystem::remove(path);
  check_same_key(survivor, f.keys.pk);
}

TEST_CASE("groth16/native/verifying keys and keys without one") {
  test::TempDir dir;
  const auto& f = fixture();
  write_verifying_key(dir / "vk.plvk", f.keys.vk);
  CHECK(native_file_kind(dir / "vk.plvk") == NativeKind::verifying_key);
  CHECK(load_verifying_key(dir / "vk.plvk") == f.keys.vk);
  write_proving_key(dir / "with.plkey", f.keys.pk, &f.keys.vk);
  CHECK(load_verifying_key(dir / "with.plkey") == f.keys.vk);
  write_proving_key(dir / "without.plkey", f.keys.pk);
  const auto without = load_proving_key(dir / "without.plkey");
  CHECK_FALSE(without.value.vk.has_value());
  CHECK(without.value.circuit_digest == 0);
  expect_error(dir / "without.plkey", error_of([&] { load_verifying_key(dir / "without.plkey"); }),
               "carries no verifying key");
  expect_error(dir / "vk.plvk", error_of([&] { load_proving_key(dir / "vk.plvk"); }),
               "this is a verifying key file, not a proving key");
  VerifyingKey other = f.keys.vk;
  other.ic.pop_back();
  CHECK_THROWS_AS(write_proving_key(dir / "mismatch.plkey", f.keys.pk, &other), Error);
}

TEST_CASE("groth16/native/constraint systems round trip with and without C") {
  test::TempDir dir;
  const auto& f = fixture();
  write_constraint_system(dir / "cs.plpce", f.circuit.cs);
  const auto loaded = load_constraint_system(dir / "cs.plpce");
  CHECK(same_cs(loaded.value, f.circuit.cs));
  CHECK(loaded.bytes == std::filesystem::file_size(dir / "cs.plpce"));
  CHECK(is_satisfied(loaded.value, f.circuit.witness));
  CHECK(digest(loaded.value) == digest(f.circuit.cs));

  ConstraintSystem no_c = f.circuit.cs;
  no_c.c.reset();
  CHECK(digest(no_c) != digest(f.circuit.cs));
  write_constraint_system(dir / "no_c.plpce", no_c);
  const auto loaded_no_c = load_constraint_system(dir / "no_c.plpce", {.mode = LoadOptions::Mode::read});
  CHECK(same_cs(loaded_no_c.value, no_c));
  const auto image = aligned_image(test::read_bytes(dir / "no_c.plpce"));
  CHECK(same_cs(parse_constraint_system(image.first, image.second, "pce").value, no_c));
  const auto misaligned = std::make_shared<std::vector<std::byte>>(image.second.size() + 64);
  std::byte* odd = misaligned->data() + (64 - reinterpret_cast<std::uintptr_t>(misaligned->data()) % 64) + 8;
  CHECK_THROWS_AS(parse_constraint_system(misaligned, std::span<const std::byte>(odd, 16), "pce"), Error);
}

TEST_CASE("groth16/native/a flipped byte in any section is found by its checksum") {
  test::TempDir dir;
  const auto& f = fixture();
  std::map<std::string, std::pair<std::filesystem::path, std::function<void(const std::filesystem::path&)>>>
      files;
  write_proving_key(dir / "k.plkey", f.keys.pk, &f.keys.vk);
  write_verifying_key(dir / "k.plvk", f.keys.vk);
  write_constraint_system(dir / "k.plpce", f.circuit.cs);
  const std::pair<std::filesystem::path, std::function<void(const std::filesystem::path&)>> kinds[] = {
      {dir / "k.plkey", [](const std::filesystem::path& p) { load_proving_key(p); }},
      {dir / "k.plvk", [](const std::filesystem::path& p) { load_verifying_key(p); }},
      {dir / "k.plpce", [](const std::filesystem::path& p) { load_constraint_system(p); }}};
  std::size_t sections_checked = 0;
  for (const auto& [path, load] : kinds) {
    const auto original = test::read_bytes(path);
    const auto table = section_table(original);
    for (const Entry& e : table) {
      if (e.bytes == 0) continue;
      for (const std::uint64_t at : {e.offset, e.offset + e.bytes / 2, e.offset + e.bytes - 1}) {
        auto bytes = original;
        bytes[at] ^= 0x04;
        const auto bad = dir / "bad";
        test::write_bytes(bad, bytes);
        expect_error(bad, error_of([&] { load(bad); }), "checksum mismatch (the section is corrupt)");
      }
      ++sections_checked;
    }
    // A flipped byte in the header or the table is caught by the header checksum (or an earlier check).
    for (std::size_t at = 0; at < 256 + 48 * table.size(); at += 7) {
      auto bytes = original;
      bytes[at] ^= 0x01;
      const auto bad = dir / "bad";
      test::write_bytes(bad, bytes);
      const std::string message = error_of([&] { load(bad); });
      CHECK_MESSAGE(message.rfind(bad.string() + ": ", 0) == 0, message);
    }
  }
  CHECK(sections_checked == 8 + 2 + 9);
}

TEST_CASE("groth16/native/trusted loads skip checksums but still check structure") {
  test::TempDir dir;
  const auto& f = fixture();
  write_proving_key(dir / "k.plkey", f.keys.pk, &f.keys.vk);
  const auto original = test::read_bytes(dir / "k.plkey");
  const auto table = section_table(original);
  const auto section = [&](std::uint32_t id) {
    for (const auto& e : table)
      if (e.id == id) return e;
    FAIL("no section " << id);
    return Entry{};
  };
  const LoadOptions trusted{.verify_checksums = false};
  const auto bad = dir / "bad";
  {  // A query point off the curve: loads when trusted, caught when the queries are checked.
    auto bytes = original;
    bytes[section(2).offset + 96 * 3 + 5] ^= 0x01;
    test::write_bytes(bad, bytes);
    CHECK_NOTHROW(load_proving_key(bad, trusted));
    LoadOptions checked = trusted;
    checked.check_query_points = true;
    expect_error(bad, error_of([&] { load_proving_key(bad, checked); }),
                 "the A query[3] is not on the curve");
  }
  {  // The fixed points are always checked.
    auto bytes = original;
    bytes[section(1).offset + 96 + 3] ^= 0x01;  // beta1
    test::write_bytes(bad, bytes);
    expect_error(bad, error_of([&] { load_proving_key(bad, trusted); }), "beta1 is not on the curve");
  }
  {  // A column index out of range in a PCE: an error, never an out-of-bounds read later.
    write_constraint_system(dir / "k.plpce", f.circuit.cs);
    auto bytes = test::read_bytes(dir / "k.plpce");
    Entry columns{};
    for (const auto& e : section_table(bytes))
      if (e.id == 17) columns = e;
    bytes[columns.offset + 4 * 10 + 3] = 0x7f;
    test::write_bytes(bad, bytes);
    expect_error(bad, error_of([&] { load_constraint_system(bad, trusted); }),
                 "matrix A: entry 10 names variable");
  }
}

TEST_CASE("groth16/native/truncated and extended files fail cleanly") {
  test::TempDir dir;
  const auto& f = fixture();
  write_proving_key(dir / "k.plkey", f.keys.pk, &f.keys.vk);
  const auto original = test::read_bytes(dir / "k.plkey");
  const auto table = section_table(original);
  std::vector<std::size_t> lengths = {0,
                                      1,
                                      7,
                                      8,
                                      100,
                                      255,
                                      256,
                                      257,
                                      300,
                                      256 + 48 * table.size() - 1,
                                      256 + 48 * table.size(),
                                      original.size() / 2,
                                      original.size() - 1};
  for (const auto& e : table) {
    lengths.push_back(e.offset);
    lengths.push_back(e.offset + e.bytes / 2);
  }
  const auto bad = dir / "bad";
  for (const std::size_t length : lengths) {
    if (length >= original.size()) continue;
    CAPTURE(length);
    test::write_bytes(bad, std::vector<std::uint8_t>(original.begin(),
                                                     original.begin() + static_cast<std::ptrdiff_t>(length)));
    const std::string message = error_of([&] { load_proving_key(bad); });
    CHECK_MESSAGE(message.rfind(bad.string() + ": ", 0) == 0, message);
    if (length == 0) CHECK(message.find("empty") != std::string::npos);
    if (length >= 256 + 48 * table.size()) CHECK(message.find("(truncated)") != std::string::npos);
    const std::string mapped_trusted = error_of([&] { load_proving_key(bad, {.verify_checksums = false}); });
    CHECK(mapped_trusted.rfind(bad.string() + ": ", 0) == 0);
  }
  auto longer = original;
  longer.push_back(0);
  test::write_bytes(bad, longer);
  expect_error(bad, error_of([&] { load_proving_key(bad); }), "(trailing data)");
  CHECK_THROWS_WITH_AS(load_proving_key(dir / "missing"), doctest::Contains("missing: cannot open"), Error);
}

TEST_CASE("groth16/native/truncated verifying key and constraint system files fail cleanly") {
  test::TempDir dir;
  const auto& f = fixture();
  write_verifying_key(dir / "k.plvk", f.keys.vk);
  write_constraint_system(dir / "k.plpce", f.circuit.cs);
  using Load = std::function<void(const std::filesystem::path&, const LoadOptions&)>;
  const std::pair<std::filesystem::path, Load> kinds[] = {
      {dir / "k.plvk",
       [](const std::filesystem::path& p, const LoadOptions& o) { load_verifying_key(p, o); }},
      {dir / "k.plpce",
       [](const std::filesystem::path& p, const LoadOptions& o) { load_constraint_system(p, o); }}};
  const auto bad = dir / "bad";
  for (const auto& [path, load] : kinds) {
    CAPTURE(path.string());
    const auto original = test::read_bytes(path);
    const auto table = section_table(original);
    const std::size_t header_end = 256 + 48 * table.size();
    std::vector<std::size_t> lengths = {
        0, 1, 8, 255, 256, 257, header_end - 1, header_end, original.size() / 2, original.size() - 1};
    for (const auto& e : table) {
      lengths.push_back(e.offset);
      lengths.push_back(e.offset + e.bytes / 2);
      lengths.push_back(e.offset + e.bytes - 1);
    }
    for (const std::size_t length : lengths) {
      if (length >= original.size()) continue;
      CAPTURE(length);
      test::write_bytes(bad, std::vector<std::uint8_t>(
                                 original.begin(), original.begin() + static_cast<std::ptrdiff_t>(length)));
      for (const auto mode : {LoadOptions::Mode::map, LoadOptions::Mode::read}) {
        for (const bool checksums : {true, false}) {
          const std::string message =
              error_of([&] { load(bad, LoadOptions{.mode = mode, .verify_checksums = checksums}); });
          CHECK_MESSAGE(message.rfind(bad.string() + ": ", 0) == 0, message);
          if (length == 0) CHECK(message.find("empty") != std::string::npos);
          if (length >= header_end) CHECK(message.find("(truncated)") != std::string::npos);
        }
      }
    }
    // The intact file still loads, so the errors above came from the truncation alone.
    CHECK_NOTHROW(load(path, LoadOptions{}));
  }
}

TEST_CASE("groth16/native/wrong magic, version, kind and curve") {
  test::TempDir dir;
  const auto& f = fixture();
  write_proving_key(dir / "k.plkey", f.keys.pk);
  write_constraint_system(dir / "k.plpce", f.circuit.cs);
  const auto original = test::read_bytes(dir / "k.plkey");
  const auto bad = dir / "bad";
  const auto attempt = [&](std::vector<std::uint8_t> bytes, const std::string& fragment, bool fix = false) {
    if (fix) fix_header_checksum(bytes);
    test::write_bytes(bad, bytes);
    expect_error(bad, error_of([&] { load_proving_key(bad); }), fragment);
  };
  auto bytes = original;
  bytes[0] = 'X';
  attempt(bytes, "not a proofline native file (bad magic)");
  attempt(std::vector<std::uint8_t>{'n', 'o', 'p', 'e', 'n', 'o', 'p', 'e', 'x'}, "bad magic");
  bytes = original;
  put_u32(bytes, 8, 2);
  attempt(bytes, "format version 2 is not supported");
  bytes = original;
  put_u32(bytes, 12, 9);
  attempt(bytes, "header checksum mismatch");
  attempt(bytes, "unknown file kind 9", true);
  bytes = original;
  put_u32(bytes, 16, 2);
  attempt(bytes, "is not BLS12-381", true);
  bytes = original;
  put_u32(bytes, 20, 3);
  attempt(bytes, "unknown H convention 3", true);
  expect_error(dir / "k.plpce", error_of([&] { load_proving_key(dir / "k.plpce"); }),
               "this is a constraint system file, not a proving key");
  expect_error(dir / "k.plkey", error_of([&] { load_constraint_system(dir / "k.plkey"); }),
               "this is a proving key file, not a constraint system");
}

TEST_CASE("groth16/native/header sizes and section tables that disagree are rejected") {
  test::TempDir dir;
  const auto& f = fixture();
  write_proving_key(dir / "k.plkey", f.keys.pk, &f.keys.vk);
  write_constraint_system(dir / "k.plpce", f.circuit.cs);
  const auto key = test::read_bytes(dir / "k.plkey");
  const auto pce = test::read_bytes(dir / "k.plpce");
  const auto bad = dir / "bad";
  const auto key_error = [&](std::vector<std::uint8_t> bytes) {
    fix_header_checksum(bytes);
    test::write_bytes(bad, bytes);
    return error_of([&] { load_proving_key(bad, {.verify_checksums = false}); });
  };
  const auto pce_error = [&](std::vector<std::uint8_t> bytes) {
    fix_header_checksum(bytes);
    test::write_bytes(bad, bytes);
    return error_of([&] { load_constraint_system(bad, {.verify_checksums = false}); });
  };
  constexpr std::size_t params = 40;
  auto b = key;
  put_u64(b, params + 0, u64_at(b, params) + 1);  // num_variables
  expect_error(bad, key_error(b), "L query size");
  b = key;
  put_u64(b, params + 8 * 2, 7);  // log domain size
  expect_error(bad, key_error(b), "H query size");
  b = key;
  put_u64(b, params + 8 * 2, 40);
  expect_error(bad, key_error(b), "log2 domain size 40 is outside");
  b = key;
  put_u64(b, params + 8 * 1, u64_at(b, params) + 5);  // num_public beyond num_variables
  expect_error(bad, key_error(b), "not a valid shape");
  b = key;
  put_u64(b, params + 8 * 6, 99);  // IC points
  expect_error(bad, key_error(b), "IC size");
  b = key;
  put_u64(b, params + 8 * 15, 1);  // an unused parameter
  expect_error(bad, key_error(b), "unused parameter 15");
  b = key;
  put_u64(b, 32, key.size() + 4096);  // file size
  expect_error(bad, key_error(b), "(truncated)");

  const std::size_t first = 256, second = 256 + 48;
  b = key;
  put_u64(b, first + 16, u64_at(b, first + 16) + 1);  // count of the fixed points
  expect_error(bad, key_error(b), "do not make");
  b = key;
  put_u64(b, second + 8, u64_at(b, second + 8) + 8);  // misaligned offset
  expect_error(bad, key_error(b), "is not aligned");
  b = key;
  put_u64(b, second + 8, std::uint64_t{1} << 40);  // outside the file
  expect_error(bad, key_error(b), "lie outside the file");
  b = key;
  put_u64(b, second + 8, u64_at(b, first + 8));  // on top of the first section
  expect_error(bad, key_error(b), "overlaps");
  b = key;
  put_u32(b, second, 1);  // duplicate id
  expect_error(bad, key_error(b), "appears twice");
  b = key;
  put_u32(b, second, 200);  // unknown id
  expect_error(bad, key_error(b), "unknown section id 200");
  b = key;
  put_u32(b, second, 17);  // a PCE section in a key
  expect_error(bad, key_error(b), "does not belong in a proving key file");
  b = key;
  put_u32(b, 24, 65);
  expect_error(bad, key_error(b), "65 sections");
  b = key;
  put_u32(b, second + 4, 48);  // element size of the A query
  put_u64(b, second + 16, u64_at(b, second + 16) * 2);
  expect_error(bad, key_error(b), "the A query: elements of 48 bytes, expected 96");

  auto p = pce;
  put_u64(p, params + 0, u64_at(p, params) + 1);  // rows
  expect_error(bad, pce_error(p), "the row offsets of A has");
  p = pce;
  put_u64(p, params + 8 * 3, 0);  // says there is no C
  expect_error(bad, pce_error(p), "the header gives C nonzeros but no C matrix");
  p = pce;
  put_u64(p, params + 8 * 1, 2);  // num_variables not above num_public
  expect_error(bad, pce_error(p), "public inputs do not fit");
  p = pce;
  put_u64(p, params + 8 * 0, std::uint64_t{1} << 62);
  expect_error(bad, pce_error(p), "cannot fit in the file");
}

TEST_CASE("groth16/native/writes are atomic") {
  test::TempDir dir;
  const auto& f = fixture();
  write_proving_key(dir / "k.plkey", f.keys.pk);
  write_proving_key(dir / "k.plkey", f.keys.pk, &f.keys.vk);  // replaces
  CHECK(load_proving_key(dir / "k.plkey").value.vk.has_value());
  std::size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
    CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
  }
  CHECK(entries == 1);
  CHECK_THROWS_WITH_AS(write_proving_key(dir / "no/such/dir/k.plkey", f.keys.pk),
                       doctest::Contains("cannot create"), Error);
  ProvingKey broken = f.keys.pk;
  broken.h_query = broken.h_query.subarray(0, 3);
  CHECK_THROWS_AS(write_proving_key(dir / "broken.plkey", broken), Error);
  CHECK_FALSE(std::filesystem::exists(dir / "broken.plkey"));
}
