// libFuzzer target: the .zkey reader on arbitrary bytes must return a consistent key or throw
// proofline::Error.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>

#include <proofline/groth16/zkey.hpp>
#include <proofline/util/error.hpp>

#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proofline::groth16;
  proofline::fuzz::single_thread();
  if (size == 0) return 0;
  // The first byte picks the options (point check level, whether to build the constraint system, the curve).
  ZkeyOptions options;
  options.points = data[0] % 3 == 0   ? PointCheck::full
                   : data[0] % 3 == 1 ? PointCheck::on_curve
                                      : PointCheck::trusted;
  options.constraint_system = (data[0] & 4) == 0;
  // No record of checked keys: the subgroup check runs on every input, and nothing lands in the user's cache.
  options.key_check.use_cache = false;
  // An owned, 16-byte aligned copy, so aligned sections take the zero-copy path too.
  std::shared_ptr<std::byte[]> image(new (std::align_val_t{64}) std::byte[size],
                                     [](std::byte* p) { ::operator delete[](p, std::align_val_t{64}); });
  std::memcpy(image.get(), data + 1, size - 1);
  // Bit 3 picks the curve the key is read as (the other curve's keys are refused by their header).
  const auto curve = (data[0] & 8) == 0 ? proofline::CurveId::bls12_381 : proofline::CurveId::bn254;
  proofline::with_curve(curve, [&]<class Curve>() {
    try {
      const auto key =
          parse_zkey<Curve>(image, std::span<const std::byte>(image.get(), size - 1), "fuzz.zkey", options);
      validate(key.pk, proofline::Errc::internal, "fuzz");
      validate(key.vk, proofline::Errc::internal, "fuzz");
      if (options.constraint_system) validate(key.cs, proofline::Errc::internal, "fuzz");
    } catch (const proofline::Error& e) {
      if (e.code() == proofline::Errc::internal) __builtin_trap();
    }
  });
  return 0;
}
