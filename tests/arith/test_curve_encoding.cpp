// The zcash / IETF point encodings: published vectors (the generators; [7]G and -[7]G for G1 and G2 as in the
// aptos-core BLS12-381 test vectors), round trips of random points in both forms and both signs, and every
// malformed input the decoder must reject, each with its reason.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <proofline/arith/curve_encoding.hpp>

#include "arith/test_curve_support.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes from_hex(const std::string& text) {
  REQUIRE(text.size() % 2 == 0);
  Bytes out;
  for (std::size_t i = 0; i < text.size(); i += 2) out.push_back(std::stoi(text.substr(i, 2), nullptr, 16));
  return out;
}

template <std::size_t N>
Bytes to_vector(const std::array<std::uint8_t, N>& bytes) {
  return Bytes(bytes.begin(), bytes.end());
}

/// 48 big-endian bytes of a GMP value (which must fit).
Bytes be48(const mpz_class& value) {
  REQUIRE(value >= 0);
  REQUIRE(mpz_sizeinbase(value.get_mpz_t(), 2) <= 384);
  Bytes out(48, 0);
  std::size_t count = 0;
  Bytes exported(48, 0);
  mpz_export(exported.data(), &count, 1, 1, 1, 0, value.get_mpz_t());
  std::copy(exported.begin(), exported.begin() + count, out.end() - count);
  return out;
}

template <class Affine>
DecodeStatus decode(const Bytes& bytes, Affine& out, SubgroupCheck check = SubgroupCheck::check) {
  return decode_point(std::span<const std::uint8_t>(bytes), out, check);
}

/// Decoding must fail with `expected` and leave the output untouched.
template <class Affine>
void check_rejected(const Bytes& bytes, DecodeStatus expected) {
  Affine out = Affine::generator();
  const DecodeStatus status = decode(bytes, out);
  CHECK(std::string(to_string(status)) == std::string(to_string(expected)));
  CHECK(out == Affine::generator());
}

template <class Affine>
void check_known(const std::string& compressed_hex, const std::string& uncompressed_hex,
                 const Affine& expected) {
  const Bytes compressed = from_hex(compressed_hex), uncompressed = from_hex(uncompressed_hex);
  CHECK(to_vector(encode_compressed(expected)) == compressed);
  CHECK(to_vector(encode_uncompressed(expected)) == uncompressed);
  Affine decoded = Affine::infinity();
  CHECK(decode(compressed, decoded) == DecodeStatus::ok);
  CHECK(decoded == expected);
  decoded = Affine::infinity();
  CHECK(decode(uncompressed, decoded) == DecodeStatus::ok);
  CHECK(decoded == expected);
}

template <class Curve>
void check_round_trips(Rng& rng, int rounds) {
  using Affine = AffinePoint<Curve>;
  std::set<bool> signs_seen;
  for (int round = 0; round < rounds; ++round) {
    const Affine p = random_subgroup_point<Curve>(rng);
    for (const Affine& point : {p, -p}) {
      const auto compressed = encode_compressed(point);
      const auto uncompressed = encode_uncompressed(point);
      signs_seen.insert((compressed[0] & 0x20) != 0);
      CHECK((compressed[0] & 0xc0) == 0x80);
      CHECK((uncompressed[0] & 0xe0) == 0);
      Affine decoded = Affine::infinity();
      CHECK(decode(to_vector(compressed), decoded) == DecodeStatus::ok);
      CHECK(decoded == point);
      decoded = Affine::infinity();
      CHECK(decode(to_vector(uncompressed), decoded) == DecodeStatus::ok);
      CHECK(decoded == point);
    }
    // p and -p differ only in the sign flag.
    auto flipped = encode_compressed(p);
    flipped[0] ^= 0x20;
    CHECK(flipped == encode_compressed(-p));

    // On the curve but outside the subgroup: rejected, unless the check is skipped.
    const Affine outside = random_curve_point<Curve>(rng);
    for (const Bytes& bytes :
         {to_vector(encode_compressed(outside)), to_vector(encode_uncompressed(outside))}) {
      check_rejected<Affine>(bytes, DecodeStatus::not_in_subgroup);
      Affine decoded = Affine::infinity();
      CHECK(decode(bytes, decoded, SubgroupCheck::skip) == DecodeStatus::ok);
      CHECK(decoded == outside);
    }
  }
  CHECK(signs_seen.size() == 2);

  // Infinity: both forms, and the all-zero affine point encodes as infinity.
  Affine decoded = Affine::generator();
  CHECK(decode(to_vector(encode_compressed(Affine::infinity())), decoded) == DecodeStatus::ok);
  CHECK(decoded.is_infinity());
  decoded = Affine::generator();
  CHECK(decode(to_vector(encode_uncompressed(Affine::infinity())), decoded) == DecodeStatus::ok);
  CHECK(decoded.is_infinity());
}

