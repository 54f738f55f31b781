#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>

#include <proofline.h>
#include <proofline/graph/config.hpp>

namespace proofline::capi {

/// The graph::Config a pl_config (NULL: the defaults) stands for; PL_ERR_STRUCT_SIZE or
/// PL_ERR_INVALID_ARGUMENT naming the field otherwise.
graph::Config to_graph_config(const pl_config* config);

/// A C caller's unsigned milliseconds as a duration: values past INT64_MAX become INT64_MAX (a signed
/// duration would turn them negative), which like anything from graph::kNoTimeLimit up means no limit.
inline std::chrono::milliseconds milliseconds_of(std::uint64_t ms) noexcept {
  constexpr auto most = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::min(ms, most)));
}

}  // namespace proofline::capi
