// SIGINT, SIGTERM and SIGHUP as requests to stop: the handler only records which signal arrived, counts them
// and, when a program sleeps in poll(), writes a byte to its wake-up descriptor (all async-signal-safe). The
// program polls stop_signal() at its own pace: a batch between jobs, the fleet's worker in its loop (which
// counts them: a second signal stops it at once instead of draining).
#pragma once

namespace proofline {

/// From now on SIGINT, SIGTERM and SIGHUP (unless ignored, as under nohup) are recorded instead of ending
/// the process, and each one writes a byte to
/// `wake_fd` when it is >= 0 (a non-blocking pipe's write end). A later call replaces the descriptor.
void route_stop_signals(int wake_fd = -1);

/// Stops writing to `wake_fd` (before it is closed), if it is the descriptor signals write to.
void stop_waking(int wake_fd) noexcept;

/// The signal that asked the program to stop (the latest one), or 0.
int stop_signal() noexcept;

/// "SIGINT", "SIGTERM" or "SIGHUP" for those signals; "a stop signal" for any other.
const char* stop_signal_name(int signal) noexcept;

/// How many stop signals were recorded (every one since route_stop_signals() was first called).
int stop_signal_count() noexcept;

}  // namespace proofline
