// How keys resident on one GPU share its VRAM (devices/vram_sharing.hpp): tables give way, the largest
// first and the key being registered first on ties, and never more than needed; and what a key's points are
// charged there (devices/gpu_lane.hpp).
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
using devices::share_vram_tables;

namespace {

/// A key whose SRS and constraint system take `base` and whose tables take `table[t]` each, in TableQuery
/// order (H, A, B1, L, B2).
KeyVramClaim claim(std::uint64_t base, std::array<std::uint64_t, kTableQueries> table, unsigned tables) {
  KeyVramClaim c;
  c.tables = tables;
  c.bytes[0] = base;
  for (unsigned t = 0; t < kTableQueries; ++t) c.bytes[t + 1] = c.bytes[t] + table[t];
  return c;
}

std::uint64_t bytes_of(const std::vector<KeyVramClaim>& claims, const std::vector<unsigned>& tables) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < claims.size(); ++i) sum += claims[i].bytes[tables[i]];
  return sum;
}

// A BLS12-381 key of 2^24 rows, in tenths of a GiB: SRS and constraint system 110 (claim's base), G1 tables
// 165 each, B2's 330.
constexpr std::array<std::uint64_t, kTableQueries> kLargeTables{165, 165, 165, 165, 330};

}  // namespace

TEST_CASE("devices/vram sharing: what fits keeps every table") {
  const std::vector<KeyVramClaim> claims{claim(110, kLargeTables, 5), claim(110, kLargeTables, 5)};
  const auto plan = share_vram_tables(claims, 2200);
  REQUIRE(plan);
  CHECK(*plan == std::vector<unsigned>{5, 5});
  CHECK(share_vram_tables(claims, 10000) == std::vector<unsigned>{5, 5});
}

TEST_CASE("devices/vram sharing: two equal keys give up their largest tables first, the new key on ties") {
  const std::vector<KeyVramClaim> claims{claim(110, kLargeTables, 5), claim(110, kLargeTables, 5)};
  // Room for both keys' SRS and 890 of tables: B2 (the new key's, a tie), B2 (the old key's, the largest
  // left), then the new key's L, B1 and A (every G1 table ties).
  const auto plan = share_vram_tables(claims, 1110);
  REQUIRE(plan);
  CHECK(*plan == std::vector<unsigned>{4, 1});
  CHECK(bytes_of(claims, *plan) <= 1110);
  // One unit short of every table: only the new key's B2 goes.
  CHECK(share_vram_tables(claims, 2199) == std::vector<unsigned>{5, 4});
}

TEST_CASE("devices/vram sharing: a small key keeps its tables while a large key's larger ones go") {
  const std::vector<KeyVramClaim> claims{claim(110, kLargeTables, 5), claim(2, {3, 3, 3, 3, 6}, 5)};
  // 20 short: the large key's B2 (330) goes, not the small key's whole set (18).
  const auto plan = share_vram_tables(claims, 110 + 990 + 2 + 18 - 20);
  REQUIRE(plan);
  CHECK(*plan == std::vector<unsigned>{4, 5});
}

TEST_CASE("devices/vram sharing: a key keeps at most what it holds, and no room for the SRS is no plan") {
  const std::vector<KeyVramClaim> claims{claim(110, kLargeTables, 2), claim(110, kLargeTables, 5)};
  CHECK(share_vram_tables(claims, 10000) == std::vector<unsigned>{2, 5});
  CHECK_FALSE(share_vram_tables(claims, 219));
  CHECK(share_vram_tables(claims, 220) == std::vector<unsigned>{0, 0});
  CHECK(share_vram_tables(std::vector<KeyVramClaim>{}, 0) == std::vector<unsigned>{});
}

TEST_CASE("devices/vram sharing: on random keys the plan fits, and no table it gave up would fit back") {
  std::mt19937_64 rng(20261204);
  for (int round = 0; round < 2000; ++round) {
    std::vector<KeyVramClaim> claims(1 + rng() % 5);
    for (KeyVramClaim& c : claims) {
      // Each key's tables in TableQuery order grow (B2's the largest), as they do on the GPU.
      std::array<std::uint64_t, kTableQueries> table{};
      std::uint64_t size = 1 + rng() % 100;
      for (auto& t : table) t = size += rng() % 20;
      c = claim(rng() % 200, table, static_cast<unsigned>(rng() % (kTableQueries + 1)));
    }
    std::vector<unsigned> held;
    for (const auto& c : claims) held.push_back(c.tables);
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
