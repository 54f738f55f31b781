#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include <proofline/fleet/detail/queue.hpp>
#include <proofline/fleet/detail/schema.hpp>

#include "fleet_db.hpp"

namespace proofline::fleet {

namespace {

using detail::Connection;
using detail::NewJob;

NewJob job_named(std::string name, int priority = 0, std::optional<double> deadline = std::nullopt) {
  NewJob job;
  job.name = std::move(name);
  job.key_path = "/keys/k.zkey";
  job.witness_path = "/witnesses/" + job.name + ".wtns";
  job.priority = priority;
  job.deadline_in_s = deadline;
  return job;
}

Connection migrated(const test::FreshDatabase& database) {
  Connection db = database.connect();
  detail::migrate(db);
  return db;
}

/// The database with the schema as an older program left it: migrations 1 to `version` applied.
Connection at_version(const test::FreshDatabase& database, int version) {
  Connection db = database.connect();
  db.command("create the schema", "CREATE SCHEMA proofline");
  db.command("create the version table",
             "CREATE TABLE proofline.schema_version (version integer PRIMARY KEY, what text NOT NULL,"
             " applied_at timestamptz NOT NULL DEFAULT now())");
  for (int v = 1; v <= version; ++v) {
    db.command("migration " + std::to_string(v),
               detail::migrations().at(static_cast<std::size_t>(v - 1)).sql);
    const detail::Param p[] = {detail::Param::of(std::int64_t{v})};
    db.exec("record it", "INSERT INTO proofline.schema_version (version, what) VALUES ($1::integer, 'v')", p);
  }
  return db;
}

detail::ProofRecord some_proof() {
  return {std::vector<std::uint8_t>(192, 7), "[\"1\",\"2\"]", true};
}

std::string job_field(Connection& db, std::int64_t id, const std::string& column) {
  const detail::Param p[] = {detail::Param::of(id)};
  // `column` is one of this file's literals, never input.
  const auto r = db.exec(
      "read " + column, "SELECT coalesce(" + column + "::text, 'NULL') FROM proofline.jobs WHERE id = $1", p);
  return r.text(0, 0);
}

void expire_leases(Connection& db) {
  db.command("expire every lease",
             "UPDATE proofline.jobs SET lease_expires = now() - interval '1 second' WHERE state = 'running'");
}

}  // namespace

TEST_CASE("fleet/queue/claims take priority first then deadline then age") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  const std::vector<NewJob> jobs{job_named("old"), job_named("urgent", 0, 600.0), job_named("high", 5),
                                 job_named("later", 0, 3600.0), job_named("young")};
  detail::submit_jobs(db, jobs);
  std::vector<std::string> order;
  for (int i = 0; i < 5; ++i) {
    const auto claimed = detail::claim_jobs(db, "w", 1, 30);
    REQUIRE(claimed.size() == 1);
    CHECK(claimed[0].attempt == 1);
    order.push_back(claimed[0].name);
  }
  CHECK(order == std::vector<std::string>{"high", "urgent", "later", "old", "young"});
  CHECK(detail::claim_jobs(db, "w", 4, 30).empty());
}

TEST_CASE("fleet/queue/keys take turns, and a key that was idle saves up none") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  const auto of_key = [](const std::string& key, const std::string& name) {
    NewJob job = job_named(name);
    job.key_path = key;
    return job;
  };
  const auto submit = [&](const std::string& key, std::vector<std::string> names) {
    std::vector<NewJob> jobs;
    for (const std::string& name : names) jobs.push_back(of_key(key, name));
    detail::submit_jobs(db, jobs);
  };
  const auto claim = [&](int count) {
    std::vector<std::string> order;
    for (int i = 0; i < count; ++i) {
      const auto claimed = detail::claim_jobs(db, "w", 1, 30);
      REQUIRE(claimed.size() == 1);
      order.push_back(claimed[0].name);
    }
    return order;
  };
  submit("/keys/a.zkey", {"a1", "a2", "a3", "a4", "a5", "a6"});
  submit("/keys/b.zkey", {"b1", "b2"});
  // The backlog of a does not hold b up: they alternate while both have jobs queued.
  CHECK(claim(8) == std::vector<std::string>{"a1", "b1", "a2", "b2", "a3", "a4", "a5", "a6"});
  // b was idle while a's backlog ran: it starts at the queue's frontier, not six turns ahead of a.
  submit("/keys/a.zkey", {"a7", "a8", "a9"});
  CHECK(claim(1) == std::vector<std::string>{"a7"});
  submit("/keys/b.zkey", {"b3", "b4"});
  CHECK(claim(4) == std::vector<std::string>{"a8", "b3", "a9", "b4"});
  // Priority still comes first.
  std::vector<NewJob> urgent{of_key("/keys/a.zkey", "a10"), of_key("/keys/b.zkey", "b5")};
  urgent[1].priority = 1;
  detail::submit_jobs(db, urgent);
  CHECK(claim(2) == std::vector<std::string>{"b5", "a10"});
}

