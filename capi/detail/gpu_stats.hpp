// pl_gpu_stats from the pipeline's stats (pl_pipeline_gpu_stats), apart so that it can be checked against
// stats of GPUs a test machine does not have.
#pragma once

#include <cstddef>

#include <proofline.h>
#include <proofline/graph/stats.hpp>

namespace proofline::capi {

/// GPU `index` of `stats` into *out, the fields that lie within out->size; PL_ERR_STRUCT_SIZE for a size this
/// library does not know, PL_ERR_INVALID_ARGUMENT for an index past the last GPU.
void fill_gpu_stats_of(const graph::PipelineStats& stats, std::size_t index, pl_gpu_stats* out);

}  // namespace proofline::capi
