// Internal: the SRS of a key that no GPU's VRAM holds (or that Config::srs keeps in host memory), ready for
// the streamed MSMs, which need page-locked points. Points already page-locked (a key file read into pinned
// memory) are used where they are; otherwise they are copied once into a pinned buffer leased from the pool,
// so the copy is charged to the host budget. The points are not page-locked in place with cudaHostRegister:
// a key's arrays share pages with other heap data (registration works on whole pages and then changes how
// the driver treats unrelated copies from those pages), and on the H200 host registering a read-only mapping
// of a key file left the process stuck in the driver.
#pragma once

#include <cstdint>
#include <string>

#include <proofline/arith/curves.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/memory/pinned_lease.hpp>
#include <proofline/memory/pinned_pool.hpp>

namespace proofline::devices {

/// C: the key's curve (Bls12_381 or Bn254).
template <class C>
struct BasicHostSrs {
  using G1Affine = typename C::G1Affine;
  using G2Affine = typename C::G2Affine;
  /// Page-locked points, the lengths of the key's queries. Valid while this object and the key live.
  const G1Affine* a = nullptr;
  const G1Affine* b1 = nullptr;
  const G1Affine* h = nullptr;
  const G1Affine* l = nullptr;
  const G2Affine* b2 = nullptr;

  memory::PinnedLease copy;  ///< empty when the key's own points were page-locked already
  std::uint64_t bytes = 0;   ///< the points' bytes
  double seconds = 0;        ///< time to make it (the copy)

  bool copied() const noexcept { return static_cast<bool>(copy); }
};

/// Throws Error(out_of_budget) when the host budget has no room for the copy, Error(cuda) when the pool's
/// memory is not page-locked (the host pinning backend without a GPU). `what` names the key in messages.
template <class C>
BasicHostSrs<C> make_host_srs(const groth16::BasicProvingKey<C>& pk, memory::PinnedPool& pool,
                              const std::string& what);

}  // namespace proofline::devices
