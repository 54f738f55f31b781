// The options `proofline prove` and `proofline batch` share: the backend and resources, the generator
// cache, the key's point check, logging and fault injection.
#pragma once

#include <proofline/util/options.hpp>

#include "circom_batch.hpp"

namespace proofline::apps {

/// Registers the shared options on `cli`, filling `batch`.
void add_prover_options(OptionParser& cli, CircomBatch& batch);

/// The pipeline defaults of the circom commands: automatic backend, every proof verified before it is
/// written.
void set_prover_defaults(CircomBatch& batch);

}  // namespace proofline::apps
