#include <proofline/devices/host_srs.hpp>

#include <array>
#include <chrono>
#include <cstring>
#include <span>
#include <utility>

#include <proofline/memory/page_locked.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

namespace proofline::devices {

namespace {

template <class T>
std::span<const std::byte> raw(const groth16::SharedArray<T>& array) {
  return std::as_bytes(array.span());
}

std::uint64_t aligned(std::uint64_t bytes) {
  return (bytes + 63) / 64 * 64;
}

/// Copies `array` to base + at and moves `at` past it (64-byte steps); returns where it went.
template <class T>
const T* place(const groth16::SharedArray<T>& array, std::byte* base, std::uint64_t& at) {
  const T* out = reinterpret_cast<const T*>(base + at);
  if (!array.empty()) std::memcpy(base + at, array.data(), array.size_bytes());
  at += aligned(array.size_bytes());
  return out;
}

}  // namespace

template <class C>
BasicHostSrs<C> make_host_srs(const groth16::BasicProvingKey<C>& pk, memory::PinnedPool& pool,
                              const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  BasicHostSrs<C> srs;
  srs.bytes = pk.query_bytes();
  const std::array<std::span<const std::byte>, 5> ranges = {
      raw(pk.a_query), raw(pk.b1_query), raw(pk.b2_query), raw(pk.h_query), raw(pk.l_query)};
  bool locked = true;
  std::uint64_t total = 0;
  for (const auto& range : ranges) {
    locked = locked && (range.empty() || memory::page_locked(range));
    total += aligned(range.size());
  }
  if (locked) {
    srs.a = pk.a_query.data();
    srs.b1 = pk.b1_query.data();
    srs.b2 = pk.b2_query.data();
    srs.h = pk.h_query.data();
    srs.l = pk.l_query.data();
    return srs;
  }
  auto copy = pool.try_lease(total);
  if (!copy)
    throw Error(Errc::out_of_budget,
                what + ": streaming its SRS from host memory needs a pinned copy of " + format_size(total) +
                    ", and the host budget has no room for it " +
                    "(raise Config::host_budget, --host-budget, or load the key into pinned memory)");
  if (!copy->page_locked())
    throw Error(Errc::cuda, what + ": the pool's memory is not page-locked, so its SRS cannot be streamed");
  srs.copy = std::move(*copy);
  std::uint64_t at = 0;
  srs.a = place(pk.a_query, srs.copy.data(), at);
  srs.b1 = place(pk.b1_query, srs.copy.data(), at);
  srs.b2 = place(pk.b2_query, srs.copy.data(), at);
  srs.h = place(pk.h_query, srs.copy.data(), at);
  srs.l = place(pk.l_query, srs.copy.data(), at);
  srs.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return srs;
}

template BasicHostSrs<Bls12_381> make_host_srs(const groth16::BasicProvingKey<Bls12_381>&,
                                               memory::PinnedPool&, const std::string&);
template BasicHostSrs<Bn254> make_host_srs(const groth16::BasicProvingKey<Bn254>&, memory::PinnedPool&,
                                           const std::string&);

}  // namespace proofline::devices
