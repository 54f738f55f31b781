#include <proofline/arith/int_text.hpp>

#include <algorithm>

namespace proofline {

namespace {

/// value = value * factor + addend; returns false on overflow.
template <std::size_t N>
bool mul_add_small(BigInt<N>& value, std::uint64_t factor, std::uint64_t addend) {
  std::uint64_t carry = addend;
  for (std::size_t i = 0; i < N; ++i) value.limb[i] = detail::mac(0, value.limb[i], factor, carry);
  return carry == 0;
}

/// value /= divisor; returns the remainder.
template <std::size_t N>
std::uint64_t div_small(BigInt<N>& value, std::uint64_t divisor) {
  detail::uint128 remainder = 0;
  for (std::size_t i = N; i-- > 0;) {
    const detail::uint128 current = (remainder << 64) | value.limb[i];
    value.limb[i] = static_cast<std::uint64_t>(current / divisor);
    remainder = current % divisor;
  }
  return static_cast<std::uint64_t>(remainder);
}

}  // namespace

template <std::size_t N>
std::string to_hex(const BigInt<N>& value) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t nibble = 0; nibble < 16 * N; ++nibble) {
    out.push_back(digits[(value.limb[nibble / 16] >> (4 * (nibble % 16))) & 0xf]);
  }
  while (out.size() > 1 && out.back() == '0') out.pop_back();
  std::reverse(out.begin(), out.end());
  return "0x" + out;
}

template <std::size_t N>
std::string to_decimal(const BigInt<N>& value) {
  BigInt<N> rest = value;
  std::string out;
  do {
    out.push_back(static_cast<char>('0' + div_small(rest, 10)));
  } while (!rest.is_zero());
  std::reverse(out.begin(), out.end());
  return out;
}

template <std::size_t N>
std::optional<BigInt<N>> parse_decimal(std::string_view text) {
  if (text.empty()) return std::nullopt;
  BigInt<N> value;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    if (!mul_add_small(value, 10, static_cast<std::uint64_t>(ch - '0'))) return std::nullopt;
  }
  return value;
}

template <std::size_t N>
std::optional<BigInt<N>> parse_hex(std::string_view text) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
  if (text.empty()) return std::nullopt;
  BigInt<N> value;
  for (char ch : text) {
    const int digit = detail::hex_digit(ch);
    if (digit < 0 || !mul_add_small(value, 16, static_cast<std::uint64_t>(digit))) return std::nullopt;
  }
  return value;
}

#define PL_INSTANTIATE_INT_TEXT(N)                                      \
  template std::string to_hex<N>(const BigInt<N>&);                     \
  template std::string to_decimal<N>(const BigInt<N>&);                 \
  template std::optional<BigInt<N>> parse_decimal<N>(std::string_view); \
  template std::optional<BigInt<N>> parse_hex<N>(std::string_view);

PL_INSTANTIATE_INT_TEXT(1)
PL_INSTANTIATE_INT_TEXT(4)
PL_INSTANTIATE_INT_TEXT(6)
PL_INSTANTIATE_INT_TEXT(8)
PL_INSTANTIATE_INT_TEXT(12)

#undef PL_INSTANTIATE_INT_TEXT

}  // namespace proofline
