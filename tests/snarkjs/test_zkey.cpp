// snarkjs .zkey files into our ProvingKey (snarkjs H convention), ConstraintSystem and VerifyingKey: the
// values snarkjs's own files and exports hold, the coefficient encoding worked out independently, zero-copy
// where the layout allows it, and every malformed or foreign key a clear error.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <random>

#include <proofline/arith/random.hpp>
#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/groth16/r1cs_file.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/zkey.hpp>

#include "snarkjs/helpers.hpp"
#include "support/temp_dir.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

/// The zkey rebuilt section by section (same order), with `change` applied to the payloads.
std::vector<std::byte> rebuild(const std::vector<std::byte>& original,
                               const std::function<void(std::uint32_t, std::vector<std::byte>&)>& change,
                               std::uint32_t drop = 0, std::uint32_t duplicate = 0) {
  const BinFile file = BinFile::from_memory(nullptr, original, "x", "zkey", ".zkey", 1);
  BinFileWriter writer("zkey", 1);
  for (const auto& s : file.sections()) {
    if (s.type == drop) continue;
    const auto p = file.payload(s);
    std::vector<std::byte> payload(p.begin(), p.end());
    change(s.type, payload);
    if (s.type == duplicate) writer.add_section(s.type, payload);
    writer.add_section(s.type, std::move(payload));
  }
  return writer.bytes();
}

/// A point of E(Fp) outside G1 (the cofactor is large, so the first x that gives a point does it).
G1Affine g1_outside_subgroup() {
  for (std::uint64_t x = 1;; ++x) {
    G1Affine p{Fp::from_u64(x), Fp::zero()};
    if (!(p.x.squared() * p.x + Fp::from_u64(4)).sqrt(p.y)) continue;
    if (!is_in_subgroup(p)) return p;
  }
}

G2Affine g2_outside_subgroup() {
  for (std::uint64_t x = 1;; ++x) {
    G2Affine p{Fp2{Fp::from_u64(x), Fp::one()}, Fp2{}};
    const Fp2 b{Fp::from_u64(4), Fp::from_u64(4)};
    if (!(p.x.squared() * p.x + b).sqrt(p.y)) continue;
    if (!is_in_subgroup(p)) return p;
  }
}

template <class Point>
void put_point(std::vector<std::byte>& payload, std::size_t offset, const Point& p) {
  std::memcpy(payload.data() + offset, &p, sizeof p);
}

constexpr const char* bn128_q = "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
constexpr const char* bn128_r = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

}  // namespace

TEST_CASE("groth16/zkey/the fixture keys read with the counts and points snarkjs wrote") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const ZkeyFile key = read_zkey(fixture(circuit, "circuit_final.zkey"));
    const std::uint64_t n = std::string(circuit) == "chain_16" ? 16 : 1024;
    CHECK(key.header.num_variables == n + 3);
    CHECK(key.header.num_public == 2);
    CHECK(key.header.domain_size == 2 * n);
    CHECK(key.header.num_rows == n + 3);  // the constraints and the nPublic + 1 input rows
    const ProvingKey& pk = key.pk;
    CHECK(pk.convention == HConvention::snarkjs);
    CHECK(pk.num_variables == n + 3);
    CHECK(pk.num_public == 2);
    CHECK(pk.domain_size() == 2 * n);
    CHECK(pk.a_query.size() == n + 3);
    CHECK(pk.b2_query.size() == n + 3);
    CHECK(pk.l_query.size() == n);
    CHECK(pk.h_query.size() == 2 * n);
    // Wires 0 (one), 1 (out) and 2 (b) never appear in B: snarkjs writes all-zero points, our infinity.
    for (int s = 0; s < 3; ++s) {
      CHECK(pk.b1_query[s].is_infinity());
      CHECK(pk.b2_query[s].is_infinity());
    }
    CHECK_NOTHROW(validate(pk, Errc::invalid_argument, "pk", /*check_queries=*/true));
    CHECK(key.mapped_bytes + key.copied_bytes == pk.query_bytes());
    // The verifying key equals the one snarkjs exported.
    CHECK(key.vk == read_snarkjs_verifying_key(fixture(circuit, "verification_key.json")));
    CHECK(key.cs.num_variables == n + 3);
    CHECK_FALSE(key.cs.c.has_value());
  }
}

