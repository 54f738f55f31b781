// batch_prove's snarkjs workload: circom witnesses (.wtns) proved with a snarkjs key (.zkey), written as
// snarkjs's proof.json and public.json (through circom_batch.hpp, the core `proofline batch` shares).
#pragma once

#include "batch_options.hpp"

namespace proofline::apps {

/// 0 when every witness gave a proof (verified, with --verify), else 1. Throws UnusableInput for a key,
/// witness or option found unusable before the first proof. --inject-fault works here as on synthetic runs.
int run_snarkjs(const BatchOptions& options);

}  // namespace proofline::apps
