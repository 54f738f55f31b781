#include <proofline/fleet/detail/pg.hpp>

#include <libpq-fe.h>

#include <cstdlib>

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
  conn_.reset(PQconnectdb(conninfo.c_str()));
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
  std::string message = std::string(what) + ": " + trimmed(result ? PQresultErrorMessage(result) : nullptr);
  if (message.ends_with(": ")) message += trimmed(PQerrorMessage(conn_.get()));
  const bool gone = PQstatus(conn_.get()) != CONNECTION_OK || sqlstate_means_gone(state) || result == nullptr;
  PQclear(result);
  if (gone) throw ConnectionLost(message);
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
