// Frees a container's storage at once. `v = {}` does not: for a std::vector it picks the initializer-list
// assignment, which empties the vector and keeps its capacity until the vector dies, so gigabytes meant to be
// given back stay allocated (a 2^27-row key setup held 32 GiB of dead scalars that way).
#pragma once

#include <utility>

namespace proofline {

template <class Container>
void free_storage(Container& container) noexcept {
  Container().swap(container);
}

}  // namespace proofline
