#include <proofline/groth16/os_random.hpp>

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <proofline/util/error.hpp>
#include <proofline/util/secure_wipe.hpp>

namespace proofline::groth16 {

void os_random_bytes(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t got = ::getrandom(out.data() + done, out.size() - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(Errc::io, std::string("getrandom failed: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(got);
  }
}

template <class Fr>
Fr os_random_scalar() {
  constexpr std::size_t top_bits = Fr::modulus_bits - 64 * (Fr::N - 1);
  constexpr std::uint64_t top_mask = (std::uint64_t{1} << top_bits) - 1;
  for (;;) {
    std::uint8_t bytes[32];
    os_random_bytes(bytes);
    typename Fr::Int value;
    for (std::size_t i = 0; i < 32; ++i)
      value.limb[i / 8] |= static_cast<std::uint64_t>(bytes[i]) << (8 * (i % 8));
    value.limb[Fr::N - 1] &= top_mask;
    // The draw becomes r or s: no copy of it stays behind in this frame (rejected draws included).
    secure_wipe(bytes, sizeof bytes);
    const bool below_r = Fr::is_canonical(value);
    const Fr element = below_r ? Fr::from_canonical(value) : Fr::zero();
    secure_wipe(&value, sizeof value);
    if (below_r) return element;
  }
}

template Fr os_random_scalar<Fr>();
template bn254::Fr os_random_scalar<bn254::Fr>();

Fr os_random_fr() {
  return os_random_scalar<Fr>();
}

}  // namespace proofline::groth16
