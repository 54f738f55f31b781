#include <proofline/capi/detail/scalars.hpp>

#include <algorithm>
#include <bit>
#include <cstring>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>

namespace proofline::capi {

namespace {

constexpr std::size_t scalar_bytes = 32;
/// Below this many scalars a vector is converted on the calling thread.
constexpr std::size_t parallel_grain = std::size_t{1} << 14;

BigInt<4> load(const std::uint8_t* in) noexcept {
  BigInt<4> value;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(value.limb, in, scalar_bytes);  // the limbs are the little-endian bytes
  } else {
    for (std::size_t i = 0; i < scalar_bytes; ++i)
      value.limb[i / 8] |= static_cast<std::uint64_t>(in[i]) << (8 * (i % 8));
  }
  return value;
}

std::size_t first_bad_in(const auto& is_canonical, const std::uint8_t* scalars, std::size_t begin,
                         std::size_t end, std::size_t none) noexcept {
  for (std::size_t i = begin; i < end; ++i)
    if (!is_canonical(load(scalars + i * scalar_bytes))) return i;
  return none;
}

}  // namespace

template <class F>
std::size_t first_non_canonical(const std::uint8_t* scalars, std::size_t count) noexcept {
  const auto is_canonical = [](const BigInt<4>& value) { return F::is_canonical(value); };
  if (count < parallel_grain) return first_bad_in(is_canonical, scalars, 0, count, count);
  // A job's witness (millions of scalars) is checked on every core, in the synthesis stage's arena.
  return oneapi::tbb::parallel_reduce(
      oneapi::tbb::blocked_range<std::size_t>(0, count, parallel_grain), count,
      [&](const auto& range, std::size_t first) {
        return std::min(first, first_bad_in(is_canonical, scalars, range.begin(), range.end(), count));
      },
      [](std::size_t x, std::size_t y) { return std::min(x, y); });
}

template <class F>
void scalars_to_fr(const std::uint8_t* scalars, std::span<F> out) {
  const auto convert = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out[i] = F::from_canonical(load(scalars + i * scalar_bytes));
  };
  if (out.size() < parallel_grain) return convert(0, out.size());
  oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, out.size(), parallel_grain),
                            [&](const auto& range) { convert(range.begin(), range.end()); });
}

template <class F>
void fr_to_scalars(std::span<const F> values, std::uint8_t* out) noexcept {
  for (std::size_t i = 0; i < values.size(); ++i) values[i].to_bytes_le(out + i * scalar_bytes);
}

#define PROOFLINE_CAPI_SCALARS_FOR(F)                                                     \
  template std::size_t first_non_canonical<F>(const std::uint8_t*, std::size_t) noexcept; \
  template void scalars_to_fr<F>(const std::uint8_t*, std::span<F>);                      \
  template void fr_to_scalars<F>(std::span<const F>, std::uint8_t*) noexcept;
PROOFLINE_CAPI_SCALARS_FOR(Fr)
PROOFLINE_CAPI_SCALARS_FOR(bn254::Fr)
#undef PROOFLINE_CAPI_SCALARS_FOR

}  // namespace proofline::capi