TEST_CASE("fleet/queue/two workers claiming at once never take the same job") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  std::vector<NewJob> jobs;
  for (int i = 0; i < 200; ++i) jobs.push_back(job_named(std::string("j").append(std::to_string(i))));
  detail::submit_jobs(db, jobs);
  std::vector<std::vector<std::int64_t>> taken(2);
  {
    std::vector<std::jthread> threads;
    for (int w = 0; w < 2; ++w)
      threads.emplace_back([&, w] {
        Connection mine = database.connect();
        while (true) {
          const auto claimed = detail::claim_jobs(mine, std::string("w").append(std::to_string(w)), 7, 30);
          if (claimed.empty()) break;
          for (const auto& c : claimed) taken[static_cast<std::size_t>(w)].push_back(c.id);
        }
      });
  }
  std::set<std::int64_t> all(taken[0].begin(), taken[0].end());
  all.insert(taken[1].begin(), taken[1].end());
  CHECK(all.size() == 200);
  CHECK(taken[0].size() + taken[1].size() == 200);
}

TEST_CASE("fleet/queue/a late duplicate result from an expired lease is discarded") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  const std::vector<NewJob> jobs{job_named("a")};
  const std::int64_t id = detail::submit_jobs(db, jobs).at(0);
  const auto first = detail::claim_jobs(db, "w1", 1, 30).at(0);
  expire_leases(db);
  CHECK(detail::reap(db).requeued == 1);
  const auto second = detail::claim_jobs(db, "w2", 1, 30).at(0);
  CHECK(second.id == id);
  CHECK(second.attempt == 2);
  CHECK_FALSE(detail::complete_job(db, {id, "w1", first.attempt}, some_proof()));
  CHECK(detail::fail_job(db, {id, "w1", first.attempt}, "late", false) == detail::FailOutcome::discarded);
  CHECK(detail::complete_job(db, {id, "w2", second.attempt}, some_proof()));
  CHECK_FALSE(detail::complete_job(db, {id, "w2", second.attempt}, some_proof()));
  CHECK(db.exec("count results", "SELECT count(*) FROM proofline.results").integer(0, 0) == 1);
  CHECK(job_field(db, id, "state") == "done");
  CHECK(job_field(db, id, "worker") == "w2");
  const auto finished = detail::finished_jobs(db, std::vector<std::int64_t>{id});
  REQUIRE(finished.size() == 1);
  REQUIRE(finished[0].result);
  CHECK(finished[0].result->proof == some_proof().proof);
  CHECK(finished[0].result->verified);
}

