// batch_prove's synthetic workload: known-trapdoor keys for a synthetic circuit, made once, then the batch
// through the pipeline once per --mode run, with the summary, failures and files of each run.
#pragma once

#include "batch_options.hpp"

namespace proofline::apps {

/// 0 when every run made (and verified, with --verify) every proof, else 1. Throws UnusableInput for input
/// or options found unusable during setup.
int run_synthetic(const BatchOptions& options);

}  // namespace proofline::apps
