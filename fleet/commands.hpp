// The fleet's commands, as functions a program mounts under its own name (`proofline-fleet worker ...`, or
// `proofline worker ...`; `program` names it in usage and messages). Each takes the arguments after the
// subcommand's name and returns the exit status:
// 0 success, 1 failure (a job failed, the database could not be reached, a self-check failed), 2 unusable
// options. The database URL comes from --db-url-file FILE, else $PROOFLINE_DB_URL, else libpq's PG*
// variables (PGHOST, PGPASSFILE, PGSSLMODE ...); it is never an option's value and never logged.
// docs/fleet.md describes the fleet.
#pragma once

#include <span>
#include <string_view>

namespace proofline::fleet {

/// `worker [options]`: serves the queue until SIGTERM/SIGINT, then finishes and delivers what it holds (a
/// second signal stops it at once, putting the jobs it has not finished back in the queue).
int worker_main(std::string_view program, std::span<const std::string_view> args);
/// `submit --zkey K --wtns A.wtns ... [--out DIR] [--wait]`: queues one job per witness; with --wait writes
/// DIR/A.proof.json and DIR/A.public.json as the results arrive.
int submit_main(std::string_view program, std::span<const std::string_view> args);
/// `wait [--batch LABEL] [--ids ID|FIRST..LAST ...] [--out DIR]`: collects the results of jobs submitted
/// earlier (by the batch or the ids submit printed) as submit --wait does.
int wait_main(std::string_view program, std::span<const std::string_view> args);
/// `status [--self-check --worker NAME]`: workers, queue depth by state, proofs/s over the last minute.
int status_main(std::string_view program, std::span<const std::string_view> args);
/// `migrate`: creates or upgrades the schema (every command does this on its own as well).
int migrate_main(std::string_view program, std::span<const std::string_view> args);

/// The commands above as a program lists and mounts them.
struct Command {
  const char* name;
  const char* summary;  ///< one line for the program's usage
  int (*main)(std::string_view program, std::span<const std::string_view> args);
};
inline constexpr Command commands[] = {
    {"worker", "serve a PostgreSQL job queue: keys stay resident, jobs are claimed as pinned slots free up",
     worker_main},
    {"submit", "queue jobs (--zkey K --wtns A.wtns ...) for the fleet; --wait writes their proofs",
     submit_main},
    {"wait", "wait for jobs submitted earlier (--batch LABEL, --ids 5..9) and write their proofs", wait_main},
    {"status", "the fleet: workers and their heartbeats, jobs by state, proofs/s", status_main},
    {"migrate", "create or upgrade the fleet's database schema", migrate_main},
};

/// `PROGRAM COMMAND ARGS...` dispatched to the commands above (`program` names it in messages).
int fleet_main(std::string_view program, std::span<const std::string_view> args);

}  // namespace proofline::fleet
