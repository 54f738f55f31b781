// libFuzzer target: the .r1cs reader (with and without snarkjs's input rows) on arbitrary bytes must return a
// valid constraint system or throw proofline::Error.
#include <cstddef>
#include <cstdint>

#include <proofline/groth16/r1cs_file.hpp>
#include <proofline/util/error.hpp>

#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proofline::groth16;
  proofline::fuzz::single_thread();
  if (size == 0) return 0;
  // The first byte picks the options and the curve the file is read as; the rest is the file.
  const R1csOptions options{.snarkjs_input_rows = (data[0] & 1) != 0};
  const auto curve = (data[0] & 2) == 0 ? proofline::CurveId::bls12_381 : proofline::CurveId::bn254;
  proofline::with_curve(curve, [&]<class Curve>() {
    try {
      const auto file = parse_r1cs<Curve>(proofline::fuzz::bytes(data + 1, size - 1), "fuzz.r1cs", options);
      validate(file.cs, proofline::Errc::internal, "fuzz");  // anything returned must be structurally sound
    } catch (const proofline::Error& e) {
      if (e.code() == proofline::Errc::internal) __builtin_trap();
    }
  });
  return 0;
}
