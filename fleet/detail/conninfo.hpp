// Where the database URL comes from. It holds a password more often than not, so it is never taken from the
// command line (where `ps` shows it) and never logged: only Connection::describe() (host, port, dbname) is.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace proofline::fleet::detail {

/// The environment variable that holds a libpq URL or conninfo string.
inline constexpr const char* db_url_variable = "PROOFLINE_DB_URL";

/// The conninfo for libpq: the first non-blank line of `url_file` when given (a byte-order mark, surrounding
/// blanks and one pair of quotes around it dropped), else $PROOFLINE_DB_URL, else "" (libpq's own PGHOST,
/// PGDATABASE, PGUSER, PGPASSFILE, PGSSLMODE ... apply, as they do to every libpq conninfo for what it leaves
/// out). A file that cannot be read or holds no URL, and a URL libpq cannot parse, are an OptionError whose
/// message never quotes the URL.
std::string resolve_conninfo(const std::optional<std::filesystem::path>& url_file);

/// Throws OptionError when libpq cannot parse `conninfo`, without quoting any of it.
void check_conninfo(const std::string& conninfo);

/// `message` with every double-quoted part replaced by "(withheld)": libpq quotes parts of the conninfo
/// (a host, a token of the URL) in its errors, and any of them may be or hold the password.
std::string without_quoted_text(std::string_view message);

/// `message` with the conninfo's password and the conninfo itself replaced by "(withheld)", for libpq's
/// connection errors, which name host and user and are worth keeping whole otherwise.
std::string without_secrets(std::string message, const std::string& conninfo);

}  // namespace proofline::fleet::detail
