// Internal: the spdlog logger behind proofline::log. Include from .cpp files only: spdlog/fmt 9 headers do
// not compile under nvcc in C++20 mode.
#pragma once

#include <spdlog/spdlog.h>

namespace proofline::detail {

/// The process-wide "proofline" logger, created on first use with a colored stderr sink at level info.
spdlog::logger& logger();

}  // namespace proofline::detail

#define PL_LOG_TRACE(...) ::proofline::detail::logger().trace(__VA_ARGS__)
#define PL_LOG_DEBUG(...) ::proofline::detail::logger().debug(__VA_ARGS__)
#define PL_LOG_INFO(...) ::proofline::detail::logger().info(__VA_ARGS__)
#define PL_LOG_WARN(...) ::proofline::detail::logger().warn(__VA_ARGS__)
#define PL_LOG_ERROR(...) ::proofline::detail::logger().error(__VA_ARGS__)