TEST_CASE(
    "fleet/queue/expired leases are requeued until the attempts run out and then fail with the last error") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  NewJob job = job_named("flaky");
  job.witness_path.reset();
  job.witness_inline = std::vector<std::uint8_t>{1, 2, 3};
  job.max_attempts = 2;
  const std::int64_t id = detail::submit_jobs(db, std::vector<NewJob>{job}).at(0);
  const auto first = detail::claim_jobs(db, "w1", 1, 30).at(0);
  CHECK(first.witness_inline == std::vector<std::uint8_t>{1, 2, 3});
  CHECK(detail::fail_job(db, {id, "w1", 1}, "the GPU fell off the bus", false) ==
        detail::FailOutcome::requeued);
  CHECK(job_field(db, id, "state") == "queued");
  const auto second = detail::claim_jobs(db, "w2", 1, 30).at(0);
  CHECK(second.attempt == 2);
  expire_leases(db);
  const detail::ReapCounts reaped = detail::reap(db);
  CHECK(reaped.failed == 1);
  CHECK(job_field(db, id, "state") == "failed");
  CHECK(job_field(db, id, "attempts") == "2");
  const std::string error = job_field(db, id, "error");
  CHECK(error.find("lease of worker w2 on attempt 2 expired") != std::string::npos);
  CHECK(error.find("the GPU fell off the bus") != std::string::npos);
  CHECK(job_field(db, id, "witness_inline") == "NULL");
}

TEST_CASE("fleet/queue/bad input fails at once and erases the inline witness") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  NewJob job = job_named("bad");
  job.witness_inline = std::vector<std::uint8_t>{9, 9};
  const std::int64_t id = detail::submit_jobs(db, std::vector<NewJob>{job}).at(0);
  detail::claim_jobs(db, "w1", 1, 30);
  CHECK(detail::fail_job(db, {id, "w1", 1}, "x.wtns: not a wtns file", true) == detail::FailOutcome::failed);
  CHECK(job_field(db, id, "state") == "failed");
  CHECK(job_field(db, id, "witness_inline") == "NULL");
  CHECK(job_field(db, id, "finished_at") != "NULL");
  CHECK(detail::claim_jobs(db, "w1", 1, 30).empty());
}

TEST_CASE("fleet/queue/a worker restarted under its name gets its old leases put back") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  detail::submit_jobs(db, std::vector<NewJob>{job_named("a"), job_named("b")});
  CHECK(detail::claim_jobs(db, "pod-1", 2, 30).size() == 2);
  CHECK(detail::release_leases_of(db, "pod-1", "worker pod-1 restarted") == 2);
  const auto again = detail::claim_jobs(db, "pod-2", 5, 30);
  CHECK(again.size() == 2);
  for (const auto& c : again) CHECK(c.attempt == 2);
}

TEST_CASE("fleet/queue/a worker stopped at once puts its unfinished jobs back and gives their attempt back") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  const std::vector<std::int64_t> ids =
      detail::submit_jobs(db, std::vector<NewJob>{job_named("a"), job_named("b"), job_named("c")});
  REQUIRE(detail::claim_jobs(db, "stopping", 2, 300).size() == 2);
  REQUIRE(detail::claim_jobs(db, "other", 1, 300).size() == 1);
  // A job on its second attempt keeps the first one's error after the stop's.
  CHECK(detail::fail_job(db, {ids[0], "stopping", 1}, "a GPU fault", false) == detail::FailOutcome::requeued);
  REQUIRE(detail::claim_jobs(db, "stopping", 1, 300).size() == 1);
  CHECK(detail::requeue_unfinished(db, "stopping", "worker stopping stopped before finishing it") == 2);
  CHECK(job_field(db, ids[0], "state") == "queued");
  CHECK(job_field(db, ids[0], "attempts") == "1");
  CHECK(job_field(db, ids[0], "error") ==
        "worker stopping stopped before finishing it (last error: a GPU fault)");
  CHECK(job_field(db, ids[0], "lease_expires") == "NULL");
  CHECK(job_field(db, ids[1], "attempts") == "0");
  CHECK(job_field(db, ids[2], "state") == "running");  // another worker's lease is not touched
  const auto again = detail::claim_jobs(db, "next", 5, 30);
  CHECK(again.size() == 2);
  for (const auto& c : again) CHECK(c.attempt == (c.id == ids[0] ? 2 : 1));
}

