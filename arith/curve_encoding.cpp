#include <proofline/arith/curve_encoding.hpp>

#include <algorithm>

namespace proofline {

namespace {

constexpr std::uint8_t compressed_flag = 0x80;
constexpr std::uint8_t infinity_flag = 0x40;
constexpr std::uint8_t sign_flag = 0x20;
constexpr std::uint8_t flag_mask = compressed_flag | infinity_flag | sign_flag;

template <class Field>
constexpr std::size_t field_size = Fp::byte_count*(sizeof(Field) / sizeof(Fp));

void write_be(const Fp& value, std::uint8_t* out) {
  value.to_bytes_be(out);
}
void write_be(const Fp2& value, std::uint8_t* out) {
  value.c1.to_bytes_be(out);
  value.c0.to_bytes_be(out + Fp::byte_count);
}

/// False (and out unchanged) when a component is not below p.
bool read_be(const std::uint8_t* in, Fp& out) {
  return out.from_bytes_be(in);
}
bool read_be(const std::uint8_t* in, Fp2& out) {
  Fp2 value = Fp2::zero();
  if (!value.c1.from_bytes_be(in) || !value.c0.from_bytes_be(in + Fp::byte_count)) return false;
  out = value;
  return true;
}

/// value > (p - 1) / 2, i.e. value > -value as integers in [0, p).
bool lexicographically_largest(const Fp& value) {
  static constexpr Fp::Int half = [] {
    Fp::Int out = Fp::modulus;
    out.shift_right_1();  // p is odd: (p - 1) / 2
    return out;
  }();
  return half < value.canonical();
}
/// zcash's order on Fp2: by c1, and by c0 when c1 is zero.
bool lexicographically_largest(const Fp2& value) {
  return lexicographically_largest(value.c1) || (value.c1.is_zero() && lexicographically_largest(value.c0));
}

template <class Curve, std::size_t Size>
std::array<std::uint8_t, Size> encode(const AffinePoint<Curve>& point, bool compressed) {
  std::array<std::uint8_t, Size> out{};
  if (point.is_infinity()) {
    out[0] = compressed ? compressed_flag | infinity_flag : infinity_flag;
    return out;
  }
  constexpr std::size_t coordinate = field_size<typename Curve::Field>;
  write_be(point.x, out.data());
  if (compressed) {
    out[0] |= compressed_flag | (lexicographically_largest(point.y) ? sign_flag : 0);
  } else {
    write_be(point.y, out.data() + coordinate);
  }
  return out;
}

template <class Curve>
DecodeStatus decode(std::span<const std::uint8_t> bytes, AffinePoint<Curve>& out, SubgroupCheck subgroup) {
  using Field = typename Curve::Field;
  using Affine = AffinePoint<Curve>;
  constexpr std::size_t coordinate = field_size<Field>;

  bool compressed = false;
  if (bytes.size() == coordinate) {
    compressed = true;
  } else if (bytes.size() != 2 * coordinate) {
    return DecodeStatus::wrong_length;
  }
  const std::uint8_t flags = bytes[0] & flag_mask;
  if (((flags & compressed_flag) != 0) != compressed) return DecodeStatus::compression_flag_mismatch;
  const bool negative_sign = (flags & sign_flag) != 0;

  if (flags & infinity_flag) {
    const bool rest_zero = (bytes[0] & ~flag_mask) == 0 &&
                           std::all_of(bytes.begin() + 1, bytes.end(), [](std::uint8_t b) { return b == 0; });
    if (negative_sign || !rest_zero) return DecodeStatus::bad_infinity_encoding;
    out = Affine::infinity();
    return DecodeStatus::ok;
  }
  if (!compressed && negative_sign) return DecodeStatus::bad_sign_flag;

  std::array<std::uint8_t, coordinate> x_bytes;
  std::copy_n(bytes.begin(), coordinate, x_bytes.begin());
  x_bytes[0] &= static_cast<std::uint8_t>(~flag_mask);
  Affine point = Affine::infinity();
  if (!read_be(x_bytes.data(), point.x)) return DecodeStatus::non_canonical_coordinate;

  constexpr Field b = Curve::b;
  const Field rhs = point.x.squared() * point.x + b;
  if (compressed) {
    if (!rhs.sqrt(point.y)) return DecodeStatus::not_on_curve;
    // y = 0 would need a point of order 2, and both curve orders are odd: the sign flag always picks one
    // root.
    if (lexicographically_largest(point.y) != negative_sign) point.y = -point.y;
  } else {
    if (!read_be(bytes.data() + coordinate, point.y)) return DecodeStatus::non_canonical_coordinate;
    // Not Affine::is_on_curve: that accepts (0, 0) as infinity, which needs the infinity flag here.
    if (point.y.squared() != rhs) return DecodeStatus::not_on_curve;
  }
  if (subgroup == SubgroupCheck::check && !is_in_subgroup(point)) return DecodeStatus::not_in_subgroup;
  out = point;
  return DecodeStatus::ok;
}

}  // namespace

const char* to_string(DecodeStatus status) noexcept {
  switch (status) {
    case DecodeStatus::ok:
      return "ok";
    case DecodeStatus::wrong_length:
      return "wrong length for a compressed or uncompressed point";
    case DecodeStatus::compression_flag_mismatch:
      return "compression flag does not match the length";
    case DecodeStatus::bad_infinity_encoding:
      return "infinity flag with other bits set";
    case DecodeStatus::bad_sign_flag:
      return "sign flag set in an uncompressed point";
    case DecodeStatus::non_canonical_coordinate:
      return "coordinate not below the field modulus";
    case DecodeStatus::not_on_curve:
      return "point not on the curve";
    case DecodeStatus::not_in_subgroup:
      return "point not in the prime-order subgroup";
  }
  return "unknown decode status";
}

std::array<std::uint8_t, g1_compressed_size> encode_compressed(const G1Affine& point) {
  return encode<G1Params, g1_compressed_size>(point, true);
}
std::array<std::uint8_t, g1_uncompressed_size> encode_uncompressed(const G1Affine& point) {
  return encode<G1Params, g1_uncompressed_size>(point, false);
}
std::array<std::uint8_t, g2_compressed_size> encode_compressed(const G2Affine& point) {
  return encode<G2Params, g2_compressed_size>(point, true);
}
std::array<std::uint8_t, g2_uncompressed_size> encode_uncompressed(const G2Affine& point) {
  return encode<G2Params, g2_uncompressed_size>(point, false);
}

DecodeStatus decode_point(std::span<const std::uint8_t> bytes, G1Affine& out, SubgroupCheck subgroup) {
  return decode(bytes, out, subgroup);
}
DecodeStatus decode_point(std::span<const std::uint8_t> bytes, G2Affine& out, SubgroupCheck subgroup) {
  return decode(bytes, out, subgroup);
}

}  // namespace proofline
