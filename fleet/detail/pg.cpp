#include <proofline/fleet/detail/pg.hpp>

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include <proofline/fleet/detail/cancel_request.hpp>
#include <proofline/fleet/detail/conninfo.hpp>
#include <proofline/fleet/detail/interruption.hpp>
#include <proofline/fleet/detail/server_refusal.hpp>

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

/// How long a statement given up waits for the server to take its cancel request before closing the
/// connection: a healthy server answers at once, a frozen one never.
constexpr std::chrono::milliseconds cancel_patience{1000};

bool is_error(pg_result* result) {
  const ExecStatusType status = PQresultStatus(result);
  return status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK;
}

/// poll()'s timeout until `deadline`, rounded up (a deadline less than a millisecond away is not a busy
/// loop).
int poll_timeout(std::chrono::steady_clock::time_point deadline) {
  if (deadline == std::chrono::steady_clock::time_point::max()) return -1;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, INT_MAX));
}

/// The connection's connect_timeout (the URL's, PGCONNECT_TIMEOUT or ours), as libpq reads it: nullopt for
/// none (zero, negative or unset), at least 2 s.
std::optional<std::chrono::seconds> connect_timeout(pg_conn* conn) {
  std::optional<std::chrono::seconds> timeout;
  PQconninfoOption* options = PQconninfo(conn);
  for (PQconninfoOption* o = options; o != nullptr && o->keyword != nullptr; ++o)
    if (std::strcmp(o->keyword, "connect_timeout") == 0 && o->val != nullptr) {
      const long seconds = std::strtol(o->val, nullptr, 10);
      if (seconds > 0) timeout = std::chrono::seconds(std::max(seconds, 2L));
    }
  PQconninfoFree(options);
  return timeout;
}

/// "host H port P": the server libpq is trying now.
std::string server_of(pg_conn* conn) {
  const char* host = PQhost(conn);
  const char* port = PQport(conn);
  return std::string("host ") + (host ? host : "?") + " port " + (port ? port : "?");
}

std::string one_line(const char* message) {
  std::string text = message ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  // libpq continues a message on lines of its own ("...refused\n\tIs the server running..."): one line.
  std::string line;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      line.push_back(text[i]);
      continue;
    }
    while (i + 1 < text.size() && (text[i + 1] == '\t' || text[i + 1] == ' ')) ++i;
    line += "; ";
  }
  return line;
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

Connection::Connection(const std::string& conninfo, ConnectionOptions options)
    : interruption_(options.interruption) {
  check_conninfo(conninfo);  // an unparsable URL is the caller's mistake, not a server to wait for
  // Defaults the URL (and PGCONNECT_TIMEOUT) may override: libpq's own would wait for ever on a server that
  // accepts the connection and never answers, and notice a peer gone from the network after hours.
  std::vector<const char*> keywords, values;
  if (std::getenv("PGCONNECT_TIMEOUT") == nullptr) {
    keywords.push_back("connect_timeout");
    values.push_back("10");
  }
  for (const auto& [keyword, value] :
       {std::pair{"keepalives_idle", "30"}, {"keepalives_interval", "10"}, {"keepalives_count", "3"}}) {
    keywords.push_back(keyword);
    values.push_back(value);
  }
  keywords.push_back("fallback_application_name");
  values.push_back(options.application_name.c_str());
  keywords.push_back("dbname");  // last: what the URL sets wins over the defaults before it
  values.push_back(conninfo.c_str());
  keywords.push_back(nullptr);
  values.push_back(nullptr);
  // Started without blocking and driven in poll() (finish_connecting), so that a stop signal ends a wait on
  // a server that accepts the connection and never answers, however long connect_timeout is (0: for ever).
  conn_.reset(PQconnectStartParams(keywords.data(), values.data(), /*expand_dbname=*/1));
  if (!conn_) throw ConnectionLost("cannot connect to PostgreSQL: out of memory");
  // A refusal's SQLSTATE goes into its message only when verbose (read_server_refusal takes it out again);
  // statements' errors carry theirs in the result, so their messages keep the default verbosity.
  PQsetErrorVerbosity(conn_.get(), PQERRORS_VERBOSE);
  finish_connecting(conninfo);
  PQsetErrorVerbosity(conn_.get(), PQERRORS_DEFAULT);
  // Notices (e.g. "relation already exists, skipping") are not worth a line on stderr each.
  PQsetNoticeProcessor(
      conn_.get(), [](void*, const char*) {}, nullptr);
  backend_pid_ = PQbackendPID(conn_.get());
  // Statements are sent without waiting and waited for in poll() (run): a large one must not block in send().
  if (PQsetnonblocking(conn_.get(), 1) != 0)
    throw ConnectionLost("cannot make the PostgreSQL connection non-blocking: " +
                         one_line(PQerrorMessage(conn_.get())));
}