TEST_CASE("fleet/queue/jobs are found by id and by batch for a client to wait for") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  std::vector<NewJob> nightly{job_named("n1"), job_named("n2")}, other{job_named("o1"), job_named("o2")};
  for (NewJob& job : nightly) job.batch = "nightly";
  const std::vector<std::int64_t> nightly_ids = detail::submit_jobs(db, nightly);
  const std::vector<std::int64_t> other_ids = detail::submit_jobs(db, other);
  const auto by_batch = detail::find_jobs(db, {}, std::string("nightly"));
  REQUIRE(by_batch.size() == 2);
  CHECK(by_batch[0].id == nightly_ids[0]);
  CHECK(by_batch[0].name == "n1");
  CHECK(by_batch[1].batch == std::optional<std::string>("nightly"));
  const auto both =
      detail::find_jobs(db, std::vector<std::int64_t>{other_ids[1], 999}, std::string("nightly"));
  REQUIRE(both.size() == 3);
  CHECK(both[2].name == "o2");
  CHECK_FALSE(both[2].batch);
  CHECK(detail::find_jobs(db, {}, std::string("nightly'; --")).empty());
  CHECK(detail::find_jobs(db, {}, std::nullopt).empty());
}

TEST_CASE("fleet/queue/queued jobs past their deadline fail") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  const std::int64_t id = detail::submit_jobs(db, std::vector<NewJob>{job_named("soon", 0, 0.05)}).at(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(detail::reap(db).failed == 1);
  CHECK(job_field(db, id, "state") == "failed");
  CHECK(job_field(db, id, "error").find("deadline") != std::string::npos);
}

TEST_CASE("fleet/queue/a heartbeat renews only the leases the worker names") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  detail::submit_jobs(db, std::vector<NewJob>{job_named("a"), job_named("b")});
  const auto claimed = detail::claim_jobs(db, "w", 2, 30);
  expire_leases(db);
  detail::WorkerBeat beat{.name = "w", .host = "h", .backend = "cpu", .pid = 1, .capacity = 2};
  beat.held = {claimed[0].id};
  detail::heartbeat(db, beat, 30);
  CHECK(detail::reap(db).requeued == 1);
  CHECK(job_field(db, claimed[0].id, "state") == "running");
  CHECK(job_field(db, claimed[1].id, "state") == "queued");
  CHECK(db.exec("read worker", "SELECT jobs_held FROM proofline.workers WHERE name = 'w'").integer(0, 0) ==
        1);
}

TEST_CASE("fleet/queue/a claim skips the keys the worker names, whatever characters their paths hold") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  const std::string odd = "/keys/a \"quoted\", back\\slash {braced}.zkey";
  std::vector<NewJob> jobs{job_named("plain"), job_named("odd")};
  jobs[1].key_path = odd;
  detail::submit_jobs(db, jobs);
  const std::vector<std::string> skip_odd{odd};
  const auto first = detail::claim_jobs(db, "w", 5, 30, skip_odd);
  REQUIRE(first.size() == 1);
  CHECK(first[0].name == "plain");
  const std::vector<std::string> skip_plain{"/keys/k.zkey"};
  const auto second = detail::claim_jobs(db, "w", 5, 30, skip_plain);
  REQUIRE(second.size() == 1);
  CHECK(second[0].key_path == odd);
}

TEST_CASE("fleet/queue/a worker's row is found by name and forgotten an hour after its last heartbeat") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  CHECK_FALSE(detail::find_worker(db, "w").has_value());
  detail::heartbeat(db, {.name = "w", .host = "node-7", .backend = "cpu", .pid = 4242, .capacity = 2}, 30);
  detail::heartbeat(db, {.name = "v", .host = "node-8", .backend = "cpu", .pid = 1, .capacity = 2}, 30);
  const auto row = detail::find_worker(db, "w");
  REQUIRE(row.has_value());
  CHECK(row->host == "node-7");
  CHECK(row->pid == 4242);
  CHECK(row->heartbeat_age_s < 5);
  db.command("silence w",
             "UPDATE proofline.workers SET heartbeat_at = now() - interval '61 minutes' WHERE "
             "name = 'w'");
  detail::reap(db);
  CHECK_FALSE(detail::find_worker(db, "w").has_value());
  CHECK(detail::find_worker(db, "v").has_value());
}

}  // namespace proofline::fleet

