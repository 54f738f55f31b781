// Statements given up by the program (a signal, a deadline) against statements the server stops: the first
// are Interrupted, close the connection and cancel what the server was doing; the second stay
// StatementTransient, retried later.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include <proofline/fleet/detail/interruption.hpp>
#include <proofline/fleet/detail/pg.hpp>
#include <proofline/fleet/detail/wakeup.hpp>
#include <proofline/util/stop_signals.hpp>

#include "fleet_db.hpp"

namespace proofline::fleet {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

/// Whether a statement of the database's sessions waits on a lock (the server still runs it).
bool lock_waiter(detail::Connection& observer) {
  return observer
             .exec("look for lock waiters",
                   "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND"
                   " datname = current_database()")
             .integer(0, 0) > 0;
}

/// A session holding an exclusive lock on a table until it is destroyed.
struct TableLock {
  detail::Connection holder;
  explicit TableLock(const test::FreshDatabase& database) : holder(database.connect()) {
    holder.command("make a table", "CREATE TABLE held (x integer)");
    holder.command("lock it", "BEGIN; LOCK TABLE held IN ACCESS EXCLUSIVE MODE");
  }
};

/// A server that accepts connections (the kernel completes the handshake) and never answers: a listening
/// socket nobody serves.
class SilentServer {
 public:
  SilentServer() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    REQUIRE(fd_ >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), length) == 0);
    REQUIRE(::listen(fd_, 8) == 0);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
  }
  SilentServer(const SilentServer&) = delete;
  SilentServer& operator=(const SilentServer&) = delete;
  ~SilentServer() { ::close(fd_); }

  std::string url(std::string_view options) const {
    return "postgresql://proofline@127.0.0.1:" + std::to_string(port_) + "/none?" + std::string(options);
  }

 private:
  int fd_;
  int port_ = 0;
};

}  // namespace

TEST_CASE("fleet/pg/connecting to a server that never answers is given up by the interruption") {
  SilentServer server;
  detail::Wakeup wakeup;
  detail::Interruption interruption(wakeup);
  const auto start = Clock::now();
  interruption.give_up_at(0, start + 300ms, "the test's deadline");
  try {
    // connect_timeout=0: libpq alone would wait for ever.
    detail::Connection db(server.url("connect_timeout=0"), {.interruption = &interruption});
    FAIL("connected to a server that never answers");
  } catch (const detail::Interrupted& e) {
    CHECK(std::string(e.what()) ==
          "connect to PostgreSQL: stopped connecting after the test's deadline (the connection is closed)");
  }
  CHECK(Clock::now() - start < 3s);
}

TEST_CASE("fleet/pg/connect_timeout bounds connecting to a server that never answers") {
  SilentServer server;
  const auto start = Clock::now();
  try {
    detail::Connection db(server.url("connect_timeout=2"));
    FAIL("connected to a server that never answers");
  } catch (const detail::ConnectionLost& e) {
    CHECK(std::string(e.what()).ends_with("did not answer within 2 s (connect_timeout)"));
  }
  const auto took = Clock::now() - start;
  CHECK(took >= 2s);
  CHECK(took < 6s);
}

TEST_CASE("fleet/pg/a statement waiting on a lock is given up at the deadline and cancelled on the server") {
  test::FreshDatabase database;
  TableLock lock(database);
  detail::Wakeup wakeup;
  detail::Interruption interruption(wakeup);
  detail::Connection db(database.conninfo(), {.interruption = &interruption});
  const auto start = Clock::now();
  interruption.give_up_at(0, start + 300ms, "the test's deadline");
  try {
    db.exec("read the locked table", "SELECT count(*) FROM held");
    FAIL("the statement returned");
  } catch (const detail::RetryLater&) {
    FAIL("a statement this program gave up is taken for one the server stopped");
  } catch (const detail::Interrupted& e) {
    CHECK(
        std::string(e.what()) ==
        "read the locked table: stopped waiting for the server after the test's deadline (the connection is "
        "closed)");
  }
  CHECK(Clock::now() - start < 3s);
  CHECK_FALSE(db.open());
  CHECK_THROWS_AS(db.exec("another", "SELECT 1"), detail::ConnectionLost);
  // The server was asked to cancel it: it does not wait on the lock any more.
  detail::Connection observer = database.connect();
  const auto until = Clock::now() + 5s;
  while (lock_waiter(observer) && Clock::now() < until) std::this_thread::sleep_for(20ms);
  CHECK_FALSE(lock_waiter(observer));
}

TEST_CASE("fleet/pg/a statement cancelled by someone else is still a transient one, retried later") {
  test::FreshDatabase database;
  TableLock lock(database);
  detail::Wakeup wakeup;
  detail::Interruption interruption(wakeup);
  interruption.give_up_at(stop_signal_count() + 1);  // due only on a signal, which none sends
  detail::Connection db(database.conninfo(),
                        {.application_name = "cancelled elsewhere", .interruption = &interruption});
  std::jthread operator_cancel([&] {
    detail::Connection op = database.connect();
    const auto until = Clock::now() + 5s;
    while (Clock::now() < until &&
           op.exec("cancel",
                   "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity"
                   " WHERE application_name = 'cancelled elsewhere' AND wait_event_type = 'Lock'")
                   .integer(0, 0) == 0)
      std::this_thread::sleep_for(20ms);
  });
  CHECK_THROWS_AS(db.exec("read the locked table", "SELECT count(*) FROM held"), detail::StatementTransient);
  CHECK(db.open());
  CHECK(db.exec("the connection goes on", "SELECT 1").integer(0, 0) == 1);
}

TEST_CASE("fleet/pg/a stop signal gives up a statement in flight and one not yet sent") {
  test::FreshDatabase database;
  detail::Wakeup wakeup;
  wakeup.route_stop_signals();
  detail::Interruption interruption(wakeup);
  const int signals = stop_signal_count();
  interruption.give_up_at(signals + 1);
  detail::Connection db(database.conninfo(), {.interruption = &interruption});
  const auto start = Clock::now();
  std::jthread signaller([] {
    std::this_thread::sleep_for(200ms);
    ::kill(::getpid(), SIGTERM);
  });
  CHECK_THROWS_AS(db.exec("sleep", "SELECT pg_sleep(30)"), detail::Interrupted);
  CHECK(Clock::now() - start < 5s);
  CHECK(stop_signal_count() == signals + 1);
  CHECK_FALSE(db.open());
  // Already due: a new connection's statement is not even sent.
  detail::Connection again(database.conninfo(), {.interruption = &interruption});
  try {
    again.exec("select", "SELECT 1");
    FAIL("the statement ran");
  } catch (const detail::Interrupted& e) {
    CHECK(std::string(e.what()) == "select: not sent after SIGTERM (the connection is closed)");
  }
  // The wake-ups the statement took from the pipe are still due for the worker's loop.
  const auto wait_start = Clock::now();
  wakeup.wait(-1, 10s);
  CHECK(Clock::now() - wait_start < 1s);
}

}  // namespace proofline::fleet
