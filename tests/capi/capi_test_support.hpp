// What the C ABI's boundary tests share: the fixture paths, a CPU pipeline with the chain_16 snarkjs key, and
// the fixture's witness as canonical scalars.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <proofline.h>

#include <proofline/groth16/constraint_system.hpp>

namespace proofline::capi_test {

std::string fixture(const std::string& file);  ///< tests/fixtures/snarkjs/chain_16/<file>

/// A small CPU configuration (1 GiB host budget, two threads).
pl_config cpu_config();

/// The chain_16 witness as 32-byte canonical little-endian scalars, and their count.
struct Scalars {
  std::vector<std::uint8_t> bytes;
  std::size_t count = 0;
};
Scalars fixture_scalars();

/// A witness callback's gate: its jobs (gated_fill, with the gate as user data) wait in synthesis until it
/// opens, then write the fixture's witness.
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  std::atomic<bool> entered{false};  ///< a job reached the gate
  Scalars scalars = fixture_scalars();

  void release();
  void wait_entered() const;
};
pl_status gated_fill(pl_witness_target* target, void* user_data);

/// A pipeline with the chain_16 key registered, destroyed (after releasing the key) at the end of the scope.
struct Prover {
  explicit Prover(const pl_config& config = cpu_config());
  ~Prover();
  Prover(const Prover&) = delete;
  Prover& operator=(const Prover&) = delete;
  pl_pipeline* pipeline = nullptr;
  pl_key* key = nullptr;
  pl_vk* vk = nullptr;
};

/// PL_OK, or a doctest failure naming the status and the message.
#define PL_REQUIRE_OK(call)                                                                       \
  do {                                                                                            \
    const pl_status pl_require_status_ = (call);                                                  \
    INFO(#call << ": " << pl_status_name(pl_require_status_) << ": " << pl_last_error_message()); \
    REQUIRE(pl_require_status_ == PL_OK);                                                         \
  } while (0)

/// A circuit's z, a, b, c as canonical 32-byte scalars, for a callback that fills all four.
struct WitnessVectors {
  std::vector<std::uint8_t> z, a, b, c;
};
/// z = `witness`; a, b, c = A·z, B·z, C·z over a domain of `domain_size` rows.
WitnessVectors witness_vectors(const groth16::ConstraintSystem& cs, const std::vector<Fr>& witness,
                               std::size_t domain_size);
/// A pl_witness_fn writing the WitnessVectors at user_data into z, a, b and c (PL_FILLS_WITNESS_AND_ABC).
pl_status fill_vectors(pl_witness_target* target, void* user_data);

/// Whether the job's proof verifies with vk, both as 192 bytes and as snarkjs JSON.
bool proof_verifies(pl_job* job, const pl_vk* vk);

}  // namespace proofline::capi_test
