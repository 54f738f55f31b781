// Internal: one buffer owned by a PinnedPool.
#pragma once

#include <proofline/memory/pinning.hpp>
#include <proofline/memory/reservation.hpp>

namespace proofline::memory::detail {

struct PoolBuffer {
  PinnedBuffer block;
  Reservation charge;      // its bytes in the host budget, held for as long as the buffer exists
  bool leased = false;     // all fields under the pool's mutex
  bool set_aside = false;  // matched by the waiter at the head of the queue: trim leaves it alone
};

}  // namespace proofline::memory::detail
