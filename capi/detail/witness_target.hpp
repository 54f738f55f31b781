// A witness callback's view of its job's slot: valid only during the callback and given to it as an id that
// is never reused (like every handle), so a stale or foreign pointer is refused without being dereferenced.
#pragma once

#include <proofline.h>
#include <proofline/graph/job.hpp>

namespace proofline::capi {

/// Runs the caller's fill on `target` (as one of the library's callbacks) and
/// turns what it returns or throws into the job's error: Error(code of the returned status, its
/// pl_witness_fail message).
void run_witness_fn(pl_witness_fn fill, void* user_data, bool fills_abc, const graph::WitnessTarget& target);

}  // namespace proofline::capi
