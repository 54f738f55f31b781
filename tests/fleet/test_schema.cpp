#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include <proofline/fleet/detail/schema.hpp>

#include "fleet_db.hpp"

namespace proofline::fleet {

TEST_CASE("fleet/schema/migrations from two connections at once apply once and again change nothing") {
  test::FreshDatabase database;
  std::vector<detail::MigrationOutcome> outcomes(2);
  {
    std::vector<std::jthread> threads;
    for (auto& outcome : outcomes)
      threads.emplace_back([&] {
        detail::Connection db = database.connect();
        outcome = detail::migrate(db);
      });
  }
  const int latest = detail::latest_schema_version();
  // Exactly one of them found an empty database; the other waited on the lock and found it done.
  CHECK(((outcomes[0].from == 0 && outcomes[1].from == latest) ||
         (outcomes[1].from == 0 && outcomes[0].from == latest)));
  detail::Connection db = database.connect();
  const detail::MigrationOutcome again = detail::migrate(db);
  CHECK(again.from == latest);
  CHECK(again.to == latest);
  CHECK(detail::schema_version(db) == latest);
  const auto rows = db.exec("count versions", "SELECT count(*) FROM proofline.schema_version");
  CHECK(rows.integer(0, 0) == static_cast<std::int64_t>(detail::migrations().size()));
}

TEST_CASE("fleet/schema/a database newer than the program is refused with both versions named") {
  test::FreshDatabase database;
  detail::Connection db = database.connect();
  detail::migrate(db);
  const detail::Param v[] = {detail::Param::of(std::int64_t{detail::latest_schema_version() + 1})};
  db.exec("pretend a newer program migrated", "INSERT INTO proofline.schema_version VALUES ($1, 'future')",
          v);
  try {
    detail::migrate(db);
    FAIL("a newer schema was accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("newer than this program") != std::string::npos);
  }
}

TEST_CASE("fleet/schema/the owner of a schema made for it migrates without the right to create schemas") {
  test::FreshDatabase database;
  detail::Connection db = database.connect();
  // As docs/fleet.md sets up least privilege: an administrator makes the schema for its owner, a role that
  // may not create schemas in the database.
  const std::string owner = database.name() + "_owner";
  db.command("create the owner", "CREATE ROLE " + owner);
  db.command("make its schema", "CREATE SCHEMA proofline AUTHORIZATION " + owner);
  db.command("act as the owner", "SET ROLE " + owner);
  const detail::MigrationOutcome outcome = detail::migrate(db);
  CHECK(outcome.from == 0);
  CHECK(outcome.to == detail::latest_schema_version());
  db.command("act as the administrator again", "RESET ROLE");
  db.command("drop the schema and the owner",
             "DROP SCHEMA proofline CASCADE; DROP OWNED BY " + owner + "; DROP ROLE " + owner);
}

}  // namespace proofline::fleet