/// Malformed encodings shared by G1 and G2, built from a valid point p of the group. `coordinate` is the size
/// of one coordinate (48 for Fp, 96 for Fp2); the Fp components of a coordinate are 48 bytes each, c1 first.
template <class Curve>
void check_malformed(Rng& rng) {
  using Affine = AffinePoint<Curve>;
  using Field = typename Curve::Field;
  constexpr std::size_t coordinate = sizeof(Field) / sizeof(Fp) * 48;
  const Affine p = random_subgroup_point<Curve>(rng);
  const Bytes compressed = to_vector(encode_compressed(p));
  const Bytes uncompressed = to_vector(encode_uncompressed(p));
  REQUIRE(compressed.size() == coordinate);
  REQUIRE(uncompressed.size() == 2 * coordinate);

  // Lengths.
  for (const std::size_t length : {std::size_t{0}, std::size_t{1}, coordinate - 1, coordinate + 1,
                                   2 * coordinate - 1, 2 * coordinate + 1, 3 * coordinate, 4 * coordinate}) {
    CAPTURE(length);
    Bytes bytes = uncompressed;
    bytes.resize(length, 0);
    if (length > 0) bytes[0] |= 0x80;
    check_rejected<Affine>(bytes, DecodeStatus::wrong_length);
  }

  // Compression flag against length.
  Bytes bytes = compressed;
  bytes[0] &= 0x7f;
  check_rejected<Affine>(bytes, DecodeStatus::compression_flag_mismatch);
  bytes = uncompressed;
  bytes[0] |= 0x80;
  check_rejected<Affine>(bytes, DecodeStatus::compression_flag_mismatch);

  // Infinity with anything else set: the sign flag, any bit of the first byte, any later byte.
  const Bytes inf_compressed = to_vector(encode_compressed(Affine::infinity()));
  const Bytes inf_uncompressed = to_vector(encode_uncompressed(Affine::infinity()));
  CHECK(inf_compressed[0] == 0xc0);
  CHECK(inf_uncompressed[0] == 0x40);
  for (const Bytes& infinity : {inf_compressed, inf_uncompressed}) {
    bytes = infinity;
    bytes[0] |= 0x20;
    check_rejected<Affine>(bytes, DecodeStatus::bad_infinity_encoding);
    for (const std::size_t index : {std::size_t{0}, std::size_t{1}, coordinate / 2, infinity.size() - 1}) {
      CAPTURE(index);
      bytes = infinity;
      bytes[index] |= 0x01;
      check_rejected<Affine>(bytes, DecodeStatus::bad_infinity_encoding);
    }
    // Infinity flag on an otherwise valid point.
    bytes = infinity.size() == compressed.size() ? compressed : uncompressed;
    bytes[0] |= 0x40;
    check_rejected<Affine>(bytes, DecodeStatus::bad_infinity_encoding);
  }
  // All-zero bytes without the infinity flag: (0, 0) is not on the curve; x = 0 compressed is (0, +-2) for G1
  // (order 3) and a point off the subgroup or off the curve for G2.
  check_rejected<Affine>(Bytes(2 * coordinate, 0), DecodeStatus::not_on_curve);

  // The sign flag has no meaning in the uncompressed form.
  bytes = uncompressed;
  bytes[0] |= 0x20;
  check_rejected<Affine>(bytes, DecodeStatus::bad_sign_flag);

  // Coordinates (each Fp component) not below p but below 2^381 (higher bits are the flags): p, p + 1, random
  // ones, and all 381 bits set.
  const mpz_class& modulus = FpOracle::p();
  const std::vector<mpz_class> bad_values = {
      modulus, modulus + 1, modulus + mod(random_mpz_bits(rng, 381), pow2(381) - modulus), pow2(381) - 1};
  for (const mpz_class& bad : bad_values) {
    CAPTURE(bad);
    const Bytes bad_bytes = be48(bad);
    for (std::size_t component = 0; component < 2 * coordinate / 48; ++component) {
      CAPTURE(component);
      if (component < coordinate / 48) {  // in x: both forms
        bytes = compressed;
        std::copy(bad_bytes.begin(), bad_bytes.end(), bytes.begin() + 48 * component);
        if (component == 0) bytes[0] |= compressed[0] & 0xe0;  // keep the flags
        check_rejected<Affine>(bytes, DecodeStatus::non_canonical_coordinate);
      }
      bytes = uncompressed;
      std::copy(bad_bytes.begin(), bad_bytes.end(), bytes.begin() + 48 * component);
      check_rejected<Affine>(bytes, DecodeStatus::non_canonical_coordinate);
    }
  }

  // Off the curve: y changed (uncompressed); an x for which x^3 + b is not a square (compressed).
  check_rejected<Affine>(to_vector(encode_uncompressed(Affine{p.x, p.y + Field::one()})),
                         DecodeStatus::not_on_curve);
  int found = 0;
  while (found < 4) {
    const Field x = random_element<Field>(rng);
    Field y;
    constexpr Field b = Curve::b;
    if ((x.squared() * x + b).sqrt(y)) continue;
    ++found;
    const Affine fake{x, Field::one()};  // y is not encoded in the compressed form
    bytes = to_vector(encode_compressed(fake));
    check_rejected<Affine>(bytes, DecodeStatus::not_on_curve);
    bytes[0] ^= 0x20;
    check_rejected<Affine>(bytes, DecodeStatus::not_on_curve);
  }
}

}  // namespace

