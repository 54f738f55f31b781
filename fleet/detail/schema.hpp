// The fleet's tables, in the PostgreSQL schema "proofline", created and upgraded by the programs themselves.
// Migrations are numbered and applied in order, all of them in one transaction under an advisory lock, so
// two workers starting at once never both apply one, and a failed migration leaves the old schema intact.
#pragma once

#include <string>
#include <vector>

#include <proofline/fleet/detail/pg.hpp>

namespace proofline::fleet::detail {

struct Migration {
  int version = 0;
  std::string what;
  std::string sql;
};

/// Every migration, in order (version 1, 2, ...).
const std::vector<Migration>& migrations();

/// The version this program's migrations end at.
int latest_schema_version();

struct MigrationOutcome {
  int from = 0;  ///< the version found (0: no schema)
  int to = 0;    ///< the version now
};

/// Brings the database to latest_schema_version(). Throws Error(invalid_argument) when the database is
/// newer than this program (an older worker must not write into a schema it does not know).
MigrationOutcome migrate(Connection& connection);

/// The version the database is at, without changing anything (0: no schema).
int schema_version(Connection& connection);

}  // namespace proofline::fleet::detail