void Connection::finish_connecting(const std::string& conninfo) {
  const auto refused = [&] {
    const ServerRefusal refusal = read_server_refusal(PQerrorMessage(conn_.get()));
    const std::string message =
        "cannot connect to PostgreSQL: " + without_secrets(one_line(refusal.message.c_str()), conninfo);
    if (refuses_for_good(refusal.sqlstates)) throw ConnectionRefused(message);
    throw ConnectionLost(message);
  };
  // PQconnectPoll leaves connect_timeout to its caller; it bounds each server tried, as in PQconnectdb.
  const std::optional<std::chrono::seconds> timeout = connect_timeout(conn_.get());
  std::string server = server_of(conn_.get());
  auto server_deadline = timeout ? Clock::now() + *timeout : Clock::time_point::max();
  PostgresPollingStatusType state = PGRES_POLLING_WRITING;  // what libpq asks for before its first poll
  while (state != PGRES_POLLING_OK) {
    if (state == PGRES_POLLING_FAILED || PQstatus(conn_.get()) == CONNECTION_BAD) refused();
    if (!wait_for_socket("connect to PostgreSQL",
                         static_cast<short>(state == PGRES_POLLING_READING ? POLLIN : POLLOUT),
                         server_deadline))
      throw ConnectionLost("cannot connect to PostgreSQL: " + server + " did not answer within " +
                           std::to_string(timeout->count()) + " s (connect_timeout)");
    state = PQconnectPoll(conn_.get());
    if (std::string now = server_of(conn_.get()); now != server) {  // libpq went on to the next host
      server = std::move(now);
      server_deadline = timeout ? Clock::now() + *timeout : Clock::time_point::max();
    }
  }
}

Connection::~Connection() = default;

std::string Connection::describe() const {
  const char* db = PQdb(conn_.get());
  return server_of(conn_.get()) + " dbname " + (db ? db : "?");
}