TEST_CASE("arith/encoding/g1 known vectors") {
  check_known(
      "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
      "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
      "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1",
      G1Affine::generator());
  const G1Affine seven = G1Affine::generator().mul(BigInt<1>::from_u64(7)).to_affine();
  check_known(
      "b928f3beb93519eecf0145da903b40a4c97dca00b21f12ac0df3be9116ef2ef27b2ae6bcd4c5bc2d54ef5a70627efcb7",
      "1928f3beb93519eecf0145da903b40a4c97dca00b21f12ac0df3be9116ef2ef27b2ae6bcd4c5bc2d54ef5a70627efcb7"
      "108dadbaa4b636445639d5ae3089b3c43a8a1d47818edd1839d7383959a41c10fdc66849cfa1b08c5a11ec7e28981a1c",
      seven);
  check_known(
      "9928f3beb93519eecf0145da903b40a4c97dca00b21f12ac0df3be9116ef2ef27b2ae6bcd4c5bc2d54ef5a70627efcb7",
      "1928f3beb93519eecf0145da903b40a4c97dca00b21f12ac0df3be9116ef2ef27b2ae6bcd4c5bc2d54ef5a70627efcb7"
      "0973642f94c9b055f4e1d20812c1f91329ed2e3d71f635a72d599a679d0cda1320e597b4e1b24f735fed1381d767908f",
      -seven);
  check_known("c0" + std::string(94, '0'), "40" + std::string(190, '0'), G1Affine::infinity());
}

