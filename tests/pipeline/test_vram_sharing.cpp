// How keys resident on one GPU share its VRAM (devices/vram_sharing.hpp): tables give way a table level at a
// time, the largest step first, on ties the key at the highest level and then the key being registered, and
// never more than needed; which queries each level holds; and what a key's points are charged there
// (devices/gpu_lane.hpp).
#include <doctest/doctest.h>

#include <numeric>
#include <random>
#include <vector>

#include <proofline/devices/gpu_lane.hpp>
#include <proofline/devices/vram_sharing.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proving_key.hpp>

#include "support/synthetic_keys.hpp"

using namespace proofline;
using devices::KeyVramClaim;
using devices::kTableQueries;
using devices::kTopTableLevel;
using devices::share_vram_tables;
using devices::TableQuery;

namespace {

/// A key at table level `level` whose SRS and constraint system take `base` and whose tables take
/// `table[q]` each, in TableQuery order (H, A, B1, L, B2).
KeyVramClaim claim(std::uint64_t base, std::array<std::uint64_t, kTableQueries> table, unsigned level) {
  std::array<std::uint64_t, kTopTableLevel + 1> bytes{};
  for (unsigned l = 0; l <= kTopTableLevel; ++l) {
    bytes[l] = base;
    for (unsigned q = 0; q < kTableQueries; ++q)
      if (devices::table_level_has(l, static_cast<TableQuery>(q))) bytes[l] += table[q];
  }
  return devices::key_vram_claim(level, bytes);
}

std::uint64_t bytes_of(const std::vector<KeyVramClaim>& claims, const std::vector<unsigned>& levels) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < claims.size(); ++i) sum += claims[i].bytes[levels[i]];
  return sum;
}

// A BLS12-381 key of 2^24 rows, in tenths of a GiB: SRS and constraint system 110 (claim's base), G1 tables
// 165 each, B2's 330: each table level takes 165 more than the one below.
constexpr std::array<std::uint64_t, kTableQueries> kLargeTables{165, 165, 165, 165, 330};

}  // namespace

TEST_CASE("devices/table levels: each adds tables by their gain a byte and takes more VRAM") {
  const auto names = [](unsigned level) { return devices::table_level_names(level); };
  CHECK(names(0) == "none");
  CHECK(names(1) == "H");
  CHECK(names(2) == "H, A");
  CHECK(names(3) == "H, B2");  // A's table gives way to B2's, which saves more a byte
  CHECK(names(4) == "H, A, B2");
  CHECK(names(5) == "H, A, B1, B2");
  CHECK(names(kTopTableLevel) == "H, A, B1, L, B2");
  CHECK_FALSE(devices::table_level_has(kTopTableLevel + 1, TableQuery::h));
  // A key's G1 tables are the same size and B2's twice theirs: each level takes one G1 table more.
  const KeyVramClaim c = claim(110, kLargeTables, kTopTableLevel);
  for (unsigned l = 1; l <= kTopTableLevel; ++l) CHECK(c.bytes[l] - c.bytes[l - 1] == 165);
  // A query of unusual size never makes a level cheaper than the one below.
  const KeyVramClaim odd = claim(10, {5, 50, 5, 5, 20}, kTopTableLevel);
  CHECK(odd.bytes[2] == 65);
  CHECK(odd.bytes[3] == 65);  // H and B2 take 35, charged as H and A
  CHECK(odd.bytes[4] == 85);
  CHECK(claim(10, kLargeTables, kTopTableLevel + 3).level == kTopTableLevel);
}

TEST_CASE("devices/vram sharing: what fits keeps every table") {
  const std::vector<KeyVramClaim> claims{claim(110, kLargeTables, kTopTableLevel),
                                         claim(110, kLargeTables, kTopTableLevel)};
  const auto plan = share_vram_tables(claims, 2200);
  REQUIRE(plan);
  CHECK(*plan == std::vector<unsigned>{6, 6});
  CHECK(share_vram_tables(claims, 10000) == std::vector<unsigned>{6, 6});
}

TEST_CASE("devices/vram sharing: two equal keys give up levels in turn, the new key first") {
  const std::vector<KeyVramClaim> claims{claim(110, kLargeTables, kTopTableLevel),
                                         claim(110, kLargeTables, kTopTableLevel)};
  // Room for both keys' SRS and 890 of tables: seven steps of 165, the new key's first, then the higher.
  const auto plan = share_vram_tables(claims, 1110);
  REQUIRE(plan);
  CHECK(*plan == std::vector<unsigned>{3, 2});
  CHECK(bytes_of(claims, *plan) <= 1110);
  // One unit short of every table: only the new key's top level goes.
  CHECK(share_vram_tables(claims, 2199) == std::vector<unsigned>{6, 5});
  // A new key that wants fewer tables: the old key's top levels go first, their tables saving the least.
  const std::vector<KeyVramClaim> lower{claim(110, kLargeTables, kTopTableLevel),
                                        claim(110, kLargeTables, 4)};
  CHECK(share_vram_tables(lower, 1100 + 770 - 200) == std::vector<unsigned>{4, 4});
}

