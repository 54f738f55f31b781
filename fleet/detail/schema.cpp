#include <proofline/fleet/detail/schema.hpp>

namespace proofline::fleet::detail {

namespace {

// Any constant shared by every proofline program: the key of the advisory lock migrations hold.
constexpr const char* migration_lock_key = "7243095566238781001";

const char* const schema_v1 = R"sql(
CREATE TABLE proofline.jobs (
  id             bigserial PRIMARY KEY,
  name           text NOT NULL,
  key_path       text NOT NULL,
  witness_path   text,
  witness_inline bytea,
  priority       integer NOT NULL DEFAULT 0,
  deadline       timestamptz,
  state          text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  submitted_at   timestamptz NOT NULL DEFAULT now(),
  claimed_at     timestamptz,
  finished_at    timestamptz,
  lease_expires  timestamptz,
  attempts       integer NOT NULL DEFAULT 0,
  max_attempts   integer NOT NULL DEFAULT 3 CHECK (max_attempts > 0),
  worker         text,
  error          text,
  CHECK (witness_path IS NOT NULL OR witness_inline IS NOT NULL OR state IN ('done', 'failed'))
);
CREATE INDEX jobs_claim_order ON proofline.jobs (priority DESC, deadline ASC NULLS LAST, submitted_at, id)
  WHERE state = 'queued';
CREATE INDEX jobs_leases ON proofline.jobs (lease_expires) WHERE state = 'running';
CREATE INDEX jobs_finished ON proofline.jobs (finished_at) WHERE state IN ('done', 'failed');

CREATE TABLE proofline.results (
  job_id         bigint PRIMARY KEY REFERENCES proofline.jobs (id) ON DELETE CASCADE,
  proof          bytea NOT NULL CHECK (octet_length(proof) = 192),
  public_signals jsonb NOT NULL,
  verified       boolean NOT NULL,
  worker         text NOT NULL,
  attempt        integer NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE proofline.workers (
  name         text PRIMARY KEY,
  host         text NOT NULL,
  pid          integer NOT NULL,
  backend      text NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  jobs_held    integer NOT NULL DEFAULT 0,
  capacity     integer NOT NULL DEFAULT 0,
  proofs       bigint NOT NULL DEFAULT 0,
  draining     boolean NOT NULL DEFAULT false
);

-- New work wakes the workers: one notification per inserting statement (a bulk submit is one wake-up).
CREATE FUNCTION proofline.notify_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('proofline_jobs', '');
  RETURN NULL;
END $$;
CREATE TRIGGER jobs_inserted AFTER INSERT ON proofline.jobs
  FOR EACH STATEMENT EXECUTE FUNCTION proofline.notify_jobs();

-- A job that ends wakes the clients waiting for it; a job put back in the queue wakes the workers.
CREATE FUNCTION proofline.notify_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state IN ('done', 'failed') THEN
    PERFORM pg_notify('proofline_done', NEW.id::text);
  ELSIF NEW.state = 'queued' THEN
    PERFORM pg_notify('proofline_jobs', '');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER jobs_state AFTER UPDATE OF state ON proofline.jobs
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION proofline.notify_state();
)sql";

// Results of BN254 (bn128) keys: the curve beside each proof, whose encoding is the curve's (BLS12-381's 192
// bytes compressed, BN254's 256 bytes of EIP-196/197 points). Rows written before are BLS12-381's.
const char* const schema_v2 = R"sql(
ALTER TABLE proofline.results ADD COLUMN curve text NOT NULL DEFAULT 'bls12381'
  CHECK (curve IN ('bls12381', 'bn128'));
ALTER TABLE proofline.results DROP CONSTRAINT results_proof_check;
ALTER TABLE proofline.results ADD CONSTRAINT results_proof_size CHECK (
  (curve = 'bls12381' AND octet_length(proof) = 192) OR (curve = 'bn128' AND octet_length(proof) = 256));
)sql";

// A label per submission (`submit --batch`, or one submit makes up), so that a client can wait for the
// submission's jobs again later (`wait --batch`) without having kept their ids.
const char* const schema_v3 = R"sql(
ALTER TABLE proofline.jobs ADD COLUMN batch text;
CREATE INDEX jobs_batch ON proofline.jobs (batch) WHERE batch IS NOT NULL;
)sql";