TEST_CASE("groth16/zkey/every query of a file read is a view into its section's buffer") {
  // Each section is read to the start of an aligned buffer of its own, whatever its offset in the file.
  const ZkeyFile read = read_zkey(fixture("chain_16", "circuit_final.zkey"));
  CHECK(read.mapped_bytes == read.pk.query_bytes());
  CHECK(read.copied_bytes == 0);
  for (const void* data :
       {static_cast<const void*>(read.pk.a_query.data()), static_cast<const void*>(read.pk.b1_query.data()),
        static_cast<const void*>(read.pk.b2_query.data()), static_cast<const void*>(read.pk.l_query.data()),
        static_cast<const void*>(read.pk.h_query.data())})
    CHECK(reinterpret_cast<std::uintptr_t>(data) % 64 == 0);
  CHECK(read.pk.b2_query.owner() != nullptr);
  CHECK(read.pk.a_query.owner() != read.pk.h_query.owner());  // one buffer per section
  // An image in memory: chain_16's B2 section starts at byte 6544 (16-aligned) and is a view where the image
  // has an owner; the others, at 4, 8 or 12 mod 16, are copied. Without an owner everything is copied. The
  // contents are the same.
  const auto bytes = file_bytes(fixture("chain_16", "circuit_final.zkey"));
  auto owned = std::make_shared<std::vector<std::byte>>(bytes);
  const ZkeyFile viewed = parse_zkey(owned, *owned, "mem.zkey");
  CHECK(viewed.mapped_bytes == 19 * sizeof(G2Affine));
  CHECK(viewed.mapped_bytes + viewed.copied_bytes == read.pk.query_bytes());
  const ZkeyFile copied = parse_zkey(nullptr, bytes, "mem.zkey");
  CHECK(copied.mapped_bytes == 0);
  for (const ZkeyFile* key : {&viewed, &copied}) {
    CHECK(std::equal(key->pk.a_query.begin(), key->pk.a_query.end(), read.pk.a_query.begin()));
    CHECK(std::equal(key->pk.b1_query.begin(), key->pk.b1_query.end(), read.pk.b1_query.begin()));
    CHECK(std::equal(key->pk.b2_query.begin(), key->pk.b2_query.end(), read.pk.b2_query.begin()));
    CHECK(std::equal(key->pk.l_query.begin(), key->pk.l_query.end(), read.pk.l_query.begin()));
    CHECK(std::equal(key->pk.h_query.begin(), key->pk.h_query.end(), read.pk.h_query.begin()));
  }
}

TEST_CASE("groth16/zkey/a truncated file is the same clear error as a truncated image") {
  const auto good = file_bytes(fixture("chain_16", "circuit_final.zkey"));
  const test_support::TempDir dir("proofline-zkey");
  const std::filesystem::path path = dir / "cut.zkey";
  // Inside the table, inside the coefficients, inside the H and B2 queries, one byte short.
  for (const std::size_t size :
       {std::size_t{10}, std::size_t{30}, std::size_t{500}, good.size() / 2, good.size() - 1}) {
    CAPTURE(size);
    const std::vector<std::byte> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));
    write_file_bytes(path, cut);
    const std::string from_file = bad_input_message([&] { read_zkey(path); });
    CHECK(contains(from_file, "truncated"));
    CHECK(from_file == bad_input_message([&] { parse_zkey(nullptr, cut, path.string()); }));
  }
}

TEST_CASE("groth16/zkey/coefficients are A and B of the r1cs with snarkjs's input rows") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const ZkeyFile key = read_zkey(fixture(circuit, "circuit_final.zkey"));
    const R1csFile r1cs =
        read_r1cs(fixture(circuit, "circuit.r1cs"), R1csOptions{.snarkjs_input_rows = true});
    REQUIRE(key.cs.num_constraints() == r1cs.cs.num_constraints());
    for (std::uint64_t row = 0; row < key.cs.num_constraints(); ++row) {
      CAPTURE(row);
      REQUIRE(row_of(key.cs.a, row) == row_of(r1cs.cs.a, row));
      REQUIRE(row_of(key.cs.b, row) == row_of(r1cs.cs.b, row));
    }
  }
}