TEST_CASE("arith/encoding/g2 known vectors") {
  check_known(
      "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
      "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
      "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
      "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
      "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
      "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
      G2Affine::generator());
  const G2Affine seven = G2Affine::generator().mul(BigInt<1>::from_u64(7)).to_affine();
  check_known(
      "8d0273f6bf31ed37c3b8d68083ec3d8e20b5f2cc170fa24b9b5be35b34ed013f9a921f1cad1644d4bdb14674247234c8"
      "049cd1dbb2d2c3581e54c088135fef36505a6823d61b859437bfc79b617030dc8b40e32bad1fa85b9c0f368af6d38d3c",
      "0d0273f6bf31ed37c3b8d68083ec3d8e20b5f2cc170fa24b9b5be35b34ed013f9a921f1cad1644d4bdb14674247234c8"
      "049cd1dbb2d2c3581e54c088135fef36505a6823d61b859437bfc79b617030dc8b40e32bad1fa85b9c0f368af6d38d3c"
      "05ecf93654b7a1885695aaeeb7caf41b0239dc45e1022be55d37111af2aecef87799638bec572de86a7437898efa7020"
      "08b7ae4dbf802c17a6648842922c9467e460a71c88d393ee7af356da123a2f3619e80c3bdcc8e2b1da52f8cd9913ccdd",
      seven);
  check_known(
      "ad0273f6bf31ed37c3b8d68083ec3d8e20b5f2cc170fa24b9b5be35b34ed013f9a921f1cad1644d4bdb14674247234c8"
      "049cd1dbb2d2c3581e54c088135fef36505a6823d61b859437bfc79b617030dc8b40e32bad1fa85b9c0f368af6d38d3c",
      "0d0273f6bf31ed37c3b8d68083ec3d8e20b5f2cc170fa24b9b5be35b34ed013f9a921f1cad1644d4bdb14674247234c8"
      "049cd1dbb2d2c3581e54c088135fef36505a6823d61b859437bfc79b617030dc8b40e32bad1fa85b9c0f368af6d38d3c"
      "141418b3e4c84511f485fcc78b80b8bc623d6f3f1282e6da09f9c1860402272ba7129c72c4fcd2174f8ac87671053a8b"
      "1149639c79ffba82a4b71f73b11f186f8016a4686ab17ed0ec3d7bc6e476c6ee04c3f3c2d48b1d4ddfac073266ebddce",
      -seven);
  check_known("c0" + std::string(190, '0'), "40" + std::string(382, '0'), G2Affine::infinity());
}

TEST_CASE("arith/encoding/g1 round trips in both forms and both signs") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_round_trips<G1Params>(rng, 16);
}

TEST_CASE("arith/encoding/g2 round trips in both forms and both signs") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_round_trips<G2Params>(rng, 8);
}

TEST_CASE("arith/encoding/g1 rejects malformed input with its reason") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_malformed<G1Params>(rng);
  // Points of order 3, (0, +-2), in both forms (vectors as in aptos-core's tests).
  check_rejected<G1Affine>(from_hex(std::string(190, '0') + "02"), DecodeStatus::not_in_subgroup);
  check_rejected<G1Affine>(from_hex("80" + std::string(94, '0')), DecodeStatus::not_in_subgroup);
  check_rejected<G1Affine>(from_hex("a0" + std::string(94, '0')), DecodeStatus::not_in_subgroup);
  // A valid x with a y that is not on the curve (aptos-core's vector).
  check_rejected<G1Affine>(
      from_hex(
          "0959e137e0719bf872abb08411010f437a8955bd42f5ba20fca64361af58ce188b1adb96ef229698bb7860b79e24ba12" +
          std::string(96, '0')),
      DecodeStatus::not_on_curve);
  check_rejected<G1Affine>(from_hex(std::string(96, 'f') + std::string(96, '0')),
                           DecodeStatus::compression_flag_mismatch);
  check_rejected<G1Affine>(from_hex("9f" + std::string(94, 'f')), DecodeStatus::non_canonical_coordinate);
}

TEST_CASE("arith/encoding/g2 rejects malformed input with its reason") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_malformed<G2Params>(rng);
}

TEST_CASE("arith/encoding/every status has its own description") {
  std::set<std::string> texts;
  for (const DecodeStatus status :
       {DecodeStatus::ok, DecodeStatus::wrong_length, DecodeStatus::compression_flag_mismatch,
        DecodeStatus::bad_infinity_encoding, DecodeStatus::bad_sign_flag,
        DecodeStatus::non_canonical_coordinate, DecodeStatus::not_on_curve, DecodeStatus::not_in_subgroup}) {
    texts.insert(to_string(status));
  }
  CHECK(texts.size() == 8);
  CHECK(texts.count("") == 0);
}
