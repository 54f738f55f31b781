// batch_prove --h2d-probe: the host-to-device copy rate from pinned and from pageable memory while a given
// host load runs, so the pipeline's own H2D rate can be compared with what the link gives under the same
// load.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

namespace proofline::apps {

struct H2dProbeResult {
  double pinned_gbps = 0;    ///< source pinned as the pool pins, bytes over time (1e9 bytes per GB)
  double pageable_gbps = 0;  ///< malloc'd, touched source
  std::uint64_t bytes = 0;   ///< per copy
  int pinned_copies = 0, pageable_copies = 0;
};

/// Copies a buffer of `bytes` to device `device` over and over for `seconds` from pinned memory, then for
/// `seconds` from pageable memory, one copy at a time on its own stream, while `load` runs on another thread
/// (it gets a flag to stop at; it is started before and stopped after the copies). Nullopt in a build without
/// CUDA. Throws proofline::Error on a CUDA failure. Its two buffers (pinned and on the device) are held only
/// while it runs, beside the pipeline's budgets.
std::optional<H2dProbeResult> probe_h2d(int device, std::uint64_t bytes, double seconds,
                                        const std::function<void(const std::atomic<bool>& stop)>& load);

}  // namespace proofline::apps
