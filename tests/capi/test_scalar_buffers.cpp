// pl_submit_scalars's copies of the callers' witnesses (capi/detail/scalar_buffers.hpp): a retired job's
// buffer is used again for the next copy of its size, within the idle limits, and buffers that outlive
// the pipeline are freed (the suite runs under AddressSanitizer, which reports a leak).
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include <proofline/capi/detail/scalar_buffers.hpp>

using proofline::capi::ScalarBuffers;

namespace {

std::vector<std::uint8_t> bytes(std::size_t size, std::uint8_t first) {
  std::vector<std::uint8_t> out(size);
  std::iota(out.begin(), out.end(), first);
  return out;
}

}  // namespace

TEST_CASE("capi/scalar buffers: a copy is exact, and a released buffer holds the next copy of its size") {
  const auto buffers = ScalarBuffers::make();
  const auto a = bytes(4096, 1), b = bytes(4096, 9);
  auto first = buffers->copy(a.data(), a.size());
  CHECK(*first == a);
  const std::uint8_t* storage = first->data();
  first.reset();
  CHECK(buffers->idle_buffers() == 1);
  const auto second = buffers->copy(b.data(), b.size());
  CHECK(*second == b);
  CHECK(second->data() == storage);
  CHECK(buffers->reused() == 1);
  CHECK(buffers->idle_buffers() == 0);
  // Another size takes a fresh buffer.
  const auto c = bytes(1000, 3);
  const auto third = buffers->copy(c.data(), c.size());
  CHECK(*third == c);
  CHECK(buffers->reused() == 1);
}

TEST_CASE(
    "capi/scalar buffers: at most the idle limits are kept and buffers outliving their pool are freed") {
  auto buffers = ScalarBuffers::make({.idle_buffers = 2, .idle_bytes = 10000});
  const auto data = bytes(4096, 5);
  std::vector<std::shared_ptr<const std::vector<std::uint8_t>>> held;
  for (int i = 0; i < 4; ++i) held.push_back(buffers->copy(data.data(), data.size()));
  held.clear();
  CHECK(buffers->idle_buffers() == 2);  // two of 4096 bytes: a third would pass both limits
  const auto big = bytes(20000, 0);
  auto large = buffers->copy(big.data(), big.size());
  large.reset();
  CHECK(buffers->idle_buffers() == 2);  // over the byte cap: freed
  auto survivor = buffers->copy(data.data(), data.size());
  const std::weak_ptr<ScalarBuffers> weak = buffers;
  buffers.reset();
  CHECK(weak.expired());
  CHECK(*survivor == data);
  survivor.reset();  // freed, not given back
}
