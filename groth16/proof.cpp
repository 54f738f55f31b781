#include <proofline/groth16/proof.hpp>

#include <algorithm>

#include <proofline/arith/curve_encoding.hpp>
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

}  // namespace proofline::groth16
