// Kills a device's CUDA context for real (tests/gpu/kill_context.cu). Only for tests that run in a process of
// their own: nothing in the process can use that device afterwards.
#pragma once

namespace proofline::test_support {

/// Launches a trapping kernel on `device` and waits: true when the context is then dead (sticky error).
bool kill_cuda_context(int device);

}  // namespace proofline::test_support