TEST_CASE("devices/vram sharing: a small key keeps its tables while a large key's larger steps go") {
  const std::vector<KeyVramClaim> claims{claim(110, kLargeTables, kTopTableLevel),
                                         claim(2, {3, 3, 3, 3, 6}, kTopTableLevel)};
  // 20 short: the large key's top level (165) goes, not the small key's whole set (18).
  const auto plan = share_vram_tables(claims, 110 + 990 + 2 + 18 - 20);
  REQUIRE(plan);
  CHECK(*plan == std::vector<unsigned>{5, 6});
}

TEST_CASE("devices/vram sharing: a key keeps at most what it holds, and no room for the SRS is no plan") {
  const std::vector<KeyVramClaim> claims{claim(110, kLargeTables, 2),
                                         claim(110, kLargeTables, kTopTableLevel)};
  CHECK(share_vram_tables(claims, 10000) == std::vector<unsigned>{2, 6});
  CHECK_FALSE(share_vram_tables(claims, 219));
  CHECK(share_vram_tables(claims, 220) == std::vector<unsigned>{0, 0});
  CHECK(share_vram_tables(std::vector<KeyVramClaim>{}, 0) == std::vector<unsigned>{});
}

TEST_CASE("devices/vram sharing: on random keys the plan fits, and no table it gave up would fit back") {
  std::mt19937_64 rng(20261204);
  for (int round = 0; round < 2000; ++round) {
    std::vector<KeyVramClaim> claims(1 + rng() % 5);
    for (KeyVramClaim& c : claims) {
      // Each key's G1 tables of one size, B2's twice theirs, as on the GPU; now and then one of unusual size.
      const std::uint64_t size = 1 + rng() % 100;
      std::array<std::uint64_t, kTableQueries> table{size, size, size, size, 2 * size};
      if (rng() % 4 == 0) table[rng() % kTableQueries] = 1 + rng() % 300;
      c = claim(rng() % 200, table, static_cast<unsigned>(rng() % (kTopTableLevel + 1)));
    }
    std::vector<unsigned> held;
    for (const auto& c : claims) held.push_back(c.level);
    const std::uint64_t all = bytes_of(claims, held);
    std::uint64_t bases = 0;
    for (const auto& c : claims) bases += c.bytes[0];
    const std::uint64_t room = bases + rng() % (all - bases + 50);
    const auto plan = share_vram_tables(claims, room);
    REQUIRE(plan);
    const std::uint64_t used = bytes_of(claims, *plan);
    CHECK(used <= room);
    for (std::size_t i = 0; i < claims.size(); ++i) {
      CHECK((*plan)[i] <= held[i]);
      if ((*plan)[i] == held[i]) continue;
      const unsigned t = (*plan)[i];
      CHECK(used + claims[i].bytes[t + 1] - claims[i].bytes[t] > room);
    }
    if (room >= all) CHECK(*plan == held);
    if (bases > 0) CHECK_FALSE(share_vram_tables(claims, bases - 1));
  }
}

TEST_CASE("devices/key bytes: L's points on a GPU are charged with their padding to z's indices") {
  const auto keys = test_support::make_synthetic_keys(8, 5, 6);
  const groth16::ProvingKey& pk = *keys->pk;
  // L covers the private variables; on a GPU it is indexed like z, the public prefix (z[0] = 1 included) at
  // infinity, so that it shares the witness MSMs' sorted scalars.
  CHECK(devices::l_query_padding(pk) == pk.num_public + 1);
  CHECK(pk.l_query.size() + devices::l_query_padding(pk) == pk.num_variables);
  devices::GpuKey key{"key 1", "k", devices::AnyProvingKey(&pk), std::nullopt, 0};
  const std::uint64_t padding_bytes = (pk.num_public + 1) * sizeof(G1Affine);
  CHECK(devices::device_key_bytes(key) == pk.query_bytes() + padding_bytes);
  key.cs = devices::AnyConstraintSystem(keys->cs.get());
  CHECK(devices::device_key_bytes(key) == pk.query_bytes() + padding_bytes + keys->cs->size_bytes());
}
