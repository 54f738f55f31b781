// Where the database URL comes from. It holds a password more often than not, so it is never taken from the
// command line (where `ps` shows it) and never logged: only Connection::describe() (host, port, dbname) is.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace proofline::fleet::detail {

/// The environment variable that holds a libpq URL or conninfo string.
inline constexpr const char* db_url_variable = "PROOFLINE_DB_URL";

/// The conninfo for libpq: the first line of `url_file` when given (Error(io) naming the file when it cannot
/// be read or is empty), else $PROOFLINE_DB_URL, else "" (libpq's own PGHOST, PGDATABASE, PGUSER,
/// PGPASSFILE, PGSSLMODE ... apply, as they do to every libpq conninfo for what it leaves out).
std::string resolve_conninfo(const std::optional<std::filesystem::path>& url_file);

}  // namespace proofline::fleet::detail
