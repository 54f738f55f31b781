// free_storage gives a container's memory back at once, where `v = {}` keeps a vector's capacity.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <proofline/util/free_storage.hpp>

using proofline::free_storage;

TEST_CASE("util/free_storage/a vector's capacity goes and the vector stays usable") {
  // (`v = {}` would empty it and, with libstdc++, keep all of its capacity: why free_storage exists.)
  std::vector<std::uint64_t> freed(1 << 16, 7);
  free_storage(freed);
  CHECK(freed.empty());
  CHECK(freed.capacity() == 0);
  freed.push_back(1);  // still usable
  CHECK(freed.size() == 1);

  std::vector<std::uint64_t> empty;
  free_storage(empty);
  CHECK(empty.capacity() == 0);
}
