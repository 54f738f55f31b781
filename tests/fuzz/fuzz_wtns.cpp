// libFuzzer target: the .wtns reader on arbitrary bytes must return a witness or throw proofline::Error,
// never crash, hang or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <span>

#include <proofline/groth16/wtns.hpp>
#include <proofline/util/error.hpp>

#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  proofline::fuzz::single_thread();
  // Read as each curve's witness: the file's prime decides which one accepts it.
  try {
    const auto z = proofline::groth16::parse_wtns(proofline::fuzz::bytes(data, size), "fuzz.wtns");
    if (!z.empty() && !z[0].is_one()) __builtin_trap();  // the reader promised w[0] = 1
  } catch (const proofline::Error&) {
  }
  try {
    const auto z =
        proofline::groth16::parse_wtns<proofline::bn254::Fr>(proofline::fuzz::bytes(data, size), "fuzz.wtns");
    if (!z.empty() && !z[0].is_one()) __builtin_trap();
  } catch (const proofline::Error&) {
  }
  return 0;
}