TEST_CASE("groth16/zkey/the coefficient encoding is coef times R squared mod r") {
  // Worked out with plain modular arithmetic, independent of the Montgomery shortcut in the reader.
  const Fr two_256 = Fr::from_u64(2).pow(256);
  const auto stored_of = [&](const Fr& coef) { return (coef * two_256 * two_256).canonical(); };
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {
    const Fr coef = i == 0 ? Fr::one() : i == 1 ? -Fr::one() : i == 2 ? Fr::zero() : random_field<Fr>(rng);
    const BigInt<4> stored = stored_of(coef);
    CHECK(zkey_coefficient_to_stored(coef) == stored);
    CHECK(zkey_coefficient_from_stored(stored) == coef);
  }
  // The file's first coefficient is A[0][3] = r − 1 (constraint 0 of the chain: (−a)·a = b − c1).
  const auto bytes = file_bytes(fixture("chain_16", "circuit_final.zkey"));
  const BinFile file = BinFile::from_memory(nullptr, bytes, "x", "zkey", ".zkey", 1);
  const std::byte* first = file.payload(file.require(4, "coeffs")).data() + 4;
  CHECK(groth16::detail::load_u32(first) == 0);
  CHECK(groth16::detail::load_u32(first + 4) == 0);
  CHECK(groth16::detail::load_u32(first + 8) == 3);
  CHECK(groth16::detail::load_bigint<4>(first + 12) == stored_of(-Fr::one()));
}

TEST_CASE("groth16/zkey/the verifying key alone is read from the header sections, whatever the points") {
  CHECK(read_zkey_verifying_key(fixture("chain_16", "circuit_final.zkey")) ==
        AnyVerifyingKey(read_snarkjs_verifying_key<Bls12_381>(fixture("chain_16", "verification_key.json"))));
  CHECK(
      read_zkey_verifying_key(fixture("bn128/chain_16", "circuit_final.zkey")) ==
      AnyVerifyingKey(read_snarkjs_verifying_key<Bn254>(fixture("bn128/chain_16", "verification_key.json"))));
  // The query points are not read: a key whose H points are off the curve still gives its verifying key,
  // while read_zkey refuses it. A damaged header or IC, or a cut table, is refused as read_zkey refuses it.
  const auto good = file_bytes(fixture("chain_16", "circuit_final.zkey"));
  const test_support::TempDir dir("proofline-zkey-vk");
  const auto read_vk = [&](const std::vector<std::byte>& image) {
    write_file_bytes(dir / "k.zkey", image);
    return read_zkey_verifying_key(dir / "k.zkey");
  };
  const auto off_h = rebuild(good, [](std::uint32_t type, auto& p) {
    if (type == 9) p[7 * sizeof(G1Affine)] ^= std::byte{1};
  });
  CHECK(read_vk(off_h) == read_vk(good));
  CHECK(contains(bad_input_message([&] { read_zkey(dir / "k.zkey"); }), "H query (section 9): point 7"));
  const auto off_ic = rebuild(good, [](std::uint32_t type, auto& p) {
    if (type == 3) p[sizeof(G1Affine)] ^= std::byte{1};
  });
  CHECK(contains(bad_input_message([&] { read_vk(off_ic); }), "IC (section 3): point 1 is not on the curve"));
  const auto no_delta = rebuild(good, [](std::uint32_t type, auto& p) {
    if (type == 2) p[p.size() - 1] ^= std::byte{1};
  });
  CHECK(contains(bad_input_message([&] { read_vk(no_delta); }), "delta2"));
  const std::vector<std::byte> cut(good.begin(), good.end() - 1);
  CHECK(contains(bad_input_message([&] { read_vk(cut); }), "truncated"));
}

