// Whether span recording is compiled in. The build sets PROOFLINE_TRACE_ENABLED on proofline_graph (public),
// from the CMake option PROOFLINE_TRACE, so every translation unit that includes these headers agrees. With
// it at 0, ScopedSpan and Recorder::record_* are empty inline functions: the cost of tracing is measured
// against that build.
#pragma once

#ifndef PROOFLINE_TRACE_ENABLED
#define PROOFLINE_TRACE_ENABLED 1
#endif

namespace proofline::trace {

/// True when spans are recorded; false when the build compiled recording out.
inline constexpr bool compiled_in = PROOFLINE_TRACE_ENABLED != 0;

}  // namespace proofline::trace
