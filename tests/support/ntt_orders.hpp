// What the NTT tests of every suite (CPU, host emulation of the GPU NTT, GPU) share about orders: the lists
// of orders and H conventions to loop over, their names in test messages (one spelling, so failures read
// alike), and the bit-reversed index that relates natural and bit-reversed order.
#pragma once

#include <cstddef>

#include <proofline/arith/domain.hpp>

namespace proofline::test_support {

inline constexpr NttOrder kAllOrders[] = {NttOrder::NN, NttOrder::NR, NttOrder::RN, NttOrder::RR};
inline constexpr HConvention kAllConventions[] = {HConvention::generator7, HConvention::snarkjs};

inline const char* order_name(NttOrder order) {
  switch (order) {
    case NttOrder::NN:
      return "NN";
    case NttOrder::NR:
      return "NR";
    case NttOrder::RN:
      return "RN";
    case NttOrder::RR:
      return "RR";
  }
  return "?";
}

inline const char* direction_name(NttDirection direction) {
  return direction == NttDirection::forward ? "forward" : "inverse";
}

inline const char* convention_name(HConvention convention) {
  return convention == HConvention::generator7 ? "generator7" : "snarkjs";
}

/// `value` with its low `bits` bits in reverse order: position i of a bit-reversed vector of 2^bits elements
/// holds element reverse_index(i, bits) of the natural one.
inline std::size_t reverse_index(std::size_t value, unsigned bits) {
  std::size_t out = 0;
  for (unsigned i = 0; i < bits; ++i) out |= ((value >> i) & 1) << (bits - 1 - i);
  return out;
}

}  // namespace proofline::test_support