TEST_CASE("groth16/zkey/point checks: full refuses points outside the subgroup, curve and trusted do not") {
  const auto good = file_bytes(fixture("chain_16", "circuit_final.zkey"));
  const G1Affine outside = g1_outside_subgroup();
  REQUIRE(outside.is_on_curve());
  const auto g1_bad = rebuild(good, [&](std::uint32_t type, auto& p) {
    if (type == 8) put_point(p, 3 * sizeof(G1Affine), outside);
  });
  CHECK(contains(bad_input_message([&] { parse_zkey(nullptr, g1_bad, "sub.zkey"); }),
                 "sub.zkey: C query (section 8): point 3 is not in the prime-order subgroup"));
  CHECK_NOTHROW(parse_zkey(nullptr, g1_bad, "sub.zkey", ZkeyOptions{.points = PointCheck::on_curve}));
  const G2Affine outside2 = g2_outside_subgroup();
  REQUIRE(outside2.is_on_curve());
  const auto g2_bad = rebuild(good, [&](std::uint32_t type, auto& p) {
    if (type == 7) put_point(p, 10 * sizeof(G2Affine), outside2);
  });
  CHECK(contains(bad_input_message([&] { parse_zkey(nullptr, g2_bad, "sub2.zkey"); }),
                 "B2 query (section 7): point 10 is not in the prime-order subgroup"));

  // Off the curve: one bit of a coordinate; the lowest failing index is named whatever the schedule.
  const auto off = rebuild(good, [&](std::uint32_t type, auto& p) {
    if (type == 9)
      for (std::size_t i : {30, 7}) p[i * sizeof(G1Affine)] ^= std::byte{1};
  });
  CHECK(contains(bad_input_message([&] { parse_zkey(nullptr, off, "off.zkey"); }),
                 "H query (section 9): point 7 is not on the curve"));
  CHECK(contains(bad_input_message([&] {
                   parse_zkey(nullptr, off, "off.zkey", ZkeyOptions{.points = PointCheck::on_curve});
                 }),
                 "point 7 is not on the curve"));
  CHECK_NOTHROW(parse_zkey(nullptr, off, "off.zkey", ZkeyOptions{.points = PointCheck::trusted}));
  // A coordinate not reduced mod q.
  const auto big = rebuild(good, [&](std::uint32_t type, auto& p) {
    if (type == 5) groth16::detail::store_bigint(p.data() + 4 * sizeof(G1Affine), Fp::modulus);
  });
  CHECK(contains(bad_input_message([&] { parse_zkey(nullptr, big, "big.zkey"); }),
                 "A query (section 5): point 4 has a coordinate that is not reduced mod q"));
  // The IC is always checked in full.
  const auto ic = rebuild(good, [&](std::uint32_t type, auto& p) {
    if (type == 3) put_point(p, sizeof(G1Affine), outside);
  });
  CHECK(contains(bad_input_message(
                     [&] { parse_zkey(nullptr, ic, "ic.zkey", ZkeyOptions{.points = PointCheck::trusted}); }),
                 "IC (section 3): point 1 is not in the prime-order subgroup"));
}

TEST_CASE("groth16/zkey/a key of the other curve and other protocols are refused by name") {
  const auto good = file_bytes(fixture("chain_16", "circuit_final.zkey"));
  // A bn128 Groth16 header: 32-byte q and r, then the counts and points (never reached).
  const auto bn128 = rebuild(good, [&](std::uint32_t type, auto& p) {
    if (type != 2) return;
    std::vector<std::byte> header;
    append_u32(header, 32);
    std::byte prime[32];
    groth16::detail::store_bigint(prime, BigInt<4>::from_hex(bn128_q));
    append_bytes(header, prime);
    append_u32(header, 32);
    groth16::detail::store_bigint(prime, BigInt<4>::from_hex(bn128_r));
    append_bytes(header, prime);
    header.insert(header.end(), p.begin() + 88, p.end());
    p = header;
  });
  const std::string message = bad_input_message([&] { parse_zkey(nullptr, bn128, "bn.zkey"); });
  CHECK(contains(message, "bn.zkey: the key is for BN254, not BLS12-381 as this caller expects"));
  const auto plonk = rebuild(good, [&](std::uint32_t type, auto& p) {
    if (type == 1) groth16::detail::store_u32(p.data(), 2);
  });
  CHECK(contains(bad_input_message([&] { parse_zkey(nullptr, plonk, "p.zkey"); }),
                 "a PLONK key, not a Groth16 key"));
  const auto fflonk = rebuild(good, [&](std::uint32_t type, auto& p) {
    if (type == 1) groth16::detail::store_u32(p.data(), 10);
  });
  CHECK(contains(bad_input_message([&] { parse_zkey(nullptr, fflonk, "f.zkey"); }), "an FFLONK key"));
}

