#pragma once

#include <proofline.h>
#include <proofline/graph/config.hpp>

namespace proofline::capi {

/// The graph::Config a pl_config (NULL: the defaults) stands for; PL_ERR_STRUCT_SIZE or
/// PL_ERR_INVALID_ARGUMENT naming the field otherwise.
graph::Config to_graph_config(const pl_config* config);

}  // namespace proofline::capi