namespace proofline::fleet {

TEST_CASE("fleet/queue/results keep their curve and a proof of the wrong size for it is refused") {
  test::FreshDatabase database;
  Connection db = migrated(database);
  const std::vector<NewJob> jobs{job_named("bls"), job_named("bn"), job_named("short")};
  const std::vector<std::int64_t> ids = detail::submit_jobs(db, jobs);
  const auto claimed = detail::claim_jobs(db, "w", 3, 30);
  REQUIRE(claimed.size() == 3);
  const detail::ProofRecord bn{std::vector<std::uint8_t>(256, 9), "[\"7\"]", true, "bn128"};
  CHECK(detail::complete_job(db, {ids[0], "w", 1}, some_proof()));
  CHECK(detail::complete_job(db, {ids[1], "w", 1}, bn));
  // 192 bytes are BLS12-381's encoding, not BN254's: the table refuses the row (and the job stays running).
  const detail::ProofRecord wrong{std::vector<std::uint8_t>(192, 9), "[\"7\"]", true, "bn128"};
  CHECK_THROWS_AS(detail::complete_job(db, {ids[2], "w", 1}, wrong), Error);
  CHECK(job_field(db, ids[2], "state") == "running");
  const auto finished = detail::finished_jobs(db, ids);
  REQUIRE(finished.size() == 2);
  REQUIRE(finished[0].result);
  REQUIRE(finished[1].result);
  CHECK(finished[0].result->curve == "bls12381");
  CHECK(finished[1].result->curve == "bn128");
  CHECK(finished[1].result->proof == bn.proof);
  CHECK(finished[1].result->public_signals == "[\"7\"]");
}

TEST_CASE("fleet/queue/a role granted the tables of version 3 still submits after migrating to turns") {
  test::FreshDatabase database;
  Connection db = at_version(database, 3);
  // A least-privilege role as a deployment grants it (the role is the server's, so named per database).
  const std::string role = database.name() + "_prover";
  db.command("create the role", "CREATE ROLE " + role);
  db.command("grant it the schema",
             "GRANT USAGE ON SCHEMA proofline TO " + role +
                 "; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA proofline TO " + role +
                 "; GRANT USAGE ON ALL SEQUENCES IN SCHEMA proofline TO " + role);
  CHECK(detail::migrate(db).to == detail::latest_schema_version());
  db.command("act as the role", "SET ROLE " + role);
  CHECK(detail::submit_jobs(db, std::vector<NewJob>{job_named("after")}).size() == 1);
  CHECK(detail::claim_jobs(db, "w", 1, 30).size() == 1);
  db.command("act as the owner again", "RESET ROLE");
  db.command("drop the role", "DROP OWNED BY " + role + "; DROP ROLE " + role);
}

TEST_CASE("fleet/queue/a version 1 database keeps its results as bls12381 ones after migrating") {
  test::FreshDatabase database;
  // The schema as the first release left it, with one finished job.
  Connection db = at_version(database, 1);
  // Rows as the first release wrote them (its jobs had no batch).
  const std::int64_t id = db.exec("submit a version 1 job",
                                  "INSERT INTO proofline.jobs (name, key_path, witness_path)"
                                  " VALUES ('old', '/keys/k.zkey', '/witnesses/old.wtns') RETURNING id")
                              .integer(0, 0);
  const detail::Param p[] = {detail::Param::of(id), detail::Param::bytea(some_proof().proof)};
  db.exec("record a version 1 result",
          "WITH done AS (UPDATE proofline.jobs SET state = 'done', attempts = 1, worker = 'w'"
          "  WHERE id = $1::bigint RETURNING id)"
          " INSERT INTO proofline.results (job_id, proof, public_signals, verified, worker, attempt)"
          " SELECT id, $2, '[\"1\"]', true, 'w', 1 FROM done",
          p);
  const detail::MigrationOutcome outcome = detail::migrate(db);
  CHECK(outcome.from == 1);
  CHECK(outcome.to == detail::latest_schema_version());
  const auto finished = detail::finished_jobs(db, std::vector<std::int64_t>{id});
  REQUIRE(finished.size() == 1);
  REQUIRE(finished[0].result);
  CHECK(finished[0].result->curve == "bls12381");
  CHECK(finished[0].result->proof == some_proof().proof);
}

}  // namespace proofline::fleet