TEST_CASE("groth16/zkey/malformed headers sections and coefficients are clear errors") {
  const auto good = file_bytes(fixture("chain_16", "circuit_final.zkey"));
  const auto error_of = [&](const std::vector<std::byte>& bytes) {
    return bad_input_message([&] { parse_zkey(nullptr, bytes, "bad.zkey"); });
  };
  const auto changed = [&](std::uint32_t section, std::function<void(std::vector<std::byte>&)> change) {
    return error_of(rebuild(good, [&](std::uint32_t type, auto& p) {
      if (type == section) change(p);
    }));
  };
  auto bytes = good;
  bytes[1] = std::byte{'x'};
  CHECK(contains(error_of(bytes), "bad.zkey: not a .zkey file (wrong magic"));
  bytes = good;
  bytes[4] = std::byte{2};
  CHECK(contains(error_of(bytes), "unsupported .zkey version 2 (expected 1)"));
  for (std::size_t size : {std::size_t{10}, std::size_t{500}, good.size() / 2, good.size() - 1}) {
    CAPTURE(size);
    bytes.assign(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));
    CHECK(contains(error_of(bytes), "truncated"));
  }
  CHECK(contains(error_of(rebuild(
                     good, [](auto, auto&) {}, /*drop=*/9)),
                 "no H query (section 9)"));
  CHECK(contains(error_of(rebuild(
                     good, [](auto, auto&) {}, 0, /*duplicate=*/5)),
                 "A query (section 5) appears twice"));
  // Counts that do not fit the sections or each other.
  CHECK(contains(changed(2, [](auto& p) { groth16::detail::store_u32(p.data() + 88, 20); }),
                 "A query (section 5) has 1824 bytes; nVars = 20 points need 1920"));
  CHECK(contains(changed(2, [](auto& p) { groth16::detail::store_u32(p.data() + 92, 19); }),
                 "do not fit in nVars = 19"));
  CHECK(contains(changed(2, [](auto& p) { groth16::detail::store_u32(p.data() + 96, 48); }),
                 "domainSize = 48 is not a power"));
  CHECK(contains(changed(2, [](auto& p) { p.push_back(std::byte{0}); }),
                 "Groth16 header section: 1 unexpected bytes"));
  // Field sizes no curve has are named before they misplace what follows.
  CHECK(contains(changed(2, [](auto& p) { groth16::detail::store_u32(p.data(), 0); }),
                 "n8q is 0, not a field element's size in bytes"));
  CHECK(contains(changed(2, [](auto& p) { groth16::detail::store_u32(p.data() + 52, 33); }),
                 "n8r is 33, not a field element's size in bytes (a multiple of 8 up to 64; 32 in bn128 and "
                 "bls12381 keys)"));
  // Header points: infinity, off the curve, and δ1, δ2 of different secrets.
  CHECK(contains(changed(2, [](auto& p) { std::memset(p.data() + 100, 0, 96); }),
                 "alpha1 is the point at infinity"));
  CHECK(contains(changed(2, [](auto& p) { p[300] ^= std::byte{1}; }), "beta2 is not on the curve"));
  CHECK(contains(changed(2, [](auto& p) { put_point(p, 676, G1Affine::generator()); }),
                 "delta1 and delta2 are not the same multiple"));
  // The query sizes are checked before the coefficients, whose matrices the header's domainSize sizes: a
  // 15 KB file claiming 2^28 rows is refused for its H query before a bad coefficient is even looked at.
  CHECK(contains(error_of(rebuild(good,
                                  [](std::uint32_t type, auto& p) {
                                    if (type == 2) groth16::detail::store_u32(p.data() + 96, 1u << 28);
                                    if (type == 4) groth16::detail::store_u32(p.data() + 4 + 44 * 3, 2);
                                  })),
                 "H query (section 9) has 3072 bytes; domainSize = 268435456 points need"));
  // Coefficients: nCoef past the section, a third matrix, indices out of range, a value not below r.
  CHECK(contains(changed(4, [](auto& p) { groth16::detail::store_u32(p.data(), 100000); }), "truncated"));
  CHECK(contains(changed(4, [](auto& p) { groth16::detail::store_u32(p.data() + 4 + 44 * 3, 2); }),
                 "coefficient 3: matrix 2 (only 0 = A and 1 = B exist)"));
  CHECK(contains(changed(4, [](auto& p) { groth16::detail::store_u32(p.data() + 4 + 44 * 3 + 4, 32); }),
                 "coefficient 3: constraint 32 is not below domainSize = 32"));
  CHECK(contains(changed(4, [](auto& p) { groth16::detail::store_u32(p.data() + 4 + 44 * 3 + 8, 19); }),
                 "coefficient 3: signal 19 is not below nVars = 19"));
  CHECK(contains(
      changed(4, [](auto& p) { groth16::detail::store_bigint(p.data() + 4 + 44 * 3 + 12, Fr::modulus); }),
      "coefficient 3: the value is not below r"));
}