void Connection::fail(std::string_view what, pg_result* result) const {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  // The server's primary message is one line; the full one adds "LINE 1: ..." and a caret under the SQL.
  const char* primary = result ? PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  std::string message = std::string(what) + ": " +
                        (primary != nullptr ? std::string("ERROR: ") + primary
                                            : one_line(result ? PQresultErrorMessage(result) : nullptr));
  if (message.ends_with(": ")) message += one_line(PQerrorMessage(conn_.get()));
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

template <class Send>
pg_result* Connection::run(std::string_view what, Send&& send) {
  if (!conn_)
    throw ConnectionLost(std::string(what) + ": the connection was closed after a statement was given up");
  if (interruption_ != nullptr)
    if (const std::optional<std::string> why = interruption_->due()) give_up(what, *why);
  if (send(conn_.get()) == 0) fail(what, nullptr);
  // PQexec's rule: the last result of the query string, or its first error (the server skips the rest).
  pg_result* kept = nullptr;
  while (true) {
    await_result(what);
    pg_result* next = PQgetResult(conn_.get());
    if (next == nullptr) break;
    if (kept != nullptr && is_error(kept)) {
      PQclear(next);
    } else {
      PQclear(kept);
      kept = next;
    }
  }
  return kept;
}

void Connection::await_result(std::string_view what) {
  while (true) {
    const int unsent = PQflush(conn_.get());  // 0: all sent, 1: more to send, -1: failed
    if (unsent < 0) fail(what, nullptr);
    if (unsent == 0 && !PQisBusy(conn_.get())) return;
    wait_for_socket(what, static_cast<short>(unsent == 1 ? POLLIN | POLLOUT : POLLIN));
    if (PQconsumeInput(conn_.get()) == 0) fail(what, nullptr);
  }
}

bool Connection::wait_for_socket(std::string_view what, short events, Clock::time_point deadline) {
  while (true) {
    pollfd fds[2] = {{PQsocket(conn_.get()), events, 0},
                     {interruption_ != nullptr ? interruption_->fd() : -1, POLLIN, 0}};  // -1: ignored
    const int timeout =
        poll_timeout(interruption_ != nullptr ? std::min(deadline, interruption_->deadline()) : deadline);
    if (poll(fds, 2, timeout) < 0 && errno != EINTR)
      throw ConnectionLost(std::string(what) + ": waiting for the server: " + std::strerror(errno));
    if (fds[0].revents != 0) return true;  // readable, writable, or hung up: libpq tells which
    // Woken by the pipe, interrupted by a signal (poll is never restarted), or at a deadline.
    if (interruption_ != nullptr)
      if (const std::optional<std::string> why = interruption_->due()) give_up(what, *why);
    if (Clock::now() >= deadline) return false;
  }
}

void Connection::give_up(std::string_view what, const std::string& why) {
  // The server may still be running the statement: asked to cancel it, it lets go of what it locked (a
  // closed connection alone is noticed only when the backend next talks to it). Its answer is not waited
  // for: a frozen backend never gives one.
  const bool connecting = PQstatus(conn_.get()) != CONNECTION_OK;
  const bool in_flight = PQtransactionStatus(conn_.get()) == PQTRANS_ACTIVE;
  if (in_flight) request_cancel(conn_.get(), cancel_patience);
  conn_.reset();
  throw Interrupted(std::string(what) + ": " +
                    (connecting  ? "stopped connecting"
                     : in_flight ? "stopped waiting for the server"
                                 : "not sent") +
                    " after " + why + " (the connection is closed)");
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
  pg_result* result = run(what, [&](pg_conn* conn) {
    return PQsendQueryParams(conn, sql.c_str(), static_cast<int>(params.size()), nullptr, values.data(),
                             lengths.data(), formats.data(), 0);
  });
  if (result == nullptr || is_error(result)) fail(what, result);
  return Result(result);
}

void Connection::command(std::string_view what, const std::string& sql) {
  // The simple query protocol, not PQsendQueryParams: a migration is several statements, and there are no
  // parameters to bind.
  pg_result* result = run(what, [&](pg_conn* conn) { return PQsendQuery(conn, sql.c_str()); });
  if (result == nullptr || is_error(result)) fail(what, result);
  PQclear(result);
}

int Connection::socket() const noexcept {
  return conn_ ? PQsocket(conn_.get()) : -1;
}

std::vector<Notification> Connection::take_notifications() {
  if (!conn_ || PQconsumeInput(conn_.get()) == 0 || PQstatus(conn_.get()) != CONNECTION_OK)
    throw ConnectionLost("waiting for notifications: " + one_line(PQerrorMessage(conn_.get())));
  std::vector<Notification> out;
  while (PGnotify* n = PQnotifies(conn_.get())) {
    out.push_back({n->relname ? n->relname : "", n->extra ? n->extra : ""});
    PQfreemem(n);
  }
  return out;
}

}  // namespace proofline::fleet::detail
