// A fresh database per test case on the fixture's PostgreSQL server (pg_server.sh, through the ctest fixture
// that sets PROOFLINE_FLEET_CONNINFO_FILE), dropped at the end of the case.
#pragma once

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <unistd.h>

#include <proofline/fleet/detail/pg.hpp>

namespace proofline::fleet::test {

inline std::string server_conninfo() {
  const char* file = std::getenv("PROOFLINE_FLEET_CONNINFO_FILE");
  REQUIRE_MESSAGE(file != nullptr, "PROOFLINE_FLEET_CONNINFO_FILE is not set: run through ctest (fixture)");
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  REQUIRE_MESSAGE(!line.empty(), "no conninfo in " << file);
  return line;
}

class FreshDatabase {
 public:
  FreshDatabase() : admin_(server_conninfo()) {
    static std::atomic<int> counter{0};
    name_ = std::string("t").append(std::to_string(getpid())).append("_").append(std::to_string(counter++));
    admin_.command("create a test database", "CREATE DATABASE " + name_);  // a name made here, not user data
  }
  ~FreshDatabase() {
    try {
      admin_.command("drop the test database", "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (...) {
    }
  }
  FreshDatabase(const FreshDatabase&) = delete;
  FreshDatabase& operator=(const FreshDatabase&) = delete;

  /// A conninfo for this database (libpq takes the last of repeated keywords).
  std::string conninfo() const { return server_conninfo() + " dbname=" + name_; }
  detail::Connection connect() const { return detail::Connection(conninfo()); }
  const std::string& name() const noexcept { return name_; }

 private:
  detail::Connection admin_;
  std::string name_;
};

}  // namespace proofline::fleet::test
