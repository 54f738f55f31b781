// proofline logs through one named spdlog logger, "proofline". An embedding program can fetch it with
// spdlog::get("proofline") to replace its sinks, or use the functions here, which need no spdlog headers.
#pragma once

#include <functional>
#include <string_view>

namespace proofline::log {

enum class Level { trace, debug, info, warn, error, off };

/// The logger's name in spdlog's registry.
inline constexpr std::string_view logger_name = "proofline";

void set_level(Level level);
Level level();

/// Parses "trace", "debug", "info", "warn", "error" or "off"; throws Error(invalid_argument) otherwise.
Level parse_level(std::string_view text);

/// Replaces the logger's sinks with one callback (e.g. to route proofline's lines into the host program's
/// own log). Pass an empty function to restore the default stderr sink. Any thread, at any time: lines being
/// written go to the old sink or the new one, and once set_sink returns the old one is never called again
/// (it waits for a line being written there). The callback may run on several threads, one line at a time;
/// a line logged from inside it (it called into proofline) goes to stderr rather than into it again, and
/// set_sink from inside it throws Error(invalid_argument), as it would wait for itself. (Both hold for
/// proofline's own logger; a "proofline" logger the host registered with spdlog first keeps its sinks'
/// rules.)
void set_sink(std::function<void(Level, std::string_view message)> sink);

}  // namespace proofline::log