// Keys take turns: a job's turn is its key's next one, or the queue's frontier (the earliest turn queued)
// when that is later, so that one key's backlog does not hold up another key's jobs and an idle key saves up
// no turns. Claims order by it after priority and deadline; jobs queued before keep turn 0 and go first.
const char* const schema_v4 = R"sql(
ALTER TABLE proofline.jobs ADD COLUMN turn bigint NOT NULL DEFAULT 0;
CREATE TABLE proofline.key_turns (
  key_path  text PRIMARY KEY,
  next_turn bigint NOT NULL
);
DROP INDEX proofline.jobs_claim_order;
CREATE INDEX jobs_claim_order ON proofline.jobs (priority DESC, deadline ASC NULLS LAST, turn, submitted_at, id)
  WHERE state = 'queued';
CREATE INDEX jobs_queued_turn ON proofline.jobs (turn) WHERE state = 'queued';
-- Whoever may submit jobs (INSERT on jobs) may take its key's turns: a deployment's grants, made on the
-- tables there were, keep working after this migration.
DO $$
DECLARE
  who text;
BEGIN
  FOR who IN
    SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.rolname) END
    FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a LEFT JOIN pg_roles r ON r.oid = a.grantee
    WHERE c.oid = 'proofline.jobs'::regclass AND a.privilege_type = 'INSERT' AND a.grantee <> c.relowner
  LOOP
    EXECUTE 'GRANT SELECT, INSERT, UPDATE ON proofline.key_turns TO ' || who;
  END LOOP;
END $$;
)sql";

}  // namespace

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> all{
      {1, "jobs, results, workers and their notifications", schema_v1},
      {2, "results of either curve (bls12381, bn128)", schema_v2},
      {3, "jobs labelled by batch", schema_v3},
      {4, "keys take turns in the queue", schema_v4},
  };
  return all;
}

int latest_schema_version() {
  return migrations().back().version;
}

int schema_version(Connection& connection) {
  const Result exists = connection.exec("look for the schema version table",
                                        "SELECT to_regclass('proofline.schema_version') IS NOT NULL");
  if (exists.text(0, 0) != "t") return 0;
  const Result version = connection.exec("read the schema version",
                                         "SELECT coalesce(max(version), 0) FROM proofline.schema_version");
  return static_cast<int>(version.integer(0, 0));
}

MigrationOutcome migrate(Connection& connection) {
  // A current schema needs no DDL, so a role with no right to create anything (a worker, a submitter) may
  // connect once an owner has migrated.
  const int found = schema_version(connection);
  if (found == latest_schema_version()) return MigrationOutcome{found, found};
  return in_transaction(connection, [&] {
    // Held until commit: a second program migrating at the same time waits here, then finds nothing to do.
    const Param key[] = {Param::of(std::string(migration_lock_key))};
    connection.exec("take the migration lock", "SELECT pg_advisory_xact_lock($1::bigint)", key);
    // Only when missing: CREATE SCHEMA IF NOT EXISTS still needs the right to create schemas in the
    // database, which the owner of a schema made for it (CREATE SCHEMA ... AUTHORIZATION) may lack.
    if (connection.exec("look for the proofline schema", "SELECT to_regnamespace('proofline') IS NULL")
            .boolean(0, 0))
      connection.command("create the proofline schema", "CREATE SCHEMA proofline");
    connection.command("create the schema version table",
                       "CREATE TABLE IF NOT EXISTS proofline.schema_version ("
                       " version integer PRIMARY KEY, what text NOT NULL,"
                       " applied_at timestamptz NOT NULL DEFAULT now())");
    MigrationOutcome outcome;
    outcome.from = schema_version(connection);
    if (outcome.from > latest_schema_version())
      throw Error(Errc::invalid_argument, "the database's proofline schema is at version " +
                                              std::to_string(outcome.from) + ", newer than this program's " +
                                              std::to_string(latest_schema_version()) +
                                              ": upgrade the program");
    for (const Migration& m : migrations()) {
      if (m.version <= outcome.from) continue;
      connection.command("migration " + std::to_string(m.version) + " (" + m.what + ")", m.sql);
      const Param row[] = {Param::of(std::int64_t{m.version}), Param::of(m.what)};
      connection.exec("record migration " + std::to_string(m.version),
                      "INSERT INTO proofline.schema_version (version, what) VALUES ($1, $2)", row);
    }
    outcome.to = latest_schema_version();
    return outcome;
  });
}

}  // namespace proofline::fleet::detail
