// The .zkey reader's full point check through key_check.hpp: a snarkjs key passes and is remembered, a
// second read skips the subgroup work, and a point outside G1 or G2 at a random position of a large query is
// named by section and index (and never remembered).
#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/zkey.hpp>

#include "snarkjs/helpers.hpp"
#include "support/temp_dir.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

std::vector<std::byte> with_point(const std::vector<std::byte>& original, std::uint32_t section,
                                  std::size_t index, const void* point, std::size_t size) {
  const BinFile file = BinFile::from_memory(nullptr, original, "x", "zkey", ".zkey", 1);
  BinFileWriter writer("zkey", 1);
  for (const auto& s : file.sections()) {
    const auto p = file.payload(s);
    std::vector<std::byte> payload(p.begin(), p.end());
    if (s.type == section) std::memcpy(payload.data() + index * size, point, size);
    writer.add_section(s.type, std::move(payload));
  }
  return writer.bytes();
}

}  // namespace

TEST_CASE("groth16/zkey_check/a snarkjs key is checked once, and a point outside is named by position") {
  test_support::TempDir dir;
  const auto good = file_bytes(fixture("chain_1024", "circuit_final.zkey"));
  ZkeyOptions options;
  options.key_check.cache_directory = dir.path() / "checked";
  const ZkeyFile first = parse_zkey(nullptr, good, "good.zkey", options);
  CHECK(first.key_check.subgroups_checked);
  CHECK(first.key_check.record_written);
  const ZkeyFile second = parse_zkey(nullptr, good, "good.zkey", options);
  CHECK(second.key_check.from_cache);
  CHECK(!second.key_check.subgroups_checked);
  CHECK(second.key_check.digest == first.key_check.digest);
  REQUIRE(first.pk.h_query.size() >= 1024);
  // Lower levels do no subgroup work and report none.
  const ZkeyFile curve = parse_zkey(nullptr, good, "good.zkey", ZkeyOptions{.points = PointCheck::on_curve});
  CHECK(!curve.key_check.subgroups_checked);
  CHECK(!curve.key_check.from_cache);

  std::mt19937_64 rng(std::random_device{}());
  // Q + (0, 2): on the curve, with an order-3 part, at a random index of the H query.
  const std::size_t at = rng() % first.pk.h_query.size();
  const G1Affine bad =
      (first.pk.h_query[at].to_jacobian() + G1Affine{Fp::zero(), Fp::from_u64(2)}).to_affine();
  REQUIRE(bad.is_on_curve());
  const auto g1_bad = with_point(good, 9, at, &bad, sizeof bad);
  CHECK(contains(
      bad_input_message([&] { parse_zkey(nullptr, g1_bad, "bad.zkey", options); }),
      "bad.zkey: H query (section 9): point " + std::to_string(at) + " is not in the prime-order subgroup"));
  // G2: a point of the twist outside G2 (x = n + u for the first n that gives one) at a random B2 index.
  G2Affine bad2{};
  for (std::uint64_t x = 1;; ++x) {
    bad2 = G2Affine{Fp2{Fp::from_u64(x), Fp::one()}, Fp2{}};
    if ((bad2.x.squared() * bad2.x + Fp2{Fp::from_u64(4), Fp::from_u64(4)}).sqrt(bad2.y) &&
        !is_in_subgroup(bad2))
      break;
  }
  const std::size_t at2 = rng() % first.pk.b2_query.size();
  const auto g2_bad = with_point(good, 7, at2, &bad2, sizeof bad2);
  CHECK(contains(bad_input_message([&] { parse_zkey(nullptr, g2_bad, "bad2.zkey", options); }),
                 "bad2.zkey: B2 query (section 7): point " + std::to_string(at2) +
                     " is not in the prime-order subgroup"));
  CHECK_NOTHROW(parse_zkey(nullptr, g2_bad, "bad2.zkey", ZkeyOptions{.points = PointCheck::on_curve}));
  std::size_t records = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path() / "checked"))
    ++records;
  CHECK(records == 1);
}
