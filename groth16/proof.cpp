#include <proofline/groth16/proof.hpp>

#include <algorithm>

#include <proofline/arith/curve_encoding.hpp>
#include <proofline/groth16/detail/point_checks.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

std::array<std::uint8_t, proof_encoded_size> encode_proof(const Proof& proof) {
  std::array<std::uint8_t, proof_encoded_size> out{};
  const auto a = encode_compressed(proof.a);
  const auto b = encode_compressed(proof.b);
  const auto c = encode_compressed(proof.c);
  auto it = std::copy(a.begin(), a.end(), out.begin());
  it = std::copy(b.begin(), b.end(), it);
  std::copy(c.begin(), c.end(), it);
  return out;
}

std::optional<Proof> try_decode_proof(std::span<const std::uint8_t> bytes, std::string* error) {
  const auto reject = [&](const std::string& why) -> std::optional<Proof> {
    if (error) *error = why;
    return std::nullopt;
  };
  if (bytes.size() != proof_encoded_size)
    return reject("length " + std::to_string(bytes.size()) + ", expected " +
                  std::to_string(proof_encoded_size));
  Proof proof;
  DecodeStatus status = decode_point(bytes.subspan(0, g1_compressed_size), proof.a);
  if (status != DecodeStatus::ok) return reject(std::string("A: ") + to_string(status));
  status = decode_point(bytes.subspan(g1_compressed_size, g2_compressed_size), proof.b);
  if (status != DecodeStatus::ok) return reject(std::string("B: ") + to_string(status));
  status = decode_point(bytes.subspan(g1_compressed_size + g2_compressed_size, g1_compressed_size), proof.c);
  if (status != DecodeStatus::ok) return reject(std::string("C: ") + to_string(status));
  return proof;
}

Proof decode_proof(std::span<const std::uint8_t> bytes) {
  std::string why;
  auto proof = try_decode_proof(bytes, &why);
  if (!proof) throw Error(Errc::bad_input, "proof: " + why);
  return *proof;
}

namespace {

constexpr std::size_t bn254_coordinate = 32;

/// Writes the coordinates of BN254 points in EIP-197's order, big-endian.
class Bn254Writer {
 public:
  explicit Bn254Writer(std::uint8_t* out) : out_(out) {}
  void put(const bn254::Fp& value) {
    value.to_bytes_be(out_);
    out_ += bn254_coordinate;
  }
  void put(const bn254::G1Affine& p) {
    put(p.x);
    put(p.y);
  }
  void put(const bn254::G2Affine& p) {
    put(p.x.c1);
    put(p.x.c0);
    put(p.y.c1);
    put(p.y.c0);
  }

 private:
  std::uint8_t* out_;
};

/// Reads them back, each coordinate checked below p.
class Bn254Reader {
 public:
  explicit Bn254Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  bool get(bn254::Fp& value) {
    BigInt<4> v;
    for (std::size_t i = 0; i < bn254_coordinate; ++i)
      v.limb[(bn254_coordinate - 1 - i) / 8] |= std::uint64_t{bytes_[at_ + i]}
                                                << (8 * ((bn254_coordinate - 1 - i) % 8));
    at_ += bn254_coordinate;
    if (!bn254::Fp::is_canonical(v)) return false;
    value = bn254::Fp::from_canonical(v);
    return true;
  }
  bool get(bn254::G1Affine& p) { return get(p.x) && get(p.y); }
  bool get(bn254::G2Affine& p) { return get(p.x.c1) && get(p.x.c0) && get(p.y.c1) && get(p.y.c0); }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

/// Why the point is unusable in a proof, or nullptr.
template <class Affine>
const char* point_problem(const Affine& p) {
  if (!detail::on_curve(p)) return "not on the curve";
  if (!detail::in_subgroup(p)) return "not in the subgroup";
  return nullptr;
}

}  // namespace

std::array<std::uint8_t, bn254_proof_encoded_size> encode_proof(const BasicProof<Bn254>& proof) {
  std::array<std::uint8_t, bn254_proof_encoded_size> out{};
  Bn254Writer writer(out.data());
  writer.put(proof.a);
  writer.put(proof.b);
  writer.put(proof.c);
  return out;
}

std::optional<BasicProof<Bn254>> try_decode_bn254_proof(std::span<const std::uint8_t> bytes,
                                                        std::string* error) {
  const auto reject = [&](const std::string& why) -> std::optional<BasicProof<Bn254>> {
    if (error) *error = why;
    return std::nullopt;
  };
  if (bytes.size() != bn254_proof_encoded_size)
    return reject("length " + std::to_string(bytes.size()) + ", expected " +
                  std::to_string(bn254_proof_encoded_size));
  BasicProof<Bn254> proof;
  Bn254Reader reader(bytes);
  if (!reader.get(proof.a)) return reject("A: a coordinate is not below p");
  if (!reader.get(proof.b)) return reject("B: a coordinate is not below p");
  if (!reader.get(proof.c)) return reject("C: a coordinate is not below p");
  if (const char* why = point_problem(proof.a)) return reject(std::string("A: ") + why);
  if (const char* why = point_problem(proof.b)) return reject(std::string("B: ") + why);
  if (const char* why = point_problem(proof.c)) return reject(std::string("C: ") + why);
  return proof;
}

BasicProof<Bn254> decode_bn254_proof(std::span<const std::uint8_t> bytes) {
  std::string why;
  auto proof = try_decode_bn254_proof(bytes, &why);
  if (!proof) throw Error(Errc::bad_input, "proof: " + why);
  return *proof;
}

}  // namespace proofline::groth16
