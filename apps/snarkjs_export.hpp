// batch_prove --export-snarkjs DIR: the synthetic workload written in snarkjs's formats instead of proved, so
// that tools which take .zkey + .wtns jobs (batch_prove --zkey, the fleet workers, snarkjs itself) can be run
// on large real-format workloads made in seconds rather than through snarkjs's setup, on the curve --curve
// names (bls12381, or bn128 for --curve bn254):
//
//   DIR/circuit.zkey             the synthetic circuit's known-trapdoor key (TEST-ONLY: anyone who knows the
//                                seed can forge proofs), made in snarkjs's H convention
//                                (groth16/zkey_writer.hpp)
//   DIR/verification_key.json    its verifying key, as `snarkjs zkey export verificationkey` writes it
//   DIR/witness-NNNNNN.wtns      job NNNNNN's witness (the one the batch would prove), one per --count
#pragma once

#include "batch_options.hpp"

namespace proofline::apps {

/// Writes the files above and returns 0; proves nothing. Throws UnusableInput when DIR cannot be made or a
/// file cannot be written.
int export_snarkjs(const BatchOptions& options);

}  // namespace proofline::apps
