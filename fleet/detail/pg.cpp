#include <proofline/fleet/detail/pg.hpp>

#include <libpq-fe.h>

#include <cstdlib>
#include <utility>
#include <vector>

#include <proofline/fleet/detail/conninfo.hpp>

namespace proofline::fleet::detail {

namespace {

/// SQLSTATE classes that mean the server or the link is gone rather than the statement being wrong:
/// 08 (connection exception) and 57P (operator intervention: shutdown, crash, starting up).
bool sqlstate_means_gone(const char* state) {
  if (state == nullptr) return false;
  const std::string_view s(state);
  return s.starts_with("08") || s.starts_with("57P");
}

/// SQLSTATEs of conditions that pass: 40 (transaction rollback: deadlock, serialization), 53 (insufficient
/// resources), 55P03 (lock not available: lock_timeout), 57014 (query canceled: statement_timeout, a cancel).
bool sqlstate_passes(const char* state) {
  if (state == nullptr) return false;
  const std::string_view s(state);
  return s.starts_with("40") || s.starts_with("53") || s == "55P03" || s == "57014";
}

/// SQLSTATEs that say the database is not fit for the fleet: 42 (an undefined table or column, a right
/// missing), 3F (invalid schema), 3D (invalid database), 28 (invalid authorization).
bool sqlstate_means_unusable(const char* state) {
  if (state == nullptr) return false;
  const std::string_view s(state);
  return s.starts_with("42") || s.starts_with("3F") || s.starts_with("3D") || s.starts_with("28");
}

std::string trimmed(const char* message) {
  std::string text = message ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

void Result::Free::operator()(pg_result* result) const noexcept {
  PQclear(result);
}

int Result::rows() const noexcept {
  return result_ ? PQntuples(result_.get()) : 0;
}

bool Result::is_null(int row, int column) const noexcept {
  return PQgetisnull(result_.get(), row, column) != 0;
}

std::string Result::text(int row, int column) const {
  return std::string(PQgetvalue(result_.get(), row, column),
                     static_cast<std::size_t>(PQgetlength(result_.get(), row, column)));
}

std::int64_t Result::integer(int row, int column) const {
  return std::strtoll(text(row, column).c_str(), nullptr, 10);
}

double Result::real(int row, int column) const {
  return std::strtod(text(row, column).c_str(), nullptr);
}

bool Result::boolean(int row, int column) const {
  const std::string value = text(row, column);
  return value == "t" || value == "true";
}

std::vector<std::uint8_t> Result::bytes(int row, int column) const {
  std::size_t length = 0;
  unsigned char* data = PQunescapeBytea(
      reinterpret_cast<const unsigned char*>(PQgetvalue(result_.get(), row, column)), &length);
  if (data == nullptr) throw Error(Errc::internal, "cannot decode a bytea value: out of memory");
  std::vector<std::uint8_t> out(data, data + length);
  PQfreemem(data);
  return out;
}

void Connection::Free::operator()(pg_conn* conn) const noexcept {
  PQfinish(conn);
}

Connection::Connection(const std::string& conninfo) {
  check_conninfo(conninfo);  // an unparsable URL is the caller's mistake, not a server to wait for
  // Defaults the URL (and PGCONNECT_TIMEOUT) may override: libpq's own would wait for ever on a server that
  // accepts the connection and never answers, and notice a peer gone from the network after hours.
  std::vector<const char*> keywords, values;
  if (std::getenv("PGCONNECT_TIMEOUT") == nullptr) {
    keywords.push_back("connect_timeout");
    values.push_back("10");
  }
  for (const auto& [keyword, value] : {std::pair{"keepalives_idle", "30"},
                                       {"keepalives_interval", "10"},
                                       {"keepalives_count", "3"},
                                       {"fallback_application_name", "proofline"}}) {
    keywords.push_back(keyword);
    values.push_back(value);
  }
  keywords.push_back("dbname");  // last: what the URL sets wins over the defaults before it
  values.push_back(conninfo.c_str());
  keywords.push_back(nullptr);
  values.push_back(nullptr);
  conn_.reset(PQconnectdbParams(keywords.data(), values.data(), /*expand_dbname=*/1));
  if (!conn_) throw ConnectionLost("cannot connect to PostgreSQL: out of memory");
  if (PQstatus(conn_.get()) != CONNECTION_OK)
    throw ConnectionLost("cannot connect to PostgreSQL: " +
                         without_secrets(trimmed(PQerrorMessage(conn_.get())), conninfo));
  // Notices (e.g. "relation already exists, skipping") are not worth a line on stderr each.
  PQsetNoticeProcessor(
      conn_.get(), [](void*, const char*) {}, nullptr);
}

Connection::~Connection() = default;

std::string Connection::describe() const {
  const char* host = PQhost(conn_.get());
  const char* port = PQport(conn_.get());
  const char* db = PQdb(conn_.get());
  return std::string("host ") + (host ? host : "?") + " port " + (port ? port : "?") + " dbname " +
         (db ? db : "?");
}

void Connection::fail(std::string_view what, pg_result* result) const {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  // The server's primary message is one line; the full one adds "LINE 1: ..." and a caret under the SQL.
  const char* primary = result ? PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  std::string message = std::string(what) + ": " +
                        (primary != nullptr ? std::string("ERROR: ") + primary
                                            : trimmed(result ? PQresultErrorMessage(result) : nullptr));
  if (message.ends_with(": ")) message += trimmed(PQerrorMessage(conn_.get()));
  const bool gone = PQstatus(conn_.get()) != CONNECTION_OK || sqlstate_means_gone(state) || result == nullptr;
  const bool passes = sqlstate_passes(state), unusable = sqlstate_means_unusable(state);
  PQclear(result);
  if (gone) throw ConnectionLost(message);
  if (passes) throw StatementTransient(message);
  if (unusable)
    throw DatabaseUnusable(message +
                           " (the database does not fit this program: run `migrate` as the "
                           "schema's owner, and grant the role what docs/fleet.md lists)");
  throw Error(Errc::io, message);
}

Result Connection::exec(std::string_view what, const std::string& sql, std::span<const Param> params) {
  std::vector<const char*> values(params.size());
  std::vector<int> lengths(params.size()), formats(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (p.binary) {
      values[i] = reinterpret_cast<const char*>(p.bytes.data());
      lengths[i] = static_cast<int>(p.bytes.size());
      formats[i] = 1;
    } else {
      values[i] = p.text ? p.text->c_str() : nullptr;
    }
  }
  pg_result* result = PQexecParams(conn_.get(), sql.c_str(), static_cast<int>(params.size()), nullptr,
                                   values.data(), lengths.data(), formats.data(), 0);
  const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(what, result);
  return Result(result);
}

void Connection::command(std::string_view what, const std::string& sql) {
  // PQexec, not PQexecParams: a migration is several statements, and there are no parameters to bind.
  pg_result* result = PQexec(conn_.get(), sql.c_str());
  const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(what, result);
  PQclear(result);
}

int Connection::socket() const noexcept {
  return PQsocket(conn_.get());
}

std::vector<Notification> Connection::take_notifications() {
  if (PQconsumeInput(conn_.get()) == 0 || PQstatus(conn_.get()) != CONNECTION_OK)
    throw ConnectionLost("waiting for notifications: " + trimmed(PQerrorMessage(conn_.get())));
  std::vector<Notification> out;
  while (PGnotify* n = PQnotifies(conn_.get())) {
    out.push_back({n->relname ? n->relname : "", n->extra ? n->extra : ""});
    PQfreemem(n);
  }
  return out;
}

}  // namespace proofline::fleet::detail
