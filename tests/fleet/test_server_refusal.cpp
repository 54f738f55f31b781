// A server's refusal of a connection is read by its SQLSTATE, so that a worker stops on settings that will
// never work (a password, a role, a database) whatever language the server speaks, and retries everything
// else.
#include <chrono>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include <proofline/fleet/detail/pg.hpp>
#include <proofline/fleet/detail/server_refusal.hpp>

#include "fleet/fleet_db.hpp"

namespace proofline::fleet {

namespace {

using Codes = std::vector<std::string>;

/// The fixture's server speaks `locale` to new connections until this is gone (the fleet cases run one at a
/// time: they hold one resource lock).
class ServerLanguage {
 public:
  explicit ServerLanguage(const std::string& locale) : admin_(test::server_conninfo()) {
    admin_.command("set the server's language", "ALTER SYSTEM SET lc_messages = '" + locale + "'");
    admin_.command("reload the configuration", "SELECT pg_reload_conf()");
    // The reload reaches the postmaster, and so new connections, a moment later.
    for (int i = 0; i < 100; ++i) {
      if (detail::Connection(test::server_conninfo())
              .exec("read the language", "SHOW lc_messages")
              .text(0, 0) == locale)
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FAIL("the server does not speak " << locale << " after a reload");
  }
  ~ServerLanguage() {
    try {
      admin_.command("reset the server's language", "ALTER SYSTEM RESET lc_messages");
      admin_.command("reload the configuration", "SELECT pg_reload_conf()");
    } catch (...) {
    }
  }

 private:
  detail::Connection admin_;
};

}  // namespace

TEST_CASE("fleet/refusal/verbose connection errors give their SQLSTATEs and read as libpq's default") {
  const auto german = detail::read_server_refusal(
      "connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  28P01: Passwort-Authentifizierung "
      "für "
      "Benutzer »prover« fehlgeschlagen\nLOCATION:  auth_failed, auth.c:326\n");
  CHECK(german.sqlstates == Codes{"28P01"});
  CHECK(german.message ==
        "connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  Passwort-Authentifizierung für "
        "Benutzer "
        "»prover« fehlgeschlagen\n");
  CHECK(detail::refuses_for_good(german.sqlstates));

  // Two hosts: the first starting up (57P03, retry), the second without the database (3D000, for good).
  const auto two = detail::read_server_refusal(
      "connection to server at \"a\" (10.0.0.1), port 5432 failed: FATAL:  57P03: the database system is "
      "starting up\nLOCATION:  ProcessStartupPacket, postmaster.c:2352\nconnection to server at \"b\" "
      "(10.0.0.2), "
      "port 5432 failed: FATAL:  3D000: database \"proofs\" does not exist\nLOCATION:  InitPostgres, "
      "postinit.c:948\n");
  CHECK(two.sqlstates == Codes{"57P03", "3D000"});
  CHECK(two.message.find("LOCATION") == std::string::npos);
  CHECK(two.message.find("FATAL:  database \"proofs\" does not exist") != std::string::npos);
  CHECK(detail::refuses_for_good(two.sqlstates));
  CHECK_FALSE(detail::refuses_for_good({"57P03"}));
  CHECK_FALSE(detail::refuses_for_good({"53300"}));  // too many connections: it passes
  CHECK(detail::refuses_for_good({"28000"}));        // no such role, or no pg_hba.conf entry

  // libpq's own errors carry no code; a colon and two spaces before text that is no code stay as they are.
  const std::string unreachable =
      "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server running on "
      "that "
      "host and accepting TCP/IP connections?\n";
  const auto none = detail::read_server_refusal(unreachable);
  CHECK(none.sqlstates.empty());
  CHECK(none.message == unreachable);
  CHECK(detail::read_server_refusal("FATAL:  28P0: x").message == "FATAL:  28P0: x");
  CHECK(detail::read_server_refusal("FATAL:  28p01: x").sqlstates.empty());
  CHECK(detail::read_server_refusal("FATAL:  28P01").sqlstates.empty());
  CHECK(detail::read_server_refusal("").message.empty());
}

TEST_CASE(
    "fleet/refusal/a server speaking German refuses a database and a role for good and port 1 for now") {
  const ServerLanguage german("de_DE.UTF-8");
  const std::string server = test::server_conninfo();
  for (const auto& [settings, words] : {std::pair{std::string(" dbname=no_such_database"), "existiert nicht"},
                                        std::pair{std::string(" user=no_such_role"), "Rolle"}}) {
    INFO(settings);
    try {
      detail::Connection db(server + settings);
      FAIL("connected");
    } catch (const detail::ConnectionRefused& e) {
      const std::string message = e.what();
      INFO(message);
      CHECK(message.find(words) != std::string::npos);  // the server's own words, in German
      CHECK(message.find("LOCATION") == std::string::npos);
      CHECK(message.find("3D000") == std::string::npos);
      CHECK(message.find("28000") == std::string::npos);
    }
  }
  // Nothing listening: retry later, however the server would have said it.
  try {
    detail::Connection db("host=127.0.0.1 port=1 connect_timeout=2");
    FAIL("connected to port 1");
  } catch (const detail::ConnectionRefused& e) {
    FAIL("port 1 refused for good: " << e.what());
  } catch (const detail::ConnectionLost&) {
  }
  // Connected, statements' errors keep libpq's default verbosity.
  detail::Connection db(server);
  try {
    db.command("select from a missing table", "SELECT * FROM no_such_table");
    FAIL("no error");
  } catch (const Error& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.find("LOCATION") == std::string::npos);
    CHECK(message.find("42P01") == std::string::npos);
  }
}

}  // namespace proofline::fleet
