#include <proofline/groth16/detail/iden3_fields.hpp>

#include <array>
#include <string_view>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/curves.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline::groth16::detail {

namespace {

constexpr std::size_t max_hex_digits = 128;

struct KnownPrime {
  const char* hex;  // big-endian, no 0x
  const char* description;
};

// The primes circom's --prime accepts, and the curves snarkjs knows.
constexpr std::array<KnownPrime, 8> known_primes = {{
    {"73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", "BLS12-381's scalar field r"},
    {"1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
     "BLS12-381's base field q"},
    {"30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
     "bn128's scalar field r (circom's default prime)"},
    {"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", "bn128's base field q"},
    {"ffffffff00000001", "the Goldilocks field"},
    {"40000000000000000000000000000000224698fc094cf91b992d30ed00000001", "the Pallas field (--prime pallas)"},
    {"40000000000000000000000000000000224698fc0994a8dd8c46eb2100000001", "the Vesta field (--prime vesta)"},
    {"fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", "secp256k1's base field"},
}};

std::string to_hex_be(std::span<const std::byte> le) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  std::size_t top = le.size();
  while (top > 1 && le[top - 1] == std::byte{0}) --top;
  for (std::size_t i = top; i-- > 0;) {
    const auto b = static_cast<unsigned>(le[i]);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  while (out.size() > 1 && out[0] == '0') out.erase(out.begin());
  return out;
}

template <std::size_t N>
bool equals(std::span<const std::byte> le, const BigInt<N>& value) {
  if (le.size() != 8 * N) return false;
  for (std::size_t i = 0; i < le.size(); ++i)
    if (static_cast<std::uint8_t>(le[i]) != static_cast<std::uint8_t>(value.limb[i / 8] >> (8 * (i % 8))))
      return false;
  return true;
}

}  // namespace

std::optional<CurveId> curve_of_scalar_prime(std::span<const std::byte> r_le) {
  if (equals(r_le, Fr::modulus)) return CurveId::bls12_381;
  if (equals(r_le, bn254::Fr::modulus)) return CurveId::bn254;
  return std::nullopt;
}

std::optional<CurveId> curve_of_primes(std::span<const std::byte> q_le, std::span<const std::byte> r_le) {
  if (equals(q_le, Fp::modulus) && equals(r_le, Fr::modulus)) return CurveId::bls12_381;
  if (equals(q_le, bn254::Fp::modulus) && equals(r_le, bn254::Fr::modulus)) return CurveId::bn254;
  return std::nullopt;
}

std::string describe_prime(std::span<const std::byte> prime_le) {
  const std::string hex = to_hex_be(prime_le);
  for (const KnownPrime& known : known_primes)
    if (hex == known.hex) return known.description;
  // The width comes from the file (zkey's n8q): a huge one is described, not printed.
  if (hex.size() > max_hex_digits)
    return "an unknown number of " + std::to_string(prime_le.size()) + " bytes";
  return "an unknown prime 0x" + hex;
}

}  // namespace proofline::groth16::detail
