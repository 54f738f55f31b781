// PTX's integer carry flag, emulated on the host: the device field arithmetic (the limb-generic
// arith/detail/*_limbs32.hpp) takes its carry operations from an object like this one, so the same code runs
// on the host against the portable fields, and any carry that an operation without .cc would lose is counted.
#pragma once

#include <cstdint>

namespace proofline::test_support {

/// PTX integer carry semantics: .cc writes CC.CF, the c-forms read it; sub.cc writes the borrow. Operations
/// without .cc that would carry out count as dropped carries.
struct EmulatedCarryOps {
  std::uint32_t cf = 0;
  std::uint64_t dropped = 0;

  static std::uint64_t wide(std::uint32_t a, std::uint32_t b) { return std::uint64_t{a} * b; }
  void set(std::uint32_t& d, std::uint64_t sum, bool keep_flag) {
    d = static_cast<std::uint32_t>(sum);
    if (keep_flag) {
      cf = static_cast<std::uint32_t>(sum >> 32);
    } else {
      dropped += (sum >> 32) != 0;
    }
  }
  void mul_lo(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = static_cast<std::uint32_t>(wide(a, b));
  }
  void mul_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = static_cast<std::uint32_t>(wide(a, b) >> 32);
  }
  void mad_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    set(d, (wide(a, b) & 0xffffffffu) + c, true);
  }
  void madc_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    set(d, (wide(a, b) & 0xffffffffu) + c + cf, true);
  }
  void madc_hi_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    set(d, (wide(a, b) >> 32) + c + cf, true);
  }
  void madc_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    set(d, (wide(a, b) >> 32) + c + cf, false);
  }
  void add_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { set(d, std::uint64_t{a} + b, true); }
  void addc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    set(d, std::uint64_t{a} + b + cf, true);
  }
  void addc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { set(d, std::uint64_t{a} + b + cf, false); }
  void sub_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = a - b;
    cf = a < b;
  }
  void subc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    const std::uint64_t subtrahend = std::uint64_t{b} + cf;
    d = static_cast<std::uint32_t>(a - subtrahend);
    cf = a < subtrahend;
  }
  void subc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = static_cast<std::uint32_t>(a - (std::uint64_t{b} + cf));
  }
};

}  // namespace proofline::test_support
