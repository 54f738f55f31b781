// RAII over libpq: one owned connection (PGconn) and one owned result (PGresult), parameterized statements
// only, and the distinctions the fleet's loops need from an error (by SQLSTATE): the connection is gone
// (reconnect and retry later: ConnectionLost), the statement met a passing condition (retry it later:
// StatementTransient), the database cannot serve the fleet until an operator acts (DatabaseUnusable), or the
// statement itself failed (an Error naming the statement's purpose). Statements are sent asynchronously and
// waited for in poll(), so that a connection given an Interruption gives one up when the program is told to
// stop (Interrupted), however long the server takes.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/util/error.hpp>

struct pg_conn;
struct pg_result;

namespace proofline::fleet::detail {

class Interruption;

/// What passes: the caller keeps what it meant to write and tries again later (the two kinds below).
class RetryLater : public Error {
 public:
  explicit RetryLater(const std::string& message) : Error(Errc::io, message) {}
};

/// The server or the network went away (or the server is shutting down): the caller reconnects with backoff.
class ConnectionLost : public RetryLater {
 public:
  using RetryLater::RetryLater;
};

/// The server refused who asked, not the moment: a password, a role, a database it does not know, an address
/// pg_hba.conf does not admit (SQLSTATE class 28 or 3D000, whatever language its message is in). A program
/// that has never got in may stop on it; one that has served may wait it out (a password being rotated).
class ConnectionRefused : public ConnectionLost {
 public:
  using ConnectionLost::ConnectionLost;
};

/// A statement stopped by something that passes: a statement or lock timeout, a cancel, a deadlock, a
/// serialization failure, the server short of resources. The same statement may well succeed later.
class StatementTransient : public RetryLater {
 public:
  using RetryLater::RetryLater;
};

/// The database as it is cannot serve the fleet: a table or column this program needs is missing, or the
/// role lacks a right (the schema, the database, the login). Retrying changes nothing.
class DatabaseUnusable : public Error {
 public:
  explicit DatabaseUnusable(const std::string& message) : Error(Errc::invalid_argument, message) {}
};

/// A statement this program gave up waiting for (a stop signal, a deadline of its own: interruption.hpp), not
/// a condition of the server's: waiting again would not help, so it is no RetryLater. The connection is
/// closed (Connection::open() is false; a transaction in progress rolls back) and, when the statement had
/// been sent, the server was asked to cancel it: whether it took effect is unknown.
class Interrupted : public Error {
 public:
  explicit Interrupted(const std::string& message) : Error(Errc::cancelled, message) {}
};

struct ConnectionOptions {
  /// libpq's fallback_application_name (the URL may set application_name): what pg_stat_activity shows.
  std::string application_name = "proofline";
  /// When statements are given up (nullptr: they wait for the server as long as it takes). Not owned: it
  /// must outlive the connection.
  Interruption* interruption = nullptr;
};

/// One statement parameter: SQL NULL, text, or binary bytes (bytea).
struct Param {
  std::optional<std::string> text;
  std::vector<std::uint8_t> bytes;
  bool binary = false;

  static Param null() { return {}; }
  static Param of(std::string value) { return {std::move(value), {}, false}; }
  static Param of(std::int64_t value) { return of(std::to_string(value)); }
  static Param bytea(std::vector<std::uint8_t> value) { return {std::string(), std::move(value), true}; }
};

class Result {
 public:
  Result() = default;
  explicit Result(pg_result* result) noexcept : result_(result) {}

  int rows() const noexcept;
  bool is_null(int row, int column) const noexcept;
  std::string text(int row, int column) const;
  std::int64_t integer(int row, int column) const;
  double real(int row, int column) const;
  bool boolean(int row, int column) const;
  /// A bytea column (text results carry it hex-encoded; this decodes it).
  std::vector<std::uint8_t> bytes(int row, int column) const;

