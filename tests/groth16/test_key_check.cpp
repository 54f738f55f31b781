// The full key check done once: SHA-256 against FIPS 180-4's examples (both compression functions), and the
// cache of checked keys: skipped on a second load, checked again after a change, never fooled by a corrupt
// record or one made for another key, never written for a key that failed. The batched subgroup test itself
// is checked in test_batch_subgroup.cpp.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <proofline/groth16/detail/sha256.hpp>
#include <proofline/groth16/key_check.hpp>
#include <proofline/groth16/native_file.hpp>

#include "groth16/helpers.hpp"
#include "support/subgroup_points.hpp"

using namespace proofline;
using namespace proofline::groth16;
using proofline::test_support::g1_with_order3_component;
namespace g16d = proofline::groth16::detail;

namespace {

std::string hex(const g16d::Sha256Digest& d) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (const auto b : d) (out += digits[b >> 4]) += digits[b & 15];
  return out;
}

}  // namespace

TEST_CASE("groth16/key_check/sha256 matches FIPS 180-4 with and without the SHA extensions") {
  const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  const std::string million(1000000, 'a');
  CHECK(hex(g16d::sha256("", 0)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex(g16d::sha256("abc", 3)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(g16d::sha256(two_blocks.data(), two_blocks.size())) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex(g16d::sha256(million.data(), million.size())) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  CHECK(hex(g16d::sha256_portable(million.data(), million.size())) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Every length around the block and padding boundaries, fed whole and in uneven pieces.
  std::mt19937_64 rng(5);
  std::vector<std::uint8_t> data(300);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  for (std::size_t n = 0; n < data.size(); ++n) {
    const auto whole = g16d::sha256(data.data(), n);
    CHECK(whole == g16d::sha256_portable(data.data(), n));
    g16d::Sha256 pieces;
    for (std::size_t at = 0; at < n;) {
      const std::size_t take = std::min<std::size_t>(n - at, 1 + rng() % 70);
      pieces.update(data.data() + at, take);
      at += take;
    }
    CHECK(pieces.finish() == whole);
  }
  MESSAGE("SHA extensions used: " << g16d::sha256_uses_cpu_extensions());
}

TEST_CASE("groth16/key_check/the cache skips a second check and is invalidated by any change") {
  test::TempDir dir;
  const auto& fixture = test::small_fixture(8, HConvention::snarkjs);
  const auto key_path = dir.path() / "key.plkey";
  write_proving_key(key_path, fixture.keys.pk);
  LoadOptions options;
  options.check_query_subgroups = true;
  options.key_check.cache_directory = dir.path() / "checked";

  const auto first = load_proving_key(key_path, options).value.key_check;
  CHECK(first.subgroups_checked);
  CHECK(!first.from_cache);
  CHECK(first.record_written);
  CHECK(first.digest.size() == 64);
  CHECK(std::filesystem::exists(options.key_check.cache_directory / (first.digest + ".checked")));
  const auto second = load_proving_key(key_path, options).value.key_check;
  CHECK(second.from_cache);
  CHECK(!second.subgroups_checked);
  CHECK(second.digest == first.digest);
  // Without the cache nothing is read or written.
  LoadOptions uncached = options;
  uncached.key_check.use_cache = false;
  const auto third = load_proving_key(key_path, uncached).value.key_check;
  CHECK(third.subgroups_checked);
  CHECK(third.digest.empty());

  // One byte of any query changes the digest.
  ProvingKey pk = fixture.keys.pk;
  for (auto* query : {&pk.a_query, &pk.b1_query, &pk.h_query, &pk.l_query}) {
    std::vector<G1Affine> copy(query->begin(), query->end());
    const SharedArray<G1Affine> saved = *query;
    reinterpret_cast<std::uint8_t*>(copy.data())[copy.size() * sizeof(G1Affine) / 2] ^= 1;
    *query = SharedArray<G1Affine>(std::move(copy));
    CHECK(query_digest(pk) != first.digest);
    *query = saved;
  }
  std::vector<G2Affine> b2(pk.b2_query.begin(), pk.b2_query.end());
  reinterpret_cast<std::uint8_t*>(b2.data())[17] ^= 1;
  pk.b2_query = SharedArray<G2Affine>(std::move(b2));
  CHECK(query_digest(pk) != first.digest);
  CHECK(query_digest(fixture.keys.pk) == first.digest);

  // A changed key file (still valid: two H points swapped) is checked again.
  ProvingKey swapped = fixture.keys.pk;
  std::vector<G1Affine> h(swapped.h_query.begin(), swapped.h_query.end());
  std::swap(h[3], h[4]);
  swapped.h_query = SharedArray<G1Affine>(std::move(h));
  write_proving_key(key_path, swapped);
  const auto changed = load_proving_key(key_path, options).value.key_check;
  CHECK(changed.subgroups_checked);
  CHECK(changed.digest != first.digest);
}

TEST_CASE("groth16/key_check/corrupt or foreign records are ignored and failed keys never remembered") {
  test::TempDir dir;
  const auto& fixture = test::small_fixture(8, HConvention::snarkjs);
  const auto key_path = dir.path() / "key.plkey";
  write_proving_key(key_path, fixture.keys.pk);
  LoadOptions options;
  options.check_query_subgroups = true;
  options.key_check.cache_directory = dir.path() / "checked";
  const std::string digest = query_digest(fixture.keys.pk);
  const auto record = options.key_check.cache_directory / (digest + ".checked");
  std::filesystem::create_directories(options.key_check.cache_directory);

  const auto write = [](const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  };
  write(record, "garbage");
  CHECK(load_proving_key(key_path, options).value.key_check.subgroups_checked);
  // The check rewrote it; now make it the record of another key under this key's name.
  std::ifstream in(record);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  REQUIRE(text.find(digest) != std::string::npos);
  std::string other = text;
  other.replace(other.find(digest), 64, std::string(64, 'a'));
  write(record, other);
  CHECK(load_proving_key(key_path, options).value.key_check.subgroups_checked);
  // A FIFO under the record's name is passed over, not opened (that would block).
  std::filesystem::remove(record);
  REQUIRE(::mkfifo(record.c_str(), 0600) == 0);
  CHECK(load_proving_key(key_path, options).value.key_check.subgroups_checked);
  std::filesystem::remove(record);
  write(record, text + "x");
  CHECK(load_proving_key(key_path, options).value.key_check.subgroups_checked);
  CHECK(load_proving_key(key_path, options).value.key_check.from_cache);

  // A key with one point outside the subgroup (among many, at a random place) fails by name, every time,
  // and leaves no record.
  std::mt19937_64 rng(std::random_device{}());
  ProvingKey bad = fixture.keys.pk;
  std::vector<G1Affine> h(bad.h_query.begin(), bad.h_query.end());
  REQUIRE(h.size() >= 200);
  const std::size_t at = rng() % h.size();
  h[at] = g1_with_order3_component(h[at]);
  bad.h_query = SharedArray<G1Affine>(std::move(h));
  const auto bad_path = dir.path() / "bad.plkey";
  write_proving_key(bad_path, bad);
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      load_proving_key(bad_path, options);
      FAIL("a key with a point outside G1 loaded");
    } catch (const Error& e) {
      CHECK(e.code() == Errc::bad_input);
      CHECK(std::string(e.what()).find("the H query: point " + std::to_string(at) +
                                       " is not in the prime-order subgroup") != std::string::npos);
    }
  }
  CHECK(!std::filesystem::exists(options.key_check.cache_directory / (query_digest(bad) + ".checked")));
  // Without the subgroup check the bad key loads (the curve check passes): the check is what refuses it.
  LoadOptions curve_only;
  curve_only.check_query_points = true;
  CHECK_NOTHROW(load_proving_key(bad_path, curve_only));
}

namespace {

/// A SubgroupTester that tests each point with arith/'s exact per-point tests and counts its calls: what a
/// GPU tester does, on the CPU, so the plumbing is tested where there is no GPU.
class CountingTester final : public SubgroupTester {
 public:
  mutable int calls = 0;
  std::optional<std::size_t> first_outside(std::span<const G1Affine> p) const override { return scan(p); }
  std::optional<std::size_t> first_outside(std::span<const G2Affine> p) const override { return scan(p); }
  std::optional<std::size_t> first_outside(std::span<const bn254::G1Affine> p) const override {
    return scan(p);
  }
  std::optional<std::size_t> first_outside(std::span<const bn254::G2Affine> p) const override {
    return scan(p);
  }

 private:
  template <class Affine>
  std::optional<std::size_t> scan(std::span<const Affine> points) const {
    ++calls;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (!is_in_subgroup(points[i])) return i;
    return std::nullopt;
  }
};

}  // namespace

TEST_CASE("groth16/key_check/a subgroup tester replaces the CPU check, and its verdict names the point") {
  const auto& fixture = test::small_fixture(8, HConvention::snarkjs);
  auto tester = std::make_shared<CountingTester>();
  const KeyCheckOptions options{.use_cache = false, .tester = tester};
  const KeyCheckReport report = check_query_subgroups(fixture.keys.pk, Errc::bad_input, "key", options);
  CHECK(report.subgroups_checked);
  CHECK(report.on_tester);
  CHECK(tester->calls == 5);  // one call per query

  ProvingKey bad = fixture.keys.pk;
  std::vector<G2Affine> b2(bad.b2_query.begin(), bad.b2_query.end());
  REQUIRE(b2.size() > 5);
  b2[5] = test_support::g2_outside_subgroup();
  bad.b2_query = SharedArray<G2Affine>(std::move(b2));
  try {
    check_query_subgroups(bad, Errc::bad_input, "key", options);
    FAIL("a key with a B2 point outside G2 passed the tester");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::bad_input);
    CHECK(std::string(e.what()) == "key: the B2 query: point 5 is not in the prime-order subgroup");
  }
}

TEST_CASE("groth16/key_check/the default directory follows XDG_CACHE_HOME, then HOME") {
  const auto saved = [](const char* name) {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const auto xdg = saved("XDG_CACHE_HOME"), home = saved("HOME");
  ::setenv("XDG_CACHE_HOME", "/x/cache", 1);
  ::setenv("HOME", "/h", 1);
  CHECK(default_checked_keys_directory() == "/x/cache/proofline/checked-keys");
  ::unsetenv("XDG_CACHE_HOME");
  CHECK(default_checked_keys_directory() == "/h/.cache/proofline/checked-keys");
  ::unsetenv("HOME");
  CHECK(default_checked_keys_directory().empty());
  if (xdg) ::setenv("XDG_CACHE_HOME", xdg->c_str(), 1);
  if (home) ::setenv("HOME", home->c_str(), 1);
}