 private:
  struct Free {
    void operator()(pg_result* result) const noexcept;
  };
  std::unique_ptr<pg_result, Free> result_;
};

/// A notification from LISTEN.
struct Notification {
  std::string channel, payload;
};

class Connection {
 public:
  /// Connects with a libpq conninfo string or URL ("" takes libpq's PG* environment variables). Throws
  /// OptionError when libpq cannot parse it, ConnectionLost with libpq's message (the password withheld)
  /// when the server cannot be reached, refuses, or does not answer within connect_timeout (10 s unless the
  /// URL or PGCONNECT_TIMEOUT says otherwise; 0: no limit), and Interrupted when the interruption gives the
  /// wait up first.
  explicit Connection(const std::string& conninfo, ConnectionOptions options = {});
  Connection(Connection&&) noexcept = default;
  Connection& operator=(Connection&&) noexcept = default;
  ~Connection();

  /// "host H port P dbname D": what logs may say about the server (never the user or password).
  std::string describe() const;
  /// False once a statement was given up (Interrupted): every statement then throws ConnectionLost.
  bool open() const noexcept { return conn_ != nullptr; }
  /// The server process serving this connection (kept after it is closed).
  int backend_pid() const noexcept { return backend_pid_; }

  /// One parameterized statement (results as text). Throws ConnectionLost when the connection is gone,
  /// Interrupted when the interruption gave it up (also before sending it, when it is due already),
  /// Error(io, "<what>: <server message>") otherwise.
  Result exec(std::string_view what, const std::string& sql, std::span<const Param> params = {});
  /// Fixed SQL without parameters, possibly several statements (BEGIN, LISTEN, a migration); no user data
  /// ever goes into it.
  void command(std::string_view what, const std::string& sql);

  /// The socket to wait on for notifications.
  int socket() const noexcept;
  /// Reads what arrived on the socket and returns the notifications received (ConnectionLost when gone).
  std::vector<Notification> take_notifications();

 private:
  struct Free {
    void operator()(pg_conn* conn) const noexcept;
  };
  [[noreturn]] void fail(std::string_view what, pg_result* result) const;
  /// Sends with `send` (a PQsendQuery*) and waits for the query's results: the last one, or the first error.
  template <class Send>
  pg_result* run(std::string_view what, Send&& send);
  /// Flushes the query and reads until a result is complete.
  void await_result(std::string_view what);
  using Clock = std::chrono::steady_clock;
  /// Drives the connection PQconnectStartParams began until it is made (or throws).
  void finish_connecting(const std::string& conninfo);
  /// poll() on the socket for `events` and on the interruption's descriptor, until the socket is ready
  /// (true) or `deadline` passes (false); throws Interrupted when the interruption is due.
  bool wait_for_socket(std::string_view what, short events,
                       Clock::time_point deadline = Clock::time_point::max());
  /// Asks the server to cancel the statement in flight (if any), closes the connection, throws Interrupted.
  [[noreturn]] void give_up(std::string_view what, const std::string& why);

  std::unique_ptr<pg_conn, Free> conn_;
  Interruption* interruption_ = nullptr;
  int backend_pid_ = 0;
};

/// Runs `body` between BEGIN and COMMIT (ROLLBACK when it throws, unless the connection is gone).
template <class Body>
decltype(auto) in_transaction(Connection& connection, Body&& body) {
  connection.command("begin a transaction", "BEGIN");
  try {
    if constexpr (std::is_void_v<decltype(body())>) {
      body();
      connection.command("commit", "COMMIT");
    } else {
      auto value = body();
      connection.command("commit", "COMMIT");
      return value;
    }
  } catch (const ConnectionLost&) {
    throw;
  } catch (const Interrupted&) {
    throw;  // the connection is closed: the server rolls the transaction back
  } catch (...) {
    try {
      connection.command("roll back", "ROLLBACK");
    } catch (...) {
    }
    throw;
  }
}

}  // namespace proofline::fleet::detail
